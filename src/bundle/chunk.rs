//! What the bundle stores per chunk (docs/DESIGN.md §2.1): metadata and text, together in chunk
//! shards of consecutive chunks that the browser fetches per result, and the catalog pages
//! that list those shards.

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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub word_count: usize,
    pub position: usize,
    /// Content hash of what was embedded (model + embedded text): unchanged hash, reused vector.
    pub hash: String,
}

/// Parses one metadata shard: the metadata of its consecutive chunks, in order.
pub fn parse_meta_shard(name: &str, bytes: &[u8], expected: usize) -> Result<Vec<ChunkMeta>, BundleError> {
    parse_list(name, bytes, expected)
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
