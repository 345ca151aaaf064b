//! Embeds a site's chunks: reuses vectors whose content hash is unchanged, embeds the rest
//! in length-sorted batches (padding is per batch, so similar lengths waste least).

use super::{ChunkEmbedder, PreviousVectors};
use crate::site::Chunk;
use lectern::bundle::chunk_content_hash;
use lectern::embed::EmbedError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Texts per model run at build time.
const BATCH: usize = 16;

#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct EmbedStats {
    pub embedded: usize,
    pub reused: usize,
    /// Word pieces over all chunks (after truncation at the model's limit).
    pub tokens: usize,
    /// Chunks whose embedded text was cut at the model's 256-word-piece limit.
    pub truncated: usize,
}

/// A chunk's content hash and its vector.
pub struct EmbeddedChunk {
    pub hash: String,
    pub vector: Vec<f32>,
}

/// Content hash and vector of each chunk, in chunk order. `progress` is told how many
/// chunks were embedded after each batch.
pub fn embed_chunks(
    chunks: &[Chunk],
    embedder: &(dyn ChunkEmbedder + Sync),
    previous: &PreviousVectors,
    mut progress: impl FnMut(usize, usize),
) -> Result<(Vec<EmbeddedChunk>, EmbedStats), EmbedError> {
    let mut stats = EmbedStats::default();
    let hashes: Vec<String> =
        chunks.iter().map(|c| chunk_content_hash(embedder.fingerprint(), &c.embed_text)).collect();
    let mut vectors: Vec<Option<Vec<f32>>> = hashes.iter().map(|h| previous.get(h).cloned()).collect();
    stats.reused = vectors.iter().filter(|v| v.is_some()).count();

    let mut todo: Vec<(usize, usize)> = Vec::new(); // (chunk index, token count)
    for (i, chunk) in chunks.iter().enumerate() {
        let tokens = embedder.token_count(&chunk.embed_text)?;
        stats.tokens += tokens;
        if tokens >= lectern::embed::MAX_TOKENS {
            stats.truncated += 1;
        }
        if vectors[i].is_none() {
            todo.push((i, tokens));
        }
    }
    todo.sort_by_key(|&(i, tokens)| (tokens, i));
    let batches: Vec<&[(usize, usize)]> = todo.chunks(BATCH).collect();
    // One worker per core, each taking the next batch; tract runs a model on one thread, so
    // this is where a build uses the machine. Results come back to this thread in any order.
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, usize::from).min(batches.len().max(1));
    std::thread::scope(|scope| -> Result<(), EmbedError> {
        let (sender, receiver) = mpsc::channel();
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, batches) = (&next, &batches);
            scope.spawn(move || {
                while let Some(batch) = batches.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let texts: Vec<&str> = batch.iter().map(|&(i, _)| chunks[i].embed_text.as_str()).collect();
                    let result = embedder.embed_batch(&texts);
                    let failed = result.is_err();
                    if sender.send((*batch, result)).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (batch, result) in receiver {
            for (&(i, _), vector) in batch.iter().zip(result?) {
                vectors[i] = Some(vector);
            }
            stats.embedded += batch.len();
            progress(stats.embedded, todo.len());
        }
        Ok(())
    })?;
    let embedded = hashes
        .into_iter()
        .zip(vectors)
        .map(|(hash, vector)| {
            vector
                .map(|vector| EmbeddedChunk { hash, vector })
                .ok_or(EmbedError::Inference("a chunk was not embedded".into()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((embedded, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic stand-in model that counts the texts it embeds.
    struct CountingEmbedder {
        calls: AtomicUsize,
    }

    impl ChunkEmbedder for CountingEmbedder {
        fn fingerprint(&self) -> &str {
            "sha256:test"
        }
        fn dims(&self) -> usize {
            4
        }
        fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
            self.calls.fetch_add(texts.len(), Ordering::Relaxed);
            Ok(texts.iter().map(|t| vec![t.len() as f32, 1.0, 0.0, 0.0]).collect())
        }
        fn token_count(&self, text: &str) -> Result<usize, EmbedError> {
            Ok(text.split_whitespace().count() + 2)
        }
    }

    fn chunk(text: &str) -> Chunk {
        Chunk {
            chunk_id: format!("default:current:doc#{text}:0"),
            url: "/docs/doc".into(),
            anchor: None,
            heading_path: vec!["Doc".into()],
            chapter_title: "Doc".into(),
            section_title: "Doc".into(),
            module: "Docs".into(),
            chapter_id: "doc".into(),
            version: None,
            text: text.into(),
            embed_text: format!("Doc\n{text}"),
            word_count: text.split_whitespace().count(),
            position: 0,
            chars: text.chars().count(),
        }
    }

    #[test]
    fn embeds_everything_once_and_keeps_order() {
        let chunks: Vec<Chunk> = ["a b c", "a", "a b"].iter().map(|t| chunk(t)).collect();
        let embedder = CountingEmbedder { calls: AtomicUsize::new(0) };
        let (vectors, stats) = embed_chunks(&chunks, &embedder, &PreviousVectors::default(), |_, _| {}).unwrap();
        assert_eq!(embedder.calls.load(Ordering::Relaxed), 3);
        assert_eq!((stats.embedded, stats.reused), (3, 0));
        let firsts: Vec<f32> = vectors.iter().map(|e| e.vector[0]).collect();
        assert_eq!(
            firsts,
            vec![
                chunks[0].embed_text.len() as f32,
                chunks[1].embed_text.len() as f32,
                chunks[2].embed_text.len() as f32
            ]
        );
    }
}
