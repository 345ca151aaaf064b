//! Which candidates are shown, once each has been searched as the follow-up it would be: never
//! one the index would refuse, those it answers at high or medium confidence before the
//! others, and otherwise the neighbours' order (next section, children, siblings).

use super::Candidate;
use crate::search::Confidence;
use serde::Serialize;

/// Suggestions shown under an answer, at most.
pub const MAX_FOLLOW_UPS: usize = 3;

/// A suggestion shown under an answer: a click asks `question`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct FollowUp {
    pub question: String,
    /// The section it was made from.
    pub url: String,
    /// How confidently the index answers it (never `none`).
    pub confidence: Confidence,
}

/// The suggestions among `candidates`, given the confidence of each one's search
/// (`confidences[i]` for `candidates[i]`; a candidate without one — its search failed, or it
/// was not searched — is not shown).
pub fn choose(candidates: Vec<Candidate>, confidences: &[Option<Confidence>]) -> Vec<FollowUp> {
    let rank = |c: Confidence| match c {
        Confidence::High | Confidence::Medium => 0,
        Confidence::Low => 1,
        Confidence::None => 2,
    };
    let mut answered: Vec<FollowUp> = candidates
        .into_iter()
        .zip(confidences)
        .filter_map(|(candidate, confidence)| match confidence {
            Some(confidence) if *confidence != Confidence::None => {
                Some(FollowUp { question: candidate.question, url: candidate.url, confidence: *confidence })
            }
            _ => None,
        })
        .collect();
    // Stable: among equals, the neighbours' order stands.
    crate::sort::sort_by_key(&mut answered, |f| rank(f.confidence));
    answered.truncate(MAX_FOLLOW_UPS);
    answered
}
