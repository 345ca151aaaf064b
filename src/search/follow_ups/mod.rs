//! Follow-up suggestions (issue 27, point 3): after an answer, up to three questions this site
//! can answer, made without a second LLM call. The sections near the ones the answer cited —
//! the next section on the page, the cited section's children and its siblings — are turned
//! into questions by one measured rule (`phrasing`), each candidate is searched as the follow-up
//! it would be, and those the index would refuse are dropped (`choose`). The core decides all
//! of it; the worker only fetches the neighbours' metadata and runs the searches it is told.

mod choose;
mod neighbours;
mod phrasing;

pub use choose::{choose, FollowUp, MAX_FOLLOW_UPS};
pub use neighbours::{cited_chunks, neighbour_window, neighbours, Neighbour, Relation, NEIGHBOUR_WINDOW};
pub use phrasing::{question_for, Phrasing};

use crate::bundle::ChunkMeta;
use serde::{Deserialize, Serialize};

/// Candidates searched per answer: a few more than are shown, as some are refused.
pub const MAX_CANDIDATES: usize = 6;

/// A question to search before it may be suggested, and the section it was made from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "FollowUpCandidate"))]
pub struct Candidate {
    pub question: String,
    /// The section whose heading it asks about.
    pub url: String,
}

/// The candidates after an answer that cited chunks `cited` (best first): the neighbours'
/// questions by `phrasing`, each once, none already asked in the conversation (`asked`), at
/// most [`MAX_CANDIDATES`]. `chunk` gives a chunk's metadata when it is loaded.
pub fn candidates<'a, S: AsRef<str>>(
    cited: &[u32],
    chunk: impl Fn(u32) -> Option<&'a ChunkMeta>,
    total: usize,
    asked: &[S],
    phrasing: Phrasing,
) -> Vec<Candidate> {
    let same = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
    let mut out: Vec<Candidate> = Vec::new();
    for neighbour in neighbours(cited, chunk, total) {
        let Some(question) = question_for(&neighbour.heading_path, phrasing) else { continue };
        if crate::query::question(&question).is_err()
            || asked.iter().any(|a| same(a.as_ref(), &question))
            || out.iter().any(|c| same(&c.question, &question))
        {
            continue;
        }
        out.push(Candidate { question, url: neighbour.url });
        if out.len() == MAX_CANDIDATES {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests;
