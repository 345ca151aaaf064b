//! Lectern's retrieval core: one library compiled natively (index build, benches) and to
//! wasm (the reader's browser). It knows nothing of the DOM; the `wasm` module is a thin
//! facade over it.

pub mod bundle;
pub mod dense;
pub mod embed;
pub mod lexical;
pub mod search;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
