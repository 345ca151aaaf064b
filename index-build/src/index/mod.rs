//! From a read site to the bundle's embedded chunks, re-embedding only what changed.

mod embedder;
mod incremental;
mod pipeline;
#[cfg(test)]
mod wordpiece_parity;

pub use embedder::ChunkEmbedder;
pub use incremental::PreviousVectors;
pub use pipeline::{embed_chunks, EmbedStats, EmbeddedChunk};
