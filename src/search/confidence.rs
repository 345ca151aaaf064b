//! Confidence of a retrieval (SPEC.md §3): the seeds' four levels, decided from the best
//! score and how many results clear the medium cut-off. Cut-offs are configuration; the
//! defaults are calibrated for MiniLM cosines on labelled questions
//! (tests/fixtures/calibration, `scripts/calibrate.sh`).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    High,
    Medium,
    Low,
    /// Nothing relevant: the LLM is not called and the reader gets the refusal message.
    None,
}

/// Score cut-offs, each in 0–1 and `high >= medium >= low`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceCutoffs {
    /// Top score for `high` (which also needs `high_min_results` results above `medium`).
    pub high: f32,
    pub medium: f32,
    /// Below this top score the answer is refused.
    pub low: f32,
    pub high_min_results: usize,
}

impl ConfidenceCutoffs {
    /// Calibrated defaults for dense (cosine) scores; see tests/fixtures/calibration.
    pub const DENSE: ConfidenceCutoffs = ConfidenceCutoffs { high: 0.60, medium: 0.45, low: 0.30, high_min_results: 2 };
    /// For lexical-only answers (before the model has loaded), on normalised BM25 scores.
    pub const LEXICAL: ConfidenceCutoffs = ConfidenceCutoffs { high: 0.9, medium: 0.7, low: 0.45, high_min_results: 2 };

    /// Checks the documented ranges; a message names the offending value.
    pub fn validate(&self) -> Result<(), String> {
        let in_range = |v: f32| (0.0..=1.0).contains(&v);
        if !(in_range(self.high) && in_range(self.medium) && in_range(self.low)) {
            return Err(format!("confidence cut-offs must be in 0–1: {self:?}"));
        }
        if !(self.high >= self.medium && self.medium >= self.low) {
            return Err(format!("confidence cut-offs must satisfy high ≥ medium ≥ low: {self:?}"));
        }
        Ok(())
    }

    /// The level for results scored `scores` (any order).
    pub fn level(&self, scores: &[f32]) -> Confidence {
        let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let above_medium = scores.iter().filter(|&&s| s >= self.medium).count();
        if top >= self.high && above_medium >= self.high_min_results {
            Confidence::High
        } else if top >= self.medium {
            Confidence::Medium
        } else if top >= self.low {
            Confidence::Low
        } else {
            Confidence::None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUTS: ConfidenceCutoffs = ConfidenceCutoffs { high: 0.8, medium: 0.6, low: 0.4, high_min_results: 2 };

    #[test]
    fn levels_follow_top_score_and_count() {
        assert_eq!(CUTS.level(&[0.9, 0.7]), Confidence::High);
        assert_eq!(CUTS.level(&[0.9, 0.5]), Confidence::Medium, "high needs two results above medium");
        assert_eq!(CUTS.level(&[0.65]), Confidence::Medium);
        assert_eq!(CUTS.level(&[0.45, 0.41]), Confidence::Low);
        assert_eq!(CUTS.level(&[0.39]), Confidence::None);
        assert_eq!(CUTS.level(&[]), Confidence::None);
    }

    #[test]
    fn validation_rejects_disordered_or_out_of_range_cutoffs() {
        assert!(CUTS.validate().is_ok());
        assert!(ConfidenceCutoffs::DENSE.validate().is_ok() && ConfidenceCutoffs::LEXICAL.validate().is_ok());
        assert!(ConfidenceCutoffs { low: 0.9, ..CUTS }.validate().is_err());
        assert!(ConfidenceCutoffs { high: 1.5, ..CUTS }.validate().is_err());
    }
}
