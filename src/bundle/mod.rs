//! The static index bundle: a folder of files a static host serves. `manifest.json` names
//! the others, which are content-addressed (cacheable forever): chunk metadata, BM25
//! postings, int8 vectors + HNSW graph, chunk text in shards fetched per result, and
//! (optionally) the model and tokenizer.

mod checksum;
mod chunk;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod directory;
mod error;
mod manifest;
mod reader;
mod writer;

pub use checksum::{chunk_content_hash, content_addressed_name, sha256_hex};
pub use chunk::{parse_chunk_metas, parse_text_shard, ChunkMeta};
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use directory::{load_dir, write_dir, LoadedBundle};
pub use error::BundleError;
pub use manifest::{
    Counts, FileEntry, Files, Manifest, ModelInfo, SiteInfo, TextShardEntry, FORMAT_NAME, FORMAT_VERSION,
};
pub use reader::BundleReader;
pub use writer::{lexical_index, write_bundle, BundleChunk, BundleInput, BundleOutput, ModelFileBytes};

/// The manifest's fixed file name.
pub const MANIFEST_FILE: &str = "manifest.json";
