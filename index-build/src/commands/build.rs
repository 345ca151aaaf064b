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
    /// Target size of a text shard in bytes.
    #[arg(long, default_value_t = 16 * 1024)]
    text_shard_bytes: usize,
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
    let (onnx, tokenizer) = ModelFiles::in_dir(&args.model_dir, ModelVariant::Compact).read()?;
    // One text per run, on one thread per core: with the sequence symbol asserted this is
    // 2.4x faster than padded batches of 16 (scripts/bench/build.sh, BENCHMARKS.md).
    let embedder = Embedder::from_bytes(&onnx, &tokenizer)?;
    let model_files = (!args.no_model).then_some(ModelFileBytes { onnx: &onnx, tokenizer: &tokenizer });
    let progress = progress_bar(!args.json);
    let mut summary = build_bundle(&report, &embedder, model_files, &args.out, args.text_shard_bytes, |done, all| {
        progress.set_length(all as u64);
        progress.set_position(done as u64);
    })?;
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

/// Embeds `report`'s chunks (reusing the vectors of the bundle already in `out` where the
/// content is unchanged) and writes the bundle to `out`.
pub fn build_bundle(
    report: &SiteReport,
    embedder: &(dyn ChunkEmbedder + Sync),
    model_files: Option<ModelFileBytes<'_>>,
    out: &Path,
    text_shard_bytes: usize,
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
        text_shard_bytes,
        lexical: IndexOptions::default(),
        dense: DenseIndexConfig::default(),
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
    let (shards, others): (Vec<&FileSize>, Vec<&FileSize>) =
        summary.files.iter().partition(|f| f.name.starts_with("text."));
    for file in others {
        eprintln!("  {:>12} bytes  {}", file.bytes, file.name);
    }
    eprintln!("  {:>12} bytes  text.*.json ({} shards)", shards.iter().map(|f| f.bytes).sum::<u64>(), shards.len());
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
