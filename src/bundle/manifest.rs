//! `manifest.json`: the one file of a bundle with a fixed name. It says which format and
//! model the index was built with, and names every other file with its size and sha256 —
//! the sharded parts (term shards, chunk shards) through catalog pages, each of which the
//! manifest checksums, so a 10,000-page site's manifest stays a few kilobytes.

use super::catalog::Catalog;
use super::error::BundleError;
use super::file_entry::{check_name, FileEntry};
use super::numbered_shards::NumberedShards;
use super::shard_entries::{ChunkShardEntry, DensePartEntry, TermShardEntry};
use crate::lexical::LexicalStats;
use serde::{Deserialize, Serialize};

/// Bumped whenever a reader of the previous version could misread a new bundle. A bundle
/// carries the oldest version that reads it, so a reader of version 2 still opens a small
/// site's bundle and refuses, with a coded error, one it would misread.
/// Version 2: the lexical index split into term shards and the chunk metadata into chunk
/// shards (with the text), both listed by catalog pages.
/// Version 3: the dense index may come in parts ([`DenseLayout::Parts`]); a bundle whose dense
/// index is one file is still written as version 2.
/// Version 4: which chunk is on which page is a file of its own ([`Files::pages`]), fetched
/// only by a search asked from a page, no longer in the chunk table every reader fetches at
/// open (a version-3 reader would rank without the reader's page); and a bundle may have no
/// dense index ([`DenseLayout::None`]: its language is one the model does not suit,
/// `search::semantic_search_fits`).
/// Version 5: a dense index in parts lists its parts itself (its head the partitions' codes,
/// each codes part its row shards: `dense::partitioned`, format 2), so the manifest has no
/// dense catalog pages ([`Files::dense_parts`]) and a question's vector fetches none; and chunk
/// shards by number ([`Files::chunk_shards`]): metadata and text in one file a reader names
/// from the chunk's index, checked against a root in the manifest, with no catalog pages (a
/// version-4 reader would find no chunk shard at all).
pub const FORMAT_VERSION: u32 = 5;
/// The format versions whose dense index in parts is listed by dense catalog pages (read as
/// before; no longer written).
pub const DENSE_CATALOG_FORMAT_VERSIONS: std::ops::RangeInclusive<u32> = 3..=4;
/// The oldest format version that reads a bundle with chunk shards by number.
pub const NUMBERED_SHARDS_FORMAT_VERSION: u32 = 5;
/// The oldest format version that reads a bundle with a page table of its own.
pub const PAGE_TABLE_FORMAT_VERSION: u32 = 4;
/// The oldest format version this reader opens.
pub const OLDEST_FORMAT_VERSION: u32 = 2;
pub const FORMAT_NAME: &str = "lectern-index";
/// The manifest's fixed file name.
pub const MANIFEST_FILE: &str = "manifest.json";

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
    /// The language of the indexed text: the locale the site was read in (a BCP 47 tag such
    /// as `en` or `zh-CN`). Absent in bundles written before locales were read: English.
    /// Whether semantic search suits it is `search::semantic_search_fits`'s to say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
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
    #[cfg_attr(feature = "typescript", ts(as = "Vec<super::catalog::CatalogPage<super::shard_entries::TermRange>>"))]
    pub terms: Catalog<TermShardEntry>,
    /// Catalog pages of the chunk shards (metadata and text of consecutive chunks, in two
    /// files), in chunk order: fetched per result. Empty from format 5 on, where
    /// [`chunk_shards`](Self::chunk_shards) lists them instead.
    #[serde(default, skip_serializing_if = "Catalog::is_empty")]
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<Vec<super::catalog::CatalogPage<super::shard_entries::ChunkRange>>>", optional)
    )]
    pub chunks: Catalog<ChunkShardEntry>,
    /// Format 5: the chunk shards by number (metadata and text in one file each, named from
    /// its number), fetched per result with no catalog page first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub chunk_shards: Option<NumberedShards>,
    /// The dense index: with [`DenseLayout::Single`], int8 vectors and HNSW graph
    /// (`dense::DenseIndex` bytes); with [`DenseLayout::Parts`], the head of the index in
    /// parts (`dense::partitioned`), fetched as the single file is; none with
    /// [`DenseLayout::None`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub dense: Option<FileEntry>,
    /// How the dense index is stored (absent: `single`, as in format version 2).
    #[serde(default, skip_serializing_if = "DenseLayout::is_single")]
    pub dense_layout: DenseLayout,
    /// With [`DenseLayout::Parts`] in a bundle of format 3 or 4: catalog pages of the dense
    /// index's parts, in part order, fetched as a question's vector needs them. Absent from
    /// format 5 on: the head lists the parts (as the manifest fetched at open no longer does,
    /// for the keyword search that never needs them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<Vec<super::catalog::CatalogPage<super::shard_entries::DensePartRange>>>", optional)
    )]
    pub dense_parts: Option<Catalog<DensePartEntry>>,
    /// Which chunk is on which page (`ChunkTable::parse_pages`), fetched by a search asked
    /// from a page before it runs. Absent in a bundle before version 4 (the pages are then in
    /// the chunk table) or of a site without pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub pages: Option<FileEntry>,
}

/// How a bundle stores its dense index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum DenseLayout {
    /// One file, fetched whole with the model (a small site's).
    #[default]
    Single,
    /// A head fetched with the model, and parts a question's vector names.
    Parts,
    /// No dense index: the index's language is one the model does not suit
    /// (`search::semantic_search_fits`), so it is searched by keywords and nothing is embedded.
    None,
}

impl DenseLayout {
    pub fn is_single(&self) -> bool {
        *self == DenseLayout::Single
    }

    /// The oldest format version that reads a bundle with this layout as it is written
    /// today (parts listed by their head: 5; listed by catalog pages, 3 and 4 were).
    pub fn format_version(self) -> u32 {
        match self {
            DenseLayout::Single => OLDEST_FORMAT_VERSION,
            DenseLayout::Parts => 5,
            DenseLayout::None => 4,
        }
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
        if !(OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(&head.format_version) {
            return Err(BundleError::WrongVersion { found: head.format_version, expected: FORMAT_VERSION });
        }
        let manifest: Manifest =
            serde_json::from_slice(bytes).map_err(|e| BundleError::ManifestInvalid(e.to_string()))?;
        manifest.check_consistency()?;
        Ok(manifest)
    }

    /// Whether semantic search suits the index's language (`search::semantic_search_fits`).
    pub fn semantic_search_fits(&self) -> bool {
        crate::search::semantic_search_fits(self.site.language.as_deref())
    }

    /// The rule that turns a heading into a suggested follow-up question, for the index's
    /// language.
    pub fn follow_up_phrasing(&self) -> crate::search::follow_ups::Phrasing {
        crate::search::follow_ups::Phrasing::for_language(self.site.language.as_deref())
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
        let mut files: Vec<&FileEntry> = std::iter::once(&self.files.chunk_table).chain(&self.files.dense).collect();
        files.extend(self.files.pages.iter());
        files.extend(self.files.terms.pages().iter().map(|p| &p.file));
        files.extend(self.files.chunks.pages().iter().map(|p| &p.file));
        files.extend(self.files.dense_parts.iter().flat_map(|c| c.pages().iter().map(|p| &p.file)));
        files.extend(self.model.weights.iter().chain(self.model.words.iter()).chain(self.model.tokenizer.iter()));
        files
    }

    fn check_consistency(&self) -> Result<(), BundleError> {
        let inconsistent = |m: String| Err(BundleError::Inconsistent(m));
        self.files.chunks.check()?;
        self.files.terms.check()?;
        let catalog_versions = DENSE_CATALOG_FORMAT_VERSIONS;
        match (self.files.dense_layout, &self.files.dense_parts) {
            (DenseLayout::Single | DenseLayout::None, None) => {}
            // Formats 3 and 4: the parts listed by catalog pages; from 5, by the head.
            (DenseLayout::Parts, Some(parts))
                if !parts.is_empty() && catalog_versions.contains(&self.format_version) =>
            {
                parts.check()?
            }
            (DenseLayout::Parts, None) if !catalog_versions.contains(&self.format_version) => {}
            (layout, parts) => {
                return inconsistent(format!(
                    "the dense layout is {layout:?} but the manifest of format {} lists {} dense catalog pages",
                    self.format_version,
                    parts.as_ref().map_or(0, Catalog::len)
                ))
            }
        }
        if (self.files.dense_layout == DenseLayout::None) != self.files.dense.is_none() {
            return inconsistent(format!(
                "the dense layout is {:?} but the manifest {} a dense index",
                self.files.dense_layout,
                if self.files.dense.is_some() { "lists" } else { "lists no" }
            ));
        }
        let oldest = match self.files.dense_parts {
            Some(_) => *catalog_versions.start(),
            None => self.files.dense_layout.format_version(),
        };
        if self.format_version < oldest {
            return inconsistent(format!(
                "format version {} cannot have a dense index laid out {:?} (version {} can)",
                self.format_version, self.files.dense_layout, oldest
            ));
        }
        if self.files.pages.is_some() && self.format_version < PAGE_TABLE_FORMAT_VERSION {
            return inconsistent(format!(
                "format version {} cannot have a page table of its own (version {PAGE_TABLE_FORMAT_VERSION} can)",
                self.format_version
            ));
        }
        match &self.files.chunk_shards {
            Some(_) if self.format_version < NUMBERED_SHARDS_FORMAT_VERSION => {
                return inconsistent(format!(
                "format version {} cannot have chunk shards by number (version {NUMBERED_SHARDS_FORMAT_VERSION} can)",
                self.format_version
            ))
            }
            Some(_) if !self.files.chunks.is_empty() => {
                return inconsistent("the manifest lists chunk shards both by number and in catalog pages".into())
            }
            Some(numbered) if !numbered.holds(self.counts.chunks) => {
                return inconsistent(format!(
                    "{} chunk shards of {} chunks cannot hold the {} chunks the manifest counts",
                    numbered.shards, numbered.chunks_per_shard, self.counts.chunks
                ))
            }
            Some(_) => {}
            None => {
                let chunks = self.files.chunks.chunk_count();
                if chunks != self.counts.chunks {
                    return inconsistent(format!(
                        "chunk shards hold {chunks} chunks, the manifest counts {}",
                        self.counts.chunks
                    ));
                }
            }
        }
        if self.files.lexical.doc_count as usize != self.counts.chunks {
            return inconsistent(format!(
                "the lexical index counts {} documents, the manifest {} chunks",
                self.files.lexical.doc_count, self.counts.chunks
            ));
        }
        for file in self.all_files() {
            check_name(&file.name)?;
        }
        Ok(())
    }
}
