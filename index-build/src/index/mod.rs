//! From a read site to its bundle: embeds the chunks, re-embedding only what changed, and
//! writes the bundle.

mod build;
#[cfg(test)]
mod build_tests;
mod embedder;
mod incremental;
mod journal;
mod pipeline;
mod progress;
mod stand_in;
#[cfg(test)]
mod wordpiece_parity;

pub use build::{build_bundle, BuildSummary, FileSize, LocaleSummary, ShardSizes, DEFAULT_TEXT_SHARD_BYTES};
pub use embedder::ChunkEmbedder;
pub use incremental::PreviousVectors;
pub use journal::EmbedJournal;
pub use pipeline::{embed_chunks, EmbedStats};
pub use progress::{EmbedProgress, Throttle};
pub use stand_in::StandInEmbedder;
