//! The kinds of shard a bundle lists in catalogs (`catalog`): term shards, by term, chunk
//! shards, by chunk index, and the parts of a dense index in parts, by part id — what a
//! catalog page says of each shard, and how their keys run.

use super::catalog::{file_fields, Catalog, CatalogPage, Shard};
use super::file_entry::FileEntry;
use super::file_kind::FileKind;
use serde::{Deserialize, Serialize};

/// A term shard: the terms from `first_term` to the next shard's first term.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TermShardEntry {
    #[serde(flatten)]
    pub file: FileEntry,
    pub first_term: String,
}

file_fields!(TermShardEntry, TermShardFields { first_term: String }, |f, file| TermShardEntry {
    file,
    first_term: f.first_term
});
file_fields!(
    CatalogPage<TermRange>,
    TermPageFields { first_shard: usize, shards: usize, first_term: String },
    |f, file| CatalogPage {
        file,
        first_shard: f.first_shard,
        shards: f.shards,
        range: TermRange { first_term: f.first_term }
    }
);

/// A term catalog page's keys: from its first shard's `first_term` to the next page's (the
/// first page also holds the terms before it, which no shard has).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct TermRange {
    pub first_term: String,
}

/// A catalog page listing term shards.
pub type TermPageEntry = CatalogPage<TermRange>;

impl Shard for TermShardEntry {
    type Key = str;
    type Range = TermRange;
    const PAGE: FileKind = FileKind::TermCatalog;

    fn first_key(&self) -> &str {
        &self.first_term
    }

    fn files(&self) -> Vec<&FileEntry> {
        vec![&self.file]
    }

    fn range_of(shards: &[Self]) -> TermRange {
        TermRange { first_term: shards.first().map(|s| s.first_term.clone()).unwrap_or_default() }
    }

    fn range_first(range: &TermRange) -> &str {
        &range.first_term
    }

    fn range_holds(_: &TermRange, _: &str) -> bool {
        true
    }

    fn follows(previous: Option<&TermRange>, range: &TermRange) -> bool {
        previous.is_none_or(|p| p.first_term < range.first_term)
    }

    fn check_shards(shards: &[Self], range: &TermRange, next: Option<&TermRange>) -> Result<(), String> {
        let in_order = shards.windows(2).all(|w| w[0].first_term < w[1].first_term);
        let first_ok = shards.first().is_some_and(|s| s.first_term == range.first_term);
        let last_ok = shards.last().is_some_and(|s| next.is_none_or(|next| s.first_term < next.first_term));
        if in_order && first_ok && last_ok {
            Ok(())
        } else {
            Err("its shards do not match the manifest's range".into())
        }
    }
}

/// A chunk shard: `count` consecutive chunks from `first_chunk`, their metadata in one file
/// and their text in another, so a result whose text cannot be fetched is still shown with
/// its link.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ChunkShardEntry {
    pub meta: FileEntry,
    pub text: FileEntry,
    /// Index of the first chunk in the shard; the shard holds `count` consecutive chunks.
    pub first_chunk: usize,
    pub count: usize,
}

/// A chunk catalog page's keys: chunks `first_chunk..first_chunk + count`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct ChunkRange {
    pub first_chunk: usize,
    pub count: usize,
}

impl ChunkRange {
    fn end(&self) -> usize {
        self.first_chunk + self.count
    }
}

/// A catalog page listing chunk shards.
pub type ChunkPageEntry = CatalogPage<ChunkRange>;

file_fields!(
    CatalogPage<ChunkRange>,
    ChunkPageFields { first_shard: usize, shards: usize, first_chunk: usize, count: usize },
    |f, file| CatalogPage {
        file,
        first_shard: f.first_shard,
        shards: f.shards,
        range: ChunkRange { first_chunk: f.first_chunk, count: f.count }
    }
);

impl Shard for ChunkShardEntry {
    type Key = usize;
    type Range = ChunkRange;
    const PAGE: FileKind = FileKind::ChunkCatalog;

    fn first_key(&self) -> &usize {
        &self.first_chunk
    }

    fn files(&self) -> Vec<&FileEntry> {
        vec![&self.meta, &self.text]
    }

    fn range_of(shards: &[Self]) -> ChunkRange {
        ChunkRange {
            first_chunk: shards.first().map_or(0, |s| s.first_chunk),
            count: shards.iter().map(|s| s.count).sum(),
        }
    }

    fn range_first(range: &ChunkRange) -> &usize {
        &range.first_chunk
    }

    fn range_holds(range: &ChunkRange, index: &usize) -> bool {
        *index < range.end()
    }

    fn follows(previous: Option<&ChunkRange>, range: &ChunkRange) -> bool {
        range.first_chunk == previous.map_or(0, ChunkRange::end) && range.count > 0
    }

    fn check_shards(shards: &[Self], range: &ChunkRange, _: Option<&ChunkRange>) -> Result<(), String> {
        let mut next = range.first_chunk;
        for shard in shards {
            if shard.first_chunk != next || shard.count == 0 {
                return Err(format!("shard {} does not start at chunk {next}", shard.meta.name));
            }
            next += shard.count;
        }
        if next != range.end() {
            return Err("its shards do not match the manifest's range".into());
        }
        Ok(())
    }
}

impl Catalog<ChunkShardEntry> {
    /// Chunks the shards hold in all.
    pub fn chunk_count(&self) -> usize {
        self.pages().last().map_or(0, |p| p.range.end())
    }
}

/// A part of a dense index in parts (`dense::partitioned`): part `part`'s file (a partition's
/// codes, or a shard of its int8 rows; the head says which).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DensePartEntry {
    #[serde(flatten)]
    pub file: FileEntry,
    pub part: usize,
}

file_fields!(DensePartEntry, DensePartFields { part: usize }, |f, file| DensePartEntry { file, part: f.part });
file_fields!(
    CatalogPage<DensePartRange>,
    DensePageFields { first_shard: usize, shards: usize, first_part: usize, count: usize },
    |f, file| CatalogPage {
        file,
        first_shard: f.first_shard,
        shards: f.shards,
        range: DensePartRange { first_part: f.first_part, count: f.count }
    }
);

/// A dense catalog page's keys: parts `first_part..first_part + count`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct DensePartRange {
    pub first_part: usize,
    pub count: usize,
}

impl DensePartRange {
    fn end(&self) -> usize {
        self.first_part + self.count
    }
}

impl Shard for DensePartEntry {
    type Key = usize;
    type Range = DensePartRange;
    const PAGE: FileKind = FileKind::DenseCatalog;

    fn first_key(&self) -> &usize {
        &self.part
    }

    fn files(&self) -> Vec<&FileEntry> {
        vec![&self.file]
    }

    fn range_of(shards: &[Self]) -> DensePartRange {
        DensePartRange { first_part: shards.first().map_or(0, |s| s.part), count: shards.len() }
    }

    fn range_first(range: &DensePartRange) -> &usize {
        &range.first_part
    }

    fn range_holds(range: &DensePartRange, part: &usize) -> bool {
        *part < range.end()
    }

    fn follows(previous: Option<&DensePartRange>, range: &DensePartRange) -> bool {
        range.first_part == previous.map_or(0, DensePartRange::end) && range.count > 0
    }

    fn check_shards(shards: &[Self], range: &DensePartRange, _: Option<&DensePartRange>) -> Result<(), String> {
        let numbered = shards.iter().enumerate().all(|(i, s)| s.part == range.first_part + i);
        if numbered && shards.len() == range.count {
            Ok(())
        } else {
            Err("its parts are not numbered as the manifest's range says".into())
        }
    }
}

impl Catalog<DensePartEntry> {
    /// Parts in all.
    pub fn part_count(&self) -> usize {
        self.pages().last().map_or(0, |p| p.range.end())
    }
}
