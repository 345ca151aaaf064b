//! What the pipeline needs from an embedder; a trait so tests can count calls.

use lectern::embed::{EmbedError, Embedder};

pub trait ChunkEmbedder {
    fn fingerprint(&self) -> &str;
    fn dims(&self) -> usize;
    /// Embeds `texts` in one batch; vectors in input order.
    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError>;
    /// Word pieces the model sees for `text` (after truncation).
    fn token_count(&self, text: &str) -> Result<usize, EmbedError>;
    /// The texts to embed for a section under `heading_path` (several windows when it is
    /// long); by default the one text `embed::embed_text` makes of it.
    fn windows(&self, heading_path: &[String], body: &str) -> Result<Vec<String>, EmbedError> {
        Ok(vec![lectern::embed::embed_text(heading_path, body)])
    }
}

impl ChunkEmbedder for Embedder {
    fn fingerprint(&self) -> &str {
        Embedder::fingerprint(self).as_str()
    }

    fn dims(&self) -> usize {
        lectern::embed::DIMS
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Embedder::embed_batch(self, texts)
    }

    fn token_count(&self, text: &str) -> Result<usize, EmbedError> {
        Embedder::token_count(self, text)
    }

    fn windows(&self, heading_path: &[String], body: &str) -> Result<Vec<String>, EmbedError> {
        Embedder::windows(self, heading_path, body)
    }
}
