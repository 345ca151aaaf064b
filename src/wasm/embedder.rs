//! The embedder module's exports: the model fingerprint (cheap, checked before the model is
//! built) and `Embedder`, which turns a question into the vector the core's `Retriever`
//! searches with. Nothing else: search, fusion and the index live in the core module.

use super::errors::embed_error;
use crate::embed::{self, ModelFingerprint};
use wasm_bindgen::prelude::*;

/// The model + tokenizer content fingerprint (`sha256:…`) that a bundle's manifest names:
/// hashes only, so a mismatch is found before the model is built.
#[wasm_bindgen(js_name = modelFingerprint)]
pub fn model_fingerprint(model: &[u8], tokenizer_json: &[u8]) -> String {
    ModelFingerprint::of(model, tokenizer_json).to_string()
}

/// Embeds questions in the browser with the same model the index was built with.
#[wasm_bindgen]
pub struct Embedder(embed::Embedder);

#[wasm_bindgen]
impl Embedder {
    /// Builds the embedder from the compact model file (decoded here, `embed::compact`: the
    /// whole file, or a bundle's head without the word table's shards; an ONNX file also
    /// works) and tokenizer.json bytes (about a second).
    #[wasm_bindgen(constructor)]
    pub fn new(model: &[u8], tokenizer_json: &[u8]) -> Result<Embedder, JsError> {
        embed::Embedder::from_bytes(model, tokenizer_json).map(Embedder).map_err(embed_error)
    }

    /// The word-table shards (indices into the bundle's words catalog) that embedding `text`
    /// needs and that were not added yet: fetch them and `addWordShard` each, then `embed`.
    #[wasm_bindgen(js_name = missingWordShards)]
    pub fn missing_word_shards(&self, text: &str) -> Result<Vec<u32>, JsError> {
        let shards = self.0.missing_word_shards(text).map_err(embed_error)?;
        Ok(shards.into_iter().map(|s| s as u32).collect())
    }

    /// Adds a word-table shard, checked against the model (damage is MODEL_CORRUPT).
    #[wasm_bindgen(js_name = addWordShard)]
    pub fn add_word_shard(&mut self, index: u32, bytes: &[u8]) -> Result<(), JsError> {
        self.0.add_word_shard(index as usize, bytes).map_err(embed_error)
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
