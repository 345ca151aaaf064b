//! Reading a Docusaurus site: which docs it publishes, at which URLs, and
//! their text cut into heading-scoped chunks.
//!
//! [`read_site`] is the entry point. It discovers the config ([`config`],
//! with the command line's [`overrides`]), the docs instances and their
//! versions ([`versions`]) and files ([`files`]); parses each doc as
//! Docusaurus would ([`parse`], [`frontmatter`]); computes its id and URL
//! ([`permalink`]), its headings' anchors ([`slug`]) and text ([`extract`],
//! [`inline_text`]); and cuts chunks ([`chunker`], [`split`]). What is
//! embedded for a chunk is the embedder's to decide, not the reader's.
//! A page that cannot be read is skipped and listed, never silently dropped.

pub mod admonition;
pub mod category;
pub mod chunker;
pub mod config;
pub mod error;
pub mod extract;
pub mod files;
pub mod frontmatter;
pub mod inline_text;
pub mod jsx;
pub mod locales;
pub mod overrides;
pub mod parse;
pub mod partials;
pub mod permalink;
pub mod report;
pub mod sentences;
pub mod slug;
pub mod split;
pub mod versions;

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod locale_tests;
#[cfg(test)]
mod site_tests;
#[cfg(test)]
pub mod test_support;

pub use config::{DocsInstanceSummary, VersionSummary};
pub use error::SiteError;
pub use overrides::Overrides;
pub use permalink::TrailingSlash;
pub use report::{Chunk, Page, SiteReport, SkipKind, Skipped};

use config::{DocsInstanceConfig, NumberPrefixParsing, SiteConfig};
use extract::ExtractedDoc;
use markdown::mdast::Node;
use permalink::DocSource;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use versions::DocsVersion;

/// Reads the site at `root` (the folder with `docusaurus.config.*`, or a
/// repository containing it, e.g. in `website/`).
pub fn read_site(root: &Path, overrides: &Overrides) -> Result<SiteReport, SiteError> {
    let mut site = config::discover(root, overrides)?;
    if site.docs.is_empty() {
        return Err(SiteError::NoDocsPlugin);
    }
    let locale = site.i18n.locale(overrides.locale.as_deref()).map_err(SiteError::UnknownLocale)?;
    site.base_url = match &overrides.locale_base_url {
        Some(url) => permalink::normalize_base_url(url),
        None => locale.base_url(&site.base_url),
    };
    let mut notes = site.notes.clone();
    let mut untranslated = 0;
    let mut skipped = Vec::new();
    let mut pages: Vec<ReadPage> = Vec::new();
    let mut summaries = Vec::new();

    for instance in &site.docs {
        let versions = versions::resolve_versions(&site, instance)?;
        let mut version_summaries = Vec::new();
        let wanted =
            |version: &&DocsVersion| overrides.versions.as_ref().is_none_or(|only| only.contains(&version.name));
        for version in versions.iter().filter(wanted) {
            let (files, glob_notes) =
                files::list_doc_files(&version.content_dir, &instance.include, &instance.exclude)?;
            notes.extend(glob_notes);
            let translated_dir = locale.translated_docs_dir(&site.site_dir, &instance.id, &version.name);
            let mut version_pages = Vec::new();
            for relative_path in &files {
                let translation = translated_dir.as_ref().map(|dir| dir.join(relative_path)).filter(|f| f.is_file());
                untranslated += usize::from(translated_dir.is_some() && translation.is_none());
                match read_page(&site, instance, version, relative_path, translation) {
                    Ok(page) => version_pages.push(page),
                    Err(skip) => skipped.push(skip),
                }
            }
            resolve_url_conflicts(&mut version_pages, &site, &mut skipped);
            version_pages.sort_by(|a, b| a.order.cmp(&b.order));
            version_summaries.push(VersionSummary {
                name: version.name.clone(),
                path: version.path.clone(),
                last: version.last,
                content_dir: files::lexical_normalize(&version.content_dir),
                translated_dir: translated_dir.filter(|dir| dir.is_dir()).map(|dir| files::lexical_normalize(&dir)),
                pages: version_pages.len(),
            });
            pages.extend(version_pages);
        }
        summaries.push(DocsInstanceSummary {
            id: instance.id.clone(),
            route_base_path: instance.route_base_path.clone(),
            versions: version_summaries,
        });
    }

    let mut chunks = Vec::new();
    let mut report_pages = Vec::with_capacity(pages.len());
    for mut page in pages {
        let context = chunker::PageContext {
            docs_instance: &page.page.docs_instance,
            version: page.page.version.as_deref(),
            doc_id: &page.page.doc_id,
            title: &page.page.title,
            module: &page.page.module,
            url: &page.page.url,
            source: &page.page.source,
        };
        let (page_chunks, page_skipped) = chunker::chunk_page(&page.extracted, &context, &overrides.chunk_sizing);
        if page_chunks.is_empty() {
            skipped.push(Skipped {
                file: page.page.source.clone(),
                line: None,
                kind: SkipKind::EmptyPage,
                reason: "the page has no text to index".to_string(),
            });
        }
        page.page.chunk_count = page_chunks.len();
        notes.extend(page.extracted.warnings.iter().map(|w| format!("{}: {w}", page.page.source.display())));
        skipped.extend(page_skipped);
        chunks.extend(page_chunks);
        report_pages.push(page.page);
    }
    number_chunks(&mut chunks, &mut notes);
    if untranslated > 0 {
        notes.push(format!(
            "locale {}: {untranslated} docs have no translation; their original text is indexed, as Docusaurus shows it",
            locale.name
        ));
    }

    Ok(SiteReport {
        site_dir: site.site_dir.clone(),
        config: site.source.clone(),
        site_url: site.site_url.clone(),
        site_title: site.title.clone(),
        tagline: site.tagline.clone(),
        base_url: site.base_url.clone(),
        trailing_slash: site.trailing_slash,
        locale,
        locales: site.i18n.locales.clone(),
        docs_instances: summaries,
        pages: report_pages,
        chunks,
        skipped,
        notes,
    })
}

/// A page read from disk, before chunking.
struct ReadPage {
    page: Page,
    extracted: ExtractedDoc,
    /// The slug inside its version, before the base URL is added.
    slug: String,
    relative_path: String,
    version_path: String,
    order: Vec<category::OrderSegment>,
}

fn read_page(
    site: &SiteConfig,
    instance: &DocsInstanceConfig,
    version: &DocsVersion,
    relative_path: &str,
    translation: Option<std::path::PathBuf>,
) -> Result<ReadPage, Skipped> {
    // A locale's translation of the doc when it has one (its place, order and id are the
    // original's, as in Docusaurus).
    let file = files::lexical_normalize(&translation.unwrap_or_else(|| version.content_dir.join(relative_path)));
    let skip = |kind: SkipKind, line: Option<usize>, reason: String| Skipped { file: file.clone(), line, kind, reason };
    let text = std::fs::read_to_string(&file)
        .map_err(|error| skip(SkipKind::Unreadable, None, format!("cannot read the file: {error}")))?;
    let format = site.markdown_format.for_file(&file);
    let tree = parse::parse_doc(&text, format)
        .map_err(|failure| skip(SkipKind::InvalidMarkdown, failure.line, failure.message))?;

    let (front_matter, front_matter_line) = match front_matter_yaml(&tree) {
        Some((yaml, line)) => (
            frontmatter::parse_front_matter(yaml)
                .map_err(|error| skip(SkipKind::InvalidFrontMatter, error.line.map(|l| l + line), error.message))?,
            line,
        ),
        None => (frontmatter::FrontMatter::default(), 0),
    };
    if front_matter.draft {
        return Err(skip(
            SkipKind::Draft,
            Some(front_matter_line.max(1)),
            "draft: true (not published in production builds)".to_string(),
        ));
    }

    let parse_prefixes =
        front_matter.parse_number_prefixes && instance.number_prefixes != NumberPrefixParsing::Disabled;
    let source = DocSource { relative_path };
    let base_id = permalink::base_id(&source, front_matter.id.as_deref(), parse_prefixes);
    if base_id.contains('/') {
        return Err(skip(
            SkipKind::InvalidFrontMatter,
            Some(front_matter_line.max(1)),
            format!("document id \"{base_id}\" cannot include a slash"),
        ));
    }
    let doc_id = permalink::doc_id(&source, &base_id, parse_prefixes);
    let slug = permalink::doc_slug(&source, &base_id, front_matter.slug.as_deref(), parse_prefixes);
    let extracted = extract::extract(&tree, format, file.parent())
        .map_err(|failure| skip(SkipKind::InvalidMarkdown, failure.line, failure.message))?;

    let title = front_matter
        .title
        .clone()
        .or_else(|| extracted.content_title.clone())
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| base_id.clone());
    let module = category::module_for(
        &version.content_dir,
        relative_path,
        site.docs_label(instance).as_deref(),
        &title,
        parse_prefixes,
    );
    let order = category::site_order_key(
        &version.content_dir,
        relative_path,
        front_matter.sidebar_position,
        source.is_category_index(),
    );
    let page = Page {
        url: page_url(site, &version.path, &slug),
        title,
        doc_id,
        module,
        version: version.versioned.then(|| version.name.clone()),
        docs_instance: instance.id.clone(),
        source: file.clone(),
        description: front_matter.description,
        keywords: front_matter.keywords,
        sidebar_label: front_matter.sidebar_label,
        sidebar_position: front_matter.sidebar_position,
        unlisted: front_matter.unlisted,
        chunk_count: 0,
    };
    Ok(ReadPage {
        page,
        extracted,
        slug,
        relative_path: relative_path.to_string(),
        version_path: version.path.clone(),
        order,
    })
}

/// The page's URL: version path + slug, with the site's trailing slash rule.
fn page_url(site: &SiteConfig, version_path: &str, slug: &str) -> String {
    let permalink = permalink::normalize_url(&[version_path, slug]);
    permalink::apply_trailing_slash(&permalink, site.trailing_slash, &site.base_url)
}

/// The YAML front matter and the line it starts on (the `---` line).
fn front_matter_yaml(tree: &Node) -> Option<(&str, usize)> {
    match tree.children()?.first()? {
        Node::Yaml(yaml) => Some((&yaml.value, yaml.position.as_ref().map_or(1, |p| p.start.line))),
        _ => None,
    }
}

/// Docusaurus' rules when two docs of one version share a URL or an id: a
/// `<folder>/<folder>.md` index yields the folder URL to `index`/`README`
/// and takes a regular slug; any other clash would fail the Docusaurus
/// build, so the later doc is skipped and reported.
fn resolve_url_conflicts(pages: &mut Vec<ReadPage>, site: &SiteConfig, skipped: &mut Vec<Skipped>) {
    let mut by_url: HashMap<String, Vec<usize>> = HashMap::new();
    for (index, page) in pages.iter().enumerate() {
        by_url.entry(page.slug.clone()).or_default().push(index);
    }
    let ranks: Vec<i32> = pages
        .iter()
        .map(|page| DocSource { relative_path: &page.relative_path }.category_index_rank().map_or(-1, i32::from))
        .collect();
    let rank = |index: usize| ranks.get(index).copied().unwrap_or(-1);
    for indexes in by_url.values().filter(|indexes| indexes.len() > 1) {
        let mut sorted = indexes.clone();
        sorted.sort_by_key(|&index| rank(index));
        for &loser in sorted.iter().skip(1).filter(|&&index| rank(index) == 2) {
            if let Some(page) = pages.get_mut(loser) {
                let base_id = page.page.doc_id.rsplit('/').next().unwrap_or_default().to_string();
                page.slug = permalink::demoted_category_index_slug(&page.slug, &base_id);
                page.page.url = page_url(site, &page.version_path, &page.slug);
            }
        }
    }

    let mut seen_urls = HashSet::new();
    let mut seen_ids = HashSet::new();
    let mut kept = Vec::with_capacity(pages.len());
    let mut sorted: Vec<ReadPage> = std::mem::take(pages);
    sorted.sort_by(|a, b| a.relative_path.cmp(&b.relative_path));
    for page in sorted {
        let duplicate = if !seen_urls.insert(page.slug.clone()) {
            Some(format!("another doc already has the URL {}", page.page.url))
        } else if !seen_ids.insert(page.page.doc_id.clone()) {
            Some(format!("another doc already has the id \"{}\"", page.page.doc_id))
        } else {
            None
        };
        match duplicate {
            Some(reason) => skipped.push(Skipped {
                file: page.page.source.clone(),
                line: None,
                kind: SkipKind::Duplicate,
                reason: format!("{reason} (Docusaurus would refuse to build)"),
            }),
            None => kept.push(page),
        }
    }
    *pages = kept;
}

/// Gives chunks their site position and makes ids unique (duplicate explicit
/// heading ids can make two sections share an anchor).
fn number_chunks(chunks: &mut [Chunk], notes: &mut Vec<String>) {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (position, chunk) in chunks.iter_mut().enumerate() {
        chunk.position = position;
        let count = seen.entry(chunk.chunk_id.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            let unique = format!("{}~{}", chunk.chunk_id, count);
            notes.push(format!("chunk id {} repeats (duplicate heading id?); renamed {unique}", chunk.chunk_id));
            chunk.chunk_id = unique;
        }
    }
}
