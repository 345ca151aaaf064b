//! Retrieval over a loaded bundle: hybrid dense + lexical search, fusion, confidence.

//! Without the `search` feature only the confidence levels and fusion remain (the chat
//! layer rates and cites what the worker retrieved).

mod confidence;
mod fusion;
#[cfg(feature = "search")]
mod hybrid;
#[cfg(feature = "search")]
mod sharded;

pub use confidence::{Confidence, ConfidenceRule, Signals};
pub use fusion::{reciprocal_rank_fusion, RankedList};
#[cfg(feature = "search")]
pub use hybrid::{Hit, HybridSearch, SearchMode, SearchOptions, SearchResults};
#[cfg(feature = "search")]
pub use sharded::{NeededFile, Part, ShardedError, ShardedSearch, PAGES_AT_OPEN};

#[cfg(feature = "search")]
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("invalid search options: {0}")]
    InvalidOptions(String),
    #[error("dense search needs the embedding model and the index vectors, which are not loaded yet")]
    DenseUnavailable,
    #[error("the index is inconsistent: {0}")]
    Inconsistent(String),
    #[error(transparent)]
    Dense(#[from] crate::dense::DenseError),
}
