//! The LLM's own refusal (docs/DESIGN.md §3.2, seed state GENERATING → REFUSED): the system
//! prompt asks it to answer with the line [`NOT_IN_CONTEXT`] alone when the context does not
//! hold the answer, and [`MarkerFilter`] reads the streamed text for it. An answer that starts
//! with the marker is a refusal (nothing of it is shown); a marker at the start of a later line
//! is dropped from the text. Text that could still become the marker (at a line's start) is
//! held back until it cannot, so the reader never sees the marker, however the stream splits it.

/// The line the LLM answers with when the context lacks the answer.
pub const NOT_IN_CONTEXT: &str = "NOT_IN_CONTEXT";

/// What may come before the marker on its line: spaces, and the Markdown an LLM wraps words in.
fn decoration(c: char) -> bool {
    matches!(c, ' ' | '\t' | '*' | '_' | '`' | '>')
}

/// What the filter makes of the text so far.
#[derive(Clone, Debug, PartialEq)]
pub enum Filtered {
    /// Text to show (may be empty while the start of a line is held back).
    Text(String),
    /// The answer is the marker: a refusal. Nothing more is read.
    Refused,
}

#[derive(Debug, Default)]
pub struct MarkerFilter {
    /// The start of the current line, held back while it could be the marker.
    held: String,
    /// Whether the next character starts a line (true before the first).
    line_start: bool,
    /// Whether any text has been shown: a marker after that is dropped, not a refusal.
    shown: bool,
    /// Blank text before anything was shown, held back with it.
    lead: String,
    refused: bool,
}

impl MarkerFilter {
    pub fn new() -> Self {
        MarkerFilter { line_start: true, ..Self::default() }
    }

    pub fn refused(&self) -> bool {
        self.refused
    }

    /// The next piece of the streamed text.
    pub fn push(&mut self, piece: &str) -> Filtered {
        if self.refused {
            return Filtered::Refused;
        }
        let mut out = String::new();
        for c in piece.chars() {
            if !self.line_start && self.held.is_empty() {
                out.push(c);
                self.line_start = c == '\n';
                continue;
            }
            if c == '\n' {
                out.push_str(&std::mem::take(&mut self.held));
                out.push(c);
                self.line_start = true;
                continue;
            }
            self.held.push(c);
            self.line_start = false;
            let word = self.held.trim_start_matches(decoration);
            if word == NOT_IN_CONTEXT {
                self.held.clear();
                if !self.shown && out.trim().is_empty() {
                    self.refused = true;
                    self.lead.clear();
                    return Filtered::Refused;
                }
            } else if !NOT_IN_CONTEXT.starts_with(word) {
                out.push_str(&std::mem::take(&mut self.held));
            }
        }
        if !self.shown && out.trim().is_empty() {
            self.lead.push_str(&out);
            return Filtered::Text(String::new());
        }
        self.shown = true;
        Filtered::Text(std::mem::take(&mut self.lead) + &out)
    }

    /// The stream ended: what was still held back.
    pub fn finish(&mut self) -> String {
        if self.refused {
            return String::new();
        }
        std::mem::take(&mut self.lead) + &std::mem::take(&mut self.held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shown text and whether it was a refusal, fed in pieces of `size` characters.
    fn run(text: &str, size: usize) -> (String, bool) {
        let mut filter = MarkerFilter::new();
        let chars: Vec<char> = text.chars().collect();
        let mut shown = String::new();
        for piece in chars.chunks(size) {
            match filter.push(&piece.iter().collect::<String>()) {
                Filtered::Text(t) => shown.push_str(&t),
                Filtered::Refused => return (shown, true),
            }
        }
        shown.push_str(&filter.finish());
        (shown, false)
    }

    #[test]
    fn a_marker_at_the_start_is_a_refusal_however_it_is_split() {
        for text in [
            "NOT_IN_CONTEXT",
            "NOT_IN_CONTEXT\nThe context is about nodes.",
            "  **NOT_IN_CONTEXT**",
            "\n`NOT_IN_CONTEXT`",
        ] {
            for size in [1, 2, 3, 5, 7, 100] {
                assert_eq!(run(text, size), (String::new(), true), "{text:?} in pieces of {size}");
            }
        }
    }

    #[test]
    fn an_ordinary_answer_is_unchanged() {
        let answers = [
            "Nodes find each other through DDS [1].",
            "NOT covered: nodes use DDS [1].",
            "NOT_IN_CONTEX",
            "N",
            "- NOT_IN_THE_CONTEXT is a made-up word\n- next",
            "Use `NOTE` blocks.\n\n**Not** in scope.",
            "über\nNOT",
        ];
        for text in answers {
            for size in [1, 2, 4, 64] {
                assert_eq!(run(text, size), (text.to_string(), false), "{text:?} in pieces of {size}");
            }
        }
    }

    #[test]
    fn a_marker_after_an_answer_is_dropped_not_a_refusal() {
        for size in [1, 3, 50] {
            let (shown, refused) = run("Nodes use DDS [1].\nNOT_IN_CONTEXT\nMore.", size);
            assert!(!refused);
            assert_eq!(shown, "Nodes use DDS [1].\n\nMore.", "{size}");
        }
    }

    #[test]
    fn nothing_is_read_after_a_refusal() {
        let mut filter = MarkerFilter::new();
        assert_eq!(filter.push("NOT_IN"), Filtered::Text(String::new()));
        assert_eq!(filter.push("_CONTEXT and more"), Filtered::Refused);
        assert_eq!(filter.push("later"), Filtered::Refused);
        assert!(filter.refused() && filter.finish().is_empty());
    }
}
