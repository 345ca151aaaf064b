//! Training data for the learned fusion (`lectern eval --dump-candidates FILE`, read by
//! scripts/eval/train_fusion.py): every plain question's hybrid candidates with the features
//! `lectern::search::fusion_model` scores them by — computed by the very code the search
//! runs, so what is fitted is what ships — and whether each answers the question.
//! Selections and follow-ups are left out: their query is not the reader's question alone.

use super::questions::Question;
use super::Evaluator;
use lectern::search::fusion_model::FEATURES;
use lectern::search::SearchOptions;
use std::io::Write;

/// One JSON line per plain question: its id, split, kind, whether it is answerable, and its
/// candidates (chunk, label, features by name, and rank under reciprocal rank fusion).
pub fn dump(
    out: &mut impl Write,
    evaluator: &mut Evaluator<'_>,
    questions: &[Question],
    options: &SearchOptions,
) -> Result<(), String> {
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
        let mut rows = Vec::with_capacity(pool.len());
        for (i, (candidate, features)) in pool.iter().enumerate() {
            let answers = search
                .chunk(candidate.index)
                .is_some_and(|c| q.expected.contains(&c.url) || c.parts.iter().any(|p| q.expected.contains(&p.url)));
            let named: serde_json::Map<String, serde_json::Value> =
                FEATURES.iter().zip(features).map(|(n, f)| (n.to_string(), serde_json::json!(f))).collect();
            let rrf_rank = by_rrf.iter().position(|&j| j == i).map_or(0, |r| r + 1);
            rows.push(serde_json::json!({
                "chunk": candidate.index, "label": answers, "rrf_rank": rrf_rank, "features": named,
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
