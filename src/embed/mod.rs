//! Sentence embeddings with all-MiniLM-L6-v2: BERT tokenisation (`wordpiece`), a tract-run ONNX
//! encoder, attention-masked mean pooling and L2 normalisation — the same code natively
//! (index build) and in wasm (the reader's question).

pub mod compact;
mod error;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod files;
mod fingerprint;
mod pooling;
// tract's f32 GEMM on wasm simd128: a tile that fits V8's registers.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm_gemm;
// Long sections are cut into windows at index build time only.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod windows;
mod wordpiece;

pub use error::EmbedError;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use files::{ModelFiles, ModelVariant};
pub use fingerprint::ModelFingerprint;
pub use pooling::{cosine, mean_pool_normalized, normalize};
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub use wasm_gemm::kernel_name as wasm_gemm_kernel;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use windows::{embed_text, MAX_WINDOWS, WINDOW_OVERLAP_TOKENS};
pub use wordpiece::{Piece, WordPieceTokenizer};

use std::collections::HashMap;
use tract_onnx::prelude::*;

/// Width of a MiniLM-L6 embedding.
pub const DIMS: usize = 384;
/// sentence-transformers' `max_seq_length` for this model, in word pieces (incl. [CLS]/[SEP]).
pub const MAX_TOKENS: usize = 256;

type Plan = Arc<TypedRunnableModel>;

/// The encoder inputs a BERT export may declare; we feed each by name.
#[derive(Clone, Copy, Debug, PartialEq)]
enum EncoderInput {
    InputIds,
    AttentionMask,
    TokenTypeIds,
    /// The word-table rows of the ids (a compact model's table lives outside its graph).
    WordEmbeddings,
}

/// Tokenizer + optimised model plans. Cheap to call, costly to build (load and optimise
/// once, then embed many texts).
pub struct Embedder {
    tokenizer: WordPieceTokenizer,
    inputs: Vec<EncoderInput>,
    /// Batch fixed to 1, sequence length symbolic: no re-optimisation per query length.
    single: Plan,
    /// Batch and length symbolic; only built for bulk embedding (index build).
    batched: Option<Plan>,
    /// The word table of a compact model, looked up here and fed to the graph.
    words: Option<compact::WordTable>,
    fingerprint: ModelFingerprint,
}

impl Embedder {
    /// Loads a model for one-text-at-a-time use (the browser's questions). `onnx` is a
    /// compact model file ([`compact`]) or an ONNX file.
    pub fn from_bytes(onnx: &[u8], tokenizer_json: &[u8]) -> Result<Self, EmbedError> {
        Self::load(onnx, tokenizer_json, false)
    }

    /// Loads a model that can also embed batches of texts in one run (index build).
    pub fn from_bytes_for_batches(onnx: &[u8], tokenizer_json: &[u8]) -> Result<Self, EmbedError> {
        Self::load(onnx, tokenizer_json, true)
    }

    fn load(onnx: &[u8], tokenizer_json: &[u8], batched: bool) -> Result<Self, EmbedError> {
        let tokenizer = WordPieceTokenizer::from_json(tokenizer_json)?;
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        wasm_gemm::register();
        let invalid = |e: TractError| EmbedError::ModelInvalid(format!("{e:#}"));
        // The compact file (what ships) decodes to the ONNX proto and the word table; a plain
        // ONNX file (the f32 parity reference) is read as it is.
        let (model, words) = if compact::is_compact(onnx) {
            let (proto, words) = compact::decode(onnx)?;
            (tract_onnx::onnx().model_for_proto_model(&proto), words)
        } else {
            (tract_onnx::onnx().model_for_read(&mut &onnx[..]), None)
        };
        let model = model.and_then(|m| m.into_typed()).and_then(|m| m.into_decluttered()).map_err(invalid)?;
        let inputs = encoder_inputs(&model)?;
        if inputs.contains(&EncoderInput::WordEmbeddings) != words.is_some() {
            return Err(EmbedError::ModelInvalid(format!(
                "the graph's input {} and the file's word table must come together",
                compact::WORDS_INPUT
            )));
        }
        // A batch has at least one text and a text at least one token. Without this tract
        // cannot prove that an elementwise op over [batch, sequence, 1536] is large enough for
        // its by-scalar and unicast kernels, and keeps generic broadcasting Mul/Add: half the
        // time of a 256-token passage (examples/profile_ops.rs).
        for dim in model.input_fact(0).map_err(invalid)?.shape.iter().take(2) {
            if let TDim::Sym(symbol) = dim {
                model.symbols.add_assertion(format!("{symbol}>=1")).map_err(invalid)?;
            }
        }

        // Reuse the model's own batch symbol (declaring a new one fails to unify).
        let batch_dim = model.input_fact(0).map_err(invalid)?.shape[0].clone();
        let single_model = match batch_dim {
            TDim::Sym(batch) => model.set_symbols(&HashMap::from([(batch, TDim::Val(1))])).map_err(invalid)?,
            _ => model.clone(),
        };
        let single = single_model.into_optimized().and_then(|m| m.into_runnable()).map_err(invalid)?;
        let batched =
            if batched { Some(model.into_optimized().and_then(|m| m.into_runnable()).map_err(invalid)?) } else { None };
        Ok(Embedder {
            tokenizer,
            inputs,
            single,
            batched,
            words,
            fingerprint: ModelFingerprint::of(onnx, tokenizer_json),
        })
    }

    /// The content fingerprint of the model and tokenizer this embedder was built from.
    pub fn fingerprint(&self) -> &ModelFingerprint {
        &self.fingerprint
    }

    /// Number of word pieces the model sees for `text` (after truncation, incl. specials).
    pub fn token_count(&self, text: &str) -> Result<usize, EmbedError> {
        Ok(self.tokenize(text)?.len())
    }

    /// The matrix-multiply kernels the plan runs, by tract's names, sorted (diagnostics: in a
    /// browser the f32 GEMM should be `lectern_wasm_f32_4x8`, src/embed/wasm_gemm.rs).
    pub fn matmul_kernels(&self) -> Vec<String> {
        use tract_onnx::tract_core::ops::matmul::optimized::OptMatMul;
        let mut names: Vec<String> = (self.single.model().nodes().iter())
            .filter_map(|node| node.op_as::<OptMatMul>())
            .flat_map(|op| op.mmm.iter().map(|mmm| mmm.name().to_string()))
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The shards of the word table that embedding `text` needs and that are not at hand
    /// (empty for a whole model file): what a browser fetches before [`Embedder::embed`].
    pub fn missing_word_shards(&self, text: &str) -> Result<Vec<usize>, EmbedError> {
        Ok(match &self.words {
            Some(words) => words.missing(&self.tokenize(text)?),
            None => Vec::new(),
        })
    }

    /// Adds shard `index` of the word table (checked against the model's head).
    pub fn add_word_shard(&mut self, index: usize, bytes: &[u8]) -> Result<(), EmbedError> {
        match &mut self.words {
            Some(words) => words.add(index, bytes),
            None => Err(EmbedError::ModelInvalid("this model keeps its word table inside its graph".into())),
        }
    }

    /// Embeds one text into a unit-length vector of [`DIMS`] values.
    pub fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let ids = self.tokenize(text)?;
        let mask = vec![1i64; ids.len()];
        let mut pooled = self.run(&self.single, 1, ids.len(), &ids, &mask)?;
        Ok(pooled.remove(0))
    }

    /// Embeds several texts in one model run, padding to the longest. Results are in input
    /// order and equal [`Embedder::embed`] up to float rounding. Without batch support
    /// (see [`Embedder::from_bytes_for_batches`]) texts are embedded one by one.
    pub fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let Some(plan) = &self.batched else {
            return texts.iter().map(|t| self.embed(t)).collect();
        };
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let encoded = texts.iter().map(|t| self.tokenize(t)).collect::<Result<Vec<_>, _>>()?;
        let len = encoded.iter().map(Vec::len).max().unwrap_or(0);
        let mut ids = Vec::with_capacity(texts.len() * len);
        let mut mask = Vec::with_capacity(texts.len() * len);
        for row in &encoded {
            ids.extend_from_slice(row);
            ids.resize(ids.len() + len - row.len(), 0);
            mask.extend(std::iter::repeat_n(1i64, row.len()));
            mask.resize(mask.len() + len - row.len(), 0);
        }
        self.run(plan, texts.len(), len, &ids, &mask)
    }

    fn tokenize(&self, text: &str) -> Result<Vec<i64>, EmbedError> {
        if text.trim().is_empty() {
            return Err(EmbedError::EmptyText);
        }
        // sentence-transformers' settings, not the file's (which pads and cuts at 128): no
        // padding, at most MAX_TOKENS word pieces with [CLS] and [SEP].
        Ok(self.tokenizer.encode(text, MAX_TOKENS).into_iter().map(i64::from).collect())
    }

    fn run(
        &self,
        plan: &Plan,
        batch: usize,
        len: usize,
        ids: &[i64],
        mask: &[i64],
    ) -> Result<Vec<Vec<f32>>, EmbedError> {
        let failed = |e: TractError| EmbedError::Inference(format!("{e:#}"));
        let tensor = |values: &[i64]| Tensor::from_shape(&[batch, len], values).map_err(failed);
        let word_rows = |words: &compact::WordTable| {
            Tensor::from_shape(&[batch, len, words.cols()], &words.lookup(ids)?).map_err(failed)
        };
        let feeds = self
            .inputs
            .iter()
            .map(|input| {
                Ok(match input {
                    EncoderInput::InputIds => tensor(ids)?,
                    EncoderInput::AttentionMask => tensor(mask)?,
                    EncoderInput::TokenTypeIds => tensor(&vec![0; ids.len()])?,
                    EncoderInput::WordEmbeddings => match &self.words {
                        Some(words) => word_rows(words)?,
                        None => return Err(EmbedError::ModelInvalid("the model has no word table".into())),
                    },
                }
                .into_tvalue())
            })
            .collect::<Result<TVec<_>, EmbedError>>()?;
        let outputs = plan.run(feeds).map_err(failed)?;
        let hidden = outputs.first().ok_or_else(|| EmbedError::Inference("the model returned no output".into()))?;
        let shape = hidden.shape().to_vec();
        if shape.len() != 3 || shape[0] != batch || shape[1] != len {
            return Err(EmbedError::Inference(format!("unexpected output shape {shape:?} for input [{batch}, {len}]")));
        }
        if shape[2] != DIMS {
            return Err(EmbedError::WrongDimension { expected: DIMS, got: shape[2] });
        }
        let view = hidden.try_as_plain_ram().map_err(failed)?;
        let values = view.as_slice::<f32>().map_err(failed)?;
        Ok(values
            .chunks_exact(len * DIMS)
            .zip(mask.chunks_exact(len))
            .map(|(rows, row_mask)| mean_pool_normalized(rows, row_mask, DIMS))
            .collect())
    }
}

fn encoder_inputs(model: &TypedModel) -> Result<Vec<EncoderInput>, EmbedError> {
    let outlets = model.input_outlets().map_err(|e| EmbedError::ModelInvalid(format!("{e:#}")))?;
    outlets
        .iter()
        .map(|outlet| match model.node(outlet.node).name.as_str() {
            "input_ids" => Ok(EncoderInput::InputIds),
            "attention_mask" => Ok(EncoderInput::AttentionMask),
            "token_type_ids" => Ok(EncoderInput::TokenTypeIds),
            compact::WORDS_INPUT => Ok(EncoderInput::WordEmbeddings),
            other => Err(EmbedError::UnsupportedInput(other.to_string())),
        })
        .collect()
}
