//! The reader's query (docs/DESIGN.md, limits): question and selection validation with their
//! messages, the selected-mode retrieval text, and the chat's 1-question-per-2-seconds rule.
//! Used by the wasm facade, the chat layer and the CLI alike.

use serde::{Deserialize, Serialize};

/// The query modes: the whole site, or a passage the reader selected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "QueryMode"))]
pub enum Mode {
    #[default]
    Global,
    Selected,
}

/// Question length after trimming, in characters (Unicode scalar values).
pub const QUESTION_MAX_CHARS: usize = 1000;
/// Selected-text length after trimming, in characters.
pub const SELECTION_MIN_CHARS: usize = 10;
pub const SELECTION_MAX_CHARS: usize = 5000;

/// A question or selection the reader must change; serialised as its stable error code
/// (`"EMPTY_QUESTION"`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "InvalidQueryCode"))]
pub enum Invalid {
    EmptyQuestion,
    QuestionTooLong,
    SelectionTooShort,
    SelectionTooLong,
}

impl Invalid {
    pub const ALL: [Invalid; 4] =
        [Invalid::EmptyQuestion, Invalid::QuestionTooLong, Invalid::SelectionTooShort, Invalid::SelectionTooLong];

    /// The message for the reader.
    pub fn message(self) -> String {
        match self {
            Invalid::EmptyQuestion => "Please enter a question".into(),
            Invalid::QuestionTooLong => format!("Question is too long (max {QUESTION_MAX_CHARS} characters)"),
            Invalid::SelectionTooShort => format!("Selection is too short (min {SELECTION_MIN_CHARS} characters)"),
            Invalid::SelectionTooLong => format!("Selection is too long (max {SELECTION_MAX_CHARS} characters)"),
        }
    }

    /// The stable error code (what this serialises as).
    pub fn code(self) -> &'static str {
        match self {
            Invalid::EmptyQuestion => "EMPTY_QUESTION",
            Invalid::QuestionTooLong => "QUESTION_TOO_LONG",
            Invalid::SelectionTooShort => "SELECTION_TOO_SHORT",
            Invalid::SelectionTooLong => "SELECTION_TOO_LONG",
        }
    }

    /// What the reader can do about it.
    pub fn suggestion(self) -> String {
        match self {
            Invalid::EmptyQuestion => "Type a question about this site.".into(),
            Invalid::QuestionTooLong => format!("Shorten the question to at most {QUESTION_MAX_CHARS} characters."),
            Invalid::SelectionTooShort => format!("Select at least {SELECTION_MIN_CHARS} characters of text."),
            Invalid::SelectionTooLong => format!("Select at most {SELECTION_MAX_CHARS} characters of text."),
        }
    }
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for Invalid {}

/// The trimmed question, or why it is refused.
pub fn question(text: &str) -> Result<&str, Invalid> {
    let trimmed = text.trim();
    match trimmed.chars().count() {
        0 => Err(Invalid::EmptyQuestion),
        n if n > QUESTION_MAX_CHARS => Err(Invalid::QuestionTooLong),
        _ => Ok(trimmed),
    }
}

/// The trimmed selection, or why it is refused.
pub fn selection(text: &str) -> Result<&str, Invalid> {
    let trimmed = text.trim();
    match trimmed.chars().count() {
        n if n < SELECTION_MIN_CHARS => Err(Invalid::SelectionTooShort),
        n if n > SELECTION_MAX_CHARS => Err(Invalid::SelectionTooLong),
        _ => Ok(trimmed),
    }
}

/// What retrieval runs on in selected mode: the question first (the embedder truncates at
/// 256 word pieces, so the question must never be the part cut off), then the selection.
pub fn selected_mode_query(question: &str, selection: &str) -> String {
    format!("{question}\n\n{selection}")
}

/// Questions may come at most once per this many milliseconds.
pub const MIN_INTERVAL_MS: f64 = 2000.0;

/// A question sooner than [`MIN_INTERVAL_MS`] after the last one. Only the chat limits the
/// rate (a search is superseded instead), so this is not an [`Invalid`] query. `wait_ms` is
/// how long until the limiter admits a question again: the panel holds the question that long
/// (a countdown) and sends it then, instead of refusing it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimited {
    pub wait_ms: f64,
}

impl RateLimited {
    pub const CODE: &'static str = "RATE_LIMITED";
    pub const MESSAGE: &'static str = "Please wait before sending another question";
    pub const SUGGESTION: &'static str = "Wait two seconds, then send the question again.";
}

/// "1 question per 2 seconds", on a clock the caller supplies (milliseconds), so the rule is
/// the same natively and in the browser and testable without waiting.
#[derive(Clone, Debug, Default)]
pub struct RateLimiter {
    last_ms: Option<f64>,
}

impl RateLimiter {
    /// Admits a question at `now_ms`, or refuses it without counting it.
    pub fn admit(&mut self, now_ms: f64) -> Result<(), RateLimited> {
        if let Some(last) = self.last_ms {
            // A clock that went backwards (a changed system time) never locks the reader out.
            if now_ms >= last && now_ms - last < MIN_INTERVAL_MS {
                return Err(RateLimited { wait_ms: MIN_INTERVAL_MS - (now_ms - last) });
            }
        }
        self.last_ms = Some(now_ms);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_limits_count_characters_after_trimming() {
        assert_eq!(question("  what is ROS?  "), Ok("what is ROS?"));
        assert_eq!(question(" \n\t "), Err(Invalid::EmptyQuestion));
        let longest = "é".repeat(QUESTION_MAX_CHARS);
        assert_eq!(question(&format!(" {longest} ")), Ok(longest.as_str()));
        assert_eq!(question(&"é".repeat(QUESTION_MAX_CHARS + 1)), Err(Invalid::QuestionTooLong));
    }

    #[test]
    fn selection_limits_are_inclusive() {
        assert_eq!(selection(&"a".repeat(SELECTION_MIN_CHARS - 1)), Err(Invalid::SelectionTooShort));
        assert!(selection(&"a".repeat(SELECTION_MIN_CHARS)).is_ok());
        assert!(selection(&"a".repeat(SELECTION_MAX_CHARS)).is_ok());
        assert_eq!(selection(&"a".repeat(SELECTION_MAX_CHARS + 1)), Err(Invalid::SelectionTooLong));
    }

    #[test]
    fn messages_and_codes() {
        assert_eq!(Invalid::EmptyQuestion.message(), "Please enter a question");
        assert_eq!(Invalid::QuestionTooLong.message(), "Question is too long (max 1000 characters)");
        assert_eq!(Invalid::SelectionTooLong.code(), "SELECTION_TOO_LONG");
        for reason in Invalid::ALL {
            // A new reason fails to compile here until it is in ALL too.
            match reason {
                Invalid::EmptyQuestion
                | Invalid::QuestionTooLong
                | Invalid::SelectionTooShort
                | Invalid::SelectionTooLong => {}
            }
            assert_eq!(serde_json::to_value(reason).ok(), Some(reason.code().into()), "{reason:?}");
        }
    }

    #[test]
    fn rate_limiter_admits_one_question_per_two_seconds() {
        let mut limiter = RateLimiter::default();
        assert_eq!(limiter.admit(10_000.0), Ok(()));
        assert_eq!(limiter.admit(11_999.0), Err(RateLimited { wait_ms: 1.0 }));
        assert_eq!(limiter.admit(10_500.0), Err(RateLimited { wait_ms: 1_500.0 }));
        // The refused attempt did not restart the window.
        assert_eq!(limiter.admit(12_000.0), Ok(()));
        // A clock set back does not lock the reader out.
        assert_eq!(limiter.admit(5_000.0), Ok(()));
    }
}
