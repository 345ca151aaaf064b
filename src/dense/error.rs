use thiserror::Error;

/// Everything that can go wrong while quantising, indexing, searching or loading dense vectors.
///
/// The build-side variants name the offending vector so the chunk can be re-embedded; the
/// load-side variants say the bundle is damaged or stale and that rebuilding it is the fix.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum DenseError {
    #[error("there are no vectors to index: embed at least one chunk first")]
    NoVectors,
    #[error("vector {index} has no dimensions: the embedder returned an empty vector")]
    ZeroDims { index: usize },
    #[error("vectors have {dims} dimensions, more than the supported {max}: is this really a sentence embedding?")]
    TooManyDims { dims: usize, max: usize },
    #[error("vector {index} has {found} dimensions but vector 0 has {expected}: all vectors must come from one model")]
    DimsMismatch { index: usize, expected: usize, found: usize },
    #[error("vector {index} has a NaN or infinite value at position {position}: re-embed that chunk")]
    NonFinite { index: usize, position: usize },
    #[error(
        "vector {index} has a value beyond ±1 at position {position}: embeddings must be L2-normalised before indexing"
    )]
    NotNormalized { index: usize, position: usize },
    #[error("{count} vectors is more than the {max} one dense index can hold: split the site into several indexes")]
    TooManyVectors { count: usize, max: usize },
    #[error(
        "the query has {found} dimensions but the index has {expected}: embed the question with the index's model"
    )]
    QueryDims { expected: usize, found: usize },
    #[error("the query embedding contains NaN or infinite values: the embedder failed on this question")]
    QueryNotFinite,
    #[error("vector {index} does not exist: the index holds {len} vectors")]
    NoSuchVector { index: u32, len: usize },
    #[error("invalid dense index setting: {0}")]
    InvalidConfig(&'static str),

    // Loading a bundle. Any of these means the bytes are not what index-build wrote.
    #[error("the dense index is truncated in its {section}: {needed} bytes needed, {available} present; re-upload or rebuild the bundle")]
    Truncated { section: &'static str, needed: u64, available: u64 },
    #[error("these bytes are not a Lectern dense index (wrong magic number): check the bundle file name")]
    BadMagic,
    #[error("dense index format {found} is not supported by this version of Lectern (it reads format {supported}): rebuild the site's index with a matching index-build")]
    UnsupportedVersion { found: u16, supported: u16 },
    #[error("the dense index uses features unknown to this version of Lectern (flags {flags:#06x}): rebuild the index or update Lectern")]
    UnknownFlags { flags: u16 },
    #[error("the dense index header is invalid: {0}; rebuild the bundle")]
    InvalidHeader(&'static str),
    #[error("the dense index is corrupt: vector {index} has an invalid scale; rebuild the bundle")]
    InvalidScale { index: usize },
    #[error("the dense index graph is corrupt: {0}; rebuild the bundle")]
    InvalidGraph(&'static str),
    #[error("the dense index graph is corrupt: node {node} of layer {layer} has {degree} neighbours, at most {max} allowed; rebuild the bundle")]
    DegreeTooLarge { layer: usize, node: usize, degree: usize, max: usize },
    #[error("the dense index graph is corrupt: node {node} of layer {layer} links to {neighbour}, but the layer has {limit} nodes; rebuild the bundle")]
    NeighbourOutOfRange { layer: usize, node: usize, neighbour: u32, limit: usize },
    #[error("the dense index has {extra} unexpected bytes after its end: the file was damaged or concatenated; rebuild the bundle")]
    TrailingBytes { extra: usize },

    // A partitioned index's parts (`partitioned/`): fetched one by one, so each is checked
    // against the head it must belong to.
    #[error("dense index part {part} does not exist: the index has {parts} parts; the bundle's file list is out of step with its head")]
    UnknownPart { part: u32, parts: u32 },
    #[error("these bytes are dense index part {found}, not part {expected}: the files were renamed or mixed up; re-upload the bundle")]
    WrongPart { expected: u32, found: u32 },
    #[error("dense index part {part} belongs to another build of the index: a cached or half-uploaded bundle; reload the page or re-upload the bundle")]
    OtherBuild { part: u32 },
    #[error("dense index part {part} is corrupt: {reason}; rebuild the bundle")]
    InvalidPart { part: u32, reason: &'static str },
    #[error("dense index part {part} (int8 rows) came before part {codes} (its partition's codes): attach parts in the order the index names them")]
    PartOutOfOrder { part: u32, codes: u32 },
}
