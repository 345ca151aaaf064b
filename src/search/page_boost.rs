//! The page the reader asks from: its sections move up the fused ranking (a question asked
//! on a page is most often about that page), by a rule on ranks, so that it is the same
//! whatever scale the fusion's scores have (learned, reciprocal, a follow-up's re-fusion).
//! Only sections that one of the two lists already found move: a page unrelated to the
//! question has none among the candidates and changes nothing.
//!
//! Measured with `lectern eval --asked-from own|other` on the dev questions of the four
//! evaluation corpora (BENCHMARKS.md, issue 27), which chose the form and its size.

use serde::{Deserialize, Serialize};

/// How far a section of the reader's page moves up the fused ranking.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PageBoost {
    /// Ahead of this many candidates above it.
    Lift(usize),
    /// To its rank divided by this (≥ 1): rank 6 with 2 comes just ahead of rank 3.
    Scale(f32),
}

impl Default for PageBoost {
    fn default() -> Self {
        PageBoost::Lift(2)
    }
}

impl PageBoost {
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            PageBoost::Scale(f) if !(f.is_finite() && f >= 1.0) => {
                Err(format!("page boost scale must be ≥ 1, not {f}"))
            }
            _ => Ok(()),
        }
    }

    /// `fused` (best first) with the candidates for which `on_page` holds moved up.
    pub fn apply(&self, fused: Vec<(u32, f32)>, on_page: impl Fn(u32) -> bool) -> Vec<(u32, f32)> {
        let mut keyed: Vec<(f32, (u32, f32))> = (1u32..)
            .zip(fused)
            .map(|(rank, hit)| {
                let rank = rank as f32;
                let key = match (*self, on_page(hit.0)) {
                    (_, false) => rank,
                    // Half a place more, so that it comes ahead of the one it ties with.
                    (PageBoost::Lift(n), true) => rank - n as f32 - 0.5,
                    (PageBoost::Scale(f), true) => rank / f - 0.5,
                };
                (key, hit)
            })
            .collect();
        crate::sort::sort_by(&mut keyed, |a, b| a.0.total_cmp(&b.0));
        keyed.into_iter().map(|(_, hit)| hit).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(boost: PageBoost, on_page: &[u32]) -> Vec<u32> {
        let fused: Vec<(u32, f32)> = (0..8).map(|i| (i, 1.0 - i as f32 / 10.0)).collect();
        boost.apply(fused, |i| on_page.contains(&i)).into_iter().map(|h| h.0).collect()
    }

    #[test]
    fn a_section_of_the_page_moves_up_by_the_rule() {
        assert_eq!(order(PageBoost::Lift(2), &[5]), [0, 1, 2, 5, 3, 4, 6, 7], "rank 6 ahead of ranks 4 and 5");
        assert_eq!(order(PageBoost::Lift(2), &[1]), [1, 0, 2, 3, 4, 5, 6, 7], "no higher than first");
        assert_eq!(order(PageBoost::Scale(2.0), &[5]), [0, 1, 5, 2, 3, 4, 6, 7], "rank 6 / 2: ahead of rank 3");
        assert_eq!(order(PageBoost::Lift(0), &[5]), [0, 1, 2, 3, 4, 5, 6, 7], "no lift: as fused");
    }

    #[test]
    fn sections_of_the_page_keep_their_own_order() {
        assert_eq!(order(PageBoost::Lift(3), &[4, 6]), [0, 4, 1, 2, 6, 3, 5, 7]);
    }

    #[test]
    fn nothing_on_the_page_changes_nothing() {
        assert_eq!(order(PageBoost::Scale(4.0), &[]), [0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn a_scale_below_one_is_refused() {
        assert!(PageBoost::Scale(0.5).validate().is_err());
        assert!(PageBoost::Scale(f32::NAN).validate().is_err());
        assert!(PageBoost::Lift(0).validate().is_ok());
    }
}
