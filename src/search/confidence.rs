//! Confidence of a retrieval (docs/DESIGN.md §3.2): the seeds' four levels, decided from signals of
//! the search that transfer across sites (best cosine, its margin, keyword coverage, whether
//! the two lists agree, the learned fusion's top score and margin) by a rule calibrated on
//! labelled questions of four sites: refusal from "will the site answer?", the label of an
//! answer from "is its first source right?".

use super::confidence_fitted as fitted;
use crate::lexical::normalize_score;
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

/// Names of the signals in the order of [`Signals::features`] and of a [`LinearScore`]'s
/// weights (the eval report and `scripts/eval/calibrate.py` use the same names).
pub const SIGNAL_NAMES: [&str; SIGNAL_COUNT] = [
    "dense_top",
    "dense_gap",
    "lexical_top",
    "agreement",
    "lexical_unknown",
    "fused_top",
    "fused_margin",
    "first_in_both",
    "lexical_margin",
];
pub const SIGNAL_COUNT: usize = 9;

/// A weighted sum of a search's [`Signals`] plus a bias: a logit (absent signals count as 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinearScore {
    pub weights: [f32; SIGNAL_COUNT],
    pub bias: f32,
}

impl LinearScore {
    pub fn of(&self, s: &Signals) -> f32 {
        self.weights.iter().zip(s.features()).map(|(w, v)| w * v).sum::<f32>() + self.bias
    }

    fn is_finite(&self) -> bool {
        self.weights.iter().chain([&self.bias]).all(|v| v.is_finite())
    }
}

/// A calibrated rule from a search's [`Signals`] to a [`Confidence`]. It answers two
/// questions apart, each with its own linear score fitted on the dev questions of four real
/// sites together (`scripts/eval/calibrate.py`, BENCHMARKS.md "Confidence"), so it does not
/// depend on one site's vocabulary or score range:
/// - will the site answer? (`answerable`): below `refuse_below` the question is refused;
/// - is the first source right? (`right_first`): the label of an answered question, so that
///   "high" means the first source is right nearly always and "low" that it is often not.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceRule {
    /// The logit of "the site answers this question".
    pub answerable: LinearScore,
    /// Below this `answerable` score: `none` (the LLM is not called).
    pub refuse_below: f32,
    /// The logit of "the first result is an answering section".
    pub right_first: LinearScore,
    /// From this `right_first` score `medium`, from `high` on `high`; `low` under both.
    pub medium: f32,
    pub high: f32,
}

impl ConfidenceRule {
    /// For semantic (hybrid) search.
    pub const SEMANTIC: ConfidenceRule = fitted::SEMANTIC;
    /// For keyword-only search (before the model has arrived): it refuses only questions
    /// that share almost nothing with the site, letting the LLM say when the excerpts lack
    /// the answer; its labels say how likely the first keyword result is the answer.
    pub const KEYWORD: ConfidenceRule = fitted::KEYWORD;

    /// The `answerable` score: what refusal cuts (and what the eval's refusal AUC ranks).
    pub fn score(&self, s: &Signals) -> f32 {
        self.answerable.of(s)
    }

    pub fn level(&self, signals: &Signals) -> Confidence {
        if self.answerable.of(signals) < self.refuse_below {
            return Confidence::None;
        }
        let right_first = self.right_first.of(signals);
        if right_first >= self.high {
            Confidence::High
        } else if right_first >= self.medium {
            Confidence::Medium
        } else {
            Confidence::Low
        }
    }

    /// Finite values and `medium ≤ high`; a message names the offending value.
    pub fn validate(&self) -> Result<(), String> {
        let finite = self.answerable.is_finite()
            && self.right_first.is_finite()
            && [self.refuse_below, self.medium, self.high].iter().all(|v| v.is_finite());
        if !finite {
            return Err(format!("confidence rule values must be finite numbers: {self:?}"));
        }
        if self.medium > self.high {
            return Err(format!("confidence rule cut-offs must satisfy medium ≤ high: {self:?}"));
        }
        Ok(())
    }
}

/// Features of one search that say how well the index covers the question and how sure its
/// first result is, and transfer across sites (none depends on a site's size or vocabulary
/// directly).
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
    /// The learned fusion's score of its first candidate (`None` without it).
    pub fused_top: Option<f32>,
    /// How far that score stands above the second candidate's.
    pub fused_margin: Option<f32>,
    /// Of the dense and keyword lists, the share whose first candidate is the fused first
    /// (0, 0.5 or 1; `None` without dense search).
    pub first_in_both: Option<f32>,
    /// The best normalised BM25 score minus the second best: how clearly one section wins
    /// on keywords.
    pub lexical_margin: f32,
}

impl Signals {
    /// From the candidate lists, best first (dense scores are cosines, lexical ones raw BM25
    /// scaled by `lexical_reference`, the ideal match's score), the learned fusion's order
    /// when it ran, and the share of the question's words the site never uses.
    pub fn of(
        dense: Option<&[(u32, f32)]>,
        lexical: &[(u32, f32)],
        fused: Option<&[(u32, f32)]>,
        lexical_reference: f32,
        lexical_unknown: f32,
    ) -> Self {
        let normalised = |i: usize| lexical.get(i).map_or(0.0, |h| normalize_score(h.1, lexical_reference));
        let lexical_top = normalised(0);
        let lexical_margin = lexical_top - normalised(1);
        let fused_top = fused.and_then(|f| f.first()).map(|h| h.1);
        let fused_margin =
            fused.and_then(|f| f.first()).map(|h| h.1 - fused.and_then(|f| f.get(1)).map_or(h.1, |s| s.1));
        let Some(dense) = dense else {
            return Signals {
                lexical_top,
                lexical_unknown,
                lexical_margin,
                fused_top,
                fused_margin,
                ..Signals::default()
            };
        };
        let dense_top = dense.first().map(|h| h.1);
        let rest: Vec<f32> = dense.iter().skip(1).take(9).map(|h| h.1).collect();
        let dense_gap =
            dense_top.map(|top| if rest.is_empty() { top } else { top - rest.iter().sum::<f32>() / rest.len() as f32 });
        let top5 = |list: &[(u32, f32)]| list.iter().take(5).map(|h| h.0).collect::<Vec<u32>>();
        let (d5, l5) = (top5(dense), top5(lexical));
        let shared = d5.iter().filter(|d| l5.contains(d)).count();
        let first = fused.and_then(|f| f.first()).or(dense.first()).map(|h| h.0);
        let first_of = |list: &[(u32, f32)]| (list.first().map(|h| h.0) == first && first.is_some()) as u8 as f32;
        Signals {
            dense_top,
            dense_gap,
            lexical_top,
            agreement: Some(shared as f32 / 5.0),
            lexical_unknown,
            fused_top,
            fused_margin,
            first_in_both: Some((first_of(dense) + first_of(lexical)) / 2.0),
            lexical_margin,
        }
    }

    /// The signals in the order of [`SIGNAL_NAMES`], absent ones as 0.
    pub fn features(&self) -> [f32; SIGNAL_COUNT] {
        [
            self.dense_top.unwrap_or(0.0),
            self.dense_gap.unwrap_or(0.0),
            self.lexical_top,
            self.agreement.unwrap_or(0.0),
            self.lexical_unknown,
            self.fused_top.unwrap_or(0.0),
            self.fused_margin.unwrap_or(0.0),
            self.first_in_both.unwrap_or(0.0),
            self.lexical_margin,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Refuses below a cosine of 0.4 (answerable: 10·cosine − 5 ≥ −1); labels by the fused
    /// margin (right first: 4·margin − 1: high from a margin of 0.5, medium from 0.25).
    fn rule() -> ConfidenceRule {
        let mut answerable = LinearScore { weights: [0.0; SIGNAL_COUNT], bias: -5.0 };
        answerable.weights[0] = 10.0;
        answerable.weights[4] = -4.0;
        let mut right_first = LinearScore { weights: [0.0; SIGNAL_COUNT], bias: -1.0 };
        right_first.weights[6] = 4.0;
        ConfidenceRule { answerable, refuse_below: -1.0, right_first, medium: 0.0, high: 1.0 }
    }

    fn signals(dense_top: f32, fused_margin: f32) -> Signals {
        Signals { dense_top: Some(dense_top), fused_margin: Some(fused_margin), ..Signals::default() }
    }

    #[test]
    fn refusal_and_label_answer_different_questions() {
        let rule = rule();
        assert_eq!(rule.level(&signals(0.9, 0.6)), Confidence::High);
        assert_eq!(rule.level(&signals(0.9, 0.3)), Confidence::Medium);
        assert_eq!(rule.level(&signals(0.9, 0.0)), Confidence::Low, "answerable, but the first source is uncertain");
        assert_eq!(rule.level(&signals(0.45, 0.6)), Confidence::High, "a clear first source at a modest cosine");
        assert_eq!(rule.level(&signals(0.3, 0.9)), Confidence::None, "refusal does not look at the label's score");
        assert_eq!(rule.level(&Signals::default()), Confidence::None, "no signal at all");
        let unheard_of = Signals { lexical_unknown: 0.2, ..signals(0.45, 0.6) };
        assert_eq!(rule.level(&unheard_of), Confidence::None, "words the site never uses count against answering");
        assert_eq!(rule.score(&signals(0.5, 0.0)), 0.0, "the score is the answerable one");
    }

    #[test]
    fn shipped_rules_are_valid_and_disordered_ones_are_not() {
        assert!(ConfidenceRule::SEMANTIC.validate().is_ok() && ConfidenceRule::KEYWORD.validate().is_ok());
        assert!(ConfidenceRule { medium: 2.0, ..rule() }.validate().is_err());
        let mut nan = rule();
        nan.right_first.bias = f32::NAN;
        assert!(nan.validate().is_err());
    }

    #[test]
    fn keyword_search_refuses_only_unrelated_questions() {
        let keyword = |lexical_top, lexical_unknown| {
            ConfidenceRule::KEYWORD.level(&Signals { lexical_top, lexical_unknown, ..Signals::default() })
        };
        assert_ne!(keyword(1.0, 0.0), Confidence::None, "a perfect keyword match is answered");
        assert_ne!(keyword(0.3, 0.2), Confidence::None);
        assert_eq!(keyword(0.0, 1.0), Confidence::None, "no word of the question is on the site");
    }

    #[test]
    fn signals_measure_agreement_gap_and_margins() {
        let dense = [(1, 0.8), (2, 0.5), (3, 0.5)];
        let lexical = [(2, 9.0), (7, 3.0)];
        let fused = [(2, 1.5), (1, 1.25)];
        let s = Signals::of(Some(&dense), &lexical, Some(&fused), 15.0, 0.25);
        assert_eq!(s.dense_top, Some(0.8));
        assert!((s.dense_gap.unwrap() - 0.3).abs() < 1e-6);
        assert!((s.lexical_top - 0.6).abs() < 1e-6 && (s.lexical_margin - 0.4).abs() < 1e-6);
        assert_eq!((s.agreement, s.lexical_unknown), (Some(0.2), 0.25));
        assert_eq!((s.fused_top, s.fused_margin), (Some(1.5), Some(0.25)));
        assert_eq!(s.first_in_both, Some(0.5), "the fused first leads the keyword list only");
        let keyword_only = Signals::of(None, &lexical, None, 15.0, 0.25);
        assert_eq!(
            keyword_only,
            Signals { lexical_top: 0.6, lexical_margin: s.lexical_margin, lexical_unknown: 0.25, ..Signals::default() }
        );
        assert_eq!(Signals::of(None, &[], None, 0.0, 1.0).features()[2], 0.0, "no reference: no keyword score");
    }
}
