//! The site's text for AI agents, written from the chunks the index is built from
//! (https://llmstxt.org): `llms.txt` (the site's title, tagline and one link per page with its
//! first sentence, grouped by sidebar category), `llms-full.txt` (the text of every page it
//! lists, with its URL) and a Markdown twin of every page read (`twin`: the page's URL with
//! `.md` appended). The files are laid out as the site serves them under its `baseUrl`, so the
//! folder is copied into the build output as it is (docusaurus-plugin-lectern emits it).

mod full_text;
mod index_file;
mod page_text;
mod sections;
mod sidebar;
mod twin;
mod write;

pub use sections::LlmsVersions;
pub use sidebar::{SidebarsFileError, SiteSidebars};
pub use twin::{twin_url, TwinSuffixes, TWIN_SUFFIXES};
pub use write::{write_llms, LlmsSummary};

use crate::site::versions::CURRENT_VERSION;
use crate::site::{Chunk, Page, SiteReport};
use index_file::IndexLinks;
use page_text::squash;
use sections::link_sections;
use twin::{absolute_url, output_path};

/// What to write. Each file can be turned off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlmsOptions {
    pub llms_txt: bool,
    pub llms_full_txt: bool,
    pub markdown_twins: bool,
    /// Which versions llms.txt and llms-full.txt list.
    pub versions: LlmsVersions,
    /// The sidebars Docusaurus loaded (docusaurus-plugin-lectern's file), which llms.txt
    /// groups and orders its links by; without them, the JSON sidebars the site has.
    pub sidebars: Option<SiteSidebars>,
}

impl Default for LlmsOptions {
    fn default() -> Self {
        Self { llms_txt: true, llms_full_txt: true, markdown_twins: true, versions: LlmsVersions::Last, sidebars: None }
    }
}

pub const LLMS_TXT: &str = "llms.txt";
pub const LLMS_FULL_TXT: &str = "llms-full.txt";

/// One file to write: its path under the site's `baseUrl` (`/`-separated) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlmsFile {
    pub path: String,
    pub text: String,
    pub kind: LlmsFileKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlmsFileKind {
    LlmsTxt,
    LlmsFullTxt,
    MarkdownTwin,
}

#[derive(Debug, thiserror::Error)]
pub enum LlmsError {
    #[error("the site's pages and chunks are out of step at {url} (a bug in the site reader)")]
    PagesOutOfStep { url: String },
    #[error(
        "page {url} is not under the site's baseUrl {base_url}: its Markdown twin has no place in the build folder"
    )]
    OutsideBaseUrl { url: String, base_url: String },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// A page and the chunks it was cut into.
#[derive(Debug)]
pub struct SitePage<'a> {
    pub page: &'a Page,
    pub chunks: &'a [Chunk],
}

/// The title and the summary the two llms files open with.
struct Header {
    title: String,
    summary: String,
    site_url: Option<String>,
}

impl Header {
    fn of(report: &SiteReport) -> Self {
        let title = report.site_title.as_deref().map(squash).filter(|t| !t.is_empty());
        let title = title.unwrap_or_else(|| "Documentation".to_string());
        let summary = report.tagline.as_deref().map(squash).filter(|t| !t.is_empty());
        let summary = summary.unwrap_or_else(|| format!("The documentation of {title}."));
        Self { title, summary, site_url: report.site_url.clone() }
    }

    /// `# title`, a blank line, `> summary`, a blank line.
    fn render(&self) -> String {
        format!("# {}\n\n> {}\n\n", self.title, self.summary)
    }
}

/// Every page with its chunks: the site reader lists chunks page by page, in page order
/// (`Page::chunk_count` of them each).
pub fn site_pages(report: &SiteReport) -> Result<Vec<SitePage<'_>>, LlmsError> {
    let mut pages = Vec::with_capacity(report.pages.len());
    let mut rest: &[Chunk] = &report.chunks;
    for page in &report.pages {
        let out_of_step = || LlmsError::PagesOutOfStep { url: page.url.clone() };
        let (chunks, after) = rest.split_at_checked(page.chunk_count).ok_or_else(out_of_step)?;
        if chunks.iter().any(|c| c.chapter_id != page.doc_id || c.version != page.version) {
            return Err(out_of_step());
        }
        pages.push(SitePage { page, chunks });
        rest = after;
    }
    match rest.first() {
        Some(chunk) => Err(LlmsError::PagesOutOfStep { url: chunk.url.clone() }),
        None => Ok(pages),
    }
}

/// The files `options` asks for, from the site `report` read.
pub fn llms_files(report: &SiteReport, options: &LlmsOptions) -> Result<Vec<LlmsFile>, LlmsError> {
    let pages = site_pages(report)?;
    let header = Header::of(report);
    let sections = link_sections(report, &pages, options.versions, options.sidebars.as_ref());
    let mut files = Vec::new();
    if options.llms_txt {
        let full_url = absolute_url(report.site_url.as_deref(), &format!("{}{LLMS_FULL_TXT}", report.base_url));
        // A versioned site's note names the version listed (when one instance is versioned).
        let released: Vec<&str> = report
            .docs_instances
            .iter()
            .flat_map(|i| &i.versions)
            .filter(|v| v.last && v.name != CURRENT_VERSION)
            .map(|v| v.name.as_str())
            .collect();
        let last_version = match released.as_slice() {
            [only] => Some(*only),
            _ => None,
        };
        let links = IndexLinks {
            twins: options.markdown_twins,
            full_text_url: options.llms_full_txt.then_some(full_url.as_str()),
            versions: options.versions,
            last_version,
        };
        let text = index_file::llms_txt(&header, &sections, &links);
        files.push(LlmsFile { path: LLMS_TXT.to_string(), text, kind: LlmsFileKind::LlmsTxt });
    }
    if options.llms_full_txt {
        let text = full_text::llms_full_txt(&header, &sections);
        files.push(LlmsFile { path: LLMS_FULL_TXT.to_string(), text, kind: LlmsFileKind::LlmsFullTxt });
    }
    if options.markdown_twins {
        for page in &pages {
            let url = twin_url(&page.page.url);
            let path = output_path(&url, &report.base_url).ok_or_else(|| LlmsError::OutsideBaseUrl {
                url: page.page.url.clone(),
                base_url: report.base_url.clone(),
            })?;
            let text = page_text::page_markdown(page.page, page.chunks, None);
            files.push(LlmsFile { path, text, kind: LlmsFileKind::MarkdownTwin });
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests;
