//! Retrieval over a loaded bundle: hybrid dense + lexical search, fusion, confidence.

mod confidence;
mod fusion;
mod hybrid;

pub use confidence::{Confidence, ConfidenceCutoffs};
pub use fusion::{reciprocal_rank_fusion, RankedList};
pub use hybrid::{Hit, HybridSearch, SearchMode, SearchOptions, SearchResults};

use thiserror::Error;

#[derive(Debug, Error)]
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
