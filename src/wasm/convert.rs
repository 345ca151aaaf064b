//! Plain JS objects in and out, through JSON (no serde-wasm-bindgen dependency): fine for
//! the few KB a search result, a conversation or an event is.
// The embedder module alone takes no options objects.
#![cfg_attr(not(any(feature = "chat", feature = "search")), allow(dead_code))]

use super::codes::Code;
use super::errors::js_error;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

pub fn to_js(value: &impl Serialize) -> Result<JsValue, JsError> {
    let json = serde_json::to_string(value)
        .map_err(|e| js_error(Code::InvalidArgument, format!("serialising the result failed: {e}"), None))?;
    js_sys::JSON::parse(&json).map_err(|_| js_error(Code::InvalidArgument, "JSON.parse of a result failed", None))
}

/// `value` read as `T`; `undefined` and `null` give `T::default()`.
pub fn from_js<T: Default + for<'de> Deserialize<'de>>(value: JsValue) -> Result<T, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    // As bytes: the bundle's files are read so, and one reader type means one copy of
    // serde_json's parser in the module instead of two (`from_str` is `from_slice` on another
    // reader type; the text is the same).
    serde_json::from_slice(json_of(&value)?.as_bytes()).map_err(|e| bad_options(e.to_string()))
}

/// `value` as JSON text.
pub fn json_of(value: &JsValue) -> Result<String, JsError> {
    let json = js_sys::JSON::stringify(value).map_err(|_| bad_options("not JSON-serialisable".into()))?;
    json.as_string().ok_or_else(|| bad_options("not an object".into()))
}

fn bad_options(message: String) -> JsError {
    js_error(Code::InvalidOptions, format!("invalid options: {message}"), None)
}
