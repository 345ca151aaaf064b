//! Answers when part of retrieval failed (docs/DESIGN.md §3.2: a refusal is the retrieval's
//! verdict on the question, never the consequence of a failed download): the notes under an
//! answer that rests on part of what was found, and the answer when sections were found but
//! none of their texts could be loaded — their links, so the reader can open them.

use super::sources::NumberedSource;
use serde::{Deserialize, Serialize};

/// Why an answer rests on part of what it should.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "AnswerNoteCode"))]
pub enum NoteCode {
    /// Part of the question's keyword index could not be loaded: it was searched in the rest.
    PartialSearch,
    /// Some of the sections found could not be loaded: the answer uses the others.
    SourcesUnread,
    /// Found by keywords alone, with weak evidence, before semantic search was ready: a
    /// better answer is likely once it is (the panel then offers to ask again).
    KeywordOnly,
}

/// A note shown under an answer, kept with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct AnswerNote {
    pub code: NoteCode,
    pub message: String,
}

pub const PARTIAL_SEARCH_NOTE: &str =
    "Part of the site's search index could not be loaded, so this answer may miss some sections.";
pub const SOURCES_UNREAD_NOTE: &str = "Some of the sections found could not be loaded; the answer uses the others.";
pub const KEYWORD_ONLY_NOTE: &str = "This answer comes from a keyword search while semantic search is still loading, \
     so it may not be the best one. A better answer should be possible in a few seconds.";

impl NoteCode {
    pub fn message(self) -> &'static str {
        match self {
            NoteCode::PartialSearch => PARTIAL_SEARCH_NOTE,
            NoteCode::SourcesUnread => SOURCES_UNREAD_NOTE,
            NoteCode::KeywordOnly => KEYWORD_ONLY_NOTE,
        }
    }

    pub fn note(self) -> AnswerNote {
        AnswerNote { code: self, message: self.message().into() }
    }
}

/// The notes for an answer from a retrieval that was `partial`, whose sections were `unread`
/// in part (some read, some not), that was `provisional` (keyword-only with weak evidence).
pub fn notes(partial: bool, unread: bool, provisional: bool) -> Vec<AnswerNote> {
    let mut notes = Vec::new();
    if partial {
        notes.push(NoteCode::PartialSearch.note());
    }
    if unread {
        notes.push(NoteCode::SourcesUnread.note());
    }
    if provisional {
        notes.push(NoteCode::KeywordOnly.note());
    }
    notes
}

/// The answer when no section found could be read: what happened and the sections, each
/// cited, so that each is a link to open.
pub fn links_answer(sources: &[NumberedSource]) -> String {
    let mut text = String::from(
        "The sections that match your question could not be loaded just now, so there is no answer to quote from \
         them. You can open them here:\n",
    );
    for source in sources {
        text.push_str(&format!("\n- [{}] {}", source.reference.n, source.reference.title));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::super::sources::{number_sources, tests::chunk, SiteOrigins};
    use super::*;
    use crate::advice::technical_in;

    #[test]
    fn the_notes_and_the_links_answer_are_written_for_a_reader() {
        for code in [NoteCode::PartialSearch, NoteCode::SourcesUnread, NoteCode::KeywordOnly] {
            assert_eq!(technical_in(code.message()), None);
        }
        assert_eq!(notes(true, false, false), [NoteCode::PartialSearch.note()]);
        assert_eq!(notes(false, false, true), [NoteCode::KeywordOnly.note()]);
        assert_eq!(notes(false, false, false), []);
        let [mut a, mut b] = [chunk("a", "/a#x", "", 0.9), chunk("b", "/b", "", 0.8)];
        (a.text, b.text) = (None, None);
        let sources = number_sources(&[a, b], &SiteOrigins::default());
        let answer = links_answer(&sources);
        assert!(answer.ends_with("\n- [1] Chapter › Section a\n- [2] Chapter › Section b"), "{answer}");
        assert_eq!(technical_in(&answer), None);
    }
}
