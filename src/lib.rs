//! Lectern's core: one library compiled natively (index build, benches) and to wasm (the
//! reader's browser). It knows nothing of the DOM; the `wasm` module is a thin facade over it.
//!
//! With the default `retrieval` feature it embeds, indexes and searches. The chat layer
//! (`query`, `chat`, and `lexical` for extractive answers) is always there, and so are the
//! usage events a site owner receives (`usage`). In wasm, three
//! modules are built from it: `search` is the search module the worker (keyword and vector
//! search) and the search box run first; `chat` the chat module the page loads when the chat
//! is used; `embed` the embedder the worker adds later, so keyword answers never wait for
//! tract.

pub mod advice;
#[cfg(feature = "search")]
pub mod bundle;
pub mod chat;
#[cfg(feature = "search")]
pub mod dense;
#[cfg(feature = "embed")]
pub mod embed;
pub mod heading;
pub mod lexical;
pub mod loading;
pub mod passage;
pub mod query;
pub mod search;
pub mod sort;
pub mod usage;
pub mod wasm;
