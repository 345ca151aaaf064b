//! Reciprocal rank fusion: merges ranked lists by rank, not by score, so BM25's unbounded
//! scores and cosines need no common scale.

use std::collections::HashMap;

/// One ranked list (best first) and the weight of its votes.
pub struct RankedList<'a> {
    pub hits: &'a [(u32, f32)],
    pub weight: f32,
}

/// Σ weight / (k + rank) over the lists a document appears in (rank from 1), best first;
/// ties broken by document index so results are deterministic. `k` (usually 60) damps the
/// advantage of the very top ranks.
pub fn reciprocal_rank_fusion(lists: &[RankedList<'_>], k: f32) -> Vec<(u32, f32)> {
    let mut fused: HashMap<u32, f32> = HashMap::new();
    for list in lists {
        for (rank, &(doc, _)) in list.hits.iter().enumerate() {
            *fused.entry(doc).or_default() += list.weight / (k + rank as f32 + 1.0);
        }
    }
    let mut ranked: Vec<(u32, f32)> = fused.into_iter().collect();
    crate::sort::sort_by(&mut ranked, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_beats_a_single_first_place() {
        let dense = [(1, 0.9), (2, 0.8), (3, 0.7)];
        let lexical = [(4, 12.0), (2, 9.0), (1, 3.0)];
        let fused = reciprocal_rank_fusion(
            &[RankedList { hits: &dense, weight: 1.0 }, RankedList { hits: &lexical, weight: 1.0 }],
            60.0,
        );
        let order: Vec<u32> = fused.iter().map(|&(d, _)| d).collect();
        assert_eq!(order, vec![1, 2, 4, 3]);
        assert!((fused[0].1 - (1.0 / 61.0 + 1.0 / 63.0)).abs() < 1e-6);
    }

    #[test]
    fn weights_shift_the_balance_and_zero_weight_drops_a_list() {
        let dense = [(1, 0.9)];
        let lexical = [(2, 5.0)];
        let fused = reciprocal_rank_fusion(
            &[RankedList { hits: &dense, weight: 0.5 }, RankedList { hits: &lexical, weight: 2.0 }],
            60.0,
        );
        assert_eq!(fused[0].0, 2);
        let only_dense = reciprocal_rank_fusion(
            &[RankedList { hits: &dense, weight: 1.0 }, RankedList { hits: &lexical, weight: 0.0 }],
            60.0,
        );
        assert_eq!(only_dense[0].0, 1);
    }

    #[test]
    fn ties_are_broken_by_index() {
        let a = [(7, 1.0)];
        let b = [(3, 1.0)];
        let fused =
            reciprocal_rank_fusion(&[RankedList { hits: &a, weight: 1.0 }, RankedList { hits: &b, weight: 1.0 }], 60.0);
        assert_eq!(fused.iter().map(|&(d, _)| d).collect::<Vec<_>>(), vec![3, 7]);
    }
}
