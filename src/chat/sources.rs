//! What the answer cites: the retrieved sections, numbered [1], [2]… in the order retrieval
//! ranked them, each once (the parts of one long section share one number), and only if
//! their URL belongs to this site (docs/DESIGN.md §3.4). What the LLM reads of them is
//! `context.rs`'s; which of them the reader is shown is [`shown_sources`].

use serde::{Deserialize, Serialize};

/// An answer that cites nothing shows this many sources, the best first (docs/DESIGN.md §2.4).
pub const MAX_SOURCES: usize = 5;

/// A retrieved chunk as the retrieval API returns it (docs/DESIGN.md §2.3; fields
/// the chat does not use are ignored).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct RetrievedChunk {
    pub chunk_id: String,
    pub url: String,
    #[serde(default)]
    pub heading_path: Vec<String>,
    #[serde(default)]
    pub chapter_title: String,
    #[serde(default)]
    pub section_title: String,
    #[serde(default)]
    pub module: String,
    /// None when its text could not be loaded.
    #[serde(default)]
    pub text: Option<String>,
    pub score: f32,
    /// Short sections merged into the chunk, each with its own link (the bundle's
    /// `SectionPart`s, as the retrieval API passes the chunk's metadata).
    #[serde(default)]
    pub parts: Vec<RetrievedPart>,
}

/// A short section merged into a retrieved chunk: its own link and heading, and where its
/// text lies in the chunk's text (byte offsets).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct RetrievedPart {
    pub url: String,
    #[serde(default)]
    pub heading_path: Vec<String>,
    pub start: usize,
    pub end: usize,
}

/// A numbered source of an answer: `[n]` in the answer's text cites it. Only this site's URLs
/// are sources (`SiteOrigins`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SourceReference {
    pub n: usize,
    /// What a reader sees as the source's name: "Page › Section", or the page's title alone
    /// when the section is the page (absent in answers stored before it existed).
    #[serde(default)]
    pub title: String,
    pub chapter_title: String,
    pub section_title: String,
    pub module: String,
    pub url: String,
    pub score: f32,
    pub heading_path: Vec<String>,
    /// Its text could not be loaded: listed, with its link, but not read (absent: read).
    #[serde(default, skip_serializing_if = "is_false")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<bool>", optional))]
    pub unread: bool,
    /// The sentences of the section the answer drew on (`passage`), in text order, as they
    /// stand in its clean text: what following the citation highlights on the page. Absent
    /// when none stands out (the citation lands on the heading).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<String>>", optional))]
    pub passage: Vec<String>,
    /// The address following the citation opens: `url` with its passage named in it
    /// (`passage_link`), so that a copied or shared link highlights it too. Absent when there
    /// is no passage (then `url`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<String>", optional))]
    pub link: String,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// A numbered source with the text the LLM (or the excerpt picker) reads (empty when unread).
#[derive(Clone, Debug, PartialEq)]
pub struct NumberedSource {
    pub reference: SourceReference,
    pub text: String,
}

/// Which URLs belong to the site: site-relative paths, and absolute URLs of these origins.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SiteOrigins(Vec<String>);

impl SiteOrigins {
    /// `origins` like "https://docs.example.org" (any path or trailing slash is ignored).
    pub fn new<S: AsRef<str>>(origins: &[S]) -> SiteOrigins {
        SiteOrigins(origins.iter().filter_map(|o| origin_of(o.as_ref())).collect())
    }

    pub fn allows(&self, url: &str) -> bool {
        let url = url.trim();
        if url.starts_with('/') && !url.starts_with("//") && !url.starts_with("/\\") {
            return true;
        }
        origin_of(url).is_some_and(|origin| self.0.contains(&origin))
    }
}

/// `scheme://host[:port]`, lower-cased, for http(s) URLs only.
fn origin_of(url: &str) -> Option<String> {
    let lower = url.trim().to_ascii_lowercase();
    let (scheme, rest) = lower.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next()?;
    (!authority.is_empty() && !authority.contains('@')).then(|| format!("{scheme}://{authority}"))
}

/// Numbers the chunks that may be cited: this site's URLs, one number per URL (a section's
/// parts are joined in retrieval order), at most [`MAX_SOURCES`]. A chunk whose text could
/// not be loaded (`text` null) is still a source, marked `unread`: the reader gets its link;
/// an empty text is nothing to cite.
pub fn number_sources(chunks: &[RetrievedChunk], site: &SiteOrigins) -> Vec<NumberedSource> {
    let mut sources: Vec<NumberedSource> = Vec::new();
    for chunk in chunks {
        let text = chunk.text.as_deref().map(str::trim);
        if text == Some("") || !site.allows(&chunk.url) {
            continue;
        }
        let text = text.unwrap_or_default();
        if let Some(same) = sources.iter_mut().find(|s| s.reference.url == chunk.url) {
            if !text.is_empty() {
                if !same.text.is_empty() {
                    same.text.push_str("\n\n");
                }
                same.text.push_str(text);
                same.reference.unread = false;
            }
            continue;
        }
        if sources.len() == MAX_SOURCES {
            continue;
        }
        sources.push(NumberedSource {
            reference: SourceReference {
                n: sources.len() + 1,
                title: source_title(&chunk.chapter_title, &chunk.section_title),
                chapter_title: chunk.chapter_title.clone(),
                section_title: chunk.section_title.clone(),
                module: chunk.module.clone(),
                url: chunk.url.clone(),
                score: chunk.score.clamp(0.0, 1.0),
                heading_path: chunk.heading_path.clone(),
                unread: text.is_empty(),
                passage: Vec::new(),
                link: String::new(),
            },
            text: text.to_string(),
        });
    }
    sources
}

/// The sources an answer shows: those its `text` cites (keeping their numbers), or the first
/// [`MAX_SOURCES`] when it cites none.
pub fn shown_sources(text: &str, sources: &[SourceReference]) -> Vec<SourceReference> {
    let cited: Vec<SourceReference> =
        sources.iter().filter(|s| text.contains(&format!("[{}]", s.n))).cloned().collect();
    if cited.is_empty() {
        sources.iter().take(MAX_SOURCES).cloned().collect()
    } else {
        cited
    }
}

/// `chapter › section`, or `chapter` when the section is the page itself.
pub(super) fn source_title(chapter: &str, section: &str) -> String {
    if section.is_empty() || section == chapter {
        chapter.to_string()
    } else {
        crate::heading::join_heading_path(&[chapter.to_string(), section.to_string()])
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn chunk(id: &str, url: &str, text: &str, score: f32) -> RetrievedChunk {
        RetrievedChunk {
            chunk_id: id.into(),
            url: url.into(),
            heading_path: vec!["Chapter".into(), format!("Section {id}")],
            chapter_title: "Chapter".into(),
            section_title: format!("Section {id}"),
            module: "Module".into(),
            text: Some(text.into()),
            score,
            parts: Vec::new(),
        }
    }

    #[test]
    fn site_urls_only() {
        let site = SiteOrigins::new(&["https://docs.example.org/"]);
        assert!(site.allows("/docs/intro#setup"));
        assert!(site.allows("https://DOCS.example.org/docs/x"));
        for foreign in [
            "https://evil.example/docs",
            "//evil.example/x",
            "javascript:alert(1)",
            "data:text/html,x",
            "https://docs.example.org@evil.example/",
            "docs/relative",
        ] {
            assert!(!site.allows(foreign), "{foreign}");
        }
    }

    #[test]
    fn one_number_per_section_at_most_five_foreign_and_empty_dropped() {
        let mut chunks = vec![
            chunk("a", "/a#x", "first part", 0.9),
            chunk("b", "https://evil.example/b", "foreign", 0.8),
            chunk("a2", "/a#x", "second part", 0.7),
            chunk("c", "/c", "  ", 0.6),
        ];
        // An empty text is nothing to cite (a missing one is: see below).
        for i in 0..7 {
            chunks.push(chunk(&format!("d{i}"), &format!("/d{i}"), "text", 0.5));
        }
        let sources = number_sources(&chunks, &SiteOrigins::default());
        assert_eq!(sources.len(), MAX_SOURCES);
        assert_eq!(sources[0].text, "first part\n\nsecond part");
        assert_eq!(sources[0].reference.n, 1);
        assert_eq!(sources[1].reference.url, "/d0");
        assert_eq!(sources[4].reference.n, 5);
    }

    #[test]
    fn a_section_whose_text_failed_is_a_source_marked_unread() {
        let mut failed = chunk("a", "/a#x", "", 0.9);
        failed.text = None;
        let mut second_part = chunk("a2", "/a#x", "second part", 0.7);
        let sources = number_sources(&[failed.clone(), chunk("b", "/b", "text", 0.8)], &SiteOrigins::default());
        assert_eq!(
            sources.iter().map(|s| (s.reference.n, s.reference.unread)).collect::<Vec<_>>(),
            [(1, true), (2, false)]
        );
        assert_eq!(sources[0].text, "");
        // Another part of the same section arrived: the section is read.
        second_part.text = Some("second part".into());
        let sources = number_sources(&[failed, second_part], &SiteOrigins::default());
        assert_eq!((sources.len(), sources[0].reference.unread, sources[0].text.as_str()), (1, false, "second part"));
    }

    #[test]
    fn a_source_is_named_by_its_page_and_section_or_its_page_alone() {
        let mut page = chunk("p", "/p", "text", 0.5);
        page.section_title = page.chapter_title.clone();
        let sources = number_sources(&[chunk("a", "/a#x", "text", 0.9), page], &SiteOrigins::default());
        assert_eq!(sources[0].reference.title, "Chapter › Section a");
        assert_eq!(sources[1].reference.title, "Chapter");
    }
}
