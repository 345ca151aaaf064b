//! What is embedded for a section: its heading path, a blank line, its text — and, when that
//! is longer than the model's 256 word pieces, overlapping windows of the text, each behind
//! the heading path, so no part of a long section is invisible to dense search.

use super::{EmbedError, Embedder, MAX_TOKENS};

/// Word pieces two consecutive windows share, so a sentence cut at a window's end is whole
/// in the next one.
pub const WINDOW_OVERLAP_TOKENS: usize = 48;
/// Most windows per section (a 2000-character chunk of dense code is about 4).
pub const MAX_WINDOWS: usize = 8;
/// A heading path longer than this many word pieces is cut, so the text keeps room.
const MIN_BODY_TOKENS: usize = 96;

/// The text embedded for a section that fits the model: `heading path` and `body`.
pub fn embed_text(heading_path: &str, body: &str) -> String {
    format!("{heading_path}\n\n{body}")
}

impl Embedder {
    /// The texts to embed for one section: [`embed_text`] when it fits in [`MAX_TOKENS`]
    /// word pieces, else windows of `body` (each with the heading path in front) that
    /// together cover it, at most [`MAX_WINDOWS`].
    pub fn windows(&self, heading_path: &str, body: &str) -> Result<Vec<String>, EmbedError> {
        let whole = embed_text(heading_path, body);
        // token_count is after truncation: below the limit means nothing was cut.
        if body.trim().is_empty() || self.token_count(&whole)? < MAX_TOKENS {
            return Ok(vec![whole]);
        }
        // As the model sees it: at most MAX_TOKENS pieces.
        let prefix_tokens = self.tokenizer.pieces(&embed_text(heading_path, "")).len().min(MAX_TOKENS);
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
            windows.push(embed_text(heading_path, text));
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
