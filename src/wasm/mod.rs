//! The JS facade: adapts the core to `wasm-bindgen`. No logic lives here; every export
//! returns `Result<_, JsError>` so no Rust panic or error path reaches JS uncaught, and
//! every error carries a stable `code` (see `errors`).
//!
//! Two modules are built from it: with `retrieval`, the worker's (`Retriever`, `Embedder`);
//! with `chat` alone, the page's (`Chat`).

#[cfg(feature = "chat")]
mod chat;
mod convert;
mod errors;
#[cfg(feature = "chat")]
mod fetch_stream;
#[cfg(feature = "retrieval")]
mod retriever;
#[cfg(feature = "chat")]
mod rules;
#[cfg(feature = "chat")]
mod storage;
mod types;

pub use crate::query::{QUESTION_MAX_CHARS, SELECTION_MAX_CHARS, SELECTION_MIN_CHARS};
#[cfg(feature = "chat")]
pub use chat::Chat;
pub use errors::Code;
#[cfg(feature = "retrieval")]
pub use retriever::Retriever;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

#[cfg(feature = "retrieval")]
pub use embedder::Embedder;

#[cfg(feature = "retrieval")]
mod embedder {
    use super::errors::embed_error;
    use crate::embed;
    use wasm_bindgen::prelude::*;

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
}
