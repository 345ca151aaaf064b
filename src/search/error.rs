//! Why a search was refused.

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("invalid search options: {0}")]
    InvalidOptions(String),
    #[error("dense search needs the embedding model and the index vectors, which are not loaded yet")]
    DenseUnavailable,
    #[error("the {parts} parts of the dense index this question's vector needs are not attached yet")]
    DensePartsMissing { parts: usize },
    #[error("the index is inconsistent: {0}")]
    Inconsistent(String),
    #[error(transparent)]
    Dense(#[from] crate::dense::DenseError),
}
