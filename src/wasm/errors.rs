//! The facade's one error shape: a JS `Error` whose `name` and `code` are a stable code
//! (SPEC.md §3), with a `suggestion` a reader can act on and, where the core says more, a
//! `detail` naming the exact cause. JS code branches on `code`, never on the message.

#[cfg(feature = "search")]
use crate::bundle::BundleError;
#[cfg(feature = "chat")]
use crate::chat::ChatError;
#[cfg(feature = "embed")]
use crate::embed::EmbedError;
#[cfg(any(feature = "search", feature = "embed"))]
use crate::query::Invalid;
#[cfg(feature = "search")]
use crate::search::SearchError;
use wasm_bindgen::prelude::*;

/// Stable error codes. The JS layer adds `ABORTED`, `WORKER_CRASHED` and `NETWORK_ERROR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    InvalidOptions,
    InvalidArgument,
    /// The index (manifest, chunk metadata, lexical or dense file) is missing, corrupt or
    /// of another format version, or not loaded yet.
    IndexUnavailable,
    /// The model or tokenizer could not be loaded, or is not loaded yet.
    ModelUnavailable,
    /// The model's fingerprint differs from the one the index was built with.
    ModelMismatch,
    /// A text shard is missing or corrupt, or not loaded yet.
    TextUnavailable,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidOptions => "INVALID_OPTIONS",
            Code::InvalidArgument => "INVALID_ARGUMENT",
            Code::IndexUnavailable => "INDEX_UNAVAILABLE",
            Code::ModelUnavailable => "MODEL_UNAVAILABLE",
            Code::ModelMismatch => "MODEL_MISMATCH",
            Code::TextUnavailable => "TEXT_UNAVAILABLE",
        }
    }

    fn suggestion(self) -> &'static str {
        suggestion_for(self.as_str())
    }
}

/// Every code the retrieval API raises (the core's, and the JS layer's ABORTED,
/// WORKER_CRASHED and INTERNAL) with the suggestion a reader can act on: the one table.
/// scripts/build-pkg.sh generates pkg/error-codes.js from it (`errorSuggestions`), so no JS
/// file writes a suggestion of its own.
pub const SUGGESTIONS: [(&str, &str); 9] = [
    ("INVALID_OPTIONS", "Check the arguments against the documented API."),
    ("INVALID_ARGUMENT", "Check the arguments against the documented API."),
    ("INDEX_UNAVAILABLE", "Reload the page; if it persists, the site's search index needs rebuilding."),
    ("MODEL_UNAVAILABLE", "Search still works by keywords; reload the page to retry loading the model."),
    ("MODEL_MISMATCH", "Search still works by keywords; the site must serve the model its index was built with."),
    ("TEXT_UNAVAILABLE", "Reload the page; the section's text could not be loaded."),
    ("ABORTED", "A newer question replaced this one."),
    ("WORKER_CRASHED", "Try again: the search worker was restarted."),
    ("INTERNAL", "Reload the page."),
];

fn suggestion_for(code: &str) -> &'static str {
    SUGGESTIONS.iter().find(|(c, _)| *c == code).map_or("", |(_, s)| s)
}

/// The table of codes and suggestions, `{ CODE: suggestion }`.
#[wasm_bindgen(js_name = errorSuggestions, unchecked_return_type = "Record<string, string>")]
pub fn error_suggestions() -> Result<JsValue, JsError> {
    let table: std::collections::BTreeMap<&str, &str> = SUGGESTIONS.into_iter().collect();
    super::convert::to_js(&table)
}

/// Builds the JS error for `code` with `message`; `detail` names the exact cause.
pub fn js_error(code: Code, message: impl std::fmt::Display, detail: Option<&str>) -> JsError {
    coded_error(code.as_str(), &message.to_string(), code.suggestion(), detail)
}

/// A query the reader must change (SPEC.md's validation messages and codes). The chat's
/// refused questions are `ChatError::refused`, told through their turn.
#[cfg(any(feature = "search", feature = "embed"))]
pub fn invalid_error(reason: Invalid) -> JsError {
    coded_error(reason.code(), &reason.message(), &reason.suggestion(), None)
}

#[cfg(feature = "chat")]
/// A chat failure; `retryable` tells the UI whether to offer a retry.
pub fn chat_error(err: &ChatError) -> JsError {
    let error = coded_error(err.code.as_str(), &err.message, &err.suggestion, err.detail.as_deref());
    let value: JsValue = error.clone().into();
    let _ = js_sys::Reflect::set(&value, &"retryable".into(), &err.retryable.into());
    error
}

/// The one error shape: `name` and `code` set to the stable code, plus `suggestion` and
/// `detail`.
fn coded_error(code: &str, message: &str, suggestion: &str, detail: Option<&str>) -> JsError {
    let error = JsError::new(message);
    // A clone refers to the same JS object, so setting properties on it marks `error`.
    let value: JsValue = error.clone().into();
    // Setting a property of a fresh Error object cannot fail; the Results carry nothing.
    let set = |key: &str, v: JsValue| {
        let _ = js_sys::Reflect::set(&value, &key.into(), &v);
    };
    set("name", code.into());
    set("code", code.into());
    set("suggestion", suggestion.into());
    if let Some(detail) = detail {
        set("detail", detail.into());
    }
    error
}

#[cfg(feature = "search")]
/// A bundle error while loading `what` (index files, the model files or a text shard).
pub fn bundle_error(what: Code, err: BundleError) -> JsError {
    let detail = match &err {
        BundleError::ManifestInvalid(_) => "MANIFEST_INVALID",
        BundleError::WrongVersion { .. } => "WRONG_VERSION",
        BundleError::WrongModel { .. } => return js_error(Code::ModelMismatch, err, Some("WRONG_MODEL")),
        BundleError::MissingFile { .. } => "MISSING_FILE",
        BundleError::WrongSize { .. } => "WRONG_SIZE",
        BundleError::ChecksumMismatch { .. } => "CHECKSUM_MISMATCH",
        BundleError::Corrupt { .. } => "CORRUPT",
        BundleError::Inconsistent(_) => "INCONSISTENT",
    };
    js_error(what, err, Some(detail))
}

#[cfg(feature = "embed")]
pub fn embed_error(err: EmbedError) -> JsError {
    match err {
        EmbedError::EmptyText => invalid_error(Invalid::EmptyQuestion),
        EmbedError::ModelInvalid(_) | EmbedError::UnsupportedInput(_) | EmbedError::WrongDimension { .. } => {
            js_error(Code::ModelUnavailable, err, Some("MODEL_INVALID"))
        }
        EmbedError::ModelCorrupt(_) => js_error(Code::ModelUnavailable, err, Some("MODEL_CORRUPT")),
        EmbedError::ModelVersion { .. } => js_error(Code::ModelUnavailable, err, Some("WRONG_VERSION")),
        EmbedError::WordsMissing(_) => js_error(Code::ModelUnavailable, err, Some("WORDS_MISSING")),
        EmbedError::TokenizerInvalid(_) | EmbedError::TokenizerUnsupported(_) => {
            js_error(Code::ModelUnavailable, err, Some("TOKENIZER_INVALID"))
        }
        _ => js_error(Code::ModelUnavailable, err, None),
    }
}

#[cfg(feature = "search")]
pub fn search_error(err: SearchError) -> JsError {
    match err {
        SearchError::InvalidOptions(_) => js_error(Code::InvalidOptions, err, None),
        SearchError::DenseUnavailable => js_error(Code::ModelUnavailable, err, Some("NOT_LOADED")),
        SearchError::Inconsistent(_) | SearchError::Dense(_) => js_error(Code::IndexUnavailable, err, None),
    }
}
