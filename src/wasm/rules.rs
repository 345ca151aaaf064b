//! The chat's rules for JS that must not define them again: the Docusaurus plugin validates a
//! site's options at build time with `validateConfig` of this same module, names a misspelt
//! option of its own with `didYouMean`, and hands the widget `rules()` (personas, length
//! limits, fixed texts).

use super::convert::{json_of, to_js};
use super::errors::chat_error;
use crate::chat::{did_you_mean as closest, ChatConfig};
use wasm_bindgen::prelude::*;

/// The options with defaults filled in, or the `INVALID_CONFIG` error the browser would
/// raise for them (message naming the option, what was given and what is expected).
#[wasm_bindgen(js_name = validateConfig, unchecked_return_type = "ChatConfig")]
pub fn validate_config(options: JsValue) -> Result<JsValue, JsError> {
    let config = ChatConfig::from_json(&json_of(&options)?).map_err(|e| chat_error(&e))?;
    to_js(&config)
}

/// The candidate closest to a misspelt `word`, if one is close, else undefined: the core's
/// "did you mean" (the one the chat options' errors use).
#[wasm_bindgen(js_name = didYouMean)]
pub fn did_you_mean(word: &str, candidates: Vec<String>) -> Option<String> {
    let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
    closest(word, &candidates).map(String::from)
}

/// The personas a reader can pick (`general` first), the length limits on a question and a
/// selection (characters), the fixed texts, and every option's default.
#[wasm_bindgen(unchecked_return_type = "ChatRules")]
pub fn rules() -> Result<JsValue, JsError> {
    to_js(&crate::chat::rules())
}
