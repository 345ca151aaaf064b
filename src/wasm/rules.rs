//! The chat's rules as data, for JS that must not define them again: the Docusaurus plugin
//! validates a site's options at build time with `validateConfig` of this same module, names
//! a misspelt option of its own with `didYouMean`, and hands the widget `rules()` (personas,
//! length limits, fixed texts).

use super::convert::{json_of, to_js};
use super::errors::chat_error;
use crate::chat::{
    did_you_mean as closest, ChatConfig, Persona, EMPTY_ANSWER_MESSAGE, REFUSAL_MESSAGE, REFUSAL_SUGGESTION,
    SLOW_MESSAGE,
};
use crate::query::{QUESTION_MAX_CHARS, SELECTION_MAX_CHARS, SELECTION_MIN_CHARS};
use serde::Serialize;
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

#[derive(Serialize)]
struct PersonaInfo {
    id: &'static str,
    name: &'static str,
    /// The text added to the prompt; none for `general`.
    modifier: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Limits {
    question_max_chars: usize,
    selection_min_chars: usize,
    selection_max_chars: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Messages {
    refusal: &'static str,
    refusal_suggestion: &'static str,
    empty_answer: &'static str,
    slow: &'static str,
}

#[derive(Serialize)]
struct Rules {
    personas: Vec<PersonaInfo>,
    limits: Limits,
    messages: Messages,
    defaults: ChatConfig,
}

/// The rules a UI shows: the personas a reader can pick (`general` first), SPEC.md's length
/// limits on a question and a selection (characters), the fixed answer texts, and every
/// option's default.
#[wasm_bindgen(unchecked_return_type = "ChatRules")]
pub fn rules() -> Result<JsValue, JsError> {
    let personas =
        Persona::ALL.into_iter().map(|p| PersonaInfo { id: p.id(), name: p.name(), modifier: p.modifier() }).collect();
    to_js(&Rules {
        personas,
        limits: Limits {
            question_max_chars: QUESTION_MAX_CHARS,
            selection_min_chars: SELECTION_MIN_CHARS,
            selection_max_chars: SELECTION_MAX_CHARS,
        },
        messages: Messages {
            refusal: REFUSAL_MESSAGE,
            refusal_suggestion: REFUSAL_SUGGESTION,
            empty_answer: EMPTY_ANSWER_MESSAGE,
            slow: SLOW_MESSAGE,
        },
        defaults: ChatConfig::default(),
    })
}
