use thiserror::Error;

/// Everything that can go wrong while building, loading or configuring a lexical index.
///
/// Searching never fails: an empty or unmatched query gives no hits. Load errors say
/// whether the file is the wrong one, from another version, cut short or damaged, because
/// each has a different fix (point at the right file, rebuild, re-download).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum LexicalError {
    #[error("this is not a Lectern lexical index (its first bytes are wrong): check that the bundle's lexical file is the one `lectern build` wrote")]
    NotAnIndex,
    #[error("the lexical index has format version {found}, but this Lectern reads version {expected}: rebuild the index with the Lectern version the site runs")]
    UnsupportedVersion { found: u16, expected: u16 },
    #[error("the lexical index was built with tokenizer version {found}, but this Lectern tokenizes queries with version {expected}: rebuild the index so queries and documents are split the same way")]
    TokenizerMismatch { found: u16, expected: u16 },
    #[error(
        "the lexical index is cut short while reading {section}: the file is incomplete (re-download or rebuild it)"
    )]
    Truncated { section: &'static str },
    #[error("the lexical index is damaged ({0}): rebuild it, and check that the server delivers the file unmodified")]
    Corrupt(String),
    #[error("BM25 parameter {name} = {value} is out of range: {expected}")]
    InvalidParameter { name: &'static str, value: f32, expected: &'static str },
    #[error(
        "{count} documents are too many for one lexical index (at most {max}): split the site into several indexes"
    )]
    TooManyDocuments { count: usize, max: usize },
}
