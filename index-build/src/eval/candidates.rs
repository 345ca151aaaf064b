//! Training data for the learned fusion (`lectern eval --dump-candidates FILE`, read by
//! scripts/eval/train_fusion.py): every plain question's hybrid candidates with the features
//! `lectern::search::fusion_model` scores them by — computed by the very code the search
//! runs, so what is fitted is what ships — and whether each answers the question.
//! Selections and follow-ups are left out: their query is not the reader's question alone.
//!
//! Each candidate also carries, under `extra`, features the search does not compute — BM25
//! of its heading path, of its own heading and of its text alone, a vector of its heading
//! path alone, heading-term coverage, a heading that names an identifier of the question,
//! its length and page — so a feature is measured (leave-one-corpus-out, held-out apart)
//! before a bundle pays bytes or the browser pays a fetch for it (BENCHMARKS.md, issue 25).

use super::questions::Question;
use super::Evaluator;
use lectern::lexical::{query_names, tokenize, Document, IndexOptions, LexicalIndex};
use lectern::search::fusion_model::FEATURES;
use lectern::search::SearchOptions;
use std::collections::{HashMap, HashSet};
use std::io::Write;

/// BM25 of one field of every chunk: the question's score on each chunk's heading path, its
/// own heading, or its text alone (a per-field BM25 the shipped index does not keep apart;
/// measured here before a bundle pays bytes for it).
struct FieldIndexes {
    heading_path: LexicalIndex,
    heading: LexicalIndex,
    body: LexicalIndex,
}

impl FieldIndexes {
    fn build(evaluator: &Evaluator<'_>) -> Result<Self, String> {
        let chunks = evaluator.search.chunks();
        let paths: Vec<String> = chunks.iter().map(|c| c.heading_path.join(" ")).collect();
        let heads: Vec<String> = chunks
            .iter()
            .map(|c| {
                let own = c.heading_path.last().cloned().unwrap_or_default();
                let parts = c.parts.iter().filter_map(|p| p.heading_path.last().cloned());
                std::iter::once(own).chain(parts).collect::<Vec<_>>().join(" ")
            })
            .collect();
        let index = |texts: &[String]| {
            let docs: Vec<Document<'_>> = texts.iter().map(|t| Document::text(t)).collect();
            LexicalIndex::build(&docs, IndexOptions::default()).map_err(|e| e.to_string())
        };
        Ok(FieldIndexes { heading_path: index(&paths)?, heading: index(&heads)?, body: index(evaluator.texts)? })
    }
}

/// Each chunk's BM25 on `index` for `query` (absent: 0).
fn scores(index: &LexicalIndex, query: &str) -> HashMap<u32, f32> {
    index.search(query, index.doc_count() as usize, None).into_iter().collect()
}

/// One JSON line per plain question: its id, split, kind, whether it is answerable, and its
/// candidates (chunk, label, features by name, and rank under reciprocal rank fusion).
pub fn dump(
    out: &mut impl Write,
    evaluator: &mut Evaluator<'_>,
    questions: &[Question],
    options: &SearchOptions,
) -> Result<(), String> {
    let fields = FieldIndexes::build(evaluator)?;
    for q in questions.iter().filter(|q| q.selection.is_none() && !q.is_follow_up()) {
        let query = lectern::query::question(&q.question).map_err(|e| format!("{}: {}", q.id, e.message()))?;
        let vector = evaluator.vector(query)?;
        let search = evaluator.search;
        let pool = search.fusion_candidates(query, &vector, options).map_err(|e| format!("{}: {e}", q.id))?;
        // The order before the learned fusion: reciprocal rank fusion (k 60, weights 1).
        let mut by_rrf: Vec<usize> = (0..pool.len()).collect();
        by_rrf.sort_by(|&a, &b| {
            let vote = |i: usize| pool[i].1[0] + pool[i].1[1];
            vote(b).total_cmp(&vote(a)).then(pool[a].0.index.cmp(&pool[b].0.index))
        });
        let (path_bm25, head_bm25, body_bm25) =
            (scores(&fields.heading_path, query), scores(&fields.heading, query), scores(&fields.body, query));
        let pool_best =
            |m: &HashMap<u32, f32>| pool.iter().map(|(c, _)| *m.get(&c.index).unwrap_or(&0.0)).fold(0.0, f32::max);
        let (best_path, best_head, best_body) = (pool_best(&path_bm25), pool_best(&head_bm25), pool_best(&body_bm25));
        let relative =
            |m: &HashMap<u32, f32>, i: u32, best: f32| if best > 0.0 { m.get(&i).unwrap_or(&0.0) / best } else { 0.0 };
        // A vector for the heading path alone (embedded here, cached by the evaluator).
        let mut head_cosines = Vec::with_capacity(pool.len());
        for (candidate, _) in &pool {
            let path = search.chunk(candidate.index).map(|m| m.heading_path.join(" > ")).unwrap_or_default();
            let v = evaluator.vector(&path)?;
            head_cosines.push(v.iter().zip(&vector).map(|(a, b)| a * b).sum::<f32>());
        }
        let best_head_cosine = head_cosines.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let search = evaluator.search;
        let question_terms: HashSet<String> = tokenize(query).into_iter().collect();
        let names = query_names(query);
        let mut rows = Vec::with_capacity(pool.len());
        for (i, (candidate, features)) in pool.iter().enumerate() {
            let answers = search
                .chunk(candidate.index)
                .is_some_and(|c| q.expected.contains(&c.url) || c.parts.iter().any(|p| q.expected.contains(&p.url)));
            let named: serde_json::Map<String, serde_json::Value> =
                FEATURES.iter().zip(features).map(|(n, f)| (n.to_string(), serde_json::json!(f))).collect();
            let rrf_rank = by_rrf.iter().position(|&j| j == i).map_or(0, |r| r + 1);
            let meta = search.chunk(candidate.index);
            let head_terms: HashSet<String> =
                meta.and_then(|m| m.heading_path.last()).map(|h| tokenize(h).into_iter().collect()).unwrap_or_default();
            let covered = head_terms.intersection(&question_terms).count() as f32;
            let name_match =
                meta.is_some_and(|m| m.names().iter().any(|n| names.contains(&lectern::lexical::name_term(n))));
            let words = meta.map_or(0, |m| m.word_count);
            let extra = serde_json::json!({
                "bm25_path": relative(&path_bm25, candidate.index, best_path),
                "bm25_head": relative(&head_bm25, candidate.index, best_head),
                "bm25_body": relative(&body_bm25, candidate.index, best_body),
                "head_cover": if head_terms.is_empty() { 0.0 } else { covered / head_terms.len() as f32 },
                "head_all": if !head_terms.is_empty() && covered as usize == head_terms.len() { 1.0 } else { 0.0 },
                "name_match": if name_match { 1.0 } else { 0.0 },
                "log_words": (1.0 + words as f32).ln(),
                "cos_head": head_cosines[i],
                "cos_head_gap": head_cosines[i] - best_head_cosine,
                "page": meta.map(|m| m.url.split('#').next().unwrap_or("").to_string()),
            });
            rows.push(serde_json::json!({
                "chunk": candidate.index, "label": answers, "rrf_rank": rrf_rank, "features": named, "extra": extra,
            }));
        }
        let line = serde_json::json!({
            "id": q.id, "split": q.split, "kind": q.kind, "unanswerable": q.unanswerable,
            "short": lectern::lexical::is_short_query(query), "candidates": rows,
        });
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(())
}
