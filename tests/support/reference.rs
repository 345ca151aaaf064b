//! The sentence-transformers reference vectors (tests/fixtures/embeddings/reference.json).
// Shared by several test crates, each of which reads only some of it.
#![allow(dead_code)]

#[derive(serde::Deserialize)]
pub struct Reference {
    pub entries: Vec<Entry>,
}

#[derive(serde::Deserialize)]
pub struct Entry {
    pub text: String,
    /// Word pieces before truncation; `None` for texts that are empty after trimming.
    pub tokens: Option<usize>,
    /// `None` where the embedder must refuse the text.
    pub vector: Option<Vec<f32>>,
}
