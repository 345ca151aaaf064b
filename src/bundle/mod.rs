//! The static index bundle: a folder of files a static host serves. `manifest.json` names
//! the others, which are content-addressed (cacheable forever; their kinds: `FileKind`): the
//! chunk table (what ranking needs of every chunk), BM25 postings in term shards (listed by
//! catalog pages, `Catalog`, fetched per query), chunk metadata and text in chunk shards
//! (fetched per result: by number since format 5, `NumberedShards`; before, listed by catalog
//! pages), the dense index (int8 vectors + HNSW graph in one file on a small
//! site, in parts listed by catalog pages on a large one), and (optionally) the model and
//! tokenizer.

mod catalog;
#[cfg(test)]
mod catalog_tests;
mod checksum;
mod chunk;
mod chunk_table;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod directory;
mod error;
mod file_entry;
mod file_kind;
mod manifest;
mod numbered_shards;
mod page_key;
mod reader;
mod shard_entries;
mod writer;

pub use catalog::{Catalog, CatalogPage, FetchedPages, Shard, ShardAt, CATALOG_PAGE_SHARDS};
pub use checksum::{chunk_content_hash, sha256_hex};
pub use chunk::{parse_meta_shard, parse_text_shard, ChunkMeta, SectionPart};
pub use chunk_table::ChunkTable;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use directory::{load_dir, load_with, write_dir, LoadedBundle};
pub use error::BundleError;
pub use file_entry::FileEntry;
pub use file_kind::FileKind;
pub use manifest::{
    Counts, DenseLayout, Files, Manifest, ModelInfo, SiteInfo, FORMAT_NAME, FORMAT_VERSION, MANIFEST_FILE,
    NUMBERED_SHARDS_FORMAT_VERSION, OLDEST_FORMAT_VERSION, PAGE_TABLE_FORMAT_VERSION,
};
pub use numbered_shards::{NumberedShards, WrittenShards};
pub use page_key::{page_key, page_path};
pub use reader::BundleReader;
pub use shard_entries::{
    ChunkPageEntry, ChunkRange, ChunkShardEntry, DensePartEntry, DensePartRange, TermPageEntry, TermRange,
    TermShardEntry,
};
pub use writer::{
    lexical_index, write_bundle, BundleChunk, BundleInput, BundleOutput, ChunkLayout, DenseParts, ModelFileBytes,
    DEFAULT_TERM_SHARD_BYTES, DENSE_PARTS_THRESHOLD,
};
