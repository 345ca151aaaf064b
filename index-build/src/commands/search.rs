//! `lectern search`: the same retrieval the browser runs, from the command line.

use super::CommandResult;
use lectern::bundle::{load_dir, LoadedBundle};
use lectern::embed::{Embedder, ModelFiles, ModelVariant};
use lectern::heading::join_heading_path;
use lectern::search::{
    follow_up_query, matched_part, DocsVersion, FollowUpOptions, HybridSearch, SearchMode, SearchOptions,
};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct SearchArgs {
    /// The bundle folder `lectern build` wrote.
    #[arg(long)]
    index: PathBuf,
    /// The question.
    question: String,
    /// Selected mode: the passage the reader selected (the browser's `searchSelection`).
    #[arg(long)]
    selection: Option<String>,
    /// An earlier question of the conversation (repeatable, oldest first): the question is
    /// a follow-up and is retrieved in their context, as the chat's is.
    #[arg(long = "previous")]
    previous: Vec<String>,
    /// Results to return (1–50).
    #[arg(long, default_value_t = 3)]
    k: usize,
    /// How to search; `hybrid` is by keywords on an index whose language the English model
    /// does not suit (the manifest's `site.language`), as in the browser.
    #[arg(long, value_enum, default_value_t = ModeArg::Hybrid)]
    mode: ModeArg,
    /// Only these modules (repeatable).
    #[arg(long = "module")]
    modules: Vec<String>,
    /// Only this docs version, as `[INSTANCE:]VERSION` (repeatable): `29.7` in any docs
    /// instance, `rules:1.0` in the instance whose plugin id is `rules`. Unversioned
    /// instances, and instances no `--version` names, are searched whole, as in the browser.
    #[arg(long = "version")]
    versions: Vec<DocsVersion>,
    /// Drop results scoring below this (0–1).
    #[arg(long, default_value_t = 0.0)]
    min_score: f32,
    /// The page the question is asked from (its URL or path): its sections rank higher.
    #[arg(long)]
    page: Option<String>,
    /// Only sections of `--page`.
    #[arg(long, requires = "page")]
    page_only: bool,
    /// Keyword search also matches the words the last word begins and the neighbours of words
    /// the site never uses, as the search box asks (`lexical::expand`).
    #[arg(long)]
    expand_words: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Model folder, used when the bundle does not carry the model.
    #[arg(long, default_value_os_t = ModelFiles::default_dir())]
    model_dir: PathBuf,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ModeArg {
    Dense,
    Lexical,
    Hybrid,
}

#[derive(serde::Serialize)]
struct Output<'a> {
    /// `global`, or `selected` with --selection (docs/DESIGN.md §2.2).
    mode: &'static str,
    confidence: lectern::search::Confidence,
    mode_used: SearchMode,
    results: Vec<ResultLine<'a>>,
}

#[derive(serde::Serialize)]
struct ResultLine<'a> {
    chunk_id: &'a str,
    url: &'a str,
    heading_path: &'a [String],
    module: &'a str,
    text: &'a str,
    score: f32,
    dense: Option<f32>,
    lexical: Option<f32>,
    fused: f32,
    /// The merged short section the question matched, when not the chunk's own (as the
    /// browser's `part`): where the result links.
    #[serde(skip_serializing_if = "Option::is_none")]
    part: Option<PartLine<'a>>,
}

#[derive(serde::Serialize)]
struct PartLine<'a> {
    url: &'a str,
    heading_path: &'a [String],
}

pub fn run(args: SearchArgs) -> CommandResult {
    // The browser's rules (docs/DESIGN.md §3.1), so both answer the same questions.
    let question = lectern::query::question(&args.question)?;
    // Selected mode retrieves on the question and the selection together, as the browser does.
    let query = match &args.selection {
        Some(selection) => lectern::query::selected_mode_query(question, lectern::query::selection(selection)?),
        None => question.to_string(),
    };
    let question = query.as_str();
    let bundle = load_dir(&args.index).map_err(|e| format!("{}: {e}", args.index.display()))?;
    let mode = match args.mode {
        ModeArg::Dense => SearchMode::Dense,
        ModeArg::Lexical => SearchMode::Lexical,
        // The browser's rule: an index in a language the model does not suit is searched by
        // keywords (search::semantic_search_fits), and has no dense index for `--mode dense`.
        ModeArg::Hybrid if !bundle.manifest.semantic_search_fits() => SearchMode::Lexical,
        ModeArg::Hybrid => SearchMode::Hybrid,
    };
    let earlier = args.previous.iter().map(|p| lectern::query::question(p)).collect::<Result<Vec<_>, _>>()?;
    let follow_up = FollowUpOptions::default();
    // The vectors the search uses: the question's, each earlier question's, and the question
    // after them (none for a keyword search).
    if mode == SearchMode::Dense && bundle.dense.is_none() {
        let language = bundle.manifest.site.language.as_deref().unwrap_or("en");
        return Err(format!(
            "{} has no dense index: its language ({language}) is searched by keywords only (--mode lexical or hybrid)",
            args.index.display()
        )
        .into());
    }
    let embedder = match mode {
        SearchMode::Lexical => None,
        _ => {
            let embedder = load_embedder(&bundle, &args.index, &args.model_dir)?;
            bundle.manifest.check_model(embedder.fingerprint().as_str())?;
            Some(embedder)
        }
    };
    let embed = |text: &str| embedder.as_ref().map(|e| e.embed(text)).transpose();
    let query_vector = embed(question)?;
    let LoadedBundle { chunks, lexical, dense, texts, .. } = bundle;
    let mut search = HybridSearch::new(chunks, lexical)?;
    if let Some(dense) = dense {
        search.attach_dense(dense)?;
    }
    let options = SearchOptions {
        k: args.k,
        mode,
        modules: args.modules,
        versions: args.versions,
        min_score: args.min_score,
        page: args.page,
        page_only: args.page_only,
        expand_words: args.expand_words,
        ..SearchOptions::default()
    };
    let context_vector =
        if earlier.is_empty() { None } else { embed(&follow_up_query(question, &earlier, follow_up.turns))? };
    let results = search.search_follow_up(
        question,
        query_vector.as_deref(),
        context_vector.as_deref(),
        &earlier,
        &options,
        &follow_up,
    )?;
    let lines: Vec<ResultLine<'_>> = results
        .hits
        .iter()
        .filter_map(|hit| {
            let chunk = search.chunk(hit.index)?;
            let text = texts.get(hit.index as usize).map(String::as_str).unwrap_or_default();
            let part = matched_part(chunk, text, question, search.lexical()).and_then(|p| chunk.parts.get(p));
            Some(ResultLine {
                chunk_id: &chunk.chunk_id,
                url: &chunk.url,
                heading_path: &chunk.heading_path,
                module: &chunk.module,
                text,
                score: hit.score,
                dense: hit.dense,
                lexical: hit.lexical,
                fused: hit.fused,
                part: part.map(|p| PartLine { url: &p.url, heading_path: &p.heading_path }),
            })
        })
        .collect();
    let output = Output {
        mode: if args.selection.is_some() { "selected" } else { "global" },
        confidence: results.confidence,
        mode_used: results.mode_used,
        results: lines,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&output)?);
    } else {
        println!("confidence: {:?} ({:?} search)", output.confidence, output.mode_used);
        for (n, line) in output.results.iter().enumerate() {
            let (url, heading_path) =
                line.part.as_ref().map_or((line.url, line.heading_path), |p| (p.url, p.heading_path));
            println!("[{}] {:.3}  {}  {}", n + 1, line.score, url, join_heading_path(heading_path));
        }
    }
    Ok(())
}

/// The model the bundle carries, else the one in `model_dir`.
fn load_embedder(
    bundle: &LoadedBundle,
    index: &Path,
    model_dir: &Path,
) -> Result<Embedder, Box<dyn std::error::Error>> {
    let model = &bundle.manifest.model;
    if let (Some(weights), Some(tokenizer)) = (&model.weights, &model.tokenizer) {
        let read = |entry: &lectern::bundle::FileEntry| -> Result<Vec<u8>, Box<dyn std::error::Error>> {
            let bytes = std::fs::read(index.join(&entry.name))?;
            entry.verify(&bytes)?;
            Ok(bytes)
        };
        let mut embedder = Embedder::from_bytes(&read(weights)?, &read(tokenizer)?)?;
        // The word table's shards, as the browser would fetch them (here: all).
        if let Some(page) = &model.words {
            let reader = lectern::bundle::BundleReader::with_manifest(bundle.manifest.clone());
            for (i, shard) in reader.word_page(&read(page)?)?.iter().enumerate() {
                embedder.add_word_shard(i, &read(shard)?)?;
            }
        }
        return Ok(embedder);
    }
    Ok(ModelFiles::in_dir(model_dir, ModelVariant::Compact).load()?)
}
