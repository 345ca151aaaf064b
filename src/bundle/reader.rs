//! Reads a bundle from bytes, the same way natively and in the browser: every file is
//! checked against the manifest (size, sha256) before it is parsed, and every failure is a
//! typed error, never a panic.

use super::chunk::{parse_chunk_metas, parse_text_shard};
use super::{BundleError, ChunkMeta, FileEntry, Manifest, TextShardEntry};
use crate::dense::DenseIndex;
use crate::lexical::LexicalIndex;

pub struct BundleReader {
    manifest: Manifest,
}

impl BundleReader {
    pub fn new(manifest_bytes: &[u8]) -> Result<Self, BundleError> {
        Ok(BundleReader { manifest: Manifest::parse(manifest_bytes)? })
    }

    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    pub fn chunks(&self, bytes: &[u8]) -> Result<Vec<ChunkMeta>, BundleError> {
        let entry = &self.manifest.files.chunks;
        entry.verify(bytes)?;
        let chunks = parse_chunk_metas(&entry.name, bytes)?;
        self.expect_count(entry, chunks.len())?;
        Ok(chunks)
    }

    pub fn lexical(&self, bytes: &[u8]) -> Result<LexicalIndex, BundleError> {
        let entry = &self.manifest.files.lexical;
        entry.verify(bytes)?;
        let index = LexicalIndex::from_bytes(bytes).map_err(|e| corrupt(entry, e))?;
        self.expect_count(entry, index.doc_count() as usize)?;
        Ok(index)
    }

    pub fn dense(&self, bytes: &[u8]) -> Result<DenseIndex, BundleError> {
        let entry = &self.manifest.files.dense;
        entry.verify(bytes)?;
        let index = DenseIndex::from_bytes(bytes).map_err(|e| corrupt(entry, e))?;
        self.expect_count(entry, index.item_count())?;
        if index.dims() != self.manifest.model.dims {
            return Err(corrupt(
                entry,
                format!("{} dims, the manifest says {}", index.dims(), self.manifest.model.dims),
            ));
        }
        Ok(index)
    }

    pub fn text_shard(&self, shard: &TextShardEntry, bytes: &[u8]) -> Result<Vec<String>, BundleError> {
        shard.file.verify(bytes)?;
        parse_text_shard(&shard.file.name, bytes, shard.count)
    }

    fn expect_count(&self, entry: &FileEntry, count: usize) -> Result<(), BundleError> {
        if count != self.manifest.counts.chunks {
            return Err(corrupt(
                entry,
                format!("holds {count} chunks, the manifest says {}", self.manifest.counts.chunks),
            ));
        }
        Ok(())
    }
}

fn corrupt(entry: &FileEntry, reason: impl std::fmt::Display) -> BundleError {
    BundleError::Corrupt { name: entry.name.clone(), reason: reason.to_string() }
}
