//! Dense retrieval: the chunks' unit-length embeddings quantised to int8, searched exactly or,
//! above a size threshold, through an HNSW graph (instant-distance) whose candidates are
//! rescored with the f32 query. The index has a byte format of its own (`format.rs`) that the
//! bundle stores as one file on a small site; a large site's is partitioned and stored in
//! parts (`partitioned`), fetched as questions need them. Everything here runs natively and in wasm: no threads are
//! required, no files, no clocks.

mod any_index;
mod byte_reader;
mod dot;
mod error;
mod format;
mod graph;
mod graph_bytes;
mod graph_point;
mod index;
mod owners;
pub mod partitioned;
mod quantized;
mod rng;
#[cfg(any(test, feature = "bench-data"))]
#[doc(hidden)]
pub mod synthetic;
mod top_k;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod corrupt_input_tests;

use byte_reader::{put_uint, ByteReader};

pub use any_index::AnyDenseIndex;

pub use dot::dot_f32;
pub use error::DenseError;
pub use format::FORMAT_VERSION;
pub use index::{DenseIndex, DenseIndexConfig, NeighbourSelection};
pub use owners::Owners;
pub use quantized::{QuantizedVectors, MAX_ABS_VALUE, MAX_DIMS, MAX_VECTORS};
