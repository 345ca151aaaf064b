//! Every error code the retrieval API raises, with the suggestion a reader can act on: the one
//! table. The facade throws the core's (`errors.rs`); the JS layer (www/lectern-js) raises
//! ABORTED, WORKER_CRASHED and INTERNAL. scripts/build-pkg.sh writes pkg/error-codes.js and
//! the `LecternErrorCode` union from it (`typescript.rs`), so no JS file names a code or a
//! suggestion of its own. Compiled on every target, for that generator.

use crate::query::Invalid;
use serde::Serialize;

/// Serialised as the stable code (`"INDEX_UNAVAILABLE"`, `"EMPTY_QUESTION"`, …) that an
/// error's `name` and `code` carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "LecternErrorCode"))]
pub enum Code {
    /// An unknown or out-of-range option (`k` 1–50, …).
    InvalidOptions,
    InvalidArgument,
    /// The index (manifest, chunk table, a term or chunk shard, the dense index) is missing,
    /// corrupt or of another format version, or not loaded yet.
    IndexUnavailable,
    /// The model or tokenizer could not be loaded, or is not loaded yet.
    ModelUnavailable,
    /// The model's fingerprint differs from the one the index was built with.
    ModelMismatch,
    /// A text shard is missing or corrupt, or not loaded yet.
    TextUnavailable,
    /// Raised by the JS layer: a newer search superseded this one, its signal aborted, or the
    /// API was closed.
    Aborted,
    /// Raised by the JS layer: the search worker died (the next call starts a new one).
    WorkerCrashed,
    /// Raised by the JS layer: anything unforeseen.
    Internal,
    /// A question or selection outside the limits (`crate::query`): its own code and a
    /// suggestion naming the limit.
    #[serde(untagged)]
    Invalid(Invalid),
}

impl Code {
    /// Every code whose suggestion is fixed (all but a refused query's): the table of
    /// pkg/error-codes.js, which the JS layer reads.
    pub const FIXED: [Code; 9] = [
        Code::InvalidOptions,
        Code::InvalidArgument,
        Code::IndexUnavailable,
        Code::ModelUnavailable,
        Code::ModelMismatch,
        Code::TextUnavailable,
        Code::Aborted,
        Code::WorkerCrashed,
        Code::Internal,
    ];

    /// The stable code (what this serialises as).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidOptions => "INVALID_OPTIONS",
            Code::InvalidArgument => "INVALID_ARGUMENT",
            Code::IndexUnavailable => "INDEX_UNAVAILABLE",
            Code::ModelUnavailable => "MODEL_UNAVAILABLE",
            Code::ModelMismatch => "MODEL_MISMATCH",
            Code::TextUnavailable => "TEXT_UNAVAILABLE",
            Code::Aborted => "ABORTED",
            Code::WorkerCrashed => "WORKER_CRASHED",
            Code::Internal => "INTERNAL",
            Code::Invalid(reason) => reason.code(),
        }
    }

    /// What the reader can do about it.
    pub fn suggestion(self) -> String {
        let fixed = match self {
            Code::InvalidOptions | Code::InvalidArgument => "Check the arguments against the documented API.",
            Code::IndexUnavailable => "Reload the page; if it persists, the site's search index needs rebuilding.",
            Code::ModelUnavailable => "Search still works by keywords; reload the page to retry loading the model.",
            Code::ModelMismatch => {
                "Search still works by keywords; the site must serve the model its index was built with."
            }
            Code::TextUnavailable => "Reload the page; the section's text could not be loaded.",
            Code::Aborted => "A newer question replaced this one.",
            Code::WorkerCrashed => "Try again: the search worker was restarted.",
            Code::Internal => "Reload the page.",
            Code::Invalid(reason) => return reason.suggestion(),
        };
        fixed.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_serialises_as_its_name_and_has_a_suggestion() {
        let mut all = Code::FIXED.to_vec();
        all.extend(Invalid::ALL.map(Code::Invalid));
        for code in all {
            // A new code fails to compile here until it is in FIXED (or is a refused query's).
            match code {
                Code::InvalidOptions
                | Code::InvalidArgument
                | Code::IndexUnavailable
                | Code::ModelUnavailable
                | Code::ModelMismatch
                | Code::TextUnavailable
                | Code::Aborted
                | Code::WorkerCrashed
                | Code::Internal
                | Code::Invalid(_) => {}
            }
            assert_eq!(serde_json::to_value(code).ok(), Some(code.as_str().into()), "{code:?}");
            assert!(!code.suggestion().is_empty(), "{code:?}");
        }
        assert_eq!(Code::Invalid(Invalid::SelectionTooShort).suggestion(), "Select at least 10 characters of text.");
    }
}
