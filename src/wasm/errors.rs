//! The facade's one error shape: a JS `Error` whose `name` and `code` are a stable code
//! (`codes.rs`), whose `message`, `suggestion` and `action` are what a reader is told (the
//! advice table, `crate::advice`), with, where the core says more, a `detail` naming the exact
//! cause and a `technical` text for the site owner (file, parser position, what to rebuild).
//! JS code branches on `code` and `detail`, never on a message.

use super::codes::Code;
use crate::advice::Action;
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

/// Builds the JS error for `code`, told as the advice table says; `technical` is what a site
/// owner needs, `detail` names the exact cause.
pub fn js_error(code: Code, technical: impl std::fmt::Display, detail: Option<&str>) -> JsError {
    let advice = code.advice(detail);
    let technical = technical.to_string();
    let error = coded_error(code.as_str(), &advice.message, &advice.suggestion, detail);
    set_fields(&error, advice.action, (!technical.is_empty()).then_some(technical.as_str()));
    error
}

/// A query the reader must change, with the limit's message.
#[cfg(any(feature = "search", feature = "embed"))]
pub fn invalid_error(reason: Invalid) -> JsError {
    js_error(Code::Invalid(reason), "", None)
}

#[cfg(feature = "chat")]
/// A chat failure; `retryable` tells the UI whether to offer a retry, `retryAfterMs` (when
/// known) how long until asking again may work.
pub fn chat_error(err: &ChatError) -> JsError {
    let error = coded_error(err.code.as_str(), &err.message, &err.suggestion, err.detail.as_deref());
    set_fields(&error, err.action, err.technical.as_deref());
    let value: JsValue = error.clone().into();
    let _ = js_sys::Reflect::set(&value, &"retryable".into(), &err.retryable.into());
    if let Some(ms) = err.retry_after_ms {
        let _ = js_sys::Reflect::set(&value, &"retryAfterMs".into(), &ms.into());
    }
    error
}

/// Adds the reader's `action` and the site owner's `technical` text to a coded error.
fn set_fields(error: &JsError, action: Action, technical: Option<&str>) {
    let value: JsValue = error.clone().into();
    if let Ok(serde_json::Value::String(action)) = serde_json::to_value(action) {
        let _ = js_sys::Reflect::set(&value, &"action".into(), &action.into());
    }
    if let Some(technical) = technical {
        let _ = js_sys::Reflect::set(&value, &"technical".into(), &technical.into());
    }
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
        SearchError::DensePartsMissing { .. } => js_error(Code::IndexUnavailable, err, Some("NOT_LOADED")),
        SearchError::Inconsistent(_) | SearchError::Dense(_) => js_error(Code::IndexUnavailable, err, None),
    }
}
