use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// A scored vector, ordered best first: higher score, then lower index (so ties are stable).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scored {
    pub score: f32,
    pub index: u32,
}

impl Eq for Scored {}

impl Ord for Scored {
    /// `Greater` means better. `total_cmp` keeps the order total even for a NaN score.
    fn cmp(&self, other: &Self) -> Ordering {
        self.score.total_cmp(&other.score).then_with(|| other.index.cmp(&self.index))
    }
}

impl PartialOrd for Scored {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Keeps the `k` best of a stream of scores in O(log k) per kept item, so a scan over the
/// whole index needs no allocation proportional to its size.
pub(crate) struct TopK {
    k: usize,
    // Min-heap on "better": its top is the worst item kept, the one to evict.
    heap: BinaryHeap<Reverse<Scored>>,
}

impl TopK {
    pub fn new(k: usize) -> Self {
        // Capped so a huge `k` from a caller cannot trigger a huge allocation up front.
        TopK { k, heap: BinaryHeap::with_capacity(k.saturating_add(1).min(4096)) }
    }

    pub fn push(&mut self, index: u32, score: f32) {
        if self.k == 0 {
            return;
        }
        let item = Scored { score, index };
        if self.heap.len() < self.k {
            self.heap.push(Reverse(item));
        } else if let Some(mut worst) = self.heap.peek_mut() {
            if item > worst.0 {
                *worst = Reverse(item);
            }
        }
    }

    /// The kept items, best first.
    pub fn into_sorted(self) -> Vec<Scored> {
        // Ascending order of `Reverse` is descending order of `Scored`: best first.
        self.heap.into_sorted_vec().into_iter().map(|r| r.0).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_best_k_best_first_with_stable_ties() {
        let mut top = TopK::new(3);
        for (i, s) in [0.1, 0.9, 0.5, 0.9, 0.2, 0.7].into_iter().enumerate() {
            top.push(i as u32, s);
        }
        let got: Vec<(u32, f32)> = top.into_sorted().into_iter().map(|s| (s.index, s.score)).collect();
        assert_eq!(got, vec![(1, 0.9), (3, 0.9), (5, 0.7)]);
    }

    #[test]
    fn zero_k_keeps_nothing() {
        let mut none = TopK::new(0);
        none.push(0, 1.0);
        assert!(none.into_sorted().is_empty());
    }
}
