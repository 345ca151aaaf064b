//! `lectern build --no-embed`'s stand-in model: a unit vector per text from a hash of it (so
//! the dense index has the shape of a real one), under a fingerprint no model has, so the
//! browser refuses semantic search on such a bundle (MODEL_MISMATCH) and only keyword search
//! works. For benchmarks of keyword search on sites too large to embed quickly.

use super::ChunkEmbedder;
use lectern::embed::{EmbedError, DIMS, MAX_TOKENS};

pub struct StandInEmbedder;

impl ChunkEmbedder for StandInEmbedder {
    fn fingerprint(&self) -> &str {
        "none:built-with-no-embed"
    }

    fn dims(&self) -> usize {
        DIMS
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts
            .iter()
            .map(|text| {
                let mut state = text
                    .bytes()
                    .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
                let mut v: Vec<f32> = (0..DIMS)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
                    })
                    .collect();
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::MIN_POSITIVE);
                v.iter_mut().for_each(|x| *x /= norm);
                v
            })
            .collect())
    }

    fn token_count(&self, text: &str) -> Result<usize, EmbedError> {
        Ok(text.split_whitespace().count().min(MAX_TOKENS))
    }
}
