//! How good the follow-up suggestions are on labelled questions (`lectern eval --follow-ups`):
//! each answerable question is searched as the chat searches it, its top sections count as
//! cited, the core makes the candidates (`search::follow_ups`), each is searched as the
//! follow-up a click would ask, and the core chooses what would be shown. Reported per
//! heading-to-question rule, so the shipped rule is the measured best.

use super::questions::Question;
use super::run::Evaluator;
use lectern::search::follow_ups::{candidates, choose, Phrasing};
use lectern::search::{Confidence, SearchMode, SearchOptions};
use serde::Serialize;

/// Sections an answer cites (the chat's default `k`).
const CITED: usize = lectern::chat::DEFAULT_K as usize;
/// Where a suggestion's own section must rank for it to count as landing there.
const LANDS_WITHIN: usize = 3;

/// The figures of one rule in one search mode.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FollowUpFigures {
    pub phrasing: &'static str,
    pub mode: String,
    /// Answerable questions the search answered (not refused): the answers followed up.
    pub answers: usize,
    /// Candidates made, and how many of them the index refused.
    pub candidates: usize,
    pub refused: usize,
    /// Candidates the index refuses when asked alone, without the conversation (stricter).
    pub refused_alone: usize,
    /// Suggestions shown and those answered at high or medium confidence (as the follow-up a
    /// click asks, and asked alone).
    pub shown: usize,
    pub shown_high_or_medium: usize,
    pub shown_high_or_medium_alone: usize,
    /// Shown suggestions whose search alone ranks their own section in the top [`LANDS_WITHIN`].
    pub shown_landing: usize,
    /// Answers with no suggestion at all.
    pub answers_without: usize,
}

impl FollowUpFigures {
    pub fn per_answer(&self) -> f64 {
        ratio(self.shown, self.answers)
    }
    pub fn high_or_medium_share(&self) -> f64 {
        ratio(self.shown_high_or_medium, self.shown)
    }
    pub fn high_or_medium_alone_share(&self) -> f64 {
        ratio(self.shown_high_or_medium_alone, self.shown)
    }
    pub fn refused_share(&self) -> f64 {
        ratio(self.refused, self.candidates)
    }
    pub fn refused_alone_share(&self) -> f64 {
        ratio(self.refused_alone, self.candidates)
    }
    pub fn landing_share(&self) -> f64 {
        ratio(self.shown_landing, self.shown)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Measures rule `phrasing` in `mode` over the answerable questions without a selection.
pub fn measure(
    evaluator: &mut Evaluator,
    questions: &[Question],
    mode: SearchMode,
    options: &SearchOptions,
    phrasing: Phrasing,
) -> Result<FollowUpFigures, String> {
    let mut figures =
        FollowUpFigures { phrasing: phrasing.name(), mode: format!("{mode:?}").to_lowercase(), ..Default::default() };
    let options = SearchOptions { k: CITED, mode, ..options.clone() };
    let follow_up = evaluator.follow_up;
    for q in questions.iter().filter(|q| !q.unanswerable && q.selection.is_none()) {
        let asked = lectern::query::question(&q.question).map_err(|e| format!("{}: {}", q.id, e.message()))?;
        let answer = search(evaluator, asked, &q.previous, mode, &options, &follow_up)?;
        if answer.confidence == Confidence::None {
            continue;
        }
        figures.answers += 1;
        let cited: Vec<u32> = answer.hits.iter().map(|h| h.index).collect();
        let mut earlier = q.previous.clone();
        earlier.push(asked.to_string());
        let search_ref = evaluator.search;
        let made = candidates(&cited, |i| search_ref.chunk(i), search_ref.len(), &earlier, phrasing);
        let mut confidences = Vec::new();
        // Per candidate: its confidence alone, and whether its own section ranks near the top.
        let mut alone = Vec::new();
        for candidate in &made {
            let found = search(evaluator, &candidate.question, &earlier, mode, &options, &follow_up)?;
            confidences.push(Some(found.confidence));
            let by_itself = search(evaluator, &candidate.question, &[], mode, &options, &follow_up)?;
            let landing = by_itself.hits.iter().take(LANDS_WITHIN).any(|h| {
                search_ref
                    .chunk(h.index)
                    .is_some_and(|c| c.url == candidate.url || c.parts.iter().any(|p| p.url == candidate.url))
            });
            alone.push((candidate.question.clone(), by_itself.confidence, landing));
        }
        figures.candidates += made.len();
        figures.refused += confidences.iter().filter(|c| **c == Some(Confidence::None)).count();
        figures.refused_alone += alone.iter().filter(|(_, c, _)| *c == Confidence::None).count();
        let shown = choose(made, &confidences);
        figures.answers_without += usize::from(shown.is_empty());
        figures.shown += shown.len();
        figures.shown_high_or_medium +=
            shown.iter().filter(|f| matches!(f.confidence, Confidence::High | Confidence::Medium)).count();
        for f in &shown {
            if let Some((_, confidence, landing)) = alone.iter().find(|(q, _, _)| *q == f.question) {
                figures.shown_high_or_medium_alone +=
                    usize::from(matches!(confidence, Confidence::High | Confidence::Medium));
                figures.shown_landing += usize::from(*landing);
            }
        }
    }
    Ok(figures)
}

/// `question` searched after `earlier` as the chat searches it (the vectors only when `mode`
/// embeds).
fn search(
    evaluator: &mut Evaluator,
    question: &str,
    earlier: &[String],
    mode: SearchMode,
    options: &SearchOptions,
    follow_up: &lectern::search::FollowUpOptions,
) -> Result<lectern::search::SearchResults, String> {
    let semantic = !matches!(mode, SearchMode::Lexical);
    let vector = if semantic { Some(evaluator.vector(question)?) } else { None };
    let context = lectern::search::in_context_query(question, earlier, follow_up);
    let context_vector = match (&context, semantic) {
        (Some(text), true) => Some(evaluator.vector(text)?),
        _ => None,
    };
    evaluator
        .search
        .search_follow_up(question, vector.as_deref(), context_vector.as_deref(), earlier, options, follow_up)
        .map_err(|e| format!("{question:?}: {e}"))
}
