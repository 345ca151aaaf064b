//! Reads a bundle from bytes, the same way natively and in the browser: every file is
//! checked against the manifest or its catalog page (size, sha256) before it is parsed, and
//! every failure is a typed error, never a panic. The catalog pages are read by their
//! catalogs (`manifest.files.terms`, `.chunks`: `Catalog::read_page`).

use super::chunk::{parse_meta_shard, parse_text_shard};
use super::file_entry::check_name;
use super::{
    BundleError, ChunkMeta, ChunkShardEntry, ChunkTable, DenseLayout, DensePartEntry, FileEntry, FileKind, Manifest,
    TermShardEntry, MANIFEST_FILE,
};
use crate::dense::partitioned::{PartKind, PartitionedIndex};
use crate::dense::{AnyDenseIndex, DenseIndex};
use crate::lexical::{parse_term_shard, LexicalIndex, ShardTerm};

pub struct BundleReader {
    manifest: Manifest,
}

impl BundleReader {
    pub fn new(manifest_bytes: &[u8]) -> Result<Self, BundleError> {
        Ok(BundleReader { manifest: Manifest::parse(manifest_bytes)? })
    }

    /// A reader for a manifest already parsed (and checked) by `Manifest::parse`.
    pub fn with_manifest(manifest: Manifest) -> Self {
        BundleReader { manifest }
    }

    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    pub fn chunk_table(&self, bytes: &[u8]) -> Result<ChunkTable, BundleError> {
        let entry = &self.manifest.files.chunk_table;
        entry.verify(bytes)?;
        ChunkTable::parse(&entry.name, bytes, self.manifest.counts.chunks)
    }

    /// Which chunk is on which page (`manifest.files.pages`, a bundle of format 4 whose
    /// chunk table left them out), verified, for `ChunkTable::set_pages`.
    pub fn page_table(&self, bytes: &[u8]) -> Result<Vec<[u32; 3]>, BundleError> {
        let entry = (self.manifest.files.pages.as_ref())
            .ok_or_else(|| BundleError::Inconsistent(format!("the bundle has no {}", FileKind::PageTable.role())))?;
        entry.verify(bytes)?;
        ChunkTable::parse_pages(&entry.name, bytes, self.manifest.counts.chunks)
    }

    /// A lexical index with the site's numbers and no term yet (see `lexical::shards`).
    pub fn empty_lexical(&self) -> Result<LexicalIndex, BundleError> {
        LexicalIndex::from_stats(&self.manifest.files.lexical)
            .map_err(|e| BundleError::Corrupt { name: MANIFEST_FILE.into(), reason: e.to_string() })
    }

    /// The terms of one term shard, listed on term catalog page `page`. `next_first` is the
    /// first term of the shard after it (the end of its range; `None` for the last shard).
    pub fn term_shard(
        &self,
        entry: &TermShardEntry,
        next_first: Option<&str>,
        bytes: &[u8],
        page: usize,
    ) -> Result<Vec<ShardTerm>, BundleError> {
        entry.file.verify_listed(bytes, &listing(FileKind::TermCatalog, page))?;
        parse_term_shard(bytes, self.manifest.files.lexical.doc_count, &entry.first_term, next_first)
            .map_err(|e| corrupt(&entry.file, e))
    }

    /// The word table's shards (`model.words`), in table order: the embedder names the ones
    /// a question needs by their index here.
    pub fn word_page(&self, bytes: &[u8]) -> Result<Vec<FileEntry>, BundleError> {
        let entry = (self.manifest.model.words.as_ref())
            .ok_or_else(|| BundleError::Inconsistent(format!("the bundle has no {}", FileKind::WordCatalog.role())))?;
        entry.verify(bytes)?;
        let shards: Vec<FileEntry> = parse_json(entry, bytes)?;
        for shard in &shards {
            check_name(&shard.name)?;
        }
        Ok(shards)
    }

    /// The metadata of one chunk shard's chunks (listed on chunk catalog page `page`).
    pub fn meta_shard(
        &self,
        shard: &ChunkShardEntry,
        bytes: &[u8],
        page: usize,
    ) -> Result<Vec<ChunkMeta>, BundleError> {
        shard.meta.verify_listed(bytes, &listing(FileKind::ChunkCatalog, page))?;
        parse_meta_shard(&shard.meta.name, bytes, shard.count)
    }

    /// The texts of one chunk shard's chunks (listed on chunk catalog page `page`).
    pub fn text_shard(&self, shard: &ChunkShardEntry, bytes: &[u8], page: usize) -> Result<Vec<String>, BundleError> {
        shard.text.verify_listed(bytes, &listing(FileKind::ChunkCatalog, page))?;
        parse_text_shard(&shard.text.name, bytes, shard.count)
    }

    /// The metadata and texts of chunk shard `n` by number (format 5), once its proof leads to
    /// the manifest's root.
    pub fn numbered_shard(&self, n: usize, bytes: &[u8]) -> Result<(Vec<ChunkMeta>, Vec<String>), BundleError> {
        let numbered = (self.manifest.files.chunk_shards.as_ref())
            .ok_or_else(|| BundleError::Inconsistent("the bundle has no chunk shards by number".into()))?;
        numbered.read(n, bytes, self.manifest.counts.chunks)
    }

    /// The dense index from `manifest.files.dense`: whole, or the head of the index in parts
    /// (no part attached yet), as the manifest's layout says. An index without one (its
    /// language is searched by keywords only) has nothing to read: `Inconsistent`.
    pub fn dense(&self, bytes: &[u8]) -> Result<AnyDenseIndex, BundleError> {
        let no_dense = || {
            let language = self.manifest.site.language.as_deref().unwrap_or("en");
            BundleError::Inconsistent(format!(
                "the index has no dense index: its language ({language}) is searched by keywords only"
            ))
        };
        let entry = self.manifest.files.dense.as_ref().ok_or_else(no_dense)?;
        entry.verify(bytes)?;
        let index = match self.manifest.files.dense_layout {
            DenseLayout::Single => AnyDenseIndex::Whole(DenseIndex::from_bytes(bytes).map_err(|e| corrupt(entry, e))?),
            DenseLayout::Parts => AnyDenseIndex::Parts(PartitionedIndex::open(bytes).map_err(|e| corrupt(entry, e))?),
            DenseLayout::None => return Err(no_dense()),
        };
        // Its parts are listed by the dense catalog (formats 3 and 4) or by the head itself.
        if let Some(parts) = index.parts() {
            match &self.manifest.files.dense_parts {
                Some(catalog) if catalog.part_count() != parts.part_count() as usize => {
                    return Err(corrupt(
                        entry,
                        format!("has {} parts, the manifest lists {}", parts.part_count(), catalog.part_count()),
                    ));
                }
                None if !parts.lists_part_files() => {
                    return Err(corrupt(entry, "lists no files of its parts, and the manifest has no dense catalog"));
                }
                _ => {}
            }
        }
        if index.item_count() != self.manifest.counts.chunks {
            return Err(corrupt(
                entry,
                format!("holds {} chunks, the manifest says {}", index.item_count(), self.manifest.counts.chunks),
            ));
        }
        if index.dims() != self.manifest.model.dims {
            return Err(corrupt(
                entry,
                format!("{} dims, the manifest says {}", index.dims(), self.manifest.model.dims),
            ));
        }
        Ok(index)
    }

    /// Verifies part `entry` of the dense index in parts (listed on dense catalog page
    /// `page`) and attaches it to `index`.
    pub fn attach_dense_part(
        &self,
        index: &mut PartitionedIndex,
        entry: &DensePartEntry,
        bytes: &[u8],
        page: usize,
    ) -> Result<(), BundleError> {
        entry.file.verify_listed(bytes, &listing(FileKind::DenseCatalog, page))?;
        let part = u32::try_from(entry.part).map_err(|_| corrupt(&entry.file, "its part id is out of range"))?;
        index.attach(part, bytes).map_err(|e| corrupt(&entry.file, e))
    }
}

impl BundleReader {
    /// Part `part`'s file, as a dense index that lists its parts (bundle format 5) lists it:
    /// a partition's codes in the head, a row shard in its partition's codes (attached
    /// first). Refused for an index whose parts a dense catalog lists.
    pub fn dense_part_file(&self, index: &PartitionedIndex, part: u32) -> Result<FileEntry, BundleError> {
        let head = self.dense_head_name();
        match index.part_file(part) {
            Ok(Some(file)) => Ok(FileEntry::dense_part(&file)),
            Ok(None) => Err(BundleError::Corrupt { name: head, reason: "lists no files of its parts".into() }),
            Err(e) => Err(BundleError::Corrupt { name: head, reason: e.to_string() }),
        }
    }

    /// Verifies part `part` of a dense index that lists its parts against its listing
    /// ([`dense_part_file`](Self::dense_part_file)) and attaches it to `index`.
    pub fn attach_listed_dense_part(
        &self,
        index: &mut PartitionedIndex,
        part: u32,
        bytes: &[u8],
    ) -> Result<(), BundleError> {
        let file = self.dense_part_file(index, part)?;
        let listed_in = match index.part_kind(part) {
            Ok(PartKind::Rows { partition, .. }) => format!("{} {partition}", FileKind::DensePart.role()),
            _ => FileKind::DenseHead.role().to_string(),
        };
        file.verify_listed(bytes, &listed_in)?;
        index.attach(part, bytes).map_err(|e| corrupt(&file, e))
    }

    fn dense_head_name(&self) -> String {
        self.manifest.files.dense.as_ref().map_or_else(|| FileKind::DenseHead.role().to_string(), |f| f.name.clone())
    }
}

/// How an error names the catalog page that lists a shard: "term catalog page 3".
fn listing(kind: FileKind, page: usize) -> String {
    format!("{} {page}", kind.role())
}

fn parse_json<T: serde::de::DeserializeOwned>(entry: &FileEntry, bytes: &[u8]) -> Result<T, BundleError> {
    serde_json::from_slice(bytes).map_err(|e| corrupt(entry, e))
}

fn corrupt(entry: &FileEntry, reason: impl std::fmt::Display) -> BundleError {
    BundleError::Corrupt { name: entry.name.clone(), reason: reason.to_string() }
}
