//! The static index bundle: a folder of files a static host serves. `manifest.json` names
//! the others, which are content-addressed (cacheable forever): the chunk table (what
//! ranking needs of every chunk), BM25 postings in term shards, chunk metadata and text in
//! chunk shards (both listed by catalog pages, fetched per query and per result), int8
//! vectors + HNSW graph, and (optionally) the model and tokenizer.

mod checksum;
mod chunk;
mod chunk_table;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod directory;
mod error;
mod manifest;
mod reader;
mod writer;

pub use checksum::{chunk_content_hash, content_addressed_name, sha256_hex};
pub use chunk::{parse_meta_shard, parse_text_shard, ChunkMeta};
pub use chunk_table::ChunkTable;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use directory::{load_dir, load_with, write_dir, LoadedBundle};
pub use error::BundleError;
pub use manifest::{
    ChunkPageEntry, ChunkShardEntry, Counts, FileEntry, Files, Manifest, ModelInfo, SiteInfo, TermPageEntry,
    TermShardEntry, FORMAT_NAME, FORMAT_VERSION,
};
pub use reader::BundleReader;
pub use writer::{
    lexical_index, write_bundle, BundleChunk, BundleInput, BundleOutput, ModelFileBytes, CATALOG_PAGE_SHARDS,
    DEFAULT_TERM_SHARD_BYTES,
};

/// The manifest's fixed file name.
pub const MANIFEST_FILE: &str = "manifest.json";
