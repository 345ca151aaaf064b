//! Lectern's core: one library compiled natively (index build, benches) and to wasm (the
//! reader's browser). It knows nothing of the DOM; the `wasm` module is a thin facade over it.
//!
//! With the default `retrieval` feature it embeds, indexes and searches. The chat layer
//! (`query`, `chat`, and `lexical` for extractive answers) is always there; in wasm, the
//! `chat` feature exports it, and `--no-default-features --features chat` is the small
//! module a page loads on its own thread while retrieval runs in a worker.

#[cfg(feature = "retrieval")]
pub mod bundle;
pub mod chat;
#[cfg(feature = "retrieval")]
pub mod dense;
#[cfg(feature = "retrieval")]
pub mod embed;
pub mod lexical;
pub mod query;
pub mod search;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub mod wasm;
