//! Embeds a site's chunks: reuses vectors whose content hash is unchanged, embeds the rest
//! in length-sorted batches (padding is per batch, so similar lengths waste least). A chunk
//! longer than the model's window is embedded as overlapping windows (`Embedder::windows`).
//! In a language the model does not suit, nothing is embedded (`without_vectors`).

use super::{ChunkEmbedder, EmbedProgress, PreviousVectors};
use crate::site::Chunk;
use lectern::bundle::{chunk_content_hash, BundleChunk, ChunkMeta};
use lectern::embed::EmbedError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Texts per model run at build time.
const BATCH: usize = 16;

#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct EmbedStats {
    /// Chunks embedded (not reused).
    pub embedded: usize,
    pub reused: usize,
    /// Word pieces over all windows of all chunks.
    pub tokens: usize,
    /// Chunks longer than the model's 256 word pieces, embedded as several windows.
    pub windowed: usize,
    /// Vectors in all (one per window).
    pub vectors: usize,
}

/// A chunk with the content hash of what was embedded for it and its vectors (one per window).
pub struct EmbeddedChunk<'a> {
    pub chunk: &'a Chunk,
    pub hash: String,
    pub vectors: Vec<Vec<f32>>,
}

/// The chunk as the bundle stores it: the site's description of it, under the hash of what
/// was embedded (an unchanged hash lets the next build reuse the vectors).
impl From<EmbeddedChunk<'_>> for BundleChunk {
    fn from(EmbeddedChunk { chunk, hash, vectors }: EmbeddedChunk<'_>) -> Self {
        let meta = ChunkMeta {
            chunk_id: chunk.chunk_id.clone(),
            url: chunk.url.clone(),
            heading_path: chunk.heading_path.clone(),
            chapter_title: chunk.chapter_title.clone(),
            section_title: chunk.section_title.clone(),
            module: chunk.module.clone(),
            chapter_id: chunk.chapter_id.clone(),
            instance: chunk.docs_instance.clone(),
            version: chunk.version.clone(),
            word_count: chunk.word_count,
            position: chunk.position,
            hash,
            parts: chunk.parts.clone(),
            name: chunk.name.clone(),
        };
        BundleChunk { meta, text: chunk.text.clone(), vectors }
    }
}

/// Each chunk with the content hash of what would be embedded for it and no vector: for an
/// index in a language the model does not suit (`search::semantic_search_fits`), searched by
/// keywords only. The hashes are those `embed_chunks` gives, so nothing changes for a chunk
/// whose text is unchanged should its language come to be embedded.
pub fn without_vectors<'a>(
    chunks: &'a [Chunk],
    embedder: &(dyn ChunkEmbedder + Sync),
) -> Result<Vec<EmbeddedChunk<'a>>, EmbedError> {
    chunks
        .iter()
        .map(|chunk| {
            let windows = embedder.windows(&chunk.heading_path, &chunk.text)?;
            let hash = chunk_content_hash(embedder.fingerprint(), &windows.join("\u{1e}"));
            Ok(EmbeddedChunk { chunk, hash, vectors: Vec::new() })
        })
        .collect()
}

/// Content hash and vectors of each chunk, in chunk order. `progress` is told how far
/// embedding has come before the first batch and after each; `embedded` is given each chunk
/// embedded (not reused) as soon as its last window is (the build's journal keeps them).
pub fn embed_chunks<'a>(
    chunks: &'a [Chunk],
    embedder: &(dyn ChunkEmbedder + Sync),
    previous: &PreviousVectors,
    mut progress: impl FnMut(EmbedProgress),
    mut embedded: impl FnMut(&str, &[&Vec<f32>]),
) -> Result<(Vec<EmbeddedChunk<'a>>, EmbedStats), EmbedError> {
    let mut stats = EmbedStats::default();
    let windows: Vec<Vec<String>> =
        chunks.iter().map(|c| embedder.windows(&c.heading_path, &c.text)).collect::<Result<_, _>>()?;
    // One window: the hash of the text itself, as before windows existed, so such vectors
    // are reused from older bundles.
    let hashes: Vec<String> =
        windows.iter().map(|w| chunk_content_hash(embedder.fingerprint(), &w.join("\u{1e}"))).collect();
    let mut vectors: Vec<Vec<Option<Vec<f32>>>> = hashes
        .iter()
        .zip(&windows)
        .map(|(h, w)| match previous.get(h).filter(|v| v.len() == w.len()) {
            Some(v) => v.iter().cloned().map(Some).collect(),
            None => vec![None; w.len()],
        })
        .collect();
    stats.reused = vectors.iter().filter(|v| v.iter().all(Option::is_some)).count();
    stats.embedded = chunks.len() - stats.reused;
    stats.windowed = windows.iter().filter(|w| w.len() > 1).count();
    stats.vectors = windows.iter().map(Vec::len).sum();

    let mut todo: Vec<(usize, usize, usize)> = Vec::new(); // (chunk, window, token count)
    for (i, texts) in windows.iter().enumerate() {
        for (j, text) in texts.iter().enumerate() {
            let tokens = embedder.token_count(text)?;
            stats.tokens += tokens;
            if vectors[i][j].is_none() {
                todo.push((i, j, tokens));
            }
        }
    }
    todo.sort_by_key(|&(i, j, tokens)| (tokens, i, j));
    // Windows each section still waits for: a section is done when its last one is.
    let mut waiting: Vec<usize> = vec![0; chunks.len()];
    for &(i, _, _) in &todo {
        waiting[i] += 1;
    }
    let mut told = EmbedProgress {
        sections_total: stats.embedded,
        sections_reused: stats.reused,
        tokens_total: todo.iter().map(|&(_, _, tokens)| tokens).sum(),
        ..EmbedProgress::default()
    };
    progress(told);
    let batches: Vec<&[(usize, usize, usize)]> = todo.chunks(BATCH).collect();
    // One worker per core, each taking the next batch; tract runs a model on one thread, so
    // this is where a build uses the machine. Results come back to this thread in any order.
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, usize::from).min(batches.len().max(1));
    let work = |sender: mpsc::Sender<_>| {
        while let Some(batch) = batches.get(next.fetch_add(1, Ordering::Relaxed)) {
            let texts: Vec<&str> = batch.iter().map(|&(i, j, _)| windows[i][j].as_str()).collect();
            let result = embedder.embed_batch(&texts);
            let failed = result.is_err();
            if sender.send((*batch, result)).is_err() || failed {
                break;
            }
        }
    };
    std::thread::scope(|scope| -> Result<(), EmbedError> {
        let (sender, receiver) = mpsc::channel();
        let mut spawned = 0;
        for _ in 0..workers {
            let sender = sender.clone();
            if std::thread::Builder::new().spawn_scoped(scope, move || work(sender)).is_ok() {
                spawned += 1;
            }
        }
        // No threads to be had (the portable wasm32-wasip1 CLI): this thread does the work.
        if spawned == 0 {
            work(sender.clone());
        }
        drop(sender);
        for (batch, result) in receiver {
            for (&(i, j, tokens), vector) in batch.iter().zip(result?) {
                vectors[i][j] = Some(vector);
                told.tokens_done += tokens;
                waiting[i] -= 1;
                if waiting[i] == 0 {
                    told.sections_done += 1;
                    embedded(&hashes[i], &vectors[i].iter().flatten().collect::<Vec<_>>());
                }
            }
            progress(told);
        }
        Ok(())
    })?;
    chunks
        .iter()
        .zip(hashes)
        .zip(vectors)
        .map(|((chunk, hash), vectors)| {
            let vectors = vectors.into_iter().collect::<Option<Vec<_>>>();
            vectors
                .map(|vectors| EmbeddedChunk { chunk, hash, vectors })
                .ok_or(EmbedError::Inference("a chunk was not embedded".into()))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|embedded| (embedded, stats))
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
        /// Windows of two words, for texts of more than three.
        fn windows(&self, heading_path: &[String], body: &str) -> Result<Vec<String>, EmbedError> {
            let words: Vec<&str> = body.split_whitespace().collect();
            if words.len() <= 3 {
                return Ok(vec![lectern::embed::embed_text(heading_path, body)]);
            }
            Ok(words.chunks(2).map(|w| lectern::embed::embed_text(heading_path, &w.join(" "))).collect())
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
            docs_instance: "default".into(),
            version: None,
            text: text.into(),
            name: None,
            parts: Vec::new(),
            word_count: text.split_whitespace().count(),
            position: 0,
            chars: text.chars().count(),
        }
    }

    #[test]
    fn embeds_everything_once_and_keeps_order() {
        let chunks: Vec<Chunk> = ["a b c", "a", "a b"].iter().map(|t| chunk(t)).collect();
        let embedder = CountingEmbedder { calls: AtomicUsize::new(0) };
        let (vectors, stats) =
            embed_chunks(&chunks, &embedder, &PreviousVectors::default(), |_| {}, |_, _| {}).unwrap();
        assert_eq!(embedder.calls.load(Ordering::Relaxed), 3);
        assert_eq!((stats.embedded, stats.reused), (3, 0));
        // The stand-in's first value is the length of the text it was given: the heading path,
        // a blank line, the text.
        let firsts: Vec<f32> = vectors.iter().map(|e| e.vectors[0][0]).collect();
        let embedded = |c: &Chunk| lectern::embed::embed_text(&c.heading_path, &c.text).len() as f32;
        assert_eq!(firsts, chunks.iter().map(embedded).collect::<Vec<_>>());
    }
}
