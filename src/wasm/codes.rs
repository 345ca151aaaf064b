//! Every error code the retrieval API raises. What a reader is told for each (message,
//! suggestion, action) is the advice table's (`crate::advice`); the facade throws the core's
//! codes (`errors.rs`), the JS layer (www/lectern-js) raises ABORTED, WORKER_CRASHED and
//! INTERNAL. scripts/build-pkg.sh writes pkg/error-codes.js (the advice table) and the
//! `LecternErrorCode` union from these (`typescript.rs`), so no JS file names a code or a
//! reader's text of its own. Compiled on every target, for that generator.

use crate::advice::{advice, Advice};
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

    /// What the reader is told, when the error's exact cause is `detail`.
    pub fn advice(self, detail: Option<&str>) -> Advice {
        advice(self.as_str(), detail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_serialises_as_its_name_and_has_its_advice() {
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
            // Its own row of the advice table, not the fallback for unknown codes.
            let own = crate::advice::TABLE.iter().any(|row| row.code == code.as_str());
            assert!(own || matches!(code, Code::Invalid(_)), "{code:?} has no row in the advice table");
        }
        assert_eq!(
            Code::Invalid(Invalid::SelectionTooShort).advice(None).suggestion,
            "Select at least 10 characters of text."
        );
    }
}
