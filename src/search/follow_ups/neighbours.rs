//! Which sections a follow-up may ask about: those near a cited section on its own page that
//! the answer did not cite — the section after it, its children (one level down) and its
//! siblings (same parent heading, nearest first). Chunks come in site order and a page's
//! chunks are consecutive, so a cited chunk's neighbours lie within [`NEIGHBOUR_WINDOW`]
//! chunks of it: the worker fetches the metadata of that window only.

use crate::bundle::ChunkMeta;
use std::collections::HashSet;

/// Chunks either side of a cited chunk whose sections may be its neighbours.
pub const NEIGHBOUR_WINDOW: u32 = 12;

/// How a neighbour stands to the cited section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The first section after it on the page.
    Next,
    /// A section one heading level below it.
    Child,
    /// A section under the same parent heading.
    Sibling,
}

/// A section near a cited one.
#[derive(Clone, Debug, PartialEq)]
pub struct Neighbour {
    pub url: String,
    /// Page title › … › its own heading.
    pub heading_path: Vec<String>,
    pub relation: Relation,
}

/// The chunks whose metadata [`neighbours`] reads for `cited`: the window around each, in
/// order, each once, within the `total` chunks.
pub fn neighbour_window(cited: &[u32], total: usize) -> Vec<u32> {
    let last = u32::try_from(total).unwrap_or(u32::MAX).saturating_sub(1);
    let mut window: Vec<u32> = cited
        .iter()
        .filter(|&&c| (c as usize) < total)
        .flat_map(|&c| c.saturating_sub(NEIGHBOUR_WINDOW)..=c.saturating_add(NEIGHBOUR_WINDOW).min(last))
        .collect();
    crate::sort::sort_dedup(&mut window);
    window
}

/// Of the `retrieved` chunks (in rank order), those an answer with sources `cited_urls` cited:
/// a chunk is cited when its own URL or one of its parts' is a source's.
pub fn cited_chunks<'a, S: AsRef<str>>(
    retrieved: &[u32],
    cited_urls: &[S],
    chunk: impl Fn(u32) -> Option<&'a ChunkMeta>,
) -> Vec<u32> {
    let urls: HashSet<&str> = cited_urls.iter().map(AsRef::as_ref).collect();
    let mut out = Vec::new();
    for &index in retrieved {
        let Some(meta) = chunk(index) else { continue };
        let cited = urls.contains(meta.url.as_str()) || meta.parts.iter().any(|p| urls.contains(p.url.as_str()));
        if cited && !out.contains(&index) {
            out.push(index);
        }
    }
    out
}

/// A section of a page within the window: its URL, heading path and the chunk holding it.
struct Section<'a> {
    url: &'a str,
    heading_path: &'a [String],
    chunk: u32,
}

/// The neighbours of the `cited` chunks (best first): for each cited chunk in turn, the next
/// section, its children, then its siblings nearest first; none cited, each once. `chunk`
/// gives a chunk's metadata when loaded (a chunk not loaded is skipped).
pub fn neighbours<'a>(cited: &[u32], chunk: impl Fn(u32) -> Option<&'a ChunkMeta>, total: usize) -> Vec<Neighbour> {
    let mut taken: HashSet<&str> = HashSet::new();
    for meta in cited.iter().filter_map(|&c| chunk(c)) {
        taken.insert(meta.url.as_str());
        taken.extend(meta.parts.iter().map(|p| p.url.as_str()));
    }
    let mut out = Vec::new();
    for &c in cited {
        let Some(meta) = chunk(c) else { continue };
        let sections = page_sections(meta, c, &chunk, total);
        let own = meta.heading_path.as_slice();
        let parent = &own[..own.len().saturating_sub(1)];
        let next = sections.iter().find(|s| s.chunk > c && !taken.contains(s.url));
        let children =
            sections.iter().filter(|s| s.heading_path.len() == own.len() + 1 && s.heading_path.starts_with(own));
        let mut siblings: Vec<&Section> = sections
            .iter()
            .filter(|s| {
                s.heading_path.len() == own.len() && s.heading_path.starts_with(parent) && s.heading_path != own
            })
            .collect();
        crate::sort::sort_by_key(&mut siblings, |s| s.chunk.abs_diff(c));
        let ranked = (next.map(|s| (s, Relation::Next)).into_iter())
            .chain(children.map(|s| (s, Relation::Child)))
            .chain(siblings.into_iter().map(|s| (s, Relation::Sibling)));
        for (section, relation) in ranked {
            if taken.insert(section.url) {
                out.push(Neighbour {
                    url: section.url.to_string(),
                    heading_path: section.heading_path.to_vec(),
                    relation,
                });
            }
        }
    }
    out
}

/// The sections of `meta`'s page (same doc, docs instance and version) among the chunks within the window of
/// chunk `at`, in page order: each chunk's own section, then its merged parts.
fn page_sections<'a>(
    meta: &ChunkMeta,
    at: u32,
    chunk: &impl Fn(u32) -> Option<&'a ChunkMeta>,
    total: usize,
) -> Vec<Section<'a>> {
    let mut sections: Vec<Section<'a>> = Vec::new();
    for index in neighbour_window(&[at], total) {
        let Some(other) = chunk(index) else { continue };
        if other.chapter_id != meta.chapter_id || other.instance != meta.instance || other.version != meta.version {
            continue;
        }
        let own = std::iter::once((other.url.as_str(), other.heading_path.as_slice()));
        let parts = other.parts.iter().map(|p| (p.url.as_str(), p.heading_path.as_slice()));
        for (url, heading_path) in own.chain(parts) {
            // A long section cut into several chunks is one section.
            if !sections.iter().any(|s| s.url == url) {
                sections.push(Section { url, heading_path, chunk: index });
            }
        }
    }
    sections
}
