//! Confidence of a retrieval (docs/DESIGN.md §3.2): the seeds' four levels, decided from signals of
//! the search that transfer across sites (best cosine, its margin, keyword coverage, and
//! whether the two lists agree) by a rule calibrated on labelled questions of four sites.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum Confidence {
    High,
    Medium,
    Low,
    /// Nothing relevant: the LLM is not called and the reader gets the refusal message.
    None,
}

impl Confidence {
    /// At most `low`: what a result resting on part of its evidence is worth (a search that
    /// missed some of its index, sections whose text could not be loaded). `none` stays `none`.
    pub fn at_most_low(self) -> Confidence {
        match self {
            Confidence::High | Confidence::Medium => Confidence::Low,
            other => other,
        }
    }
}

/// A calibrated rule from a search's [`Signals`] to a [`Confidence`]: a linear score (the
/// logit of "the site answers this question") cut into the four levels. Fitted on the dev
/// questions of four real sites together (`scripts/eval/calibrate.py`, BENCHMARKS.md), so
/// it does not depend on one site's vocabulary or score range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceRule {
    /// Weights of `dense_top`, `dense_gap`, `lexical_top`, `agreement` and
    /// `lexical_unknown` (absent signals count as 0).
    pub weights: [f32; 5],
    pub bias: f32,
    /// Below this score the question is refused (`none`): the LLM is not called.
    pub low: f32,
    /// From this score `medium`, from `high` on `high`.
    pub medium: f32,
    pub high: f32,
}

impl ConfidenceRule {
    /// For semantic (hybrid) search.
    pub const SEMANTIC: ConfidenceRule = ConfidenceRule {
        weights: SEMANTIC_WEIGHTS,
        bias: SEMANTIC_BIAS,
        low: SEMANTIC_REFUSE_BELOW,
        medium: 0.0,
        high: 1.5,
    };
    /// For keyword-only search (before the model has arrived): it refuses only questions that
    /// share almost nothing with the site, and answers everything else at low confidence
    /// (keyword search finds the answering section for fewer questions: BENCHMARKS.md),
    /// letting the LLM say when the excerpts lack the answer.
    pub const KEYWORD: ConfidenceRule = ConfidenceRule {
        weights: [0.0, 0.0, KEYWORD_WEIGHTS[0], 0.0, KEYWORD_WEIGHTS[1]],
        bias: KEYWORD_BIAS,
        low: KEYWORD_REFUSE_BELOW,
        medium: f32::MAX,
        high: f32::MAX,
    };

    pub fn score(&self, s: &Signals) -> f32 {
        let x = [
            s.dense_top.unwrap_or(0.0),
            s.dense_gap.unwrap_or(0.0),
            s.lexical_top,
            s.agreement.unwrap_or(0.0),
            s.lexical_unknown,
        ];
        self.weights.iter().zip(x).map(|(w, v)| w * v).sum::<f32>() + self.bias
    }

    pub fn level(&self, signals: &Signals) -> Confidence {
        let score = self.score(signals);
        if score >= self.high {
            Confidence::High
        } else if score >= self.medium {
            Confidence::Medium
        } else if score >= self.low {
            Confidence::Low
        } else {
            Confidence::None
        }
    }

    /// Finite values and `low ≤ medium ≤ high`; a message names the offending value.
    pub fn validate(&self) -> Result<(), String> {
        let finite = self.weights.iter().chain([&self.bias, &self.low, &self.medium]).all(|v| v.is_finite());
        if !finite || self.high.is_nan() {
            return Err(format!("confidence rule values must be finite numbers: {self:?}"));
        }
        if !(self.low <= self.medium && self.medium <= self.high) {
            return Err(format!("confidence rule cut-offs must satisfy low ≤ medium ≤ high: {self:?}"));
        }
        Ok(())
    }
}

// Fitted by `scripts/eval/calibrate.py` on the dev questions of the four labelled corpora
// together (sample, physical-ai-textbook, jest, typescript-eslint; BENCHMARKS.md "Refusal").
// The refusal cut-offs sit 0.25 under the lowest-scoring answerable dev question.
const SEMANTIC_WEIGHTS: [f32; 5] = [3.7156, 14.5768, 2.4461, 1.6913, -8.3086];
const SEMANTIC_BIAS: f32 = -3.6496;
const SEMANTIC_REFUSE_BELOW: f32 = -2.6476;
/// Of `lexical_top` and `lexical_unknown`.
const KEYWORD_WEIGHTS: [f32; 2] = [4.0559, -7.9708];
const KEYWORD_BIAS: f32 = -0.9356;
const KEYWORD_REFUSE_BELOW: f32 = -3.7170;

/// Features of one search that say how well the index covers the question, and transfer
/// across sites (none depends on a site's size or vocabulary directly).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Signals {
    /// Best cosine among the dense candidates (`None` without dense search).
    pub dense_top: Option<f32>,
    /// How far the best cosine stands above the mean of the next nine.
    pub dense_gap: Option<f32>,
    /// Best BM25 score over the ideal match's (see `LexicalIndex::reference_score`): how much
    /// of the question's rare words one section holds. 0 when no word is in the index.
    pub lexical_top: f32,
    /// Share of the five best dense and five best lexical candidates that are the same
    /// chunks (`None` without dense search).
    pub agreement: Option<f32>,
    /// Share of the question's distinct words that the site never uses.
    pub lexical_unknown: f32,
}

impl Signals {
    /// From the candidate lists, best first (dense scores are cosines), and the best
    /// lexical candidate's normalised score.
    pub fn of(dense: Option<&[(u32, f32)]>, lexical: &[(u32, f32)], lexical_top: f32, lexical_unknown: f32) -> Self {
        let Some(dense) = dense else {
            return Signals { lexical_top, lexical_unknown, ..Signals::default() };
        };
        let dense_top = dense.first().map(|h| h.1);
        let rest: Vec<f32> = dense.iter().skip(1).take(9).map(|h| h.1).collect();
        let dense_gap =
            dense_top.map(|top| if rest.is_empty() { top } else { top - rest.iter().sum::<f32>() / rest.len() as f32 });
        let top5 = |list: &[(u32, f32)]| list.iter().take(5).map(|h| h.0).collect::<Vec<u32>>();
        let (d5, l5) = (top5(dense), top5(lexical));
        let shared = d5.iter().filter(|d| l5.contains(d)).count();
        Signals { dense_top, dense_gap, lexical_top, agreement: Some(shared as f32 / 5.0), lexical_unknown }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: ConfidenceRule =
        ConfidenceRule { weights: [10.0, 0.0, 2.0, 0.0, -4.0], bias: -5.0, low: -1.0, medium: 0.0, high: 1.0 };

    fn signals(dense_top: f32, lexical_top: f32) -> Signals {
        Signals { dense_top: Some(dense_top), lexical_top, ..Signals::default() }
    }

    #[test]
    fn levels_follow_the_score() {
        assert_eq!(RULE.level(&signals(0.7, 0.0)), Confidence::High);
        assert_eq!(RULE.level(&signals(0.5, 0.2)), Confidence::Medium);
        assert_eq!(RULE.level(&signals(0.4, 0.2)), Confidence::Low);
        assert_eq!(RULE.level(&signals(0.3, 0.0)), Confidence::None);
        assert_eq!(RULE.level(&Signals::default()), Confidence::None, "no signal at all");
        let unheard_of = Signals { lexical_unknown: 0.25, ..signals(0.5, 0.2) };
        assert_eq!(RULE.level(&unheard_of), Confidence::Low, "words the site never uses lower it");
    }

    #[test]
    fn shipped_rules_are_valid_and_disordered_ones_are_not() {
        assert!(ConfidenceRule::SEMANTIC.validate().is_ok() && ConfidenceRule::KEYWORD.validate().is_ok());
        assert!(ConfidenceRule { low: 2.0, ..RULE }.validate().is_err());
        assert!(ConfidenceRule { bias: f32::NAN, ..RULE }.validate().is_err());
    }

    #[test]
    fn keyword_search_answers_at_low_confidence_and_refuses_only_unrelated_questions() {
        let keyword = |lexical_top, lexical_unknown| {
            ConfidenceRule::KEYWORD.level(&Signals { lexical_top, lexical_unknown, ..Signals::default() })
        };
        assert_eq!(keyword(1.0, 0.0), Confidence::Low, "a perfect keyword match is still low");
        assert_eq!(keyword(0.2, 0.2), Confidence::Low);
        assert_eq!(keyword(0.0, 1.0), Confidence::None, "no word of the question is on the site");
    }

    #[test]
    fn signals_measure_agreement_and_gap() {
        let dense = [(1, 0.8), (2, 0.5), (3, 0.5)];
        let lexical = [(2, 9.0), (7, 3.0)];
        let s = Signals::of(Some(&dense), &lexical, 0.6, 0.25);
        assert_eq!(s.dense_top, Some(0.8));
        assert!((s.dense_gap.unwrap() - 0.3).abs() < 1e-6);
        assert_eq!((s.lexical_top, s.agreement, s.lexical_unknown), (0.6, Some(0.2), 0.25));
        let keyword_only = Signals::of(None, &lexical, 0.6, 0.25);
        assert_eq!(keyword_only, Signals { lexical_top: 0.6, lexical_unknown: 0.25, ..Signals::default() });
    }
}
