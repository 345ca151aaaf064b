//! Chunk shards by number (format 5, docs/DESIGN.md §4): the metadata and text of
//! `chunks_per_shard` consecutive chunks in one file, named from its number and the root of
//! the tree below (`chunks.<n>.<root>.json`). A reader names the file a result needs from the
//! chunk's index alone: no catalog page, no round trip before it, one file per shard instead
//! of two.
//!
//! The manifest still commits to every byte: each file starts with the sibling hashes on its
//! path up a Merkle tree over all the shards' contents, whose root the manifest records. A
//! file damaged, cut short, of another build or under another number does not lead to the
//! root, and is refused (`ChecksumMismatch`) before a byte of it is parsed.
//!
//! A file is one JSON array, `["<proof>",<content>]`: the proof's hashes in hex, from the leaf
//! up, then the content (`{"metas":[…],"texts":[…]}`), so a static host compresses it as it
//! does every JSON file. The reader finds the content by position (the proof's length follows
//! from the number of shards) and hashes its exact bytes; it never parses the proof as JSON.

use super::checksum::hex;
use super::chunk::ChunkMeta;
use super::error::BundleError;
use super::file_kind::FileKind;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Bytes of one hash in a proof.
const HASH_BYTES: usize = 32;
/// What comes before the proof's hex digits, between them and the content, and after it.
const OPEN: &[u8] = b"[\"";
const BETWEEN: &[u8] = b"\",";
const CLOSE: &[u8] = b"]";
/// Hex digits of the root in a shard's name: enough that two builds never share a name.
const ROOT_IN_NAME: usize = 12;

/// How the manifest lists chunk shards by number.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct NumberedShards {
    /// Shards in all; shard `n` holds chunks `n * chunks_per_shard ..` (the last one fewer).
    pub shards: usize,
    pub chunks_per_shard: usize,
    /// Lower-case hex sha256 at the root of the tree over the shards' contents.
    pub root: String,
}

/// What one shard holds: its chunks' metadata and texts, in chunk order.
#[derive(Serialize, Deserialize)]
struct Body<M, T> {
    metas: Vec<M>,
    texts: Vec<T>,
}

/// The shards as written: the manifest's entry and each file's name and bytes.
pub struct WrittenShards {
    pub listing: NumberedShards,
    pub files: Vec<(String, Vec<u8>)>,
}

impl NumberedShards {
    /// Cuts `chunks` (metadata and text) into shards of `chunks_per_shard` and proves each.
    pub fn write(chunks: &[(&ChunkMeta, &str)], chunks_per_shard: usize) -> Result<WrittenShards, BundleError> {
        let per = chunks_per_shard.max(1);
        let bodies = (chunks.chunks(per))
            .map(|shard| {
                let body = Body {
                    metas: shard.iter().map(|(meta, _)| *meta).collect(),
                    texts: shard.iter().map(|(_, text)| *text).collect(),
                };
                serde_json::to_vec(&body).map_err(|e| BundleError::Inconsistent(e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let levels = tree(bodies.iter().map(|b| leaf(b)).collect());
        let root = levels.last().and_then(|top| top.first()).map_or_else(String::new, |h| hex(h));
        let listing = NumberedShards { shards: bodies.len(), chunks_per_shard: per, root };
        let files = (bodies.into_iter().enumerate())
            .map(|(n, body)| {
                let mut bytes = OPEN.to_vec();
                bytes.extend(proof(&levels, n).iter().flat_map(|hash| hex(hash).into_bytes()));
                bytes.extend(BETWEEN);
                bytes.extend(body);
                bytes.extend(CLOSE);
                (listing.name(n), bytes)
            })
            .collect();
        Ok(WrittenShards { listing, files })
    }

    /// Chunks the shards hold in all, given the manifest's count (the last shard's may be short).
    pub fn holds(&self, chunks: usize) -> bool {
        self.chunks_per_shard > 0 && chunks.div_ceil(self.chunks_per_shard) == self.shards
    }

    /// Shard `n`'s file name.
    pub fn name(&self, n: usize) -> String {
        let root = self.root.get(..ROOT_IN_NAME).unwrap_or(&self.root);
        format!("{}.{n}.{root}.{}", FileKind::ChunkShard.stem(), FileKind::ChunkShard.extension())
    }

    /// Whether `name` is one of these shards' names.
    pub fn names(&self, name: &str) -> bool {
        let number = name.strip_prefix(FileKind::ChunkShard.stem()).and_then(|rest| rest.strip_prefix('.'));
        let n = number.and_then(|rest| rest.split('.').next()).and_then(|n| n.parse::<usize>().ok());
        n.is_some_and(|n| n < self.shards && self.name(n) == name)
    }

    /// The shard holding chunk `index`, and its place in it.
    pub fn locate(&self, index: usize) -> Option<(usize, usize)> {
        let per = self.chunks_per_shard.max(1);
        (index / per < self.shards).then_some((index / per, index % per))
    }

    /// Hashes in each file's proof: the tree's height.
    fn depth(&self) -> usize {
        self.shards.next_power_of_two().trailing_zeros() as usize
    }

    /// Shard `n`'s metadata and texts, once its proof leads from its content to the root and
    /// it holds the chunks its number says (`chunks`: the bundle's count).
    pub fn read(&self, n: usize, bytes: &[u8], chunks: usize) -> Result<(Vec<ChunkMeta>, Vec<String>), BundleError> {
        let name = self.name(n);
        let corrupt = |reason: String| BundleError::Corrupt { name: name.clone(), reason };
        if n >= self.shards {
            return Err(BundleError::Inconsistent(format!("there is no chunk shard {n}")));
        }
        let hex_len = self.depth() * HASH_BYTES * 2;
        let framed = (bytes.strip_prefix(OPEN).and_then(|rest| rest.strip_suffix(CLOSE)))
            .and_then(|inner| inner.split_at_checked(hex_len))
            .and_then(|(proof, rest)| Some((proof, rest.strip_prefix(BETWEEN)?)));
        let (proof, body) = framed.ok_or_else(|| {
            corrupt(format!("{} bytes, not a proof of {} hashes and a content", bytes.len(), self.depth()))
        })?;
        let mut hash = leaf(body);
        for (level, sibling) in proof.chunks_exact(HASH_BYTES * 2).enumerate() {
            // A digit that is not hex makes a sibling no tree has: the root is not reached.
            let sibling = unhex(sibling).unwrap_or([0xff; HASH_BYTES]);
            hash = if (n >> level) & 1 == 0 { node(&hash, &sibling) } else { node(&sibling, &hash) };
        }
        if hex(&hash) != self.root {
            return Err(BundleError::ChecksumMismatch { name, listed_in: "the manifest's chunk shard root".into() });
        }
        let body: Body<ChunkMeta, String> = serde_json::from_slice(body).map_err(|e| corrupt(e.to_string()))?;
        let expected = chunks.saturating_sub(n * self.chunks_per_shard).min(self.chunks_per_shard);
        if body.metas.len() != expected || body.texts.len() != expected {
            return Err(corrupt(format!(
                "holds {} metadata and {} texts, the manifest says {expected} chunks",
                body.metas.len(),
                body.texts.len()
            )));
        }
        for meta in &body.metas {
            meta.check_parts().map_err(corrupt)?;
        }
        Ok((body.metas, body.texts))
    }
}

/// A leaf: the hash of a shard's content (after its proof).
fn leaf(body: &[u8]) -> [u8; HASH_BYTES] {
    Sha256::new().chain_update([0]).chain_update(body).finalize().into()
}

/// A node above two others (a leaf and a node can never be taken for each other).
fn node(left: &[u8], right: &[u8]) -> [u8; HASH_BYTES] {
    Sha256::new().chain_update([1]).chain_update(left).chain_update(right).finalize().into()
}

/// The tree's levels, leaves first, up to the root; the leaves padded with zeros to a power
/// of two.
fn tree(mut leaves: Vec<[u8; HASH_BYTES]>) -> Vec<Vec<[u8; HASH_BYTES]>> {
    leaves.resize(leaves.len().next_power_of_two(), [0; HASH_BYTES]);
    let mut levels = vec![leaves];
    while levels.last().is_some_and(|l| l.len() > 1) {
        let below = levels.last().map(Vec::as_slice).unwrap_or_default();
        let above = below.chunks_exact(2).map(|pair| node(&pair[0], &pair[1])).collect();
        levels.push(above);
    }
    levels
}

/// The siblings on leaf `n`'s path to the root, from the bottom.
fn proof(levels: &[Vec<[u8; HASH_BYTES]>], n: usize) -> Vec<[u8; HASH_BYTES]> {
    let below_root = levels.len().saturating_sub(1);
    (levels.iter().take(below_root).enumerate())
        .filter_map(|(level, hashes)| hashes.get((n >> level) ^ 1).copied())
        .collect()
}

/// A hash from its lower-case hex digits (`None`: not such digits).
fn unhex(digits: &[u8]) -> Option<[u8; HASH_BYTES]> {
    let digit = |d: u8| match d {
        b'0'..=b'9' => Some(d - b'0'),
        b'a'..=b'f' => Some(d - b'a' + 10),
        _ => None,
    };
    let mut hash = [0; HASH_BYTES];
    for (byte, pair) in hash.iter_mut().zip(digits.chunks_exact(2)) {
        *byte = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    (digits.len() == HASH_BYTES * 2).then_some(hash)
}

#[cfg(test)]
#[path = "numbered_shards_tests.rs"]
mod tests;
