//! Where the model lives on disk (native only; the browser gets bytes over HTTP).

use super::{EmbedError, Embedder};
use std::path::{Path, PathBuf};

/// The two encodings of the model that `scripts/setup.sh model` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelVariant {
    /// Weight-only int8 (23 MB): what the browser downloads and what indexes are built with.
    Int8,
    /// The reference f32 weights (90 MB): for parity checks.
    F32,
}

impl ModelVariant {
    pub fn file_name(self) -> &'static str {
        match self {
            ModelVariant::Int8 => "model-int8.onnx",
            ModelVariant::F32 => "model-f32.onnx",
        }
    }
}

/// Paths of one model + tokenizer pair.
#[derive(Clone, Debug)]
pub struct ModelFiles {
    pub onnx: PathBuf,
    pub tokenizer: PathBuf,
}

impl ModelFiles {
    /// The default model folder: `$LECTERN_MODEL_DIR`, else `.models/all-minilm-l6-v2`
    /// in the source tree this binary was built from.
    pub fn default_dir() -> PathBuf {
        match std::env::var_os("LECTERN_MODEL_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".models/all-minilm-l6-v2"),
        }
    }

    pub fn in_dir(dir: &Path, variant: ModelVariant) -> Self {
        ModelFiles { onnx: dir.join(variant.file_name()), tokenizer: dir.join("tokenizer.json") }
    }

    /// Reads both files, with an error naming the setup command when one is missing.
    pub fn read(&self) -> Result<(Vec<u8>, Vec<u8>), EmbedError> {
        Ok((read(&self.onnx)?, read(&self.tokenizer)?))
    }

    /// Loads an embedder for single texts.
    pub fn load(&self) -> Result<Embedder, EmbedError> {
        let (onnx, tokenizer) = self.read()?;
        Embedder::from_bytes(&onnx, &tokenizer)
    }

    /// Loads an embedder that also embeds batches (index build).
    pub fn load_for_batches(&self) -> Result<Embedder, EmbedError> {
        let (onnx, tokenizer) = self.read()?;
        Embedder::from_bytes_for_batches(&onnx, &tokenizer)
    }
}

fn read(path: &Path) -> Result<Vec<u8>, EmbedError> {
    std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => EmbedError::ModelMissing { path: path.display().to_string() },
        _ => EmbedError::Unreadable { path: path.display().to_string(), reason: e.to_string() },
    })
}
