//! Helpers shared by the integration tests.

#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod reference;
