//! A page's text as Markdown, put back together from its chunks (the text the index holds):
//! the title as H1, each section's heading at its depth in the heading path, the sections'
//! text as indexed (code fenced with its language). A long section's later parts repeat the
//! end of the part before (`site::split`); the repetition is dropped so the text reads once.
//! Headings of short sections merged into their parent stay as the plain line the chunk holds.

use crate::site::sentences::split_sentences;
use crate::site::{Chunk, Page};

/// Markdown headings stop at level 6.
const MAX_HEADING_LEVEL: usize = 6;
/// The longest summary line llms.txt gives a page, in characters.
pub const SUMMARY_MAX_CHARS: usize = 200;

/// The page as Markdown. `source`, when given, is written under the title as `Source: <url>`
/// (llms-full.txt, where many pages share one file).
pub fn page_markdown(page: &Page, chunks: &[Chunk], source: Option<&str>) -> String {
    let mut blocks: Vec<String> = vec![format!("# {}", one_line(&page.title))];
    if let Some(source) = source {
        blocks.push(format!("Source: {source}"));
    }
    let mut previous: Option<&Chunk> = None;
    let mut path: &[String] = std::slice::from_ref(&page.title);
    for chunk in chunks {
        let same_section = previous.is_some_and(|p| p.url == chunk.url);
        if !same_section {
            blocks.extend(new_headings(path, &chunk.heading_path));
            path = &chunk.heading_path;
        }
        let text = match previous.filter(|_| same_section) {
            Some(before) => without_repeated_start(&before.text, &chunk.text),
            None => chunk.text.as_str(),
        };
        if !text.trim().is_empty() {
            blocks.push(text.trim_end().to_string());
        }
        previous = Some(chunk);
    }
    let mut text = blocks.join("\n\n");
    text.push('\n');
    text
}

/// The headings to write when moving from the section at `before` to the one at `after`
/// (heading paths, the page title first): those below the part the two share, and at least
/// the section's own (two sibling sections may have the same title).
fn new_headings(before: &[String], after: &[String]) -> Vec<String> {
    let shared = before.iter().zip(after).take_while(|(a, b)| a == b).count();
    let first = shared.min(after.len().saturating_sub(1)).max(1);
    after
        .iter()
        .enumerate()
        .skip(first)
        .map(|(depth, title)| format!("{} {}", "#".repeat((depth + 1).min(MAX_HEADING_LEVEL)), one_line(title)))
        .collect()
}

/// A later part of a section without the sentences it repeats from the end of `before`: the
/// first paragraph, when `before` ends with it (ignoring spacing; a repeated piece of one long
/// sentence starts with `…`).
fn without_repeated_start<'a>(before: &str, text: &'a str) -> &'a str {
    let Some((head, rest)) = text.split_once("\n\n") else {
        return text;
    };
    let repeated = squash(head.strip_prefix('…').unwrap_or(head));
    if !repeated.is_empty() && squash(before).ends_with(&repeated) {
        rest
    } else {
        text
    }
}

/// What llms.txt says of a page after its link: its front matter `description` (what
/// Docusaurus puts in the page's meta description), else the first sentence of its first
/// paragraph of prose; on one line, at most `SUMMARY_MAX_CHARS` characters.
pub fn summary_line(page: &Page, chunks: &[Chunk]) -> Option<String> {
    let description = page.description.as_deref().map(squash).filter(|d| !d.is_empty());
    let first_sentence = || {
        let text = chunks.first()?.text.as_str();
        let paragraph = text.split("\n\n").map(str::trim).find(|p| !p.is_empty() && !p.starts_with("```"))?;
        split_sentences(paragraph).first().map(|s| squash(s)).filter(|s| !s.is_empty())
    };
    description.or_else(first_sentence).map(|line| shorten(&line, SUMMARY_MAX_CHARS))
}

/// `text` with every run of whitespace as one space, trimmed.
pub fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn one_line(text: &str) -> String {
    squash(text)
}

/// At most `max` characters, cut at a word boundary and ended with `…` when cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head).trim_end_matches([',', ';', ':', ' ']);
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::chunker::{chunk_page, PageContext};
    use crate::site::extract::extract;
    use crate::site::parse::{parse_doc, MarkdownFormat};
    use crate::site::split::ChunkSizing;
    use std::path::{Path, PathBuf};

    fn page(title: &str, description: Option<&str>) -> Page {
        Page {
            url: "/docs/guide/setup".into(),
            title: title.into(),
            doc_id: "guide/setup".into(),
            module: "Guide".into(),
            version: None,
            docs_instance: "default".into(),
            source: PathBuf::from("docs/guide/setup.md"),
            description: description.map(str::to_string),
            keywords: Vec::new(),
            sidebar_label: None,
            sidebar_position: None,
            unlisted: false,
            chunk_count: 0,
        }
    }

    /// The chunks `lectern build` indexes for `markdown` (the real chunker).
    fn chunks_of(markdown: &str) -> Vec<Chunk> {
        let tree = parse_doc(markdown, MarkdownFormat::Mdx).unwrap();
        let doc = extract(&tree, MarkdownFormat::Mdx, None).unwrap();
        let context = PageContext {
            docs_instance: "default",
            version: None,
            doc_id: "guide/setup",
            title: "Setup Guide",
            module: "Guide",
            url: "/docs/guide/setup",
            source: Path::new("docs/guide/setup.md"),
        };
        chunk_page(&doc, &context, &ChunkSizing::default()).0
    }

    const LONG: &str =
        "A long enough explanation of the configuration file, of every option it accepts, and of their defaults.";

    #[test]
    fn sections_get_their_headings_at_their_depth() {
        let markdown = format!(
            "Setting up takes five minutes. {LONG}\n\n## Install\n\n{LONG}\n\n### On Linux\n\n{LONG}\n\n```sh\napt install x\n```\n\n## Configure\n\n{LONG}\n"
        );
        let text = page_markdown(&page("Setup Guide", None), &chunks_of(&markdown), None);
        assert_eq!(
            text,
            format!(
                "# Setup Guide\n\nSetting up takes five minutes. {LONG}\n\n## Install\n\n{LONG}\n\n### On Linux\n\n{LONG}\n\n```sh\napt install x\n```\n\n## Configure\n\n{LONG}\n"
            )
        );
    }

    #[test]
    fn a_heading_without_text_of_its_own_is_written_before_its_subsection() {
        let markdown = format!("{LONG}\n\n## Parent\n\n### Child\n\n{LONG}\n\n## Sibling\n\n{LONG}\n");
        let text =
            page_markdown(&page("Setup Guide", None), &chunks_of(&markdown), Some("https://x.dev/docs/guide/setup"));
        assert_eq!(
            text,
            format!(
                "# Setup Guide\n\nSource: https://x.dev/docs/guide/setup\n\n{LONG}\n\n## Parent\n\n### Child\n\n{LONG}\n\n## Sibling\n\n{LONG}\n"
            )
        );
    }

    #[test]
    fn sibling_sections_with_the_same_title_each_get_their_heading() {
        let markdown = format!("{LONG}\n\n## Example\n\n{LONG}\n\n## Example\n\n{LONG} Again.\n");
        let text = page_markdown(&page("Setup Guide", None), &chunks_of(&markdown), None);
        assert_eq!(text.matches("\n## Example\n").count(), 2, "{text}");
    }

    #[test]
    fn a_long_section_reads_once_although_its_parts_overlap() {
        let sentences: Vec<String> = (0..60)
            .map(|n| format!("This is sentence number {n} of a long section about installing the tool."))
            .collect();
        let markdown = format!("## Long\n\n{}\n\n{}\n", sentences[..30].join(" "), sentences[30..].join(" "));
        let chunks = chunks_of(&markdown);
        assert!(chunks.len() >= 2, "the section is cut into parts");
        assert!(chunks[1].text.starts_with(split_sentences(&chunks[0].text).last().unwrap()), "parts overlap");
        let text = page_markdown(&page("Setup Guide", None), &chunks, None);
        for sentence in &sentences {
            assert_eq!(text.matches(sentence.as_str()).count(), 1, "{sentence} once in\n{text}");
        }
        assert_eq!(text.matches("## Long").count(), 1);
    }

    #[test]
    fn a_paragraph_that_only_looks_repeated_is_kept() {
        assert_eq!(without_repeated_start("First part.", "Other start.\n\nBody."), "Other start.\n\nBody.");
        assert_eq!(without_repeated_start("Ends here. Repeated   one.", "Repeated one.\n\nBody."), "Body.");
        assert_eq!(without_repeated_start("a very long sentence ends", "…long sentence ends\n\nBody."), "Body.");
        assert_eq!(without_repeated_start("x", "No paragraph break."), "No paragraph break.");
    }

    #[test]
    fn the_summary_is_the_description_else_the_first_sentence_of_prose() {
        let chunks = chunks_of(&format!("```sh\nnpm i\n```\n\nInstall it first. Then {LONG}\n"));
        assert_eq!(summary_line(&page("T", None), &chunks).as_deref(), Some("Install it first."));
        assert_eq!(summary_line(&page("T", Some("  How to set\n up. ")), &chunks).as_deref(), Some("How to set up."));
        assert_eq!(summary_line(&page("T", None), &[]), None);
        let long = "word ".repeat(100);
        let line = summary_line(&page("T", Some(&long)), &chunks).unwrap();
        assert!(line.chars().count() <= SUMMARY_MAX_CHARS && line.ends_with("word…"), "{line}");
    }
}
