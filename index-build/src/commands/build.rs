//! `lectern build`: reads the site, embeds what changed, and writes the static bundle.

use super::site_args::{print_summary, SiteArgs};
use super::CommandResult;
use crate::index::{embed_chunks, ChunkEmbedder, EmbedStats, EmbeddedChunk, PreviousVectors};
use crate::site::SiteReport;
use lectern::bundle::{self, BundleChunk, BundleInput, ChunkMeta, ModelFileBytes, SiteInfo};
use lectern::dense::DenseIndexConfig;
use lectern::embed::{Embedder, ModelFiles, ModelVariant};
use lectern::lexical::IndexOptions;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
pub struct BuildArgs {
    #[command(flatten)]
    site: SiteArgs,
    /// Where to write the bundle folder (replaced atomically).
    #[arg(long)]
    out: PathBuf,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// Folder holding model-compact.lcm and tokenizer.json.
    #[arg(long, default_value_os_t = ModelFiles::default_dir())]
    model_dir: PathBuf,
    /// Do not copy the model and tokenizer into the bundle (the site serves them elsewhere).
    #[arg(long)]
    no_model: bool,
    /// Target size of a chunk shard's text in bytes (metadata and text, fetched per result).
    #[arg(long, default_value_t = 16 * 1024)]
    text_shard_bytes: usize,
    /// Target size of a term shard in bytes (postings, fetched per question term).
    #[arg(long, default_value_t = bundle::DEFAULT_TERM_SHARD_BYTES)]
    term_shard_bytes: usize,
    /// For benchmarks of keyword search on large sites: do not load the model, write stand-in
    /// vectors under a fingerprint no model has, so semantic search is refused (the browser
    /// reports MODEL_MISMATCH) and only keyword search works. Implies --no-model.
    #[arg(long, hide = true)]
    no_embed: bool,
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
    pub files: Vec<FileSize>,
    pub total_bytes: u64,
    pub seconds: f64,
    pub skipped: usize,
    /// The folders the pages were read from (every docs instance and version): what a dev
    /// server watches to index again.
    pub content_dirs: Vec<PathBuf>,
    /// The model folder the vectors came from (set by `run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_dir: Option<PathBuf>,
}

#[derive(serde::Serialize)]
pub struct FileSize {
    pub name: String,
    pub bytes: u64,
}

pub fn run(args: BuildArgs) -> CommandResult {
    let start = Instant::now();
    let report = args.site.read()?;
    let progress = progress_bar(!args.json);
    // A stand-in index needs no graph: its vectors are not searched (and a graph over
    // 50,000 of them would take minutes to build).
    let shards = ShardSizes { text: args.text_shard_bytes, terms: args.term_shard_bytes, dense_graph: !args.no_embed };
    let on_progress = |done: usize, all: usize| {
        progress.set_length(all as u64);
        progress.set_position(done as u64);
    };
    let mut summary = if args.no_embed {
        build_bundle(&report, &StandInEmbedder, None, &args.out, shards, on_progress)?
    } else {
        let (model, tokenizer) = ModelFiles::in_dir(&args.model_dir, ModelVariant::Compact).read()?;
        // One text per run, on one thread per core: with the sequence symbol asserted this is
        // 2.4x faster than padded batches of 16 (scripts/bench/build.sh, BENCHMARKS.md).
        let embedder = Embedder::from_bytes(&model, &tokenizer)?;
        // The browser fetches the model's head and only the word-table shards of its questions.
        let (weights, words) = lectern::embed::compact::split(&model)?;
        let model_files =
            (!args.no_model).then_some(ModelFileBytes { weights: &weights, words: &words, tokenizer: &tokenizer });
        build_bundle(&report, &embedder, model_files, &args.out, shards, on_progress)?
    };
    progress.finish_and_clear();
    summary.seconds = start.elapsed().as_secs_f64();
    summary.model_dir = Some(std::path::absolute(&args.model_dir).unwrap_or(args.model_dir));
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print_summary(&report);
        print_build_summary(&summary, &args.out);
    }
    Ok(())
}

/// Target sizes of the bundle's shards, in bytes, and whether the dense index may get a
/// graph (the default; `--no-embed` leaves it out).
#[derive(Clone, Copy)]
pub struct ShardSizes {
    pub text: usize,
    pub terms: usize,
    pub dense_graph: bool,
}

impl Default for ShardSizes {
    fn default() -> Self {
        ShardSizes { text: 16 * 1024, terms: bundle::DEFAULT_TERM_SHARD_BYTES, dense_graph: true }
    }
}

/// `--no-embed`'s stand-in: a unit vector per text from a hash of it (so the dense index
/// has the shape of a real one), under a fingerprint no model has.
struct StandInEmbedder;

impl ChunkEmbedder for StandInEmbedder {
    fn fingerprint(&self) -> &str {
        "none:built-with-no-embed"
    }

    fn dims(&self) -> usize {
        lectern::embed::DIMS
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, lectern::embed::EmbedError> {
        Ok(texts
            .iter()
            .map(|text| {
                let mut state = text
                    .bytes()
                    .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
                let mut v: Vec<f32> = (0..lectern::embed::DIMS)
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

    fn token_count(&self, text: &str) -> Result<usize, lectern::embed::EmbedError> {
        Ok(text.split_whitespace().count().min(256))
    }
}

/// Embeds `report`'s chunks (reusing the vectors of the bundle already in `out` where the
/// content is unchanged) and writes the bundle to `out`.
pub fn build_bundle(
    report: &SiteReport,
    embedder: &(dyn ChunkEmbedder + Sync),
    model_files: Option<ModelFileBytes<'_>>,
    out: &Path,
    shards: ShardSizes,
    progress: impl FnMut(usize, usize),
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
    let previous = PreviousVectors::load(out, embedder.fingerprint());
    let (embedded, stats) = embed_chunks(&report.chunks, embedder, &previous, progress)?;
    let chunks: Vec<BundleChunk> = report
        .chunks
        .iter()
        .zip(embedded)
        .map(|(chunk, EmbeddedChunk { hash, vectors })| BundleChunk {
            meta: ChunkMeta {
                chunk_id: chunk.chunk_id.clone(),
                url: chunk.url.clone(),
                heading_path: chunk.heading_path.clone(),
                chapter_title: chunk.chapter_title.clone(),
                section_title: chunk.section_title.clone(),
                module: chunk.module.clone(),
                chapter_id: chunk.chapter_id.clone(),
                version: chunk.version.clone(),
                word_count: chunk.word_count,
                position: chunk.position,
                hash,
            },
            text: chunk.text.clone(),
            vectors,
        })
        .collect();
    let output = bundle::write_bundle(BundleInput {
        chunks: &chunks,
        model_fingerprint: embedder.fingerprint(),
        dims: embedder.dims(),
        site: SiteInfo { base_url: report.base_url.clone(), site_url: report.site_url.clone() },
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
    })?;
    bundle::write_dir(out, &output).map_err(|e| format!("cannot write the bundle to {}: {e}", out.display()))?;

    let mut files: Vec<FileSize> =
        output.files.iter().map(|(name, bytes)| FileSize { name: name.clone(), bytes: bytes.len() as u64 }).collect();
    files.push(FileSize { name: bundle::MANIFEST_FILE.into(), bytes: output.manifest_json().len() as u64 });
    Ok(BuildSummary {
        pages: report.pages.len(),
        chunks: chunks.len(),
        characters: output.manifest.counts.characters,
        full_rebuild_reason: if stats.reused == 0 { previous.not_reused.clone() } else { None },
        embedding: stats,
        total_bytes: files.iter().map(|f| f.bytes).sum(),
        files,
        seconds: 0.0,
        skipped: report.skipped.len(),
        content_dirs: report
            .docs_instances
            .iter()
            .flat_map(|i| i.versions.iter().map(|v| v.content_dir.clone()))
            .collect(),
        model_dir: None,
    })
}

fn print_build_summary(summary: &BuildSummary, out: &Path) {
    let e = &summary.embedding;
    eprintln!(
        "embedded {} chunks, reused {} ({} word pieces; {} chunks longer than 256, embedded as windows: {} vectors in all)",
        e.embedded, e.reused, e.tokens, e.windowed, e.vectors
    );
    if let Some(reason) = &summary.full_rebuild_reason {
        eprintln!("  full rebuild: {reason}");
    }
    // Text shards are many and alike: one line for all of them.
    let (shards, others): (Vec<&FileSize>, Vec<&FileSize>) = summary
        .files
        .iter()
        .partition(|f| ["terms.", "meta.", "text.", "words."].iter().any(|p| f.name.starts_with(p)));
    for file in others.iter().filter(|f| !f.name.contains("-catalog.")) {
        eprintln!("  {:>12} bytes  {}", file.bytes, file.name);
    }
    for (what, prefix) in [
        ("metadata shards", "meta."),
        ("text shards", "text."),
        ("term shards", "terms."),
        ("word-table shards of the model", "words."),
        ("catalog pages", ""),
    ] {
        let group: Vec<&&FileSize> = if prefix.is_empty() {
            others.iter().filter(|f| f.name.contains("-catalog.")).collect()
        } else {
            shards.iter().filter(|f| f.name.starts_with(prefix)).collect()
        };
        eprintln!("  {:>12} bytes  {} {what}", group.iter().map(|f| f.bytes).sum::<u64>(), group.len());
    }
    eprintln!("wrote {} ({} bytes) in {:.1} s", out.display(), summary.total_bytes, summary.seconds);
}

fn progress_bar(visible: bool) -> indicatif::ProgressBar {
    if !visible {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template("embedding {bar:40} {pos}/{len} chunks ({eta})") {
        bar.set_style(style);
    }
    bar
}
