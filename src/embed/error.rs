use thiserror::Error;

/// Everything that can go wrong while loading or running the embedding model.
///
/// Messages are meant for the person who has to fix it: they name the file or the
/// command to run.
#[derive(Debug, Error)]
pub enum EmbedError {
    #[error(
        "model file {path} is missing: install the model package (`npm install @lectern/model-all-minilm-l6-v2`, \
         which the `@lectern/cli` npm package brings) and set $LECTERN_MODEL_DIR to its folder, or pass \
         --model-dir; in a checkout of the Lectern repository, run `scripts/setup.sh model`"
    )]
    ModelMissing { path: String },
    #[error(
        "{path} does not match its checksum in {list} (sha256 {actual}, expected {expected}): the model \
         files are damaged or from another release; reinstall the model package"
    )]
    ChecksumMismatch { path: String, list: String, expected: String, actual: String },
    #[error("could not read {path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("the ONNX model could not be loaded (is the file complete and an ONNX model?): {0}")]
    ModelInvalid(String),
    #[error("the compact model file is damaged (reinstall the model package, or rebuild the site): {0}")]
    ModelCorrupt(String),
    #[error(
        "the compact model file has format version {found}; this Lectern reads version {supported}: use the model \
         package of this Lectern release"
    )]
    ModelVersion { found: u32, supported: u32 },
    #[error(
        "the model's word table lacks shards {0:?} for this text: add them first (a bundle lists them in its \
         words catalog; a whole model file carries them all)"
    )]
    WordsMissing(Vec<usize>),
    #[error("the model has an input `{0}` that a BERT encoder does not have")]
    UnsupportedInput(String),
    #[error("the tokenizer could not be loaded (expected a Hugging Face tokenizer.json): {0}")]
    TokenizerInvalid(String),
    #[error(
        "the tokenizer.json describes a tokenizer Lectern does not implement: {0}; Lectern reads BERT \
         WordPiece tokenizers such as all-MiniLM-L6-v2's"
    )]
    TokenizerUnsupported(String),
    #[error("the text is empty: there is nothing to embed")]
    EmptyText,
    #[error("tokenizing the text failed: {0}")]
    Tokenize(String),
    #[error("running the model failed: {0}")]
    Inference(String),
    #[error("the model produced {got} values per token, expected {expected}")]
    WrongDimension { expected: usize, got: usize },
}
