//! What the bundle stores per chunk (docs/DESIGN.md §2.1): metadata and text, in chunk shards
//! of consecutive chunks that the browser fetches per result (apart, listed by catalog pages,
//! before format 5; together, by number, since: `numbered_shards`).

use super::BundleError;
use serde::{Deserialize, Serialize};

/// A chunk's metadata, without its text.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct ChunkMeta {
    /// Stable across rebuilds: docs instance, version, doc id, anchor and part.
    pub chunk_id: String,
    /// The permalink with `baseUrl` and `#anchor`, as the site serves it.
    pub url: String,
    /// Page title › section › subsection.
    pub heading_path: Vec<String>,
    pub chapter_title: String,
    pub section_title: String,
    pub module: String,
    /// The doc id.
    pub chapter_id: String,
    /// The docs plugin instance (Docusaurus's plugin id) the page belongs to. A bundle
    /// written before it was recorded reads as the default instance.
    #[serde(default = "default_instance")]
    pub instance: String,
    /// The docs version (its name in versions.json, or `current`); none when the instance is
    /// not versioned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub word_count: usize,
    pub position: usize,
    /// Content hash of what was embedded (model + embedded text): unchanged hash, reused vector.
    pub hash: String,
    /// Short sections merged into this chunk (docs/DESIGN.md §2.1), in text order: each keeps
    /// its own link, so a result that matched one points at it. The text before the first
    /// part (or not in any) is the chunk's own section.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<SectionPart>,
    /// The identifier its heading names, when the heading starts with one in code
    /// (`lexical::heading_name`: `--bail`, `testtimeout`): searched for exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// The plugin id of a docs instance without an `id` option (Docusaurus's `DEFAULT_PLUGIN_ID`).
const DEFAULT_INSTANCE: &str = "default";

fn default_instance() -> String {
    DEFAULT_INSTANCE.to_string()
}

/// A short section merged into a chunk: its own permalink and where its text (its heading
/// line first) lies in the chunk's text.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SectionPart {
    /// The permalink with the section's own `#anchor`.
    pub url: String,
    /// Page title › … › the section's own heading.
    pub heading_path: Vec<String>,
    /// Byte range of its text in the chunk's text (UTF-8; on character boundaries).
    pub start: usize,
    pub end: usize,
    /// The identifier its heading names, as `ChunkMeta::name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl ChunkMeta {
    /// The URL of part `part` (`None`: the chunk's own section).
    pub fn part_url(&self, part: Option<usize>) -> &str {
        part.and_then(|p| self.parts.get(p)).map_or(self.url.as_str(), |p| p.url.as_str())
    }

    /// The heading path of part `part` (`None`: the chunk's own).
    pub fn part_heading_path(&self, part: Option<usize>) -> &[String] {
        part.and_then(|p| self.parts.get(p)).map_or(self.heading_path.as_slice(), |p| p.heading_path.as_slice())
    }

    /// The names of its headings: its own and its parts'.
    pub fn names(&self) -> Vec<String> {
        self.name.iter().chain(self.parts.iter().filter_map(|p| p.name.as_ref())).cloned().collect()
    }

    /// Which part holds byte `offset` of the text (`None`: the chunk's own section).
    pub fn part_at(&self, offset: usize) -> Option<usize> {
        self.parts.iter().position(|p| p.start <= offset && offset < p.end)
    }

    /// The parts' ranges are in order and not empty (a reader slices the text with `get`,
    /// so a range past its end is harmless).
    pub(super) fn check_parts(&self) -> Result<(), String> {
        let mut after = 0;
        for part in &self.parts {
            if part.start < after || part.end <= part.start {
                return Err(format!(
                    "chunk {}: part {} has a bad range {}..{}",
                    self.chunk_id, part.url, part.start, part.end
                ));
            }
            after = part.end;
        }
        Ok(())
    }
}

/// Parses one metadata shard: the metadata of its consecutive chunks, in order.
pub fn parse_meta_shard(name: &str, bytes: &[u8], expected: usize) -> Result<Vec<ChunkMeta>, BundleError> {
    let metas: Vec<ChunkMeta> = parse_list(name, bytes, expected)?;
    for meta in &metas {
        meta.check_parts().map_err(|reason| BundleError::Corrupt { name: name.to_string(), reason })?;
    }
    Ok(metas)
}

/// Parses one text shard: the texts of its consecutive chunks, in order.
pub fn parse_text_shard(name: &str, bytes: &[u8], expected: usize) -> Result<Vec<String>, BundleError> {
    parse_list(name, bytes, expected)
}

fn parse_list<T: serde::de::DeserializeOwned>(
    name: &str,
    bytes: &[u8],
    expected: usize,
) -> Result<Vec<T>, BundleError> {
    let items: Vec<T> = serde_json::from_slice(bytes)
        .map_err(|e| BundleError::Corrupt { name: name.to_string(), reason: e.to_string() })?;
    if items.len() != expected {
        return Err(BundleError::Corrupt {
            name: name.to_string(),
            reason: format!("holds {} chunks, the catalog says {expected}", items.len()),
        });
    }
    Ok(items)
}
