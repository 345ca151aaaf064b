//! Turns embedded chunks into the bundle's files (bytes only: the CLI writes them to disk,
//! atomically).

use super::checksum::content_addressed_name;
use super::manifest::{
    ChunkPageEntry, ChunkShardEntry, Counts, FileEntry, Files, Manifest, ModelInfo, SiteInfo, TermPageEntry,
    TermShardEntry,
};
use super::{BundleError, ChunkMeta, ChunkTable, FORMAT_NAME, FORMAT_VERSION};
use crate::dense::{DenseIndex, DenseIndexConfig};
use crate::heading::join_heading_path;
use crate::lexical::{Document, IndexOptions, LexicalError, LexicalIndex};

/// One chunk ready to be written: metadata, text, and its embeddings (one per window of
/// its text; a chunk that fits the model has one).
pub struct BundleChunk {
    pub meta: ChunkMeta,
    pub text: String,
    pub vectors: Vec<Vec<f32>>,
}

/// The model files to ship inside the bundle (so the browser loads exactly this model): the
/// compact model's head, its word table's shards (each a file, listed by a catalog page, so
/// a question fetches only its words' rows) and the tokenizer.
pub struct ModelFileBytes<'a> {
    pub weights: &'a [u8],
    pub words: &'a [Vec<u8>],
    pub tokenizer: &'a [u8],
}

pub struct BundleInput<'a> {
    pub chunks: &'a [BundleChunk],
    pub model_fingerprint: &'a str,
    pub dims: usize,
    pub site: SiteInfo,
    pub pages: usize,
    pub model_files: Option<ModelFileBytes<'a>>,
    /// Target size of a chunk shard's text in bytes (a shard holds whole chunks).
    pub text_shard_bytes: usize,
    /// Target size of a term shard in bytes (a shard holds whole posting lists).
    pub term_shard_bytes: usize,
    pub lexical: IndexOptions,
    pub dense: DenseIndexConfig,
}

/// Default target size of a term shard: a question's few terms fetch a few kilobytes each.
pub const DEFAULT_TERM_SHARD_BYTES: usize = 4 * 1024;
/// Shards listed per catalog page: pages small enough to fetch per query, few enough that
/// the manifest stays small (about sqrt of the balance on a 50,000-chunk site).
pub const CATALOG_PAGE_SHARDS: usize = 32;

/// The manifest and every file, by name.
pub struct BundleOutput {
    pub manifest: Manifest,
    pub files: Vec<(String, Vec<u8>)>,
}

impl BundleOutput {
    pub fn manifest_json(&self) -> Vec<u8> {
        // A plain struct of strings and numbers always serialises.
        serde_json::to_vec_pretty(&self.manifest).unwrap_or_default()
    }
}

/// The lexical index of a bundle's chunks: each chunk's heading path, on one line, is its
/// title. Also used by `lectern eval` to try other lexical options on a built bundle.
pub fn lexical_index<'a>(
    chunks: impl Iterator<Item = (&'a [String], &'a str)>,
    options: IndexOptions,
) -> Result<LexicalIndex, LexicalError> {
    let (titles, texts): (Vec<String>, Vec<&str>) = chunks.map(|(path, text)| (join_heading_path(path), text)).unzip();
    let documents: Vec<Document<'_>> =
        titles.iter().zip(texts).map(|(title, text)| Document::new(title, text)).collect();
    LexicalIndex::build(&documents, options)
}

pub fn write_bundle(input: BundleInput<'_>) -> Result<BundleOutput, BundleError> {
    let mut files = Vec::new();
    let mut add = |stem: &str, ext: &str, bytes: Vec<u8>| {
        let entry = FileEntry::describe(content_addressed_name(stem, ext, &bytes), &bytes);
        files.push((entry.name.clone(), bytes));
        entry
    };
    let inconsistent = |e: String| BundleError::Inconsistent(e);

    let metas: Vec<ChunkMeta> = input.chunks.iter().map(|c| c.meta.clone()).collect();
    let chunk_table = add("chunk-table", "json", ChunkTable::from_metas(&metas).to_json());

    let sections = input.chunks.iter().map(|c| (c.meta.heading_path.as_slice(), c.text.as_str()));
    let lexical = lexical_index(sections, input.lexical).map_err(|e| inconsistent(e.to_string()))?;
    let term_shards: Vec<TermShardEntry> = lexical
        .to_term_shards(input.term_shard_bytes)
        .into_iter()
        .map(|shard| TermShardEntry { file: add("terms", "bin", shard.bytes), first_term: shard.first_term })
        .collect();
    let mut terms = Vec::new();
    for (page, shards) in term_shards.chunks(CATALOG_PAGE_SHARDS).enumerate() {
        let bytes = serde_json::to_vec(shards).map_err(|e| inconsistent(e.to_string()))?;
        terms.push(TermPageEntry {
            file: add("term-catalog", "json", bytes),
            first_shard: page * CATALOG_PAGE_SHARDS,
            shards: shards.len(),
            first_term: shards.first().map(|s| s.first_term.clone()).unwrap_or_default(),
        });
    }

    let vectors: Vec<Vec<&[f32]>> =
        input.chunks.iter().map(|c| c.vectors.iter().map(Vec::as_slice).collect()).collect();
    if let Some(bad) = vectors.iter().flatten().find(|v| v.len() != input.dims) {
        return Err(inconsistent(format!("a vector has {} values, expected {}", bad.len(), input.dims)));
    }
    if let Some(chunk) = input.chunks.iter().find(|c| c.vectors.is_empty()) {
        return Err(inconsistent(format!("chunk {} has no vector", chunk.meta.chunk_id)));
    }
    let dense = DenseIndex::from_item_embeddings(&vectors, &input.dense).map_err(|e| inconsistent(e.to_string()))?;
    let dense_file = add("dense", "bin", dense.to_bytes());

    let mut chunk_shards = Vec::new();
    let mut first = 0;
    while first < input.chunks.len() {
        let mut end = first;
        let mut size = 0;
        while end < input.chunks.len()
            && (end == first || size + input.chunks[end].text.len() <= input.text_shard_bytes)
        {
            size += input.chunks[end].text.len();
            end += 1;
        }
        let range = &input.chunks[first..end];
        let metas: Vec<&ChunkMeta> = range.iter().map(|c| &c.meta).collect();
        let texts: Vec<&str> = range.iter().map(|c| c.text.as_str()).collect();
        let meta = serde_json::to_vec(&metas).map_err(|e| inconsistent(e.to_string()))?;
        let text = serde_json::to_vec(&texts).map_err(|e| inconsistent(e.to_string()))?;
        chunk_shards.push(ChunkShardEntry {
            meta: add("meta", "json", meta),
            text: add("text", "json", text),
            first_chunk: first,
            count: end - first,
        });
        first = end;
    }
    let mut chunks = Vec::new();
    for (page, shards) in chunk_shards.chunks(CATALOG_PAGE_SHARDS).enumerate() {
        let bytes = serde_json::to_vec(shards).map_err(|e| inconsistent(e.to_string()))?;
        let first_chunk = shards.first().map_or(0, |s| s.first_chunk);
        chunks.push(ChunkPageEntry {
            file: add("chunk-catalog", "json", bytes),
            first_shard: page * CATALOG_PAGE_SHARDS,
            shards: shards.len(),
            first_chunk,
            count: shards.iter().map(|s| s.count).sum(),
        });
    }

    let (weights, words, tokenizer) = match &input.model_files {
        Some(model) => {
            let shards: Vec<FileEntry> = model.words.iter().map(|w| add("words", "bin", w.clone())).collect();
            let page = (!shards.is_empty())
                .then(|| serde_json::to_vec(&shards).map(|bytes| add("words-catalog", "json", bytes)))
                .transpose()
                .map_err(|e| inconsistent(e.to_string()))?;
            (
                Some(add("model", "lcm", model.weights.to_vec())),
                page,
                Some(add("tokenizer", "json", model.tokenizer.to_vec())),
            )
        }
        None => (None, None, None),
    };

    let manifest = Manifest {
        format: FORMAT_NAME.to_string(),
        format_version: FORMAT_VERSION,
        created_by: format!("lectern {}", env!("CARGO_PKG_VERSION")),
        model: ModelInfo {
            fingerprint: input.model_fingerprint.to_string(),
            dims: input.dims,
            weights,
            words,
            tokenizer,
        },
        site: input.site,
        counts: Counts {
            pages: input.pages,
            chunks: input.chunks.len(),
            characters: input.chunks.iter().map(|c| c.text.chars().count()).sum(),
        },
        files: Files { chunk_table, lexical: lexical.stats(), terms, chunks, dense: dense_file },
    };
    Ok(BundleOutput { manifest, files })
}
