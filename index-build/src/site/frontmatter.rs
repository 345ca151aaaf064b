//! The YAML front matter fields that decide a doc's URL, title and fate.

use yaml_rust2::{Yaml, YamlLoader};

/// The front matter fields Lectern reads; everything else is ignored.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontMatter {
    pub id: Option<String>,
    pub slug: Option<String>,
    pub title: Option<String>,
    pub sidebar_label: Option<String>,
    pub sidebar_position: Option<f64>,
    pub description: Option<String>,
    pub keywords: Vec<String>,
    /// Drafts are not published in production builds, so they are not indexed.
    pub draft: bool,
    /// Unlisted docs are still published pages, so they are indexed.
    pub unlisted: bool,
    /// `parse_number_prefixes: false` keeps `01-` prefixes in ids and URLs.
    pub parse_number_prefixes: bool,
}

impl Default for FrontMatter {
    fn default() -> Self {
        Self {
            id: None,
            slug: None,
            title: None,
            sidebar_label: None,
            sidebar_position: None,
            description: None,
            keywords: Vec::new(),
            draft: false,
            unlisted: false,
            parse_number_prefixes: true,
        }
    }
}

/// Front matter that Docusaurus would refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontMatterError {
    /// 1-based line inside the YAML block, when the parser knows it.
    pub line: Option<usize>,
    pub message: String,
}

/// Parses the YAML between the `---` fences.
pub fn parse_front_matter(yaml: &str) -> Result<FrontMatter, FrontMatterError> {
    let documents = YamlLoader::load_from_str(yaml).map_err(|error| FrontMatterError {
        line: Some(error.marker().line()),
        message: format!("invalid YAML front matter: {}", error.info()),
    })?;
    let root = match documents.into_iter().next() {
        None | Some(Yaml::Null) => return Ok(FrontMatter::default()),
        Some(Yaml::Hash(hash)) => hash,
        Some(_) => {
            return Err(FrontMatterError { line: None, message: "front matter is not a key/value map".to_string() })
        }
    };
    let field = |name: &str| root.get(&Yaml::String(name.to_string()));
    let text = |name: &str| field(name).and_then(scalar_text);

    Ok(FrontMatter {
        id: text("id"),
        slug: text("slug"),
        title: text("title"),
        sidebar_label: text("sidebar_label"),
        sidebar_position: field("sidebar_position").and_then(scalar_number),
        description: text("description"),
        keywords: field("keywords").map(string_list).unwrap_or_default(),
        draft: field("draft").and_then(scalar_bool).unwrap_or(false),
        unlisted: field("unlisted").and_then(scalar_bool).unwrap_or(false),
        parse_number_prefixes: field("parse_number_prefixes").and_then(scalar_bool).unwrap_or(true),
    })
}

/// A scalar as text, the way js-yaml + Joi end up treating it.
fn scalar_text(value: &Yaml) -> Option<String> {
    match value {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn scalar_number(value: &Yaml) -> Option<f64> {
    match value {
        Yaml::Integer(i) => Some(*i as f64),
        Yaml::Real(s) | Yaml::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn scalar_bool(value: &Yaml) -> Option<bool> {
    match value {
        Yaml::Boolean(b) => Some(*b),
        Yaml::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        Yaml::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    }
}

fn string_list(value: &Yaml) -> Vec<String> {
    match value {
        Yaml::Array(items) => items.iter().filter_map(scalar_text).collect(),
        other => scalar_text(other)
            .map(|s| s.split(',').map(str::trim).filter(|k| !k.is_empty()).map(str::to_string).collect())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fields_that_matter() {
        let fm = parse_front_matter(
            "id: ch03\ntitle: Chapter 3 - Math\nslug: /math\nsidebar_label: Ch 3\nsidebar_position: 3\n\
             description: Linear algebra\nkeywords: [algebra, kinematics]\nunlisted: true\ndifficulty: hard",
        )
        .unwrap();
        assert_eq!(fm.id.as_deref(), Some("ch03"));
        assert_eq!(fm.title.as_deref(), Some("Chapter 3 - Math"));
        assert_eq!(fm.slug.as_deref(), Some("/math"));
        assert_eq!(fm.sidebar_label.as_deref(), Some("Ch 3"));
        assert_eq!(fm.sidebar_position, Some(3.0));
        assert_eq!(fm.description.as_deref(), Some("Linear algebra"));
        assert_eq!(fm.keywords, vec!["algebra", "kinematics"]);
        assert!(fm.unlisted);
        assert!(!fm.draft);
        assert!(fm.parse_number_prefixes);
    }

    #[test]
    fn draft_and_number_prefix_switches() {
        let fm = parse_front_matter("draft: true\nparse_number_prefixes: false").unwrap();
        assert!(fm.draft);
        assert!(!fm.parse_number_prefixes);
    }

    #[test]
    fn numbers_become_text_where_text_is_expected() {
        let fm = parse_front_matter("id: 2024\ntitle: 3.5").unwrap();
        assert_eq!(fm.id.as_deref(), Some("2024"));
        assert_eq!(fm.title.as_deref(), Some("3.5"));
    }

    #[test]
    fn empty_front_matter_is_fine() {
        assert_eq!(parse_front_matter("").unwrap(), FrontMatter::default());
    }

    #[test]
    fn broken_yaml_reports_a_line() {
        let error = parse_front_matter("title: ok\nkeywords: [unclosed\nid: x").unwrap_err();
        assert!(error.line.is_some());
        assert!(error.message.contains("YAML"));
        assert!(parse_front_matter("just a string").is_err());
    }
}
