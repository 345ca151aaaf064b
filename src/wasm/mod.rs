//! The JS facade: adapts the core to `wasm-bindgen`. No logic lives here; every export
//! returns `Result<_, JsError>` so no Rust panic or error path reaches JS uncaught, and
//! every error carries a stable `code` (see `codes`).
//!
//! Three modules are built from it: with `search`, the search module that the worker
//! (`Retriever`: keyword and vector search) and the search box (`matchRanges`) run first; with
//! `chat`, the chat module (`Chat`) the page loads when the chat is used; with `embed`, the
//! worker's embedder (`Embedder`), which arrives later and only turns questions into vectors.
//!
//! The bindings exist in wasm32 only. What crosses the boundary as data — the error codes,
//! the search options and results — is compiled on every target too, so that the TypeScript
//! declarations and pkg/error-codes.js are generated from it natively (`typescript`).

pub mod codes;
#[cfg(feature = "search")]
pub mod results;
#[cfg(all(feature = "typescript", feature = "search"))]
pub mod typescript;

#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "chat"))]
mod chat;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod convert;
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "embed"))]
mod embedder;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod errors;
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "chat"))]
mod fetch_stream;
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "search"))]
mod loading;
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "search"))]
mod retriever;
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "chat"))]
mod rules;
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "search"))]
mod snippet;
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "chat"))]
mod storage;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod types;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use crate::query::{QUESTION_MAX_CHARS, SELECTION_MAX_CHARS, SELECTION_MIN_CHARS};
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "chat"))]
pub use chat::Chat;
pub use codes::Code;
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "embed"))]
pub use embedder::{model_fingerprint, Embedder};
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "search"))]
pub use loading::Loading;
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "search"))]
pub use retriever::Retriever;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}
