//! The word-embedding table, outside the graph: 30,522 rows of which a question needs a
//! dozen. The compact file keeps it in shards of consecutive rows (`format.rs`); the
//! embedder looks the question's rows up here and feeds them to the graph as the input
//! [`INPUT`]. A bundle ships the shards as files of their own, so the browser fetches only
//! the shards of a question's word pieces (`missing`, then `add`), never the whole table;
//! `lectern build` has them all. Both scale the same codes by the same f16 scales, so the
//! vectors are the same.

use super::format::{corrupt, TensorRecord};
use super::quant;
use crate::embed::EmbedError;

/// The graph input that takes the looked-up rows, `[batch, sequence, cols]` f32.
pub const INPUT: &str = "lectern_word_embeddings";

/// The table: its shape and quantisation, each shard's checksum (from the head), and the
/// shards at hand, decoded to codes and f32 scales.
#[derive(Debug)]
pub struct WordTable {
    record: TensorRecord,
    rows: usize,
    cols: usize,
    group: usize,
    bits: u8,
    per_shard: usize,
    shards: Vec<Option<Shard>>,
}

#[derive(Debug)]
struct Shard {
    scales: Vec<f32>,
    codes: Vec<i8>,
}

impl WordTable {
    /// The table of a sharded record, with the shards the file carried (all, or none).
    pub(super) fn new(record: TensorRecord, shards: Vec<Vec<u8>>) -> Result<Self, EmbedError> {
        let super::format::Encoding::Sharded { bits, group, rows: per_shard } = record.encoding else {
            return Err(corrupt(format!("tensor {} is not sharded", record.name)));
        };
        let (rows, cols) = record.matrix()?;
        let count = record.shard_count();
        let mut table = WordTable {
            rows,
            cols,
            group: group as usize,
            bits,
            per_shard: per_shard as usize,
            shards: (0..count).map(|_| None).collect(),
            record,
        };
        // `format::read` checked these against the head already.
        for (index, bytes) in shards.iter().enumerate() {
            table.decode(index, bytes);
        }
        Ok(table)
    }

    /// Values per row (the model's width).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Shards in all.
    pub fn shard_count(&self) -> usize {
        self.shards.len()
    }

    /// The shards (sorted, once each) that rows `ids` live in and that are not at hand.
    pub fn missing(&self, ids: &[i64]) -> Vec<usize> {
        let mut missing: Vec<usize> = ids
            .iter()
            .filter_map(|&id| usize::try_from(id).ok())
            .map(|id| id / self.per_shard)
            .filter(|&s| matches!(self.shards.get(s), Some(None)))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        missing
    }

    /// Adds shard `index`, after checking it against its sha256 in the model's head.
    pub fn add(&mut self, index: usize, bytes: &[u8]) -> Result<(), EmbedError> {
        let lens = self.record.shard_lens()?;
        let Some(&len) = lens.get(index) else {
            return Err(corrupt(format!("the word table has {} shards, not {}", lens.len(), index + 1)));
        };
        if bytes.len() != len {
            return Err(corrupt(format!("shard {index} of the word table is {} bytes, not {len}", bytes.len())));
        }
        self.record.check_shard(index, bytes)?;
        self.decode(index, bytes);
        Ok(())
    }

    /// Keeps shard `index`, whose bytes are checked, as codes and f32 scales.
    fn decode(&mut self, index: usize, bytes: &[u8]) {
        let values = len_rows(self.rows, self.per_shard, index) * self.cols;
        let (scales, codes) = quant::decode(bytes, values, self.group, self.bits);
        self.shards[index] = Some(Shard { scales, codes });
    }

    /// The rows of `ids`, one after the other (`ids.len() * cols` values); each value is its
    /// code times its group's scale.
    pub fn lookup(&self, ids: &[i64]) -> Result<Vec<f32>, EmbedError> {
        let mut out = Vec::with_capacity(ids.len() * self.cols);
        for &id in ids {
            let row = usize::try_from(id).ok().filter(|&r| r < self.rows).ok_or_else(|| {
                EmbedError::Inference(format!("word piece {id} is outside the word table ({} rows)", self.rows))
            })?;
            let shard = row / self.per_shard;
            let Some(Some(data)) = self.shards.get(shard) else {
                return Err(EmbedError::WordsMissing(self.missing(ids)));
            };
            let local = row % self.per_shard;
            let codes = &data.codes[local * self.cols..][..self.cols];
            let scales = &data.scales[local * self.cols / self.group..];
            out.extend(codes.iter().enumerate().map(|(c, &q)| f32::from(q) * scales[c / self.group]));
        }
        Ok(out)
    }
}

/// Rows in shard `index` (the last one may hold fewer).
fn len_rows(rows: usize, per_shard: usize, index: usize) -> usize {
    per_shard.min(rows - index * per_shard)
}
