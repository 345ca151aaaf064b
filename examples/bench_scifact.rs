//! Retrieval quality on SciFact (BEIR): nDCG@10 and recall@100 of Lectern's dense, lexical
//! and hybrid search over 5,183 abstracts and the 300 test claims, printed as Markdown.
//! Run through scripts/bench/scifact.sh, which gives the data folder and a cache folder:
//! embedding the abstracts takes minutes on 2 cores, so their vectors are kept there, keyed
//! by the model fingerprint and the corpus bytes.
//!
//! usage: bench_scifact <scifact-dir> <cache-dir> [--f32-model]
//!
//! Protocol (BEIR / MTEB): a document is `title + " " + text`; nDCG@10 as trec_eval defines
//! it (gain = qrel grade, discount log2(rank + 1), ideal ranking from all judged documents);
//! recall@100 = judged relevant documents in the top 100 / all judged relevant.

#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

#[cfg(target_arch = "wasm32")]
fn main() {}

type BoxResult<T> = Result<T, Box<dyn std::error::Error>>;

/// Relevance grade of each judged document (by corpus position), per test query.
type Judged = HashMap<u32, u32>;

/// Depth of the ranked lists that recall@100 is measured on.
const DEEP: usize = 100;

struct Query {
    text: String,
    judged: Judged,
    /// The query's embedding by the int8 model (what the browser computes).
    vector: Vec<f32>,
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> BoxResult<()> {
    use lectern::bundle::ChunkMeta;
    use lectern::dense::{DenseIndex, DenseIndexConfig};
    use lectern::embed::{ModelFiles, ModelVariant};
    use lectern::lexical::{Document, IndexOptions, LexicalIndex};
    use lectern::search::{reciprocal_rank_fusion, HybridSearch, RankedList, SearchMode, SearchOptions};

    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(data), Some(cache)) = (args.first(), args.get(1)) else {
        return Err("usage: bench_scifact <scifact-dir> <cache-dir> [--f32-model] [--windows]".into());
    };
    let with_f32_model = args.iter().any(|a| a == "--f32-model");
    let with_windows = args.iter().any(|a| a == "--windows");
    let (data, cache) = (Path::new(data), Path::new(cache));

    let corpus_bytes = std::fs::read(data.join("corpus.jsonl"))?;
    let docs = read_corpus(&corpus_bytes)?;
    let position: HashMap<&str, u32> = (0u32..).zip(&docs).map(|(i, d)| (d.0.as_str(), i)).collect();
    let texts: Vec<&str> = docs.iter().map(|d| d.1.as_str()).collect();
    let qrels = read_qrels(&std::fs::read_to_string(data.join("qrels/test.tsv"))?, &position)?;
    let query_texts = read_queries(&std::fs::read_to_string(data.join("queries_test.jsonl"))?)?;
    let corpus_key = &lectern::bundle::sha256_hex(&corpus_bytes)[..16];

    let model_dir = ModelFiles::default_dir();
    let embedder = ModelFiles::in_dir(&model_dir, ModelVariant::Compact).load_for_batches()?;
    let embeddings = doc_vectors(&embedder, &texts, cache, corpus_key)?;
    // Queries without judgements (none in SciFact's test split) would not count in BEIR either.
    let queries: Vec<Query> = query_texts
        .into_iter()
        .filter_map(|(id, text)| qrels.get(&id).map(|judged| (text, judged.clone())))
        .map(|(text, judged)| Ok(Query { vector: embedder.embed(&text)?, text, judged }))
        .collect::<BoxResult<_>>()?;
    eprintln!("{} documents, {} test queries", docs.len(), queries.len());

    let mut rows: Vec<Row> = Vec::new();
    let f32_exact = |vectors: &[Vec<f32>], query: &[f32]| top_f32(vectors, query, DEEP);
    rows.push(Row::measure(
        "dense, f32 vectors, exact scan (no quantisation)",
        &queries,
        |q| Ok(f32_exact(&embeddings, &q.vector)),
        true,
    )?);

    // The two approximations, one row each: int8 quantisation (exact scan of the int8
    // vectors vs the f32 row above) and the HNSW graph. The graph is built whether or not the
    // default config would build one for a corpus this size, so its cost is always seen.
    let config = DenseIndexConfig::default();
    let int8 = DenseIndex::from_embeddings(&embeddings, &config)?;
    rows.push(Row::measure(
        "dense, int8 vectors, exact scan",
        &queries,
        |q| ids(int8.search_exact(&q.vector, DEEP, None)?),
        true,
    )?);
    let start = Instant::now();
    let graph = DenseIndex::from_embeddings(&embeddings, &DenseIndexConfig { graph_threshold: 0, ..config.clone() })?;
    eprintln!("HNSW graph over {} vectors built in {:.1} s", graph.len(), start.elapsed().as_secs_f64());
    let ef_search = graph.ef_search().unwrap_or(config.ef_search);
    let shipped = if int8.has_graph() {
        "as shipped at this size".to_string()
    } else {
        format!("forced: the default builds none below {} vectors", config.graph_threshold)
    };
    let label =
        format!("dense, int8 HNSW (ef_construction {}, ef_search {ef_search}; {shipped})", config.ef_construction);
    // Deeper than ef_search, a search falls back to the exact scan: no recall@100 of the graph then.
    rows.push(Row::measure(&label, &queries, |q| ids(graph.search(&q.vector, DEEP, None)?), DEEP <= ef_search)?);

    let documents: Vec<Document<'_>> = texts.iter().map(|t| Document::text(t)).collect();
    let lexical = LexicalIndex::build(&documents, IndexOptions::default())?;
    rows.push(Row::measure(
        "lexical, BM25 (k1 1.2, b 0.75)",
        &queries,
        |q| Ok(lexical.search(&q.text, DEEP, None).into_iter().map(|h| h.0).collect()),
        true,
    )?);

    // The product's path: HybridSearch with the default options, asked for 10 results.
    let product_search = |dense: DenseIndex| -> BoxResult<HybridSearch> {
        let metas = docs.iter().enumerate().map(|(i, (id, _))| dummy_meta(id, i)).collect::<Vec<ChunkMeta>>();
        let mut search = HybridSearch::new(metas, lexical.clone())?;
        search.attach_dense(lectern::dense::AnyDenseIndex::Whole(dense))?;
        Ok(search)
    };
    let search = product_search(DenseIndex::from_embeddings(&embeddings, &DenseIndexConfig::default())?)?;
    let run = |q: &Query, options: &SearchOptions| -> BoxResult<Vec<u32>> {
        Ok(search.search(&q.text, Some(&q.vector), options)?.hits.iter().map(|h| h.index).collect())
    };
    let defaults = SearchOptions { k: 10, ..SearchOptions::default() };
    let mut hybrid = Row::measure(
        "hybrid, RRF: HybridSearch, default options (k raised to 10)",
        &queries,
        |q| run(q, &defaults),
        false,
    )?;
    // HybridSearch returns at most 50 results, so recall@100 fuses the two 100-deep lists
    // directly with the same function and the default weights and k.
    let deep: Vec<f64> = queries
        .iter()
        .map(|q| {
            let dense = int8.search(&q.vector, DEEP, None)?;
            let words = lexical.search(&q.text, DEEP, None);
            let lists = [
                RankedList { hits: &dense, weight: defaults.dense_weight },
                RankedList { hits: &words, weight: defaults.lexical_weight },
            ];
            let fused: Vec<u32> = reciprocal_rank_fusion(&lists, defaults.rrf_k).into_iter().map(|h| h.0).collect();
            Ok(recall_at(&fused, &q.judged, DEEP))
        })
        .collect::<BoxResult<_>>()?;
    hybrid.recall = Some(mean(&deep));
    rows.push(hybrid);
    // Check: dense or lexical alone through HybridSearch must rank as the indexes above do.
    let dense_row = if int8.has_graph() { 2 } else { 1 };
    for (mode, direct) in [(SearchMode::Dense, dense_row), (SearchMode::Lexical, 3)] {
        let options = SearchOptions { mode, ..defaults.clone() };
        let via_search = Row::measure("", &queries, |q| run(q, &options), false)?;
        let (a, b) = (mean(&via_search.ndcg), mean(&rows[direct].ndcg));
        eprintln!(
            "check: {mode:?} through HybridSearch nDCG@10 {a:.4}, direct {b:.4}{}",
            if (a - b).abs() > 1e-9 { "  <- DIFFERENT" } else { "" }
        );
    }

    if with_windows {
        // As `lectern build` embeds a long section: every window, the best one scores the
        // document. Abstracts that fit keep their one vector.
        let windows: Vec<Vec<String>> = texts.iter().map(|t| embedder.windows(&[], t)).collect::<Result<_, _>>()?;
        let long: Vec<usize> = (0..texts.len()).filter(|&i| windows[i].len() > 1).collect();
        let extra_texts: Vec<&str> = long.iter().flat_map(|&i| windows[i].iter().map(String::as_str)).collect();
        eprintln!(
            "{} of {} abstracts are longer than one window: {} windows",
            long.len(),
            texts.len(),
            extra_texts.len()
        );
        let mut extra = embed_parallel(&embedder, &extra_texts)?.into_iter();
        let mut items: Vec<Vec<Vec<f32>>> = embeddings.iter().map(|v| vec![v.clone()]).collect();
        for &i in &long {
            items[i] = extra.by_ref().take(windows[i].len()).collect();
        }
        let windowed = DenseIndex::from_item_embeddings(&items, &DenseIndexConfig::default())?;
        rows.push(Row::measure(
            "dense, int8, every window of a long abstract (best window scores)",
            &queries,
            |q| ids(windowed.search_items(&q.vector, DEEP, None)?),
            true,
        )?);
        let search = product_search(windowed)?;
        rows.push(Row::measure(
            "hybrid, RRF, default options, windows (k raised to 10)",
            &queries,
            |q| Ok(search.search(&q.text, Some(&q.vector), &defaults)?.hits.iter().map(|h| h.index).collect()),
            false,
        )?);
    }

    if with_f32_model {
        let f32_embedder = ModelFiles::in_dir(&model_dir, ModelVariant::F32).load_for_batches()?;
        let vectors = doc_vectors(&f32_embedder, &texts, cache, corpus_key)?;
        let f32_queries = queries
            .iter()
            .map(|q| Ok(Query { vector: f32_embedder.embed(&q.text)?, text: q.text.clone(), judged: q.judged.clone() }))
            .collect::<BoxResult<Vec<_>>>()?;
        let label = "dense, **f32 model** (not int8), f32 vectors, exact scan";
        rows.push(Row::measure(label, &f32_queries, |q| Ok(f32_exact(&vectors, &q.vector)), true)?);
    }

    println!(
        "SciFact test split: {} queries, {} documents. Model {} (int8 weights unless marked).\n",
        queries.len(),
        docs.len(),
        embedder.fingerprint()
    );
    println!("| retrieval | nDCG@10 | recall@100 | search ms / query |");
    println!("|---|---|---|---|");
    for row in &rows {
        let recall = row.recall.map_or("—".to_string(), |r| format!("{r:.3}"));
        println!("| {} | {:.3} | {recall} | {:.2} |", row.label, mean(&row.ndcg), row.ms_per_query);
    }

    // The sweep: nDCG@10 of HybridSearch over fusion settings. Measured on the test queries
    // themselves, so its best cell is optimistic; the 2-fold line below is the honest estimate.
    let ks = [10.0f32, 30.0, 60.0, 100.0];
    let weights = [(1.0f32, 3.0f32), (1.0, 2.0), (1.0, 1.0), (2.0, 1.0), (3.0, 1.0)];
    let candidate_counts = [30usize, 100];
    let mut grid: Vec<(String, Vec<f64>)> = Vec::new();
    for &candidates in &candidate_counts {
        println!("\nHybrid nDCG@10 by rrf_k (rows) and dense : lexical weight (columns), {candidates} candidates per list:\n");
        let header: Vec<String> = weights.iter().map(|(d, l)| format!("{d}:{l}")).collect();
        println!("| rrf_k | {} |", header.join(" | "));
        println!("|---|{}", "---|".repeat(weights.len()));
        for &rrf_k in &ks {
            let mut cells = Vec::new();
            for &(dense_weight, lexical_weight) in &weights {
                let options = SearchOptions { rrf_k, dense_weight, lexical_weight, candidates, ..defaults.clone() };
                let per_query = queries
                    .iter()
                    .map(|q| Ok(ndcg_at(&run(q, &options)?, &q.judged, 10)))
                    .collect::<BoxResult<Vec<f64>>>()?;
                cells.push(format!("{:.3}", mean(&per_query)));
                grid.push((
                    format!("rrf_k {rrf_k}, weights {dense_weight}:{lexical_weight}, {candidates} candidates"),
                    per_query,
                ));
            }
            println!("| {rrf_k} | {} |", cells.join(" | "));
        }
    }
    let default_scores =
        &grid.iter().find(|(name, _)| name == "rrf_k 60, weights 1:1, 30 candidates").ok_or("no default cell")?.1;
    cross_validate(&grid, default_scores);
    Ok(())
}

/// One line of the results table: per-query nDCG@10, mean recall@100 and search time.
struct Row {
    label: String,
    ndcg: Vec<f64>,
    recall: Option<f64>,
    ms_per_query: f64,
}

impl Row {
    /// Runs `search` (ranked corpus positions, best first) for every query.
    fn measure(
        label: &str,
        queries: &[Query],
        search: impl Fn(&Query) -> BoxResult<Vec<u32>>,
        deep: bool,
    ) -> BoxResult<Row> {
        let start = Instant::now();
        let ranked = queries.iter().map(&search).collect::<BoxResult<Vec<_>>>()?;
        let ms_per_query = start.elapsed().as_secs_f64() * 1e3 / queries.len() as f64;
        let ndcg = queries.iter().zip(&ranked).map(|(q, r)| ndcg_at(r, &q.judged, 10)).collect();
        let recall = deep.then(|| {
            mean(&queries.iter().zip(&ranked).map(|(q, r)| recall_at(r, &q.judged, DEEP)).collect::<Vec<_>>())
        });
        Ok(Row { label: label.to_string(), ndcg, recall, ms_per_query })
    }
}

/// Two folds by query position (even / odd): each fold's settings are the best cell on the
/// other fold. The mean over all queries of those held-out scores is what tuning would buy.
fn cross_validate(grid: &[(String, Vec<f64>)], defaults: &[f64]) {
    let in_fold = |i: usize, fold: usize| i % 2 == fold;
    let fold_mean = |scores: &[f64], fold: usize| {
        mean(&scores.iter().enumerate().filter(|(i, _)| in_fold(*i, fold)).map(|(_, s)| *s).collect::<Vec<_>>())
    };
    let mut held_out = defaults.to_vec(); // per query, in query order like `defaults`
    println!();
    for fold in 0..2 {
        let Some((name, scores)) =
            grid.iter().max_by(|a, b| fold_mean(&a.1, 1 - fold).total_cmp(&fold_mean(&b.1, 1 - fold)))
        else {
            return;
        };
        println!(
            "- fold {fold}: tuned on the other half of the queries -> {name}; held-out nDCG@10 {:.3} (defaults {:.3})",
            fold_mean(scores, fold),
            fold_mean(defaults, fold)
        );
        for (i, score) in scores.iter().enumerate().filter(|(i, _)| in_fold(*i, fold)) {
            held_out[i] = *score;
        }
    }
    // Standard error of the paired per-query difference: how much of the gain is noise.
    let diffs: Vec<f64> = held_out.iter().zip(defaults).map(|(t, d)| t - d).collect();
    let spread = mean(&diffs.iter().map(|d| (d - mean(&diffs)).powi(2)).collect::<Vec<_>>()).sqrt();
    println!(
        "- 2-fold cross-validated nDCG@10 of tuned fusion: {:.3} (defaults {:.3}; difference {:+.3} ± {:.3} s.e.)",
        mean(&held_out),
        mean(defaults),
        mean(&diffs),
        spread / (diffs.len() as f64).sqrt()
    );
}

/// trec_eval's nDCG@k: gain = grade, discount log2(rank + 1), the ideal from every judged
/// document of the query (not only the retrieved ones).
fn ndcg_at(ranked: &[u32], judged: &Judged, k: usize) -> f64 {
    let discount = |rank: usize| 1.0 / ((rank + 2) as f64).log2(); // rank from 0
    let dcg: f64 =
        ranked.iter().take(k).enumerate().map(|(r, d)| f64::from(*judged.get(d).unwrap_or(&0)) * discount(r)).sum();
    let mut grades: Vec<u32> = judged.values().copied().filter(|&g| g > 0).collect();
    grades.sort_unstable_by(|a, b| b.cmp(a));
    let ideal: f64 = grades.iter().take(k).enumerate().map(|(r, g)| f64::from(*g) * discount(r)).sum();
    if ideal == 0.0 {
        0.0
    } else {
        dcg / ideal
    }
}

fn recall_at(ranked: &[u32], judged: &Judged, k: usize) -> f64 {
    let relevant = judged.values().filter(|&&g| g > 0).count();
    let found = ranked.iter().take(k).filter(|d| judged.get(d).is_some_and(|&g| g > 0)).count();
    if relevant == 0 {
        0.0
    } else {
        found as f64 / relevant as f64
    }
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn ids(hits: Vec<(u32, f32)>) -> BoxResult<Vec<u32>> {
    Ok(hits.into_iter().map(|h| h.0).collect())
}

/// The exact top `k` by f32 dot product (= cosine: all vectors are unit length).
fn top_f32(vectors: &[Vec<f32>], query: &[f32], k: usize) -> Vec<u32> {
    let mut scored: Vec<(u32, f32)> =
        (0u32..).zip(vectors).map(|(i, v)| (i, lectern::dense::dot_f32(v, query))).collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.into_iter().take(k).map(|s| s.0).collect()
}

/// HybridSearch wants chunk metadata; SciFact documents only have an id.
fn dummy_meta(id: &str, position: usize) -> lectern::bundle::ChunkMeta {
    lectern::bundle::ChunkMeta {
        chunk_id: id.to_string(),
        url: format!("/scifact/{id}"),
        heading_path: Vec::new(),
        chapter_title: String::new(),
        section_title: String::new(),
        module: "scifact".into(),
        chapter_id: id.to_string(),
        instance: "default".into(),
        version: None,
        word_count: 0,
        position,
        hash: String::new(),
        parts: Vec::new(),
        name: None,
    }
}

/// (id, "title text") per line of corpus.jsonl, in file order.
fn read_corpus(bytes: &[u8]) -> BoxResult<Vec<(String, String)>> {
    #[derive(serde::Deserialize)]
    struct Line {
        _id: String,
        title: String,
        text: String,
    }
    let text = std::str::from_utf8(bytes)?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let d: Line = serde_json::from_str(l)?;
            Ok((d._id, format!("{} {}", d.title, d.text)))
        })
        .collect()
}

fn read_queries(text: &str) -> BoxResult<Vec<(String, String)>> {
    #[derive(serde::Deserialize)]
    struct Line {
        _id: String,
        text: String,
    }
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Line>(l).map(|q| (q._id, q.text)).map_err(Into::into))
        .collect()
}

/// qrels/test.tsv (a header, then `query-id corpus-id score`) by query id.
fn read_qrels(text: &str, position: &HashMap<&str, u32>) -> BoxResult<HashMap<String, Judged>> {
    let mut qrels: HashMap<String, Judged> = HashMap::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [query, doc, grade] = fields[..] else { return Err(format!("bad qrels line: {line:?}").into()) };
        let doc = *position.get(doc).ok_or_else(|| format!("qrels names unknown document {doc}"))?;
        qrels.entry(query.to_string()).or_default().insert(doc, grade.trim().parse()?);
    }
    Ok(qrels)
}

/// The documents' vectors: from the cache if there, else embedded and cached. Raw
/// little-endian f32, `texts.len() * DIMS` of them, in a file named after the model
/// fingerprint and the corpus hash, so another model or corpus never reads stale vectors.
#[cfg(not(target_arch = "wasm32"))]
fn doc_vectors(
    embedder: &lectern::embed::Embedder,
    texts: &[&str],
    cache: &Path,
    corpus_key: &str,
) -> BoxResult<Vec<Vec<f32>>> {
    use lectern::embed::DIMS;
    let model_key = embedder.fingerprint().as_str().trim_start_matches("sha256:");
    let path = cache.join(format!("scifact-{model_key}-{corpus_key}.f32"));
    if let Ok(bytes) = std::fs::read(&path) {
        if bytes.len() == texts.len() * DIMS * 4 {
            eprintln!("document vectors from {}", path.display());
            let values: Vec<f32> =
                bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            return Ok(values.chunks_exact(DIMS).map(<[f32]>::to_vec).collect());
        }
    }
    let start = Instant::now();
    let vectors = embed_parallel(embedder, texts)?;
    let seconds = start.elapsed().as_secs_f64();
    eprintln!("embedded {} documents in {seconds:.0} s ({:.1} docs/s)", texts.len(), texts.len() as f64 / seconds);
    std::fs::create_dir_all(cache)?;
    let bytes: Vec<u8> = vectors.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
    let partial = path.with_extension("partial"); // rename: a killed run leaves no short file
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, &path)?;
    Ok(vectors)
}

/// Embeds in batches of 16 texts of similar length (padding is per batch), one worker per
/// core: tract runs a model on one thread, as the index build does.
#[cfg(not(target_arch = "wasm32"))]
fn embed_parallel(embedder: &lectern::embed::Embedder, texts: &[&str]) -> BoxResult<Vec<Vec<f32>>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let mut order: Vec<(usize, usize)> =
        texts.iter().enumerate().map(|(i, t)| Ok((embedder.token_count(t)?, i))).collect::<BoxResult<_>>()?;
    order.sort_unstable();
    let batches: Vec<&[(usize, usize)]> = order.chunks(16).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let results = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| -> Result<Vec<(usize, Vec<f32>)>, lectern::embed::EmbedError> {
                    let mut out = Vec::new();
                    while let Some(batch) = batches.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let batch_texts: Vec<&str> = batch.iter().map(|&(_, i)| texts[i]).collect();
                        let vectors = embedder.embed_batch(&batch_texts)?;
                        out.extend(batch.iter().map(|&(_, i)| i).zip(vectors));
                        let finished = done.fetch_add(batch.len(), Ordering::Relaxed) + batch.len();
                        if finished % 512 < batch.len() {
                            eprintln!("  embedded {finished}/{}", texts.len());
                        }
                    }
                    Ok(out)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("an embedding worker panicked")).collect::<Vec<_>>()
    });
    let mut vectors = vec![Vec::new(); texts.len()];
    for result in results {
        for (i, vector) in result? {
            vectors[i] = vector;
        }
    }
    Ok(vectors)
}
