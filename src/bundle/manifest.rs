//! `manifest.json`: the one file of a bundle with a fixed name. It says which format and
//! model the index was built with, and names every other file with its size and sha256 —
//! the sharded parts (term shards, chunk shards) through catalog pages, each of which the
//! manifest checksums, so a 10,000-page site's manifest stays a few kilobytes.

use super::checksum::sha256_hex;
use super::BundleError;
use crate::lexical::LexicalStats;
use serde::{Deserialize, Serialize};

/// Bumped whenever a reader of the previous version could misread a new bundle.
/// Version 2: the lexical index split into term shards and the chunk metadata into chunk
/// shards (with the text), both listed by catalog pages.
pub const FORMAT_VERSION: u32 = 2;
pub const FORMAT_NAME: &str = "lectern-index";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Manifest {
    pub format: String,
    pub format_version: u32,
    /// The Lectern version that wrote the bundle.
    pub created_by: String,
    pub model: ModelInfo,
    pub site: SiteInfo,
    pub counts: Counts,
    pub files: Files,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct ModelInfo {
    /// sha256 over the model file and tokenizer bytes (see `embed::ModelFingerprint`).
    pub fingerprint: String,
    pub dims: usize,
    /// The model and tokenizer, when the bundle carries them. The model is the compact file's
    /// head (`embed::compact`): its graph and layers, and the checksums of its word table's
    /// shards, which `words` (a catalog page, in table order) lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<FileEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<FileEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokenizer: Option<FileEntry>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SiteInfo {
    pub base_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_url: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ManifestCounts"))]
pub struct Counts {
    pub pages: usize,
    pub chunks: usize,
    /// Characters of chunk text.
    pub characters: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ManifestFiles"))]
pub struct Files {
    /// What ranking needs to know of every chunk (module, version, identical copies), in
    /// runs: small, loaded with the manifest (`ChunkTable`, JSON).
    pub chunk_table: FileEntry,
    /// The site-wide BM25 numbers; the postings are in the term shards.
    pub lexical: LexicalStats,
    /// Catalog pages of the term shards (`lexical::shards`), in term order.
    pub terms: Vec<TermPageEntry>,
    /// Catalog pages of the chunk shards (metadata and text of consecutive chunks), in
    /// chunk order: fetched per result.
    pub chunks: Vec<ChunkPageEntry>,
    /// int8 vectors and HNSW graph (`dense::DenseIndex` bytes).
    pub dense: FileEntry,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct FileEntry {
    pub name: String,
    pub bytes: u64,
    pub sha256: String,
}

/// A chunk shard (a catalog page's entry): `count` consecutive chunks from `first_chunk`,
/// their metadata in one file and their text in another, so a result whose text cannot be
/// fetched is still shown with its link.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ChunkShardEntry {
    pub meta: FileEntry,
    pub text: FileEntry,
    /// Index of the first chunk in the shard; the shard holds `count` consecutive chunks.
    pub first_chunk: usize,
    pub count: usize,
}

/// A term shard: the terms from `first_term` to the next shard's first term.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TermShardEntry {
    #[serde(flatten)]
    pub file: FileEntry,
    pub first_term: String,
}

/// A catalog page listing term shards `first_shard..first_shard + shards`; `first_term`
/// is its first shard's.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct TermPageEntry {
    #[serde(flatten)]
    pub file: FileEntry,
    pub first_shard: usize,
    pub shards: usize,
    pub first_term: String,
}

/// A catalog page listing chunk shards `first_shard..first_shard + shards`, which hold
/// chunks `first_chunk..first_chunk + count`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct ChunkPageEntry {
    #[serde(flatten)]
    pub file: FileEntry,
    pub first_shard: usize,
    pub shards: usize,
    pub first_chunk: usize,
    pub count: usize,
}

impl FileEntry {
    pub fn describe(name: String, bytes: &[u8]) -> Self {
        FileEntry { name, bytes: bytes.len() as u64, sha256: sha256_hex(bytes) }
    }

    /// Refuses bytes whose size or checksum differ from what the manifest recorded.
    pub fn verify(&self, bytes: &[u8]) -> Result<(), BundleError> {
        if bytes.len() as u64 != self.bytes {
            return Err(BundleError::WrongSize {
                name: self.name.clone(),
                expected: self.bytes,
                actual: bytes.len() as u64,
            });
        }
        if sha256_hex(bytes) != self.sha256 {
            return Err(BundleError::ChecksumMismatch { name: self.name.clone() });
        }
        Ok(())
    }
}

impl Manifest {
    /// Parses and checks the format and internal consistency (not the other files).
    pub fn parse(bytes: &[u8]) -> Result<Manifest, BundleError> {
        // Read the version first, so a future format with other fields still gets the
        // "wrong version" message rather than a parse error.
        #[derive(Deserialize)]
        struct Head {
            format: String,
            format_version: u32,
        }
        let head: Head = serde_json::from_slice(bytes).map_err(|e| BundleError::ManifestInvalid(e.to_string()))?;
        if head.format != FORMAT_NAME {
            return Err(BundleError::ManifestInvalid(format!("format is {:?}, not {FORMAT_NAME:?}", head.format)));
        }
        if head.format_version != FORMAT_VERSION {
            return Err(BundleError::WrongVersion { found: head.format_version, expected: FORMAT_VERSION });
        }
        let manifest: Manifest =
            serde_json::from_slice(bytes).map_err(|e| BundleError::ManifestInvalid(e.to_string()))?;
        manifest.check_consistency()?;
        Ok(manifest)
    }

    /// Refuses an index built with another model than the one about to embed queries.
    pub fn check_model(&self, fingerprint: &str) -> Result<(), BundleError> {
        if self.model.fingerprint != fingerprint {
            return Err(BundleError::WrongModel {
                index: self.model.fingerprint.clone(),
                model: fingerprint.to_string(),
            });
        }
        Ok(())
    }

    /// Every file the manifest names itself, model files included (the shards are named by
    /// the catalog pages among these).
    pub fn all_files(&self) -> Vec<&FileEntry> {
        let mut files = vec![&self.files.chunk_table, &self.files.dense];
        files.extend(self.files.terms.iter().map(|p| &p.file));
        files.extend(self.files.chunks.iter().map(|p| &p.file));
        files.extend(self.model.weights.iter().chain(self.model.words.iter()).chain(self.model.tokenizer.iter()));
        files
    }

    /// Term shards in all.
    pub fn term_shard_count(&self) -> usize {
        self.files.terms.last().map_or(0, |p| p.first_shard + p.shards)
    }

    /// Chunk shards in all.
    pub fn chunk_shard_count(&self) -> usize {
        self.files.chunks.last().map_or(0, |p| p.first_shard + p.shards)
    }

    /// The catalog page (index in `files.terms`) whose range holds `term`.
    pub fn term_page_of(&self, term: &str) -> usize {
        self.files.terms.partition_point(|p| p.first_term.as_str() <= term).saturating_sub(1)
    }

    /// The catalog page (index in `files.chunks`) that lists the shard of chunk `index`.
    pub fn chunk_page_of(&self, index: usize) -> Option<usize> {
        let page = self.files.chunks.partition_point(|p| p.first_chunk <= index).checked_sub(1)?;
        let entry = self.files.chunks.get(page)?;
        (index < entry.first_chunk + entry.count).then_some(page)
    }

    fn check_consistency(&self) -> Result<(), BundleError> {
        let inconsistent = |m: String| Err(BundleError::Inconsistent(m));
        let (mut next_chunk, mut next_shard) = (0, 0);
        for page in &self.files.chunks {
            if page.first_chunk != next_chunk || page.count == 0 || page.first_shard != next_shard || page.shards == 0 {
                return inconsistent(format!(
                    "chunk catalog page {} starts at chunk {} and shard {} (expected {next_chunk} and {next_shard})",
                    page.file.name, page.first_chunk, page.first_shard
                ));
            }
            next_chunk += page.count;
            next_shard += page.shards;
        }
        if next_chunk != self.counts.chunks {
            return inconsistent(format!(
                "chunk shards hold {next_chunk} chunks, the manifest counts {}",
                self.counts.chunks
            ));
        }
        if self.files.lexical.doc_count as usize != self.counts.chunks {
            return inconsistent(format!(
                "the lexical index counts {} documents, the manifest {} chunks",
                self.files.lexical.doc_count, self.counts.chunks
            ));
        }
        let mut next_shard = 0;
        let mut previous: Option<&str> = None;
        for page in &self.files.terms {
            if page.first_shard != next_shard
                || page.shards == 0
                || previous.is_some_and(|p| p >= page.first_term.as_str())
            {
                return inconsistent(format!("term catalog page {} is out of order", page.file.name));
            }
            next_shard += page.shards;
            previous = Some(&page.first_term);
        }
        for file in self.all_files() {
            check_name(&file.name)?;
        }
        Ok(())
    }
}

/// Names are relative file names inside the bundle folder, nothing else.
pub(super) fn check_name(name: &str) -> Result<(), BundleError> {
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(BundleError::Inconsistent(format!("file name {name:?} is not a plain file name")));
    }
    Ok(())
}
