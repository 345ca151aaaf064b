//! What reading a site produces: pages, chunks, and what was left out and why.
//! These types are printed by the CLI (chunks as JSON Lines).

use crate::site::config::{ConfigSource, DocsInstanceSummary};
use crate::site::locales::Locale;
use crate::site::permalink::TrailingSlash;
use serde::Serialize;
use std::path::PathBuf;

/// Everything read from one Docusaurus site.
#[derive(Debug, Clone, Serialize)]
pub struct SiteReport {
    /// The folder holding `docusaurus.config.*` (or the given root).
    pub site_dir: PathBuf,
    /// Where the URL-deciding values came from.
    pub config: ConfigSource,
    /// The site's `url` option (`https://…`), when known.
    pub site_url: Option<String>,
    /// The site's `title` and `tagline`, when the config states them.
    pub site_title: Option<String>,
    pub tagline: Option<String>,
    pub base_url: String,
    pub trailing_slash: TrailingSlash,
    /// The locale read (its translations, its URLs under `base_url`).
    pub locale: Locale,
    /// Every locale the site is built in (`i18n.locales`, the default one first if unlisted).
    pub locales: Vec<String>,
    /// Docs plugin instances and their versions, as read.
    pub docs_instances: Vec<DocsInstanceSummary>,
    /// Pages in site order.
    pub pages: Vec<Page>,
    /// Chunks in site order (`position` counts from 0).
    pub chunks: Vec<Chunk>,
    /// Files and sections left out, with the reason.
    pub skipped: Vec<Skipped>,
    /// Things worth telling the user that left nothing out (config fallbacks,
    /// plugins whose effect is not reproduced, …).
    pub notes: Vec<String>,
}

/// One published doc page.
#[derive(Debug, Clone, Serialize)]
pub struct Page {
    /// The page's URL path, `baseUrl` and `trailingSlash` applied.
    pub url: String,
    pub title: String,
    /// Docusaurus' doc id (folder + file name or front matter `id`).
    pub doc_id: String,
    /// The top docs folder's category label (or the docs' navbar label).
    pub module: String,
    /// The docs version; `None` on a site without versioning.
    pub version: Option<String>,
    /// The docs plugin instance id (`default` unless configured).
    pub docs_instance: String,
    pub source: PathBuf,
    pub description: Option<String>,
    pub keywords: Vec<String>,
    pub sidebar_label: Option<String>,
    pub sidebar_position: Option<f64>,
    pub unlisted: bool,
    /// How many chunks the page produced.
    pub chunk_count: usize,
}

/// One retrievable piece of a page (docs/DESIGN.md §2.1).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Chunk {
    /// `instance:version:doc_id#anchor:part`, stable across rebuilds.
    pub chunk_id: String,
    /// Page URL plus `#anchor` as Docusaurus renders it.
    pub url: String,
    /// The heading anchor; `None` for the page-level chunk.
    pub anchor: Option<String>,
    /// Page title › section › subsection.
    pub heading_path: Vec<String>,
    pub chapter_title: String,
    pub section_title: String,
    pub module: String,
    /// The doc id.
    pub chapter_id: String,
    /// The docs plugin instance of its page (Docusaurus's plugin id).
    pub docs_instance: String,
    pub version: Option<String>,
    /// Plain text shown to users and sent to the LLM. What is embedded for it (the heading
    /// path in front, windows of a long text) is the embedder's decision (`embed::windows`).
    pub text: String,
    /// Short sections merged into this chunk, each with its own link and place in `text`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<lectern::bundle::SectionPart>,
    /// The identifier its heading names (its leading code span: `lexical::heading_name`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub word_count: usize,
    /// Order in the site.
    pub position: usize,
    /// Length of `text` in characters.
    pub chars: usize,
}

/// Something left out of the index.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Skipped {
    pub file: PathBuf,
    /// 1-based line, when it points somewhere useful.
    pub line: Option<usize>,
    pub kind: SkipKind,
    pub reason: String,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SkipKind {
    /// `draft: true`: not published in production.
    Draft,
    /// The file could not be read.
    Unreadable,
    /// MDX/Markdown that Docusaurus would not compile either.
    InvalidMarkdown,
    /// Front matter that Docusaurus would reject.
    InvalidFrontMatter,
    /// Another doc already has this URL or id.
    Duplicate,
    /// The page has no text at all.
    EmptyPage,
    /// A heading with no text under it and no subsections.
    EmptySection,
}
