//! `lectern build`: reads the site, loads the model, and has the index build embed what
//! changed and write the static bundle (`index::build_bundle`), one per locale of an i18n
//! site (the default locale's in `--out`, each other's in `--out/<locale>/`; `--locale`
//! builds one); with `--llms-out`, writes the site's text for AI agents from the same read
//! (`llms::write_llms`); prints its summary.

use super::dense_parts_args::DensePartsArg;
use super::llms_args::LlmsArgs;
use super::site_args::{print_summary, SiteArgs};
use super::CommandResult;
use crate::index::{
    build_bundle, BuildSummary, EmbedProgress, FileSize, LocaleSummary, ShardSizes, StandInEmbedder, Throttle,
    DEFAULT_TEXT_SHARD_BYTES,
};
use crate::llms::{write_llms, LlmsSummary};
use crate::site::SiteReport;
use lectern::bundle::{self, FileKind, ModelFileBytes};
use lectern::embed::{Embedder, ModelFiles, ModelVariant};
use lectern::search::semantic_search_fits;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// At most one progress line this often under `--progress json`.
const PROGRESS_LINE_EVERY: Duration = Duration::from_secs(5);

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
    /// How to show embedding's progress on stderr: a bar (on a terminal, without --json), JSON
    /// lines `{"progress": {…, "message": …}}` at most every 5 s and at the end (what
    /// docusaurus-plugin-lectern reads and prints), or nothing.
    #[arg(long, value_enum, default_value_t = ProgressArg::Bar)]
    progress: ProgressArg,
    #[command(flatten)]
    llms: LlmsArgs,
    /// Folder holding model-compact.lcm and tokenizer.json.
    #[arg(long, default_value_os_t = ModelFiles::default_dir())]
    model_dir: PathBuf,
    /// Do not copy the model and tokenizer into the bundle (the site serves them elsewhere).
    #[arg(long)]
    no_model: bool,
    /// Target size of a chunk shard's text in bytes (metadata and text, fetched per result).
    #[arg(long, default_value_t = DEFAULT_TEXT_SHARD_BYTES)]
    text_shard_bytes: usize,
    /// Target size of a term shard in bytes (postings, fetched per question term).
    #[arg(long, default_value_t = bundle::DEFAULT_TERM_SHARD_BYTES)]
    term_shard_bytes: usize,
    /// For benchmarks of keyword search on large sites: do not load the model, write stand-in
    /// vectors under a fingerprint no model has, so semantic search is refused (the browser
    /// reports MODEL_MISMATCH) and only keyword search works. Implies --no-model.
    #[arg(long, hide = true)]
    no_embed: bool,
    #[command(flatten)]
    dense_parts: DensePartsArg,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ProgressArg {
    Bar,
    Json,
    None,
}

pub fn run(args: BuildArgs) -> CommandResult {
    let start = Instant::now();
    let report = args.site.read()?;
    // Without --locale, every locale of an i18n site: the one read first is the default.
    let other_locales: Vec<String> = match args.site.locale {
        Some(_) => Vec::new(),
        None => report.locales.iter().filter(|l| **l != report.locale.name).cloned().collect(),
    };
    // Before the embedding's minutes: a sidebars file that cannot be read stops the run now.
    let llms = args.llms.requested()?;
    let progress = progress_bar(args.progress == ProgressArg::Bar && !args.json);
    // A stand-in index needs no graph: its vectors are not searched (and a graph over
    // 50,000 of them would take minutes to build).
    let shards = ShardSizes {
        text: args.text_shard_bytes,
        terms: args.term_shard_bytes,
        dense_graph: !args.no_embed,
        dense_parts: args.dense_parts.get(),
    };
    let mut throttle = Throttle::new(PROGRESS_LINE_EVERY);
    let mut embedding_started: Option<Instant> = None;
    let mut on_progress = |told: EmbedProgress| {
        let started = *embedding_started.get_or_insert_with(Instant::now);
        let message = told.message(told.seconds_left(started.elapsed()));
        progress.set_length(told.sections_total as u64);
        progress.set_position(told.sections_done as u64);
        progress.set_message(message.clone());
        if args.progress == ProgressArg::Json && throttle.due(Instant::now(), told.finished()) {
            let line = serde_json::json!({ "progress": { "message": message, "embedding": told } });
            eprintln!("{line}");
        }
    };
    let model = if args.no_embed {
        None
    } else {
        let (model, tokenizer) = ModelFiles::in_dir(&args.model_dir, ModelVariant::Compact).read()?;
        // One text per run, on one thread per core: with the sequence symbol asserted this is
        // 2.4x faster than padded batches of 16 (scripts/bench/build.sh, BENCHMARKS.md).
        let embedder = Embedder::from_bytes(&model, &tokenizer)?;
        // The browser fetches the model's head and only the word-table shards of its questions.
        let (weights, words) = lectern::embed::compact::split(&model)?;
        Some((embedder, weights, words, tokenizer))
    };
    let mut build_locale = |report: &SiteReport| {
        let out = report.locale.bundle_dir(&args.out);
        match &model {
            None => build_bundle(report, &StandInEmbedder, None, &out, shards, &mut on_progress),
            Some((embedder, weights, words, tokenizer)) => {
                // A locale the model does not suit is searched by keywords only: its bundle
                // goes without the model (search::semantic_search_fits).
                let with_model = !args.no_model && semantic_search_fits(Some(&report.locale.name));
                let model_files = with_model.then_some(ModelFileBytes { weights, words, tokenizer });
                build_bundle(report, embedder, model_files, &out, shards, &mut on_progress)
            }
        }
    };
    let mut summary = build_locale(&report)?;
    let mut others = Vec::new();
    for locale in &other_locales {
        let started = Instant::now();
        let report = args.site.read_locale(locale)?;
        let mut built = build_locale(&report)?;
        built.seconds = started.elapsed().as_secs_f64();
        summary.content_dirs.extend(built.content_dirs.iter().cloned());
        others.push((report, built));
    }
    progress.finish_and_clear();
    // The files for AI agents describe the locale read first (the default one unless --locale).
    summary.llms = llms.map(|(dir, options)| write_llms(&report, &options, &dir)).transpose()?;
    summary.locales = others.iter().map(|(report, built)| LocaleSummary::of(report, built, &args.out)).collect();
    summary.seconds = start.elapsed().as_secs_f64();
    summary.model_dir = Some(std::path::absolute(&args.model_dir).unwrap_or(args.model_dir));
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print_summary(&report);
        print_build_summary(&summary, &report.locale.bundle_dir(&args.out));
        for (report, built) in &others {
            print_summary(report);
            print_build_summary(built, &report.locale.bundle_dir(&args.out));
        }
    }
    Ok(())
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
    if summary.resumed > 0 {
        eprintln!("  {} chunks' vectors were found in a stopped build's journal", summary.resumed);
    }
    if let Some(error) = &summary.journal_error {
        eprintln!("  warning: embedded vectors were not journalled as the build went ({error})");
    }
    // Shards and catalog pages are many and alike: one line per kind of shard, one for all pages.
    let kind = |f: &FileSize| FileKind::of(&f.name);
    for file in summary.files.iter().filter(|f| !kind(f).is_some_and(|k| k.is_shard() || k.is_catalog())) {
        eprintln!("  {:>12} bytes  {}", file.bytes, file.name);
    }
    let print_group = |what: &str, in_group: &dyn Fn(FileKind) -> bool| {
        let group: Vec<&FileSize> = summary.files.iter().filter(|f| kind(f).is_some_and(in_group)).collect();
        if group.is_empty() {
            return;
        }
        eprintln!("  {:>12} bytes  {} {what}", group.iter().map(|f| f.bytes).sum::<u64>(), group.len());
    };
    for shard in
        [FileKind::ChunkShard, FileKind::MetaShard, FileKind::TextShard, FileKind::TermShard, FileKind::WordShard]
    {
        print_group(&format!("{}s", shard.role()), &|k| k == shard);
    }
    print_group("catalog pages", &FileKind::is_catalog);
    if let Some(llms) = &summary.llms {
        print_llms_summary(llms);
    }
    eprintln!("wrote {} ({} bytes) in {:.1} s", out.display(), summary.total_bytes, summary.seconds);
}

fn print_llms_summary(llms: &LlmsSummary) {
    let mut parts = Vec::new();
    if let Some(bytes) = llms.llms_txt_bytes {
        parts.push(format!("llms.txt ({bytes} bytes)"));
    }
    if let Some(bytes) = llms.llms_full_txt_bytes {
        parts.push(format!("llms-full.txt ({bytes} bytes)"));
    }
    if let Some(twins) = &llms.markdown_twins {
        parts.push(format!("{} Markdown twins ({} bytes)", twins.count, twins.bytes));
    }
    eprintln!("wrote {} into {}", parts.join(", "), llms.dir.display());
}

fn progress_bar(visible: bool) -> indicatif::ProgressBar {
    if !visible {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {msg}") {
        bar.set_style(style);
    }
    bar
}
