//! What is embedded for a section: its heading path, a blank line, its text — and, when that
//! is longer than the model's 256 word pieces, overlapping windows of the text, each behind
//! the heading path, so no part of a long section is invisible to dense search. The one place
//! that decides it: the site reader only cuts sections, and `lectern build` embeds what this
//! returns (and `lectern chunks --windows` shows it).

use super::{EmbedError, Embedder, MAX_TOKENS};
use crate::heading::join_heading_path;

/// Word pieces two consecutive windows share, so a sentence cut at a window's end is whole
/// in the next one.
pub const WINDOW_OVERLAP_TOKENS: usize = 48;
/// Most windows per section (a 2000-character chunk of dense code is about 4).
pub const MAX_WINDOWS: usize = 8;
/// A heading path longer than this many word pieces is cut, so the text keeps room.
const MIN_BODY_TOKENS: usize = 96;

/// The text embedded for a section that fits the model: its heading path on one line
/// ([`join_heading_path`]), a blank line, and `body`.
pub fn embed_text(heading_path: &[String], body: &str) -> String {
    behind_heading(&join_heading_path(heading_path), body)
}

fn behind_heading(heading_line: &str, body: &str) -> String {
    format!("{heading_line}\n\n{body}")
}

impl Embedder {
    /// The texts to embed for one section: [`embed_text`] when it fits in [`MAX_TOKENS`]
    /// word pieces, else windows of `body` (each with the heading path in front) that
    /// together cover it, at most [`MAX_WINDOWS`].
    pub fn windows(&self, heading_path: &[String], body: &str) -> Result<Vec<String>, EmbedError> {
        let heading_line = join_heading_path(heading_path);
        let whole = behind_heading(&heading_line, body);
        // token_count is after truncation: below the limit means nothing was cut.
        if body.trim().is_empty() || self.token_count(&whole)? < MAX_TOKENS {
            return Ok(vec![whole]);
        }
        // As the model sees it: at most MAX_TOKENS pieces.
        let prefix_tokens = self.tokenizer.pieces(&behind_heading(&heading_line, "")).len().min(MAX_TOKENS);
        // [CLS] and [SEP] take two places; a few more are kept free because a window's text
        // may tokenize a little differently at its edges than inside the whole body.
        let budget = MAX_TOKENS.saturating_sub(2 + 4 + prefix_tokens).max(MIN_BODY_TOKENS);
        // Every word piece of the body, with its bytes in `body`.
        let mut offsets: Vec<(usize, usize)> =
            self.tokenizer.pieces(body).iter().map(|piece| (piece.start, piece.end)).collect();
        offsets.retain(|&(start, end)| end > start);
        let mut windows = Vec::new();
        let mut first = 0;
        while first < offsets.len() && windows.len() < MAX_WINDOWS {
            let last = (first + budget).min(offsets.len()) - 1;
            let text = body
                .get(offsets[first].0..offsets[last].1)
                .ok_or_else(|| EmbedError::Tokenize("a word piece's offsets fall outside the text".into()))?;
            windows.push(behind_heading(&heading_line, text));
            if last + 1 == offsets.len() {
                break;
            }
            first = last + 1 - WINDOW_OVERLAP_TOKENS.min(budget / 2);
        }
        if windows.is_empty() {
            windows.push(whole);
        }
        Ok(windows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heading_path_goes_in_front_on_one_line() {
        let path = ["Setup Guide".to_string(), "Installation".to_string()];
        assert_eq!(embed_text(&path, "Run the installer."), "Setup Guide › Installation\n\nRun the installer.");
    }
}
