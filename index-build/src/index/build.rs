//! From a read site to its bundle on disk: embeds the chunks (reusing the vectors of the
//! bundle already there wherever what is embedded is unchanged, and those a stopped build
//! journalled there), writes the bundle atomically, and sums up what was done. `lectern
//! build` runs it, and `lectern eval` on a site folder.

use super::pipeline::{without_vectors, EmbeddedChunk};
use super::{embed_chunks, ChunkEmbedder, EmbedJournal, EmbedProgress, EmbedStats, PreviousVectors};
use crate::llms::LlmsSummary;
use crate::site::SiteReport;
use lectern::bundle::{self, BundleChunk, BundleInput, DenseParts, ModelFileBytes, SiteInfo};
use lectern::dense::DenseIndexConfig;
use lectern::lexical::IndexOptions;
use lectern::search::semantic_search_fits;
use std::path::{Path, PathBuf};

/// Target sizes of the bundle's shards, in bytes, whether the dense index may get a graph
/// (the default; `--no-embed` leaves it out), and whether it is written in parts (by size,
/// unless `--dense-parts` says otherwise).
#[derive(Clone, Copy)]
pub struct ShardSizes {
    pub text: usize,
    pub terms: usize,
    pub dense_graph: bool,
    pub dense_parts: DenseParts,
}

/// Default target size of a chunk shard's text: a result fetches its shard. 4 KB, not 16: the
/// search box's first rows on the 10,000-page site fetch 37 KB less (the manifest lists more
/// chunk catalog pages, +10.5 KB, the shards of 8 results are a quarter), a whole visit 36%
/// less, the sample site's first rows 13 KB less (BENCHMARKS.md, "Text shards of 4 KB").
pub const DEFAULT_TEXT_SHARD_BYTES: usize = 4 * 1024;

impl Default for ShardSizes {
    fn default() -> Self {
        ShardSizes {
            text: DEFAULT_TEXT_SHARD_BYTES,
            terms: bundle::DEFAULT_TERM_SHARD_BYTES,
            dense_graph: true,
            dense_parts: DenseParts::BySize,
        }
    }
}

/// What a build did, printed as a summary (or JSON).
#[derive(serde::Serialize)]
pub struct BuildSummary {
    pub pages: usize,
    pub chunks: usize,
    pub characters: usize,
    #[serde(flatten)]
    pub embedding: EmbedStats,
    /// Why no vector of the previous build could be reused, if none was.
    pub full_rebuild_reason: Option<String>,
    /// Chunks whose vectors a stopped build had left in its journal (`EmbedJournal`).
    pub resumed: usize,
    /// Why the journal could not be written, if it could not (the build went on without it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal_error: Option<String>,
    pub files: Vec<FileSize>,
    pub total_bytes: u64,
    pub seconds: f64,
    pub skipped: usize,
    /// The folders the pages were read from (every docs instance and version): what a dev
    /// server watches to index again.
    pub content_dirs: Vec<PathBuf>,
    /// The model folder the vectors came from (set by the caller that loaded the model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_dir: Option<PathBuf>,
    /// The llms files written from the same read of the site (set by the caller that wrote them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llms: Option<LlmsSummary>,
    /// The locale built (the language its manifest states).
    pub locale: String,
    /// The site's other locales, built by the same run (set by the caller that built them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub locales: Vec<LocaleSummary>,
}

/// One more locale's bundle, as the summary of a build of every locale lists it.
#[derive(serde::Serialize)]
pub struct LocaleSummary {
    pub locale: String,
    /// Its bundle folder, and the URL prefix its pages are served under.
    pub out: PathBuf,
    pub base_url: String,
    pub pages: usize,
    pub chunks: usize,
    pub embedded: usize,
    pub reused: usize,
    pub total_bytes: u64,
    /// Whether semantic search suits its language (else its bundle goes without the model).
    pub semantic_search: bool,
}

impl LocaleSummary {
    pub fn of(report: &SiteReport, built: &BuildSummary, out: &Path) -> Self {
        LocaleSummary {
            locale: report.locale.name.clone(),
            out: report.locale.bundle_dir(out),
            base_url: report.base_url.clone(),
            pages: built.pages,
            chunks: built.chunks,
            embedded: built.embedding.embedded,
            reused: built.embedding.reused,
            total_bytes: built.total_bytes,
            semantic_search: semantic_search_fits(Some(&report.locale.name)),
        }
    }
}

/// One file of the bundle written, by name.
#[derive(serde::Serialize)]
pub struct FileSize {
    pub name: String,
    pub bytes: u64,
}

/// Embeds `report`'s chunks (reusing the vectors of the bundle already in `out` where the
/// content is unchanged) and writes the bundle to `out`. `progress` is told how far embedding
/// has come (`embed_chunks`).
pub fn build_bundle(
    report: &SiteReport,
    embedder: &(dyn ChunkEmbedder + Sync),
    model_files: Option<ModelFileBytes<'_>>,
    out: &Path,
    shards: ShardSizes,
    progress: impl FnMut(EmbedProgress),
) -> Result<BuildSummary, Box<dyn std::error::Error>> {
    if report.chunks.is_empty() {
        return Err(format!(
            "{} has no text to index ({} pages, {} skipped files or sections; `lectern chunks` lists why)",
            report.site_dir.display(),
            report.pages.len(),
            report.skipped.len()
        )
        .into());
    }
    // A locale whose language the model does not suit is searched by keywords only: nothing
    // is embedded, and its bundle has no dense index (search::semantic_search_fits).
    if !semantic_search_fits(Some(&report.locale.name)) {
        let chunks = without_vectors(&report.chunks, embedder)?;
        let embedded =
            Embedded { chunks, stats: EmbedStats::default(), not_reused: None, resumed: 0, journal_error: None };
        return finish(report, embedder, model_files, out, shards, embedded);
    }
    let mut previous = PreviousVectors::load(out, embedder.fingerprint());
    let (mut journal, journaled) = EmbedJournal::open(out, embedder.fingerprint(), embedder.dims());
    let resumed = journaled.len();
    previous.extend(journaled);
    let (embedded, stats) =
        embed_chunks(&report.chunks, embedder, &previous, progress, |hash, vectors| journal.record(hash, vectors))?;
    let journal_error = journal.error.take();
    drop(journal);
    let not_reused = if stats.reused == 0 { previous.not_reused.clone() } else { None };
    let embedded = Embedded { chunks: embedded, stats, not_reused, resumed, journal_error };
    finish(report, embedder, model_files, out, shards, embedded)
}

/// What embedding gave a build: the chunks in order (with their vectors, or none in a
/// keyword-only language) and how it went.
struct Embedded<'a> {
    chunks: Vec<EmbeddedChunk<'a>>,
    stats: EmbedStats,
    /// Why no vector of the previous build could be reused, if none was.
    not_reused: Option<String>,
    resumed: usize,
    journal_error: Option<String>,
}

/// Writes the bundle of `embedded`'s chunks to `out`, and sums up the build.
fn finish(
    report: &SiteReport,
    embedder: &(dyn ChunkEmbedder + Sync),
    model_files: Option<ModelFileBytes<'_>>,
    out: &Path,
    shards: ShardSizes,
    embedded: Embedded<'_>,
) -> Result<BuildSummary, Box<dyn std::error::Error>> {
    let Embedded { chunks, stats, not_reused, resumed, journal_error } = embedded;
    let chunks: Vec<BundleChunk> = chunks.into_iter().map(BundleChunk::from).collect();
    let output = bundle::write_bundle(BundleInput {
        chunks: &chunks,
        model_fingerprint: embedder.fingerprint(),
        dims: embedder.dims(),
        site: SiteInfo {
            base_url: report.base_url.clone(),
            site_url: report.site_url.clone(),
            language: Some(report.locale.name.clone()),
        },
        pages: report.pages.len(),
        model_files,
        text_shard_bytes: shards.text,
        term_shard_bytes: shards.terms,
        lexical: IndexOptions::default(),
        dense: if shards.dense_graph {
            DenseIndexConfig::default()
        } else {
            DenseIndexConfig { graph_threshold: usize::MAX, ..DenseIndexConfig::default() }
        },
        dense_parts: shards.dense_parts,
        chunk_layout: bundle::ChunkLayout::default(),
    })?;
    bundle::write_dir(out, &output).map_err(|e| format!("cannot write the bundle to {}: {e}", out.display()))?;

    let mut files: Vec<FileSize> =
        output.files.iter().map(|(name, bytes)| FileSize { name: name.clone(), bytes: bytes.len() as u64 }).collect();
    files.push(FileSize { name: bundle::MANIFEST_FILE.into(), bytes: output.manifest_json().len() as u64 });
    Ok(BuildSummary {
        pages: report.pages.len(),
        chunks: chunks.len(),
        characters: output.manifest.counts.characters,
        full_rebuild_reason: not_reused,
        resumed,
        journal_error,
        embedding: stats,
        total_bytes: files.iter().map(|f| f.bytes).sum(),
        files,
        seconds: 0.0,
        skipped: report.skipped.len(),
        content_dirs: report
            .docs_instances
            .iter()
            .flat_map(|i| i.versions.iter().flat_map(|v| std::iter::once(&v.content_dir).chain(&v.translated_dir)))
            .cloned()
            .collect(),
        model_dir: None,
        llms: None,
        locale: report.locale.name.clone(),
        locales: Vec::new(),
    })
}
