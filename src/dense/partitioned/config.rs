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
    /// Partitions a question probes (stored in the head as the search default). 1..=65_535.
    pub probe: usize,
    /// Candidates (distinct items) whose int8 rows the second round fetches and rescores
    /// (stored in the head as the search default). 1..=65_535.
    pub rescore: usize,
    /// Lloyd iterations of the partitioning k-means.
    pub kmeans_iterations: usize,
    pub seed: u64,
}

impl Default for PartitionedConfig {
    fn default() -> Self {
        PartitionedConfig {
            partition_size: 64,
            subspaces: 96,
            centroid_subspaces: 64,
            shard_size: 8,
            probe: 32,
            rescore: 64,
            kmeans_iterations: 12,
            seed: 0x1EC7_E2A5_EED0_0002,
        }
    }
}

/// Largest count the head stores in a u16 field.
pub(crate) const MAX_SMALL: usize = u16::MAX as usize;

impl PartitionedConfig {
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
