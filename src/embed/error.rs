use thiserror::Error;

/// Everything that can go wrong while loading or running the embedding model.
///
/// Messages are meant for the person who has to fix it: they name the file or the
/// command to run.
#[derive(Debug, Error)]
pub enum EmbedError {
    #[error("model file {path} is missing: run `scripts/setup.sh model` to fetch and verify it")]
    ModelMissing { path: String },
    #[error("could not read {path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("the ONNX model could not be loaded (is the file complete and an ONNX model?): {0}")]
    ModelInvalid(String),
    #[error("the model has an input `{0}` that a BERT encoder does not have")]
    UnsupportedInput(String),
    #[error("the tokenizer could not be loaded (expected a Hugging Face tokenizer.json): {0}")]
    TokenizerInvalid(String),
    #[error("the text is empty: there is nothing to embed")]
    EmptyText,
    #[error("tokenizing the text failed: {0}")]
    Tokenize(String),
    #[error("running the model failed: {0}")]
    Inference(String),
    #[error("the model produced {got} values per token, expected {expected}")]
    WrongDimension { expected: usize, got: usize },
}
