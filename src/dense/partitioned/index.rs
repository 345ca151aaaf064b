//! The reader: opens a head, names the parts a question needs, takes them as they arrive,
//! and answers once they are all there. It never fetches: the caller (the browser worker)
//! asks [`PartitionedIndex::needed_parts`], fetches those files in parallel, hands each to
//! [`PartitionedIndex::attach`], and asks again, until nothing is missing:
//!
//! - round 1: the codes of the partitions whose centroids are nearest the question (only
//!   partitions serving the filter's versions are considered);
//! - round 2: the int8 rows of the shards holding the best candidates by those codes.
//!
//! Parts stay attached, so later questions fetch only what earlier ones did not. A filter that
//! leaves fewer than `k` candidates in the probed partitions widens the probe (an extra
//! round), so results that exist are found.

use std::collections::HashMap;

use super::format::{read_rows_part, CodesPart, Head, PartFile};
use super::pq::ProductQuantizer;
use crate::dense::quantized::QuantizedVectors;
use crate::dense::top_k::TopK;
use crate::dense::DenseError;

/// A part of a partitioned index: `0..partitions` are partitions' codes, the rest int8 row
/// shards.
pub type PartId = u32;

/// What kind of data a part holds, for naming and caching its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// The 4-bit codes (and items) of every row of a partition: fetched in the first round.
    Codes { partition: u32 },
    /// The int8 rows of one shard of a partition: fetched in the second round.
    Rows { partition: u32, shard: u32 },
}

/// Which results a search may return.
#[derive(Clone, Copy, Default)]
pub struct PartFilter<'a> {
    /// The version slots results must belong to (0: no version, v + 1: version v, as the
    /// chunk table numbers them); empty: any. Only partitions serving one of them are probed.
    pub version_slots: &'a [u16],
    /// The item to return for a section, given the section's first copy, or `None` to leave
    /// the section out: the copy in the filtered version, or none if its module is filtered
    /// out. Without it, every section is returned as its first copy.
    pub pick: Option<&'a dyn Fn(u32) -> Option<u32>>,
}

/// The outcome of a search: results, or the parts to fetch first.
#[derive(Clone, Debug, PartialEq)]
pub enum PartSearch {
    /// `(item, cosine)`, best first; cosines are those of the int8 rows, as the single-file
    /// index's exact scan computes them.
    Found(Vec<(u32, f32)>),
    /// Fetch and attach these parts, then search again.
    NeedParts(Vec<PartId>),
}

/// A dense index split into parts, searched with only the parts a question needs.
pub struct PartitionedIndex {
    head: Head,
    codes: Vec<Option<CodesPart>>,
    shards: HashMap<PartId, QuantizedVectors>,
    probe: usize,
    rescore: usize,
}

impl std::fmt::Debug for PartitionedIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PartitionedIndex")
            .field("rows", &self.head.rows)
            .field("partitions", &self.head.partitions.len())
            .field("parts", &self.part_count())
            .finish()
    }
}

/// A candidate of the first round.
struct Candidate {
    estimate: f32,
    partition: u32,
    row: u32,
    item: u32,
}

impl PartitionedIndex {
    /// Opens the index from its head; no part is attached yet.
    pub fn open(head: &[u8]) -> Result<Self, DenseError> {
        let head = Head::read(head)?;
        let (probe, rescore) = (head.probe, head.rescore);
        Ok(PartitionedIndex { codes: vec![None; head.partitions.len()], head, shards: HashMap::new(), probe, rescore })
    }

    pub fn dims(&self) -> usize {
        self.head.dims
    }

    /// Item ids are below this.
    pub fn item_count(&self) -> usize {
        self.head.items as usize
    }

    /// Vectors stored.
    pub fn len(&self) -> usize {
        self.head.rows as usize
    }

    pub fn is_empty(&self) -> bool {
        self.head.rows == 0
    }

    pub fn partition_count(&self) -> usize {
        self.head.partitions.len()
    }

    /// Parts in all (part ids are below this).
    pub fn part_count(&self) -> u32 {
        self.head.part_count()
    }

    pub fn part_kind(&self, part: PartId) -> Result<PartKind, DenseError> {
        let partitions = self.head.partitions.len() as u32;
        if part < partitions {
            return Ok(PartKind::Codes { partition: part });
        }
        let unknown = DenseError::UnknownPart { part, parts: self.part_count() };
        let after = self.head.partitions.partition_point(|p| p.first_shard_part <= part);
        let partition = after.checked_sub(1).ok_or(unknown.clone())?;
        let info = &self.head.partitions[partition];
        if part - info.first_shard_part >= info.shards {
            return Err(unknown);
        }
        Ok(PartKind::Rows { partition: partition as u32, shard: part - info.first_shard_part })
    }

    /// The part ids of partition `partition`'s int8 row shards (empty for no such partition):
    /// what the second round may fetch of it, known from the head alone.
    pub fn shard_parts(&self, partition: u32) -> std::ops::Range<PartId> {
        self.head.partitions.get(partition as usize).map_or(0..0, |p| p.first_shard_part..p.first_shard_part + p.shards)
    }

    /// Whether the index lists its parts' files itself (format 2 on: the head its
    /// partitions' codes, each codes part its row shards'), so no catalog needs to.
    pub fn lists_part_files(&self) -> bool {
        self.head.lists_part_files()
    }

    /// How part `part`'s file is listed: a partition's codes by the head, a row shard by its
    /// partition's codes, which must be attached first (as a search names them: round 2 after
    /// round 1). `None` in a format-1 index (the bundle's catalog pages list its parts).
    pub fn part_file(&self, part: PartId) -> Result<Option<PartFile>, DenseError> {
        if !self.lists_part_files() {
            return Ok(None);
        }
        let unknown = DenseError::UnknownPart { part, parts: self.part_count() };
        match self.part_kind(part)? {
            PartKind::Codes { partition } => Ok(Some(*self.head.files.get(partition as usize).ok_or(unknown)?)),
            PartKind::Rows { partition, shard } => {
                let codes = self.codes[partition as usize]
                    .as_ref()
                    .ok_or(DenseError::PartOutOfOrder { part, codes: partition })?;
                Ok(Some(*codes.shard_files.get(shard as usize).ok_or(unknown)?))
            }
        }
    }

    /// Every vector of the attached row shards, dequantised, with its item: how a rebuild
    /// reuses the vectors of a bundle it replaces.
    pub fn attached_vectors(&self) -> Vec<(u32, Vec<f32>)> {
        let mut out = Vec::new();
        let mut parts: Vec<&PartId> = self.shards.keys().collect();
        parts.sort_unstable();
        for &part in parts {
            let (Some(rows), Ok(PartKind::Rows { partition, shard })) = (self.shards.get(&part), self.part_kind(part))
            else {
                continue;
            };
            let Some(codes) = &self.codes[partition as usize] else { continue };
            let start = codes.shard_starts[shard as usize] as usize;
            for i in 0..rows.len() {
                if let (Some(&item), Some(vector)) = (codes.items.get(start + i), rows.dequantize(i as u32)) {
                    out.push((item, vector));
                }
            }
        }
        out
    }

    /// The cosine of `query` with `item`'s best vector among the attached parts, and whether
    /// it is exact (every such row's int8 shard attached) rather than estimated from the 4-bit
    /// codes; `None` when no attached partition holds the item. What hybrid search scores a
    /// keyword candidate outside the dense list with, without fetching more.
    pub fn attached_item_cosine(&self, query: &[f32], item: u32) -> Option<(f32, bool)> {
        if query.len() != self.head.dims {
            return None;
        }
        let mut tables = None;
        let mut best: Option<(f32, bool)> = None;
        for (p, codes) in self.codes.iter().enumerate() {
            let Some(codes) = codes else { continue };
            for (row, _) in codes.items.iter().enumerate().filter(|(_, &i)| i == item) {
                let shard = codes.shard_starts.partition_point(|&s| s as usize <= row) - 1;
                let part = self.head.partitions[p].first_shard_part + shard as u32;
                let (score, exact) = match self.shards.get(&part) {
                    Some(rows) => {
                        (rows.cosine_unchecked(query, (row - codes.shard_starts[shard] as usize) as u32), true)
                    }
                    None => {
                        let (table, centroids) = tables
                            .get_or_insert_with(|| (self.head.pq.table(query), self.head.centroids.scores(query)));
                        let len = self.head.pq.code_len();
                        let code = codes.codes.get(row * len..(row + 1) * len).unwrap_or_default();
                        (centroids.get(p).copied().unwrap_or(0.0) + ProductQuantizer::score(table, code), false)
                    }
                };
                best = Some(match best {
                    Some((b, all_exact)) => (b.max(score), all_exact && exact),
                    None => (score, exact),
                });
            }
        }
        best
    }

    pub fn is_attached(&self, part: PartId) -> bool {
        match self.part_kind(part) {
            Ok(PartKind::Codes { partition }) => self.codes[partition as usize].is_some(),
            Ok(PartKind::Rows { .. }) => self.shards.contains_key(&part),
            Err(_) => false,
        }
    }

    /// Partitions a search probes (default: the head's, chosen at build).
    pub fn probe(&self) -> usize {
        self.probe
    }

    pub fn set_probe(&mut self, probe: usize) -> Result<(), DenseError> {
        if probe == 0 {
            return Err(DenseError::InvalidConfig("probe must be at least 1"));
        }
        self.probe = probe;
        Ok(())
    }

    /// Candidates a search rescores with int8 rows (default: the head's).
    pub fn rescore(&self) -> usize {
        self.rescore
    }

    pub fn set_rescore(&mut self, rescore: usize) -> Result<(), DenseError> {
        if rescore == 0 {
            return Err(DenseError::InvalidConfig("rescore must be at least 1"));
        }
        self.rescore = rescore;
        Ok(())
    }

    /// Adds a fetched part, after checking it belongs to this index and is whole. A shard's
    /// rows need its partition's codes first (they say how many rows the shard has).
    pub fn attach(&mut self, part: PartId, bytes: &[u8]) -> Result<(), DenseError> {
        match self.part_kind(part)? {
            PartKind::Codes { partition } => {
                let codes = CodesPart::read(bytes, &self.head, partition)?;
                self.codes[partition as usize] = Some(codes);
            }
            PartKind::Rows { partition, shard } => {
                let codes = self.codes[partition as usize]
                    .as_ref()
                    .ok_or(DenseError::PartOutOfOrder { part, codes: partition })?;
                let (start, end) = (codes.shard_starts[shard as usize], codes.shard_starts[shard as usize + 1]);
                let rows = read_rows_part(bytes, &self.head, part, end - start)?;
                self.shards.insert(part, rows);
            }
        }
        Ok(())
    }

    /// Bytes the attached parts and the head take in memory (approximately).
    pub fn memory_bytes(&self) -> usize {
        let head = self.head.partitions.len() * (self.head.centroids.bytes_per_centroid(self.head.dims) + 48)
            + 40 * self.head.dims;
        let codes: usize =
            self.codes.iter().flatten().map(|c| c.codes.len() + 4 * c.items.len() + 4 * c.shard_starts.len()).sum();
        let rows: usize = self.shards.values().map(|v| v.len() * (4 + v.dims()) + 64).sum();
        head + codes + rows
    }

    /// The parts a search for `query` still lacks, in the order to fetch them (all of them at
    /// once, in parallel); empty when [`search`](Self::search) can answer.
    pub fn needed_parts(&self, query: &[f32], k: usize, filter: &PartFilter<'_>) -> Result<Vec<PartId>, DenseError> {
        Ok(match self.search(query, k, filter)? {
            PartSearch::NeedParts(parts) => parts,
            PartSearch::Found(_) => Vec::new(),
        })
    }

    /// The `k` items most similar to `query` (a unit-length embedding from the index's model)
    /// among those `filter` allows, each scored by its best vector; or the parts to attach
    /// first. The parts named depend only on the question, the filter and the index, never on
    /// what earlier questions attached, so results are the same cold or warm.
    pub fn search(&self, query: &[f32], k: usize, filter: &PartFilter<'_>) -> Result<PartSearch, DenseError> {
        if query.len() != self.head.dims {
            return Err(DenseError::QueryDims { expected: self.head.dims, found: query.len() });
        }
        if query.iter().any(|x| !x.is_finite()) {
            return Err(DenseError::QueryNotFinite);
        }
        if k == 0 {
            return Ok(PartSearch::Found(Vec::new()));
        }
        let pick = |item: u32| match filter.pick {
            Some(pick) => pick(item),
            None => Some(item),
        };

        // Partitions by centroid score, those serving the filter's versions only.
        let centroid_scores = self.head.centroids.scores(query);
        let mut order: Vec<(f32, u32)> = (0..self.head.partitions.len() as u32)
            .filter(|&p| {
                filter.version_slots.is_empty()
                    || filter.version_slots.iter().any(|&s| self.head.partitions[p as usize].serves(s))
            })
            .map(|p| (centroid_scores.get(p as usize).copied().unwrap_or(f32::NEG_INFINITY), p))
            .collect();
        crate::sort::sort_by(&mut order, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));

        // Round 1: the nearest partitions' codes, more if the filter leaves too few items.
        let table = self.head.pq.table(query);
        let code_len = self.head.pq.code_len();
        let mut probe = self.probe.min(order.len());
        let candidates = loop {
            let missing: Vec<PartId> =
                order[..probe].iter().map(|&(_, p)| p).filter(|&p| self.codes[p as usize].is_none()).collect();
            if !missing.is_empty() {
                return Ok(PartSearch::NeedParts(missing));
            }
            let mut candidates = Vec::new();
            for &(centroid_score, p) in &order[..probe] {
                let Some(codes) = &self.codes[p as usize] else { continue };
                for (row, (&item, code)) in codes.items.iter().zip(codes.codes.chunks_exact(code_len)).enumerate() {
                    if let Some(item) = pick(item) {
                        let estimate = centroid_score + ProductQuantizer::score(&table, code);
                        candidates.push(Candidate { estimate, partition: p, row: row as u32, item });
                    }
                }
            }
            let enough = || {
                let mut items: Vec<u32> = candidates.iter().map(|c| c.item).collect();
                crate::sort::sort_dedup(&mut items);
                items.len() >= k
            };
            if probe == order.len() || enough() {
                break candidates;
            }
            probe = (probe * 2).min(order.len());
        };

        // Round 2: the shards of the best distinct candidates.
        let mut candidates = candidates;
        crate::sort::sort_by(&mut candidates, |a, b| {
            b.estimate.total_cmp(&a.estimate).then(a.partition.cmp(&b.partition)).then(a.row.cmp(&b.row))
        });
        let want = self.rescore.max(k);
        let mut chosen_items: Vec<u32> = Vec::with_capacity(want);
        let mut shards: Vec<PartId> = Vec::new();
        for c in &candidates {
            if chosen_items.len() == want {
                break;
            }
            if chosen_items.contains(&c.item) {
                continue;
            }
            chosen_items.push(c.item);
            let Some(codes) = &self.codes[c.partition as usize] else { continue };
            let shard = codes.shard_starts.partition_point(|&s| s <= c.row) - 1;
            shards.push(self.head.partitions[c.partition as usize].first_shard_part + shard as u32);
        }
        crate::sort::sort_dedup(&mut shards);
        let missing: Vec<PartId> = shards.iter().copied().filter(|p| !self.shards.contains_key(p)).collect();
        if !missing.is_empty() {
            return Ok(PartSearch::NeedParts(missing));
        }

        // Every row of those shards, scored exactly; an item by its best row.
        let mut best: HashMap<u32, f32> = HashMap::new();
        for &part in &shards {
            let (Some(rows), Ok(PartKind::Rows { partition, shard })) = (self.shards.get(&part), self.part_kind(part))
            else {
                continue;
            };
            let Some(codes) = &self.codes[partition as usize] else { continue };
            let start = codes.shard_starts[shard as usize] as usize;
            for i in 0..rows.len() {
                let Some(item) = codes.items.get(start + i).and_then(|&item| pick(item)) else { continue };
                let score = rows.cosine_unchecked(query, i as u32);
                let entry = best.entry(item).or_insert(f32::NEG_INFINITY);
                *entry = entry.max(score);
            }
        }
        let mut top = TopK::new(k);
        for (item, score) in best {
            top.push(item, score);
        }
        Ok(PartSearch::Found(top.into_sorted().into_iter().map(|s| (s.index, s.score)).collect()))
    }
}
