//! The JS facade: adapts the core to `wasm-bindgen`. No logic lives here; every export
//! returns `Result<_, JsError>` so no Rust panic or error path reaches JS uncaught, and
//! every error carries a stable `code` (see `errors`).
//!
//! Two modules are built from it: with `chat` + `search`, the core that the page (`Chat`) and
//! the worker (`Retriever`: keyword and vector search) share; with `embed`, the worker's
//! embedder (`Embedder`), which arrives later and only turns questions into vectors.

#[cfg(feature = "chat")]
mod chat;
mod convert;
#[cfg(feature = "embed")]
mod embedder;
mod errors;
#[cfg(feature = "chat")]
mod fetch_stream;
#[cfg(feature = "search")]
mod retriever;
#[cfg(feature = "chat")]
mod rules;
#[cfg(feature = "chat")]
mod storage;
mod types;

pub use crate::query::{QUESTION_MAX_CHARS, SELECTION_MAX_CHARS, SELECTION_MIN_CHARS};
#[cfg(feature = "chat")]
pub use chat::Chat;
#[cfg(feature = "embed")]
pub use embedder::{model_fingerprint, Embedder};
pub use errors::Code;
#[cfg(feature = "search")]
pub use retriever::Retriever;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}
