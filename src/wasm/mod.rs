//! The JS facade: adapts the core to `wasm-bindgen`. No logic lives here; every export
//! returns `Result<_, JsError>` so no Rust panic or error path reaches JS uncaught.

use crate::embed;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Turns a core error into a JS `Error` whose `name` is a stable code.
fn into_error(code: &str, err: impl std::fmt::Display) -> JsError {
    let error = JsError::new(&err.to_string());
    // A clone refers to the same JS object, so setting `name` on it marks `error`.
    let value: JsValue = error.clone().into();
    // Setting a property of a fresh Error object cannot fail; the Result carries nothing.
    let _ = js_sys::Reflect::set(&value, &"name".into(), &code.into());
    error
}

fn embed_error(err: embed::EmbedError) -> JsError {
    let code = match err {
        embed::EmbedError::EmptyText => "EMPTY_QUESTION",
        _ => "MODEL_UNAVAILABLE",
    };
    into_error(code, err)
}

/// Embeds questions in the browser with the same model the index was built with.
#[wasm_bindgen]
pub struct Embedder(embed::Embedder);

#[wasm_bindgen]
impl Embedder {
    /// Builds the embedder from the ONNX model and tokenizer.json bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(onnx: &[u8], tokenizer_json: &[u8]) -> Result<Embedder, JsError> {
        embed::Embedder::from_bytes(onnx, tokenizer_json).map(Embedder).map_err(embed_error)
    }

    /// A unit-length 384-float embedding of `text`.
    pub fn embed(&self, text: &str) -> Result<Vec<f32>, JsError> {
        self.0.embed(text).map_err(embed_error)
    }

    /// The model + tokenizer content fingerprint (`sha256:…`).
    #[wasm_bindgen(getter)]
    pub fn fingerprint(&self) -> String {
        self.0.fingerprint().to_string()
    }
}
