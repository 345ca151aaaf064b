//! The learned fusion: how the hybrid search orders its candidates (the union of the dense
//! and keyword lists) once both lists are there. Each candidate gets a few numbers the two
//! lists already carry — its reciprocal-rank votes, its cosine and its BM25 score, each also
//! relative to the best candidate of the question — and is ranked by a weighted sum of them.
//! Reciprocal rank fusion alone is the special case `WEIGHTS = [1, 1, 0, …]`; the learned
//! weights add how far a candidate stands from the best match of each kind, which is what
//! tells the answering section from its chapter's introduction. Keyword-only and dense-only
//! search do not use it.
//!
//! How the weights were fitted: a linear scorer with a listwise loss (softmax over each
//! question's candidates, the answering sections as targets), trained on the dev questions
//! of the four evaluation corpora only (tests/eval/questions/*.jsonl; held-out questions
//! never seen), checked leave-one-corpus-out; never tuned per site. To refit, dump the
//! candidates with the binary that computes these features and train:
//!
//! ```sh
//! lectern eval SITE --questions tests/eval/questions/CORPUS.jsonl --mode hybrid \
//!     --dump-candidates DIR/CORPUS.cand.jsonl          # once per corpus (scripts/eval.sh lists them)
//! scripts/eval/train_fusion.py DIR                 # prints the validation and the weights
//! ```

/// Names of the features, in the order of [`WEIGHTS`] (the candidate dump writes them so).
pub const FEATURES: [&str; 7] =
    ["dense_rrf", "lexical_rrf", "cosine", "cosine_gap", "bm25_rel", "dense_near", "lexical_near"];

/// Weight of each feature in [`FEATURES`] (fitted; see the header). The two RRF votes come
/// out negative because the sharper "near" votes carry the same ranks: together they say
/// "first places count much more than RRF lets them". Fitted on 2026-11-27 (question sets
/// of 4c7e187, 168 dev questions): leave-one-corpus-out dev hit@3 146 → 151 of 168.
pub const WEIGHTS: [f32; 7] = [-26.1764, -38.6081, 6.31671, 9.24687, 3.64245, 7.12283, 8.57946];

/// Damping of the reciprocal-rank features as in RRF, and of the "near the top" ones, which
/// tell rank 1 from rank 3 much more sharply.
const RRF_K: f32 = 60.0;
const NEAR_K: f32 = 5.0;

/// What the two lists know of one candidate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub index: u32,
    /// 1-based rank in the dense and keyword lists (`None`: not in that list).
    pub dense_rank: Option<usize>,
    pub lexical_rank: Option<usize>,
    /// Cosine of the question with the candidate's best window.
    pub cosine: f32,
    /// Raw BM25 score (0 when not in the keyword list).
    pub bm25: f32,
}

/// The features of `c` (in the order of [`FEATURES`]), given the best cosine and the best
/// BM25 score among the question's candidates.
pub fn features(c: &Candidate, best_cosine: f32, best_bm25: f32) -> [f32; 7] {
    let votes = |rank: Option<usize>, k: f32| rank.map_or(0.0, |r| 1.0 / (k + r as f32));
    let bm25_rel = if best_bm25 > 0.0 { c.bm25 / best_bm25 } else { 0.0 };
    [
        votes(c.dense_rank, RRF_K),
        votes(c.lexical_rank, RRF_K),
        c.cosine,
        c.cosine - best_cosine,
        bm25_rel,
        votes(c.dense_rank, NEAR_K),
        votes(c.lexical_rank, NEAR_K),
    ]
}

/// The fused score of a candidate with features `f`.
pub fn score(f: &[f32; 7]) -> f32 {
    f.iter().zip(WEIGHTS).map(|(x, w)| x * w).sum()
}

/// Each candidate with its features, given the whole pool of one question.
pub fn pool_features(candidates: &[Candidate]) -> Vec<[f32; 7]> {
    let best_cosine = candidates.iter().map(|c| c.cosine).fold(f32::NEG_INFINITY, f32::max);
    let best_bm25 = candidates.iter().map(|c| c.bm25).fold(0.0, f32::max);
    candidates.iter().map(|c| features(c, best_cosine, best_bm25)).collect()
}

/// The candidates best first, with their fused scores; ties go to the better reciprocal-rank
/// vote, then to the lower index, so the order is deterministic.
pub fn rank(candidates: &[Candidate]) -> Vec<(u32, f32)> {
    let mut scored: Vec<(u32, f32, f32)> =
        candidates.iter().zip(pool_features(candidates)).map(|(c, f)| (c.index, score(&f), f[0] + f[1])).collect();
    crate::sort::sort_by(&mut scored, |a, b| b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)).then(a.0.cmp(&b.0)));
    scored.into_iter().map(|(index, score, _)| (index, score)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(
        index: u32,
        dense_rank: Option<usize>,
        lexical_rank: Option<usize>,
        cosine: f32,
        bm25: f32,
    ) -> Candidate {
        Candidate { index, dense_rank, lexical_rank, cosine, bm25 }
    }

    #[test]
    fn features_are_relative_to_the_best_candidate() {
        let pool = [candidate(0, Some(1), None, 0.8, 0.0), candidate(1, Some(2), Some(1), 0.6, 12.0)];
        let f = pool_features(&pool);
        assert_eq!(f[0][3], 0.0, "the best cosine has no gap");
        assert!((f[1][3] + 0.2).abs() < 1e-6);
        assert_eq!((f[0][4], f[1][4]), (0.0, 1.0), "BM25 relative to the best");
        assert_eq!(f[0][1], 0.0, "not in the keyword list: no keyword vote");
        assert!((f[1][0] - 1.0 / 62.0).abs() < 1e-7 && (f[1][5] - 1.0 / 7.0).abs() < 1e-7);
    }

    #[test]
    fn ranking_is_by_score_and_deterministic() {
        let pool = [
            candidate(7, Some(3), Some(3), 0.70, 5.0),
            candidate(2, Some(1), Some(1), 0.90, 9.0),
            candidate(5, Some(2), Some(2), 0.80, 7.0),
        ];
        let order: Vec<u32> = rank(&pool).iter().map(|h| h.0).collect();
        assert_eq!(order, [2, 5, 7], "first in both lists and best in both scores comes first");
        let mut reversed = pool;
        reversed.reverse();
        assert_eq!(rank(&reversed), rank(&pool), "the order of the pool does not matter");
    }
}
