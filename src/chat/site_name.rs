//! How the chat's texts and the prompt name the site it serves: "the Jest docs" from the
//! site's title (the `siteTitle` option, which the Docusaurus plugin fills from the site's
//! config), "this site" without one. Lectern serves any docs site, so no text assumes what
//! kind of site it is.

/// The site as the texts call it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SiteName {
    /// "the Jest docs", or `None` for "this site".
    docs: Option<String>,
}

impl SiteName {
    /// From the site's title, if it has one ("Jest" gives "the Jest docs"; a title that says
    /// it is docs already, like "Jest Documentation", is kept as it is).
    pub fn new(title: Option<&str>) -> SiteName {
        let docs = title.map(str::trim).filter(|t| !t.is_empty()).map(|title| {
            let last = title.rsplit(' ').next().unwrap_or_default().to_lowercase();
            if ["docs", "documentation"].contains(&last.as_str()) {
                format!("the {title}")
            } else {
                format!("the {title} docs")
            }
        });
        SiteName { docs }
    }

    /// "the Jest docs" or "this site".
    pub fn noun(&self) -> &str {
        self.docs.as_deref().unwrap_or("this site")
    }

    /// "in the Jest docs" or "on this site".
    pub fn location(&self) -> String {
        match &self.docs {
            Some(docs) => format!("in {docs}"),
            None => "on this site".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_names_the_site_and_without_one_it_is_this_site() {
        let jest = SiteName::new(Some("Jest"));
        assert_eq!((jest.noun(), jest.location().as_str()), ("the Jest docs", "in the Jest docs"));
        assert_eq!(SiteName::new(Some("React Documentation")).noun(), "the React Documentation");
        assert_eq!(SiteName::new(Some("Jest docs")).noun(), "the Jest docs");
        for none in [SiteName::new(None), SiteName::new(Some("  ")), SiteName::default()] {
            assert_eq!((none.noun(), none.location().as_str()), ("this site", "on this site"));
        }
    }
}
