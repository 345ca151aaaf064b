//! A dense index in parts, for sites too large for one file: a question fetches only the parts
//! near its vector, as it fetches only the term shards of its words.
//!
//! At build time the vectors are partitioned by k-means (within groups of sections that serve
//! the same doc versions); the head holds the centroids and a 4-bit product quantiser, and is
//! fetched when the index opens. A question then takes two rounds: the compact codes of the
//! partitions nearest it (round 1), and the int8 rows of the shards holding its best
//! candidates by those codes (round 2), rescored exactly. Sections repeated unchanged across
//! versions are stored once. Formats: `format.rs`; measurements: `src/dense/bench_notes.md`.

mod build;
mod config;
mod format;
mod index;
mod kmeans;
mod pq;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod corrupt_input_tests;
#[cfg(test)]
mod tests;

pub use build::{build, BuildStats, PartitionedFiles, PartitionedInput};
pub use config::PartitionedConfig;
pub use format::{PartFile, OLDEST_PARTITIONED_FORMAT_VERSION, PARTITIONED_FORMAT_VERSION};
pub use index::{PartFilter, PartId, PartKind, PartSearch, PartitionedIndex};
