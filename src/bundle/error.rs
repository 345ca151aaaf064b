use thiserror::Error;

/// Why a bundle (or one of its files) was refused. Each message says what to do.
#[derive(Debug, Error)]
pub enum BundleError {
    #[error("the index manifest is not valid JSON or misses fields ({0}); rebuild the index with `lectern build`")]
    ManifestInvalid(String),
    #[error("the index has format version {found}, this Lectern reads version {expected}; rebuild the index with the same Lectern version")]
    WrongVersion { found: u32, expected: u32 },
    #[error("the index was built with model {index} but the loaded model is {model}; rebuild the index or serve the model it was built with")]
    WrongModel { index: String, model: String },
    #[error("index file {name} is missing: {reason}")]
    MissingFile { name: String, reason: String },
    /// `listed_in`: where its size was read ("the manifest", "term catalog page 3").
    #[error("index file {name} is truncated or padded: {actual} bytes, {listed_in} says {expected}")]
    WrongSize { name: String, expected: u64, actual: u64, listed_in: String },
    #[error("index file {name} is corrupt: its checksum does not match {listed_in}")]
    ChecksumMismatch { name: String, listed_in: String },
    #[error("index file {name} is corrupt: {reason}")]
    Corrupt { name: String, reason: String },
    #[error("the index is inconsistent: {0}")]
    Inconsistent(String),
}
