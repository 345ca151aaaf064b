//! Turns embedded chunks into the bundle's files (bytes only: the CLI writes them to disk,
//! atomically).

use super::checksum::content_addressed_name;
use super::manifest::{Counts, FileEntry, Files, Manifest, ModelInfo, SiteInfo, TextShardEntry};
use super::{BundleError, ChunkMeta, FORMAT_NAME, FORMAT_VERSION};
use crate::dense::{DenseIndex, DenseIndexConfig};
use crate::lexical::{Document, IndexOptions, LexicalError, LexicalIndex};

/// One chunk ready to be written: metadata, text, and its embeddings (one per window of
/// its text; a chunk that fits the model has one).
pub struct BundleChunk {
    pub meta: ChunkMeta,
    pub text: String,
    pub vectors: Vec<Vec<f32>>,
}

/// The model files to ship inside the bundle (so the browser loads exactly this model).
pub struct ModelFileBytes<'a> {
    pub onnx: &'a [u8],
    pub tokenizer: &'a [u8],
}

pub struct BundleInput<'a> {
    pub chunks: &'a [BundleChunk],
    pub model_fingerprint: &'a str,
    pub dims: usize,
    pub site: SiteInfo,
    pub pages: usize,
    pub model_files: Option<ModelFileBytes<'a>>,
    /// Target size of a text shard in bytes (a shard holds whole chunks).
    pub text_shard_bytes: usize,
    pub lexical: IndexOptions,
    pub dense: DenseIndexConfig,
}

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

/// The lexical index of a bundle's chunks: each chunk's heading path is its title. Also used
/// by `lectern eval` to try other lexical options on a built bundle.
pub fn lexical_index<'a>(
    chunks: impl Iterator<Item = (&'a [String], &'a str)>,
    options: IndexOptions,
) -> Result<LexicalIndex, LexicalError> {
    let (titles, texts): (Vec<String>, Vec<&str>) = chunks.map(|(path, text)| (path.join(" › "), text)).unzip();
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

    let metas: Vec<&ChunkMeta> = input.chunks.iter().map(|c| &c.meta).collect();
    let chunks_file = add("chunks", "json", serde_json::to_vec(&metas).map_err(|e| inconsistent(e.to_string()))?);

    let sections = input.chunks.iter().map(|c| (c.meta.heading_path.as_slice(), c.text.as_str()));
    let lexical = lexical_index(sections, input.lexical).map_err(|e| inconsistent(e.to_string()))?;
    let lexical_file = add("lexical", "bin", lexical.to_bytes());

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

    let mut text = Vec::new();
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
        let texts: Vec<&str> = input.chunks[first..end].iter().map(|c| c.text.as_str()).collect();
        let bytes = serde_json::to_vec(&texts).map_err(|e| inconsistent(e.to_string()))?;
        text.push(TextShardEntry { file: add("text", "json", bytes), first_chunk: first, count: end - first });
        first = end;
    }

    let (onnx, tokenizer) = match &input.model_files {
        Some(model) => {
            (Some(add("model", "lcm", model.onnx.to_vec())), Some(add("tokenizer", "json", model.tokenizer.to_vec())))
        }
        None => (None, None),
    };

    let manifest = Manifest {
        format: FORMAT_NAME.to_string(),
        format_version: FORMAT_VERSION,
        created_by: format!("lectern {}", env!("CARGO_PKG_VERSION")),
        model: ModelInfo { fingerprint: input.model_fingerprint.to_string(), dims: input.dims, onnx, tokenizer },
        site: input.site,
        counts: Counts {
            pages: input.pages,
            chunks: input.chunks.len(),
            characters: input.chunks.iter().map(|c| c.text.chars().count()).sum(),
        },
        files: Files { chunks: chunks_file, lexical: lexical_file, dense: dense_file, text },
    };
    Ok(BundleOutput { manifest, files })
}
