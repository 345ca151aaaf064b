//! `lectern eval`: retrieval quality on labelled questions, per split and per mode — the
//! figures every ranking change is judged by (BENCHMARKS.md).

use super::dense_parts_args::DensePartsArg;
use super::CommandResult;
use crate::eval::versions::{per_version, SectionVersions, VersionRow};
use crate::eval::{follow_ups, questions, AskedFrom, Evaluator, Outcome, Split, Summary, VersionScope};
use crate::index::{build_bundle, ShardSizes};
use lectern::bundle::{load_dir, DenseParts, LoadedBundle, MANIFEST_FILE};
use lectern::embed::{Embedder, ModelFiles, ModelVariant};
use lectern::lexical::{Bm25Params, IndexOptions};
use lectern::search::follow_ups::Phrasing;
use lectern::search::{FollowUpOptions, Fusion, HybridSearch, PageBoost, SearchMode, SearchOptions};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct EvalArgs {
    /// A bundle folder, or a Docusaurus site folder (built first, into the cache folder).
    target: PathBuf,
    /// The labelled questions (JSON Lines; see tests/eval/README.md).
    #[arg(long)]
    questions: PathBuf,
    #[arg(long, value_enum, default_value_t = ModeArg::All)]
    mode: ModeArg,
    /// The rank within which an answer counts as found (hit@k, selection hits).
    #[arg(long, default_value_t = 3)]
    k: usize,
    /// Only this split (both are reported apart by default).
    #[arg(long, value_enum)]
    split: Option<Split>,
    /// Print JSON: summaries per split and mode, and every outcome.
    #[arg(long)]
    json: bool,
    /// Also write that JSON report to this file.
    #[arg(long)]
    report: Option<PathBuf>,
    /// Fail unless a figure over all questions holds, e.g. `hybrid.hit_at_3>=0.85` or
    /// `lexical.false_refusals<=1` (repeatable; a quality gate for scripts/test.sh).
    #[arg(long = "require")]
    requirements: Vec<String>,
    /// Also write every plain question's hybrid candidates with the learned fusion's features
    /// to this file (JSON Lines; the training data of scripts/eval/train_fusion.py).
    #[arg(long)]
    dump_candidates: Option<PathBuf>,
    /// The page each question is asked from: `own` (its answer's page), `other` (an
    /// unrelated page of another module) or `none` (the search box). The reader's page
    /// boosts its sections.
    #[arg(long, value_enum, default_value_t = AskedFrom::None)]
    asked_from: AskedFrom,
    /// Ask each question as from a page of each docs version its expected sections are in,
    /// answered by that version's sections only, and report hit@k per version with the share
    /// of sections from another version: `own` limits the search to that version (and docs
    /// instance), as the browser does; `none` searches every version. Questions without a
    /// versioned section are asked once, as they are.
    #[arg(long, value_enum)]
    version_scope: Option<VersionScope>,
    /// Measure the follow-up suggestions instead (every heading-to-question rule, in keyword
    /// and hybrid search, or the one `--mode` names): suggestions per answer, the share the
    /// index answers at high or medium confidence, the share of candidates refused.
    #[arg(long)]
    follow_ups: bool,
    /// On a site folder: the locale to index and ask in (its translated docs; default: the
    /// site's default locale).
    #[arg(long)]
    locale: Option<String>,
    /// Model folder, used when the bundle does not carry the model.
    #[arg(long, default_value_os_t = ModelFiles::default_dir())]
    model_dir: PathBuf,
    #[command(flatten)]
    tuning: Tuning,
    /// Whether the site's bundle has its dense index in parts (a bundle folder is read as it is).
    #[command(flatten)]
    dense_parts: DensePartsArg,
}

/// Ranking parameters to try without changing the defaults (tuning on the dev split).
#[derive(clap::Args)]
#[command(next_help_heading = "Tuning (defaults: the shipped values)")]
struct Tuning {
    #[arg(long)]
    candidates: Option<usize>,
    /// How hybrid search fuses its lists (`reciprocal`: the order before the learned fusion).
    #[arg(long, value_enum)]
    fusion: Option<FusionArg>,
    #[arg(long)]
    rrf_k: Option<f32>,
    #[arg(long)]
    dense_weight: Option<f32>,
    #[arg(long)]
    lexical_weight: Option<f32>,
    /// Rebuilds the lexical index in memory with this heading weight.
    #[arg(long)]
    title_boost: Option<u32>,
    #[arg(long)]
    bm25_k1: Option<f32>,
    #[arg(long)]
    bm25_b: Option<f32>,
    /// Earlier questions a follow-up is searched after (0: each question alone).
    #[arg(long)]
    follow_up_turns: Option<usize>,
    #[arg(long)]
    follow_up_context_weight: Option<f32>,
    /// The context weight when the follow-up alone is answered at medium or high.
    #[arg(long)]
    follow_up_self_contained_weight: Option<f32>,
    /// The extra vote of the sections on the page the search in context ranks first.
    #[arg(long)]
    follow_up_page_weight: Option<f32>,
    /// How the page asked from is boosted: `lift:N` (ahead of N candidates) or `scale:F`
    /// (rank divided by F).
    #[arg(long, value_parser = parse_page_boost)]
    page_boost: Option<PageBoost>,
    /// Keyword search also matches the words a question's last word begins and the
    /// neighbours of words the site never uses (what the search box asks; questions do not).
    #[arg(long)]
    expand_words: bool,
    /// The chat's context: results packed (default: the chat's `k`)...
    #[arg(long)]
    context_k: Option<usize>,
    /// ...into this many tokens (default: the chat's `contextTokens`).
    #[arg(long)]
    context_tokens: Option<usize>,
}

fn parse_page_boost(text: &str) -> Result<PageBoost, String> {
    let bad = || format!("expected lift:N or scale:F, not {text:?}");
    let boost = match text.split_once(':').ok_or_else(bad)? {
        ("lift", n) => PageBoost::Lift(n.parse().map_err(|_| bad())?),
        ("scale", f) => PageBoost::Scale(f.parse().map_err(|_| bad())?),
        _ => return Err(bad()),
    };
    boost.validate().map(|()| boost)
}

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum FusionArg {
    Learned,
    Reciprocal,
}

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum ModeArg {
    Lexical,
    Dense,
    Hybrid,
    All,
}

#[derive(serde::Serialize)]
struct Report {
    target: String,
    chunks: usize,
    k: usize,
    /// The context the LLM reads: results packed, and their budget in tokens.
    context_k: usize,
    context_tokens: usize,
    /// Characters per WordPiece token of the chunks' texts (those the model does not cut):
    /// what `chat::CHARS_PER_TOKEN` is measured from.
    chars_per_token: f64,
    summaries: Vec<Row>,
    /// With `--version-scope`: per mode, per version asked from (all splits).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    versions: Vec<ModeVersionRow>,
    outcomes: Vec<ModeOutcome>,
}

#[derive(serde::Serialize)]
struct ModeVersionRow {
    mode: SearchMode,
    #[serde(flatten)]
    row: VersionRow,
}

#[derive(serde::Serialize)]
struct Row {
    split: String,
    mode: SearchMode,
    #[serde(flatten)]
    summary: Summary,
}

#[derive(serde::Serialize)]
struct ModeOutcome {
    mode: SearchMode,
    #[serde(flatten)]
    outcome: Outcome,
}

pub fn run(args: EvalArgs) -> CommandResult {
    let mut all = questions::load(&args.questions)?;
    if let Some(split) = args.split {
        all.retain(|q| q.split == split);
    }
    if !(1..=10).contains(&args.k) {
        return Err(format!("--k must be 1–10, not {}", args.k).into());
    }
    let requirements: Vec<Requirement> =
        args.requirements.iter().map(|r| Requirement::parse(r)).collect::<Result<_, _>>()?;
    let embedder = ModelFiles::in_dir(&args.model_dir, ModelVariant::Compact).load()?;
    let bundle_dir = bundle_for(&args.target, args.locale.as_deref(), &embedder, args.dense_parts.get())?;
    let LoadedBundle { manifest, chunks, mut lexical, dense, texts } =
        load_dir(&bundle_dir).map_err(|e| format!("{}: {e}", bundle_dir.display()))?;
    manifest.check_model(embedder.fingerprint().as_str())?;
    let t = &args.tuning;
    if t.title_boost.is_some() || t.bm25_k1.is_some() || t.bm25_b.is_some() {
        let defaults = IndexOptions::default();
        let options = IndexOptions {
            title_boost: t.title_boost.unwrap_or(defaults.title_boost),
            bm25: Bm25Params::new(t.bm25_k1.unwrap_or(defaults.bm25.k1), t.bm25_b.unwrap_or(defaults.bm25.b))?,
        };
        let sections = chunks.iter().zip(&texts).map(|(c, t)| (c, t.as_str()));
        lexical = lectern::bundle::lexical_index(sections, options)?;
    }
    // An index in a language the model does not suit has no dense index: it is evaluated by
    // keywords only, as the browser searches it.
    let keyword_only = dense.is_none();
    let mut search = HybridSearch::new(chunks, lexical)?;
    if let Some(dense) = dense {
        search.attach_dense(dense)?;
    }
    let defaults = SearchOptions::default();
    let options = SearchOptions {
        candidates: t.candidates.unwrap_or(defaults.candidates),
        fusion: match t.fusion {
            Some(FusionArg::Learned) => Fusion::Learned,
            Some(FusionArg::Reciprocal) => Fusion::Reciprocal,
            None => defaults.fusion,
        },
        rrf_k: t.rrf_k.unwrap_or(defaults.rrf_k),
        dense_weight: t.dense_weight.unwrap_or(defaults.dense_weight),
        lexical_weight: t.lexical_weight.unwrap_or(defaults.lexical_weight),
        page_boost: t.page_boost.unwrap_or(defaults.page_boost),
        expand_words: t.expand_words,
        ..defaults
    };

    let mut evaluator = Evaluator::new(&search, &texts, Some(&embedder));
    evaluator.asked_from = args.asked_from;
    let follow = FollowUpOptions::default();
    evaluator.follow_up = FollowUpOptions {
        turns: t.follow_up_turns.unwrap_or(follow.turns),
        context_weight: t.follow_up_context_weight.unwrap_or(follow.context_weight),
        self_contained_weight: t.follow_up_self_contained_weight.unwrap_or(follow.self_contained_weight),
        page_weight: t.follow_up_page_weight.unwrap_or(follow.page_weight),
    };
    evaluator.context_k = t.context_k.unwrap_or(evaluator.context_k);
    evaluator.context_tokens = t.context_tokens.unwrap_or(evaluator.context_tokens);
    evaluator.follow_up.validate()?;
    let unknown = evaluator.unknown_urls(&all);
    if !unknown.is_empty() {
        return Err(format!(
            "{}: {} URL(s) are not sections of {}: {}",
            args.questions.display(),
            unknown.len(),
            args.target.display(),
            unknown.join(", ")
        )
        .into());
    }
    let modes: &[SearchMode] = match args.mode {
        _ if keyword_only => {
            let language = manifest.site.language.as_deref().unwrap_or("en");
            eprintln!("eval: the index is in {language}, which the model does not suit: keyword search only");
            &[SearchMode::Lexical]
        }
        ModeArg::Lexical => &[SearchMode::Lexical],
        ModeArg::Dense => &[SearchMode::Dense],
        ModeArg::Hybrid => &[SearchMode::Hybrid],
        ModeArg::All => &[SearchMode::Lexical, SearchMode::Dense, SearchMode::Hybrid],
    };
    if args.follow_ups {
        let modes: &[SearchMode] = match args.mode {
            ModeArg::All if !keyword_only => &[SearchMode::Lexical, SearchMode::Hybrid],
            _ => modes,
        };
        return print_follow_ups(&mut evaluator, &all, modes, &options, &args.target);
    }
    if let Some(path) = &args.dump_candidates {
        let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut out = std::io::BufWriter::new(file);
        crate::eval::candidates::dump(&mut out, &mut evaluator, &all, &options)?;
        std::io::Write::flush(&mut out).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    // Each question as asked (once, or once per version it is answered in), with the
    // version it is asked from.
    let sections = SectionVersions::of(&search);
    let asked: Vec<(questions::Question, Option<lectern::search::DocsVersion>)> = match args.version_scope {
        None => all.iter().map(|q| (q.clone(), None)).collect(),
        Some(_) => all.iter().flat_map(|q| sections.split(q)).collect(),
    };
    let mut outcomes = Vec::new();
    let mut asked_from = Vec::new();
    for &mode in modes {
        for (q, version) in &asked {
            let options = match (args.version_scope, version) {
                (Some(VersionScope::Own), Some(v)) => SearchOptions { versions: vec![v.clone()], ..options.clone() },
                _ => options.clone(),
            };
            outcomes.push(ModeOutcome { mode, outcome: evaluator.run(q, mode, &options)? });
            asked_from.push(version.as_ref());
        }
    }
    let mut versions = Vec::new();
    for &mode in modes {
        let these: Vec<(&Outcome, &lectern::search::DocsVersion)> = (outcomes.iter().zip(&asked_from))
            .filter(|(o, _)| o.mode == mode)
            .filter_map(|(o, v)| Some((&o.outcome, (*v)?)))
            .collect();
        versions.extend(per_version(&sections, &these, args.k).into_iter().map(|row| ModeVersionRow { mode, row }));
    }

    let splits: Vec<Option<Split>> = match args.split {
        Some(s) => vec![Some(s)],
        None => vec![Some(Split::Dev), Some(Split::Heldout), None],
    };
    let mut summaries = Vec::new();
    for split in &splits {
        for &mode in modes {
            let these = outcomes.iter().filter(|o| o.mode == mode && split.is_none_or(|s| o.outcome.split == s));
            let summary = Summary::of(these.map(|o| &o.outcome), args.k);
            let split = split.map_or("all".to_string(), |s| s.to_string());
            summaries.push(Row { split, mode, summary });
        }
    }
    let report = Report {
        target: args.target.display().to_string(),
        chunks: search.chunks().len(),
        k: args.k,
        context_k: evaluator.context_k,
        context_tokens: evaluator.context_tokens,
        chars_per_token: chars_per_token(&texts, &embedder)?,
        summaries,
        versions,
        outcomes,
    };
    let json = serde_json::to_string_pretty(&report)?;
    if let Some(path) = &args.report {
        std::fs::write(path, &json).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if args.json {
        println!("{json}");
    } else {
        print_report(&report);
    }

    let overall: Vec<&Row> = report.summaries.iter().filter(|r| r.split == "all" || args.split.is_some()).collect();
    let failed: Vec<String> = requirements.iter().filter_map(|r| r.check(&overall).err()).collect();
    if !failed.is_empty() {
        return Err(format!("quality gate failed:\n  {}", failed.join("\n  ")).into());
    }
    if !requirements.is_empty() {
        eprintln!("eval: quality gate passed ({} requirements)", requirements.len());
    }
    Ok(())
}

/// Characters per word piece over `texts` short enough not to be cut by the model.
fn chars_per_token(texts: &[String], embedder: &Embedder) -> Result<f64, Box<dyn std::error::Error>> {
    let (mut chars, mut pieces) = (0usize, 0usize);
    for text in texts {
        let n = embedder.token_count(text)?.saturating_sub(2); // without [CLS] and [SEP]
        if n > 0 && n < 500 {
            chars += text.chars().count();
            pieces += n;
        }
    }
    Ok(chars as f64 / pieces.max(1) as f64)
}

/// The bundle to evaluate: `target` itself, or a fresh build of the site `target` in the
/// cache folder with `embedder` (vectors of unchanged chunks are reused, so a rebuild is quick).
/// A forced dense layout builds into a folder of its own, so it never replaces the default one.
fn bundle_for(
    target: &Path,
    locale: Option<&str>,
    embedder: &Embedder,
    parts: DenseParts,
) -> Result<PathBuf, Box<dyn std::error::Error>> {
    if target.join(MANIFEST_FILE).is_file() {
        return Ok(target.to_path_buf());
    }
    let overrides = crate::site::Overrides { locale: locale.map(str::to_string), ..crate::site::Overrides::default() };
    let report = crate::site::read_site(target, &overrides)?;
    let canonical = target.canonicalize()?;
    let name = canonical.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "site".into());
    let digest = lectern::bundle::sha256_hex(canonical.to_string_lossy().as_bytes());
    let layout = match parts {
        DenseParts::BySize => "",
        DenseParts::Always => "-parts",
        DenseParts::Never => "-whole",
    };
    let out = cache_dir().join("eval").join(format!("{name}-{}{layout}", &digest[..12]));
    let out = report.locale.bundle_dir(&out);
    let summary = build_bundle(
        &report,
        embedder,
        None,
        &out,
        ShardSizes { dense_parts: parts, ..ShardSizes::default() },
        |_| {},
    )?;
    eprintln!(
        "eval: indexed {} ({} chunks, {} embedded, {} reused) into {}",
        target.display(),
        summary.chunks,
        summary.embedding.embedded,
        summary.embedding.reused,
        out.display()
    );
    Ok(out)
}

fn cache_dir() -> PathBuf {
    match std::env::var_os("LECTERN_CACHE") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("HOME").map_or_else(std::env::temp_dir, PathBuf::from).join(".cache/lectern"),
    }
}

/// `--follow-ups`: the figures of every rule in every mode, one row each.
fn print_follow_ups(
    evaluator: &mut Evaluator,
    questions: &[crate::eval::questions::Question],
    modes: &[SearchMode],
    options: &SearchOptions,
    target: &Path,
) -> CommandResult {
    println!("{} follow-up suggestions", target.display());
    println!(
        "{:<17} {:<8} {:>7} {:>10} {:>8} {:>8} {:>10} {:>11} {:>10} {:>8} {:>5}",
        "rule",
        "mode",
        "answers",
        "candidates",
        "refused",
        "ref.alone",
        "shown/ans",
        "high|medium",
        "h|m alone",
        "landing",
        "none"
    );
    for &mode in modes {
        for phrasing in Phrasing::ALL {
            let f = follow_ups::measure(evaluator, questions, mode, options, phrasing)?;
            let shipped = if phrasing == Phrasing::SHIPPED { " (shipped)" } else { "" };
            println!(
                "{:<17} {:<8} {:>7} {:>10} {:>8.3} {:>8.3} {:>10.2} {:>11.3} {:>10.3} {:>8.3} {:>5}{shipped}",
                f.phrasing,
                f.mode,
                f.answers,
                f.candidates,
                f.refused_share(),
                f.refused_alone_share(),
                f.per_answer(),
                f.high_or_medium_share(),
                f.high_or_medium_alone_share(),
                f.landing_share(),
                f.answers_without,
            );
        }
    }
    println!("(refused: share of candidates the index refuses as the follow-up a click asks, before filtering; ref.alone: asked without the conversation; shown/ans: suggestions shown per answer; high|medium: share of shown ones the index answers at high or medium confidence as that follow-up; h|m alone: asked alone; landing: share of shown ones whose search alone ranks their own section in the top 3; none: answers with no suggestion)");
    Ok(())
}

fn print_report(report: &Report) {
    let k = report.k;
    println!(
        "{} ({} chunks), k = {k}; context: {} results packed into {} tokens ({:.2} characters per word piece)",
        report.target, report.chunks, report.context_k, report.context_tokens, report.chars_per_token
    );
    println!(
        "{:<8} {:<8} {:>4} {:>6} {:>6} {:>6} {:>6} {:>6} {:>8} {:>7} {:>6}  {:>10} {:>10} {:>9} {:>10} {:>10} {:>6}",
        "split",
        "mode",
        "n",
        "hit@1",
        "hit@3",
        "hit@5",
        "hit@10",
        "MRR",
        "nDCG@10",
        "context",
        "top5",
        "selection",
        "elsewhere",
        "false ref",
        "near-miss",
        "off-topic",
        "AUC"
    );
    for row in &report.summaries {
        let s = &row.summary;
        println!(
            "{:<8} {:<8} {:>4} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>8.3} {:>7.3} {:>6.3}  {:>10} {:>10} {:>9} {:>10} {:>10} {:>6}",
            row.split,
            format!("{:?}", row.mode).to_lowercase(),
            s.answerable,
            s.hit_at_1,
            s.hit_at_3,
            s.hit_at_5,
            s.hit_at_10,
            s.mrr,
            s.ndcg_at_10,
            s.context_recall,
            s.context_recall_top5,
            format!("{}/{}", s.selection_hits, s.selection),
            format!("{}/{}", s.selection_elsewhere_hits, s.selection_elsewhere),
            format!("{}/{}", s.false_refusals, s.answerable),
            format!("{}/{}", s.near_miss_refused, s.near_miss),
            format!("{}/{}", s.off_topic_refused, s.off_topic),
            s.refusal_auc.map_or("-".into(), |a| format!("{a:.3}")),
        );
    }
    println!("(selection: answer in the top {k} or the selection itself; elsewhere: answer outside the selection, in the top {k}; ref = refused; context: answer in what the LLM reads, passages packed; top5: in the first five sections, whole; AUC: confidence score, answerable vs near-miss)");
    println!("follow-ups (fu) and the reliability of each confidence label:");
    println!(
        "{:<8} {:<8} {:>4} {:>6} {:>6} {:>6} {:>7} {:>8}   reliability (right first / labelled)",
        "split", "mode", "fu", "", "hit@1", "hit@3", "context", "refused"
    );
    for row in &report.summaries {
        let s = &row.summary;
        let labels: Vec<String> = ["high", "medium", "low"]
            .iter()
            .filter_map(|l| {
                s.reliability.get(*l).map(|r| format!("{l} {}/{} ({:.2})", r.right_first, r.questions, r.share))
            })
            .collect();
        println!(
            "{:<8} {:<8} {:>4} {:>6} {:>6.3} {:>6.3} {:>7.3} {:>8}   {}",
            row.split,
            format!("{:?}", row.mode).to_lowercase(),
            s.follow_up,
            "",
            s.follow_up_hit_at_1,
            s.follow_up_hit_at_3,
            s.follow_up_context_recall,
            format!("{}/{}", s.follow_up_refused, s.follow_up),
            labels.join(", ")
        );
    }
    if !report.versions.is_empty() {
        println!("per docs version asked from (all splits):");
        println!(
            "{:<22} {:<8} {:>4} {:>6} {:>6} {:>14} {:>14}",
            "version",
            "mode",
            "n",
            "hit@1",
            format!("hit@{k}"),
            format!("other v. top{k}"),
            "other v. ctx"
        );
        for v in &report.versions {
            println!(
                "{:<22} {:<8} {:>4} {:>6.3} {:>6.3} {:>14.3} {:>14.3}",
                v.row.version,
                format!("{:?}", v.mode).to_lowercase(),
                v.row.questions,
                v.row.hit_at_1,
                v.row.hit_at_k,
                v.row.other_version_top_k,
                v.row.other_version_context
            );
        }
        println!("(each question asked once per version it is answered in, expecting that version's sections; other v.: share of the first {k} sections, and of the chat's context, from another docs version)");
    }
    for mo in &report.outcomes {
        let o = &mo.outcome;
        let mode = format!("{:?}", mo.mode).to_lowercase();
        let missed = !o.unanswerable && if o.selected { !o.selection_hit(k) } else { !o.hit(k) };
        let wrongly_answered = o.unanswerable && !o.refused;
        if missed || (o.refused && !o.unanswerable) {
            let rank = o.rank.map_or("-".into(), |r| r.to_string());
            let refused = if o.refused { " REFUSED" } else { "" };
            println!("miss {mode:<7} [{}] {} ({}{refused}, rank {rank}): {}", o.split, o.id, o.kind, o.question);
            println!("     expected {}", o.expected.join(" | "));
            println!("     got      {}", o.top.iter().take(k).cloned().collect::<Vec<_>>().join(" | "));
        } else if wrongly_answered && mo.mode == SearchMode::Hybrid {
            println!("answered {mode:<7} [{}] {} ({}, {}): {}", o.split, o.id, o.kind, o.confidence, o.question);
        }
    }
}

/// `mode.metric>=value` or `mode.metric<=value`, checked on the summary over all questions.
struct Requirement {
    mode: String,
    metric: String,
    at_least: bool,
    value: f64,
    text: String,
}

impl Requirement {
    fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("--require {text}: expected MODE.METRIC>=VALUE or MODE.METRIC<=VALUE");
        let (lhs, at_least, rhs) = if let Some((l, r)) = text.split_once(">=") {
            (l, true, r)
        } else if let Some((l, r)) = text.split_once("<=") {
            (l, false, r)
        } else {
            return Err(bad());
        };
        let (mode, metric) = lhs.trim().split_once('.').ok_or_else(bad)?;
        let value = rhs.trim().parse().map_err(|_| bad())?;
        Ok(Requirement { mode: mode.into(), metric: metric.into(), at_least, value, text: text.into() })
    }

    fn check(&self, rows: &[&Row]) -> Result<(), String> {
        let row = rows
            .iter()
            .find(|r| format!("{:?}", r.mode).eq_ignore_ascii_case(&self.mode))
            .ok_or_else(|| format!("{}: mode {} was not evaluated", self.text, self.mode))?;
        let json = serde_json::to_value(&row.summary).map_err(|e| e.to_string())?;
        let got = json
            .get(&self.metric)
            .and_then(|v| v.as_f64())
            .ok_or_else(|| format!("{}: no metric {}", self.text, self.metric))?;
        let ok = if self.at_least { got >= self.value - 1e-9 } else { got <= self.value + 1e-9 };
        if ok {
            Ok(())
        } else {
            Err(format!("{}: got {got:.3}", self.text))
        }
    }
}
