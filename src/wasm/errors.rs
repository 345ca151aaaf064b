//! The facade's one error shape: a JS `Error` whose `name` and `code` are a stable code
//! (`codes.rs`), with a `suggestion` a reader can act on and, where the core says more, a
//! `detail` naming the exact cause. JS code branches on `code`, never on the message.

use super::codes::Code;
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

/// Builds the JS error for `code` with `message`; `detail` names the exact cause.
pub fn js_error(code: Code, message: impl std::fmt::Display, detail: Option<&str>) -> JsError {
    coded_error(code.as_str(), &message.to_string(), &code.suggestion(), detail)
}

/// A query the reader must change, with the limit's message. The chat's refused questions
/// are `ChatError::refused`, told through their turn.
#[cfg(any(feature = "search", feature = "embed"))]
pub fn invalid_error(reason: Invalid) -> JsError {
    js_error(Code::Invalid(reason), reason.message(), None)
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
