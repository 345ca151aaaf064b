//! Which pages llms.txt and llms-full.txt list, and under which H2 section: a page's sidebar
//! category (`Page::module`, its top docs folder's label), in site order. Only the version
//! each docs instance serves at its root (`lastVersion`, the latest release) unless all are
//! asked for; unlisted pages never (Docusaurus keeps them out of sidebars and search).

use super::SitePage;
use crate::site::{DocsInstanceSummary, SiteReport};
use std::path::Path;

/// Which docs versions llms.txt and llms-full.txt list. Twins are written for every version.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LlmsVersions {
    /// Each docs instance's last version: the one served at its route base path.
    #[default]
    Last,
    /// Every version read, the last one's sections first.
    All,
}

/// The section of llms.txt a run of pages goes under.
#[derive(Debug)]
pub struct LinkSection<'a> {
    /// The H2's text.
    pub title: String,
    pub pages: Vec<&'a SitePage<'a>>,
}

/// The name of the Docusaurus version a page is in (`current` when unversioned).
fn version_name<'a>(page: &'a SitePage<'_>) -> &'a str {
    page.page.version.as_deref().unwrap_or(crate::site::versions::CURRENT_VERSION)
}

/// The pages to list, grouped and in order: sections in the order their first page comes in
/// the site (docs instances in config order), pages in site order within each.
pub fn link_sections<'a>(
    report: &SiteReport,
    pages: &'a [SitePage<'a>],
    versions: LlmsVersions,
) -> Vec<LinkSection<'a>> {
    let mut keyed: Vec<((&str, &str, String), LinkSection<'a>)> = Vec::new();
    let listed = pages.iter().filter(|p| !p.page.unlisted);
    // The last versions first, so "All" keeps the latest docs on top.
    let (last, older): (Vec<&SitePage<'a>>, Vec<&SitePage<'a>>) =
        listed.partition(|p| is_last_version(&report.docs_instances, &p.page.docs_instance, version_name(p)));
    let chosen = match versions {
        LlmsVersions::Last => last,
        LlmsVersions::All => last.into_iter().chain(older).collect(),
    };
    for page in chosen {
        let instance = report.docs_instances.iter().find(|i| i.id == page.page.docs_instance);
        let version = version_name(page);
        let name = section_name(page, instance, version);
        let key = (page.page.docs_instance.as_str(), version, name.clone());
        match keyed.iter_mut().find(|(k, _)| *k == key) {
            Some((_, section)) => section.pages.push(page),
            None => keyed.push((key, LinkSection { title: name, pages: vec![page] })),
        }
    }
    // Two instances (or versions) with a category of the same name: each H2 says whose it is.
    let titles: Vec<String> = keyed.iter().map(|(_, s)| s.title.clone()).collect();
    for ((instance, _, _), section) in &mut keyed {
        if titles.iter().filter(|t| **t == section.title).count() > 1 {
            section.title = format!("{} ({instance})", section.title);
        }
    }
    keyed.into_iter().map(|(_, section)| section).collect()
}

fn is_last_version(instances: &[DocsInstanceSummary], instance: &str, version: &str) -> bool {
    instances
        .iter()
        .find(|i| i.id == instance)
        .and_then(|i| i.versions.iter().find(|v| v.name == version))
        .is_some_and(|v| v.last)
}

/// A page's section: its category; a page at the docs root with no navbar label for its
/// docs (its module is then its own title) goes under "Docs"; a version other than the last
/// is named after it.
fn section_name(page: &SitePage<'_>, instance: Option<&DocsInstanceSummary>, version: &str) -> String {
    let version_summary = instance.and_then(|i| i.versions.iter().find(|v| v.name == version));
    let at_root = version_summary.is_some_and(|v| is_at_root(&page.page.source, &v.content_dir));
    let category = if at_root && page.page.module == page.page.title { "Docs" } else { page.page.module.as_str() };
    match version_summary {
        Some(v) if !v.last => {
            let label = if v.name == crate::site::versions::CURRENT_VERSION { "Next" } else { v.name.as_str() };
            format!("{category} ({label})")
        }
        _ => category.to_string(),
    }
}

fn is_at_root(source: &Path, content_dir: &Path) -> bool {
    source.strip_prefix(content_dir).is_ok_and(|relative| relative.components().count() == 1)
}
