//! How a partitioned index is built and, by default, searched. Every default is measured on
//! real MiniLM vectors: see `src/dense/bench_notes.md` and BENCHMARKS.md.

use crate::dense::DenseError;

/// Build settings of a [`PartitionedIndex`](super::PartitionedIndex).
#[derive(Clone, Debug, PartialEq)]
pub struct PartitionedConfig {
    /// Vectors per partition on average (k-means decides each one's size). Fewer, larger
    /// partitions make the file fetched at open smaller (one centroid each) and each probe
    /// dearer. 1..=1_000_000.
    pub partition_size: usize,
    /// Slices of the first pass's 4-bit code: a vector's code is `subspaces / 2` bytes.
    /// 1..=dims.
    pub subspaces: usize,
    /// Slices of the centroids' 4-bit codes in the head (`centroid_subspaces / 2` bytes a
    /// centroid), or 0 to store them as int8 (`4 + dims` bytes): exact, for few partitions.
    /// 0..=dims.
    pub centroid_subspaces: usize,
    /// Rows per int8 shard, the second round's unit of fetching: smaller shards fetch fewer
    /// rows besides the candidates, and make more files. 1..=65_535.
    pub shard_size: usize,
    /// Partitions a question probes (stored in the head as the search default; the default
    /// grows with the index: [`for_vectors`](Self::for_vectors)). 1..=65_535.
    pub probe: usize,
    /// Candidates (distinct items) whose int8 rows the second round fetches and rescores
    /// (stored in the head as the search default). 1..=65_535.
    pub rescore: usize,
    /// Lloyd iterations of the partitioning k-means.
    pub kmeans_iterations: usize,
    pub seed: u64,
}

/// Partitions a question probes by default, in percent of the index's partitions
/// ([`PartitionedConfig::for_vectors`]): recall@10 ≥ 0.95 against the exact scan at 10,000
/// and 30,000 real vectors took 15% and 13.5% of the partitions (`src/dense/bench_notes.md`,
/// "Phase 4"), capped at `MAX_DEFAULT_PROBE` for the bytes.
const PROBE_PERCENT: usize = 14;
/// Most partitions a question probes by default, whatever the index's size: it keeps a cold
/// question near the 300 KB at 30,000 real vectors (probe 96: 315 KB, recall 0.944;
/// 128: 367 KB, 0.952; "Phase 4"): above it recall costs more bytes than the budget has.
const MAX_DEFAULT_PROBE: usize = 96;

/// The defaults are those of an index of ~10,000 vectors (`probe` grows with the index:
/// [`PartitionedConfig::for_vectors`]). 32-row partitions with 48-byte codes: at 30,000 real
/// vectors 315 KB a cold question for recall@10 0.944 (probe 96), 367 KB for 0.952 (128),
/// where 64-row partitions needed 442 KB for 0.948 and 32-byte codes 407 KB for 0.952; at
/// 10,000, 196 KB for 0.957 (`bench_notes.md`, "Phase 4").
impl Default for PartitionedConfig {
    fn default() -> Self {
        PartitionedConfig {
            partition_size: 32,
            subspaces: 96,
            centroid_subspaces: 64,
            shard_size: 8,
            probe: 48,
            rescore: 64,
            kmeans_iterations: 12,
            seed: 0x1EC7_E2A5_EED0_0002,
        }
    }
}

/// Largest count the head stores in a u16 field.
pub(crate) const MAX_SMALL: usize = u16::MAX as usize;

impl PartitionedConfig {
    /// The defaults for `vectors` vectors of `dims` dimensions: codes of at most `dims`
    /// slices, and a probe of `PROBE_PERCENT` of the partitions, between the default's and
    /// `MAX_DEFAULT_PROBE` (a larger index needs more partitions probed for the same recall).
    pub fn for_vectors(vectors: usize, dims: usize) -> Self {
        let defaults = PartitionedConfig::default();
        let partitions = vectors.div_ceil(defaults.partition_size);
        let probe = (partitions * PROBE_PERCENT).div_ceil(100).clamp(defaults.probe, MAX_DEFAULT_PROBE);
        PartitionedConfig {
            subspaces: defaults.subspaces.min(dims),
            centroid_subspaces: defaults.centroid_subspaces.min(dims),
            probe,
            ..defaults
        }
    }

    pub(crate) fn validate(&self, dims: usize) -> Result<(), DenseError> {
        if !(1..=1_000_000).contains(&self.partition_size) {
            return Err(DenseError::InvalidConfig("partition_size must be between 1 and 1000000"));
        }
        if self.subspaces == 0 || self.subspaces > dims {
            return Err(DenseError::InvalidConfig("subspaces must be between 1 and the vectors' dimensions"));
        }
        if self.centroid_subspaces > dims {
            return Err(DenseError::InvalidConfig("centroid_subspaces must be at most the vectors' dimensions"));
        }
        if !(1..=MAX_SMALL).contains(&self.shard_size) {
            return Err(DenseError::InvalidConfig("shard_size must be between 1 and 65535"));
        }
        if !(1..=MAX_SMALL).contains(&self.probe) || !(1..=MAX_SMALL).contains(&self.rescore) {
            return Err(DenseError::InvalidConfig("probe and rescore must be between 1 and 65535"));
        }
        if self.kmeans_iterations > 1000 {
            return Err(DenseError::InvalidConfig("kmeans_iterations must be at most 1000"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_probe_grows_with_the_index_within_its_bounds() {
        let at = |vectors| PartitionedConfig::for_vectors(vectors, 384).probe;
        // 10,000 vectors: 313 partitions of 32, 14% is 44: the floor.
        assert_eq!(at(10_000), 48);
        // 20,000: 625 partitions, 14% is 88; 30,000: 938, 132, capped (measured: probe 96,
        // 315 KB, recall 0.944; 128, 367 KB, 0.952).
        assert_eq!(at(20_000), 88);
        assert_eq!(at(30_000), MAX_DEFAULT_PROBE);
        assert_eq!(at(1_000_000), MAX_DEFAULT_PROBE);
        let small = PartitionedConfig::for_vectors(3_000, 8);
        assert_eq!((small.subspaces, small.centroid_subspaces), (8, 8));
        assert!(small.validate(8).is_ok());
        assert!(PartitionedConfig::for_vectors(30_000, 384).validate(384).is_ok());
    }
}
