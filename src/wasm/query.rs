//! Query validation and the selected-mode query (SPEC.md §2–3). Pure functions with no JS
//! types, so they can move into the core unchanged (they live here until the core has a
//! query module).

/// Question length after trimming, in characters (Unicode scalar values).
pub const QUESTION_MAX_CHARS: usize = 1000;
/// Selected-text length after trimming, in characters.
pub const SELECTION_MIN_CHARS: usize = 10;
pub const SELECTION_MAX_CHARS: usize = 5000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    EmptyQuestion,
    QuestionTooLong,
    SelectionTooShort,
    SelectionTooLong,
}

impl Invalid {
    /// SPEC.md §3's message for the reader.
    pub fn message(self) -> String {
        match self {
            Invalid::EmptyQuestion => "Please enter a question".into(),
            Invalid::QuestionTooLong => format!("Question is too long (max {QUESTION_MAX_CHARS} characters)"),
            Invalid::SelectionTooShort => format!("Selection is too short (min {SELECTION_MIN_CHARS} characters)"),
            Invalid::SelectionTooLong => format!("Selection is too long (max {SELECTION_MAX_CHARS} characters)"),
        }
    }
}

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
