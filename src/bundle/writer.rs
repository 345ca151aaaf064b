//! Turns embedded chunks into the bundle's files (bytes only: the CLI writes them to disk,
//! atomically).

use super::manifest::{Counts, Files, Manifest, ModelInfo, SiteInfo};
use super::{
    BundleError, Catalog, ChunkMeta, ChunkShardEntry, ChunkTable, DenseLayout, FileEntry, FileKind, NumberedShards,
    TermShardEntry, FORMAT_NAME, NUMBERED_SHARDS_FORMAT_VERSION, OLDEST_FORMAT_VERSION, PAGE_TABLE_FORMAT_VERSION,
};
use crate::dense::partitioned::{self, PartitionedConfig, PartitionedInput};
use crate::dense::{DenseIndex, DenseIndexConfig};
use crate::heading::join_heading_path;
use crate::lexical::{Document, IndexOptions, LexicalError, LexicalIndex};

/// One chunk ready to be written: metadata, text, and its embeddings (one per window of
/// its text; a chunk that fits the model has one).
pub struct BundleChunk {
    pub meta: ChunkMeta,
    pub text: String,
    /// One per window; none in a bundle whose language the model does not suit (it has no
    /// dense index).
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
    /// Whether the dense index is written whole or in parts.
    pub dense_parts: DenseParts,
    /// How the chunk shards are written.
    pub chunk_layout: ChunkLayout,
}

/// How a bundle's chunk shards are written (docs/DESIGN.md §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ChunkLayout {
    /// By number, metadata and text in one file (`NumberedShards`, format 5): a result's
    /// shard is one file, fetched with no catalog page first.
    #[default]
    Numbered,
    /// Listed by catalog pages, metadata and text apart (formats 2 to 4): what older readers
    /// open.
    Catalog,
}

/// Pages (runs of chunks of one page) above which the chunk table's pages are written as a
/// page table of their own (`FileKind::PageTable`): on a 10,000-page site they were 72 KB of
/// the 73 KB (brotli) every reader fetched at open, for the boost of a page the search box
/// never names. Below, a few KB that stay in the table.
pub const MAX_PAGES_IN_TABLE: usize = 256;

/// Whether a bundle's dense index is written in parts (`dense::partitioned`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DenseParts {
    /// In parts above [`DENSE_PARTS_THRESHOLD`] vectors, whole below.
    #[default]
    BySize,
    /// Always in parts (tests, `lectern eval` of the parts on small corpora).
    Always,
    /// Always whole.
    Never,
}

/// Vectors above which the dense index is written in parts. Measured on real MiniLM vectors
/// (issue 28, phase 1, `src/dense/bench_notes.md`, "Small sites"): the single file is 874 KB
/// brotli'd at 2,500 vectors (~350 bytes each), so the 1 MB cap on any file is
/// reached near 2,800; up to 2,500 it is one request, fetched once per reader and searched
/// exactly, where the parts would cost every cold question 207 KB at recall@10 0.946.
pub const DENSE_PARTS_THRESHOLD: usize = 2_500;

impl DenseParts {
    /// The layout of an index of `vectors` vectors.
    pub fn layout(self, vectors: usize) -> DenseLayout {
        match self {
            DenseParts::Always => DenseLayout::Parts,
            DenseParts::BySize if vectors > DENSE_PARTS_THRESHOLD => DenseLayout::Parts,
            DenseParts::BySize | DenseParts::Never => DenseLayout::Single,
        }
    }
}

/// Default target size of a term shard: a question's few terms fetch a few kilobytes each.
pub const DEFAULT_TERM_SHARD_BYTES: usize = 4 * 1024;

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
/// title, and the names its headings give (its own and its parts') are name terms. Also used
/// by `lectern eval` to try other lexical options on a built bundle.
pub fn lexical_index<'a>(
    chunks: impl Iterator<Item = (&'a ChunkMeta, &'a str)>,
    options: IndexOptions,
) -> Result<LexicalIndex, LexicalError> {
    let chunks: Vec<(String, Vec<String>, &str)> =
        chunks.map(|(meta, text)| (join_heading_path(&meta.heading_path), meta.names(), text)).collect();
    let documents: Vec<Document<'_>> =
        chunks.iter().map(|(title, names, text)| Document::new(title, text).with_names(names)).collect();
    LexicalIndex::build(&documents, options)
}

pub fn write_bundle(input: BundleInput<'_>) -> Result<BundleOutput, BundleError> {
    let mut files = Vec::new();
    let mut add = |kind: FileKind, bytes: Vec<u8>| {
        let entry = FileEntry::describe(kind.name_for(&bytes), &bytes);
        files.push((entry.name.clone(), bytes));
        entry
    };
    let inconsistent = |e: String| BundleError::Inconsistent(e);

    let metas: Vec<ChunkMeta> = input.chunks.iter().map(|c| c.meta.clone()).collect();
    let table = ChunkTable::from_metas(&metas);
    // A large site's pages go in a file of their own, which only a search asked from a page
    // fetches; a small site's stay in the table (a few KB, and a bundle older readers open).
    let (table, pages) = if table.pages.len() > MAX_PAGES_IN_TABLE { table.split_pages() } else { (table, None) };
    let chunk_table = add(FileKind::ChunkTable, table.to_json());
    let pages = pages.map(|bytes| add(FileKind::PageTable, bytes));

    let sections = input.chunks.iter().map(|c| (&c.meta, c.text.as_str()));
    let lexical = lexical_index(sections, input.lexical).map_err(|e| inconsistent(e.to_string()))?;
    let term_shards: Vec<TermShardEntry> = lexical
        .to_term_shards(input.term_shard_bytes)
        .into_iter()
        .map(|shard| TermShardEntry { file: add(FileKind::TermShard, shard.bytes), first_term: shard.first_term })
        .collect();
    let terms = Catalog::write(&term_shards, &mut add)?;

    let vectors: Vec<Vec<&[f32]>> =
        input.chunks.iter().map(|c| c.vectors.iter().map(Vec::as_slice).collect()).collect();
    if let Some(bad) = vectors.iter().flatten().find(|v| v.len() != input.dims) {
        return Err(inconsistent(format!("a vector has {} values, expected {}", bad.len(), input.dims)));
    }
    // In a language the model does not suit, the index is searched by keywords only: no
    // dense index (and no vectors are needed).
    let semantic = crate::search::semantic_search_fits(input.site.language.as_deref());
    if let Some(chunk) = input.chunks.iter().find(|c| semantic && c.vectors.is_empty()) {
        return Err(inconsistent(format!("chunk {} has no vector", chunk.meta.chunk_id)));
    }
    let dense_layout =
        if semantic { input.dense_parts.layout(vectors.iter().map(Vec::len).sum()) } else { DenseLayout::None };
    let dense_file = match dense_layout {
        DenseLayout::None => None,
        DenseLayout::Single => {
            let dense =
                DenseIndex::from_item_embeddings(&vectors, &input.dense).map_err(|e| inconsistent(e.to_string()))?;
            Some(add(FileKind::Dense, dense.to_bytes()))
        }
        DenseLayout::Parts => {
            let items = 0..input.chunks.len() as u32;
            let first_copy: Vec<u32> =
                if table.max_copies > 1 { items.clone().map(|i| table.first_copy(i)).collect() } else { Vec::new() };
            let version_slots: Vec<u16> =
                if table.versions.is_empty() { Vec::new() } else { items.map(|i| table.version_slot(i)).collect() };
            let parts_input =
                PartitionedInput { items: &vectors, first_copy: &first_copy, version_slots: &version_slots };
            let config = PartitionedConfig::for_vectors(vectors.iter().map(Vec::len).sum(), input.dims);
            let (built, _) = partitioned::build(&parts_input, &config).map_err(|e| inconsistent(e.to_string()))?;
            // The head lists the partitions' codes files, each codes part its row shards':
            // the manifest lists only the head.
            let head = add(FileKind::DenseHead, built.head);
            built.parts.into_iter().for_each(|bytes| {
                add(FileKind::DensePart, bytes);
            });
            Some(head)
        }
    };

    let (chunks, numbered) = match input.chunk_layout {
        ChunkLayout::Numbered => {
            let listed: Vec<(&ChunkMeta, &str)> = input.chunks.iter().map(|c| (&c.meta, c.text.as_str())).collect();
            let written = NumberedShards::write(&listed, chunks_per_shard(input.chunks, input.text_shard_bytes))?;
            (Catalog::default(), Some(written))
        }
        ChunkLayout::Catalog => (catalog_chunk_shards(&input, &mut add)?, None),
    };

    let (weights, words, tokenizer) = match &input.model_files {
        Some(model) => {
            let shards: Vec<FileEntry> = model.words.iter().map(|w| add(FileKind::WordShard, w.clone())).collect();
            let page = (!shards.is_empty())
                .then(|| serde_json::to_vec(&shards).map(|bytes| add(FileKind::WordCatalog, bytes)))
                .transpose()
                .map_err(|e| inconsistent(e.to_string()))?;
            (
                Some(add(FileKind::Model, model.weights.to_vec())),
                page,
                Some(add(FileKind::Tokenizer, model.tokenizer.to_vec())),
            )
        }
        None => (None, None, None),
    };

    // Named by number, not by content: the files come after every one `add` named.
    let chunk_shards = numbered.map(|written| {
        files.extend(written.files);
        written.listing
    });
    let manifest = Manifest {
        format: FORMAT_NAME.to_string(),
        format_version: dense_layout
            .format_version()
            .max(if pages.is_some() { PAGE_TABLE_FORMAT_VERSION } else { OLDEST_FORMAT_VERSION })
            .max(if chunk_shards.is_some() { NUMBERED_SHARDS_FORMAT_VERSION } else { OLDEST_FORMAT_VERSION }),
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
        files: Files {
            chunk_table,
            lexical: lexical.stats(),
            terms,
            chunks,
            chunk_shards,
            dense: dense_file,
            dense_layout,
            dense_parts: None,
            pages,
        },
    };
    Ok(BundleOutput { manifest, files })
}

/// Chunk shards of about `text_shard_bytes` of text each, their metadata and text apart,
/// listed by catalog pages (formats 2 to 4).
fn catalog_chunk_shards(
    input: &BundleInput,
    add: &mut impl FnMut(FileKind, Vec<u8>) -> FileEntry,
) -> Result<Catalog<ChunkShardEntry>, BundleError> {
    let inconsistent = |e: serde_json::Error| BundleError::Inconsistent(e.to_string());
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
        let meta = serde_json::to_vec(&metas).map_err(inconsistent)?;
        let text = serde_json::to_vec(&texts).map_err(inconsistent)?;
        chunk_shards.push(ChunkShardEntry {
            meta: add(FileKind::MetaShard, meta),
            text: add(FileKind::TextShard, text),
            first_chunk: first,
            count: end - first,
        });
        first = end;
    }
    Catalog::write(&chunk_shards, add)
}

/// Chunks per shard by number: as many as hold `text_shard_bytes` of text on average (a
/// reader names a chunk's shard by division, so every shard holds as many).
fn chunks_per_shard(chunks: &[BundleChunk], text_shard_bytes: usize) -> usize {
    let text: usize = chunks.iter().map(|c| c.text.len()).sum();
    let mean = text.div_ceil(chunks.len().max(1)).max(1);
    (text_shard_bytes + mean / 2).checked_div(mean).unwrap_or(1).max(1)
}
