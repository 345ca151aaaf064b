//! llms.txt (https://llmstxt.org): the site's title as H1, its tagline as the one blockquote,
//! a short note, then one H2 section per sidebar category holding a list of
//! `- [page title](url): first sentence` links — the Markdown twins' URLs when they are
//! written (the proposal's advice: agents get clean text), else the pages'.

use super::page_text::{squash, summary_line};
use super::sections::{LinkSection, LlmsVersions};
use super::twin::{absolute_url, twin_url};
use super::{Header, SitePage};

/// What the links point at, and what the note tells an agent.
pub struct IndexLinks<'a> {
    pub twins: bool,
    /// llms-full.txt's URL, when it is written.
    pub full_text_url: Option<&'a str>,
    pub versions: LlmsVersions,
    /// The last version's name when the docs are versioned (said in the note).
    pub last_version: Option<&'a str>,
}

pub fn llms_txt(header: &Header, sections: &[LinkSection<'_>], links: &IndexLinks<'_>) -> String {
    let mut out = header.render();
    let mut notes: Vec<String> = Vec::new();
    if let (Some(version), LlmsVersions::Last) = (links.last_version, links.versions) {
        notes.push(format!("These are the docs of version {version}, the one the site serves by default."));
    }
    match (links.twins, links.full_text_url) {
        (true, Some(full)) => notes.push(format!(
            "Each link is a page as Markdown; [llms-full.txt]({full}) holds the text of every page listed here."
        )),
        (true, None) => notes.push("Each link is a page as Markdown.".to_string()),
        (false, Some(full)) => notes.push(format!("[llms-full.txt]({full}) holds the text of every page listed here.")),
        (false, None) => {}
    }
    for note in notes {
        out.push_str(&note);
        out.push_str("\n\n");
    }
    for section in sections {
        out.push_str(&format!("## {}\n\n", squash(&section.title)));
        for page in &section.pages {
            out.push_str(&link_line(header.site_url.as_deref(), page, links.twins));
            out.push('\n');
        }
        out.push('\n');
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push('\n');
    out
}

/// `- [title](url): first sentence`.
fn link_line(site_url: Option<&str>, page: &SitePage<'_>, twins: bool) -> String {
    let path = if twins { twin_url(&page.page.url) } else { page.page.url.clone() };
    let url = link_destination(&absolute_url(site_url, &path));
    let title = link_text(&page.page.title);
    match summary_line(page.page, page.chunks) {
        Some(summary) => format!("- [{title}]({url}): {summary}"),
        None => format!("- [{title}]({url})"),
    }
}

/// A title as a link's text: on one line, brackets and backslashes escaped.
pub fn link_text(text: &str) -> String {
    squash(text).replace('\\', "\\\\").replace('[', "\\[").replace(']', "\\]")
}

/// A URL as a link's destination: spaces and parentheses percent-encoded, so the Markdown
/// link cannot end early.
pub fn link_destination(url: &str) -> String {
    url.replace(' ', "%20").replace('(', "%28").replace(')', "%29").replace('<', "%3C").replace('>', "%3E")
}
