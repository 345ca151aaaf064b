//! Passages of a section's text: pieces of about a hundred words, cut where the text breaks
//! (between paragraphs, then lines — list items, table rows, code lines — then sentences,
//! then words), never across the start or end of a merged short section (`parts` of a chunk),
//! so each passage belongs to one section and links to it. The one rule for what "a piece of
//! a section" is: the LLM's context is packed from these (`chat::context`). It counts words,
//! not word pieces, so it needs no tokenizer and runs the same in the browser's core module.

use std::ops::Range;

/// A passage aims at this many words...
pub const PASSAGE_WORDS: usize = 100;
/// ...and has at most this many, unless one word is longer than that (never).
pub const PASSAGE_MAX_WORDS: usize = 140;

/// The byte ranges of `text`'s passages, in order, covering every word of it. `breaks` are
/// byte offsets a passage must not cross (the starts and ends of merged sections); offsets
/// that are not character boundaries or lie outside the text are ignored.
pub fn passages(text: &str, breaks: &[usize]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut cuts: Vec<usize> =
        breaks.iter().copied().filter(|&b| b > 0 && b < text.len() && text.is_char_boundary(b)).collect();
    crate::sort::sort_dedup(&mut cuts);
    let mut start = 0;
    for end in cuts.into_iter().chain([text.len()]) {
        split_region(text, start..end, &mut out);
        start = end;
    }
    out
}

/// Words in `text` (runs of non-whitespace).
pub fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

/// Passages of one region: its pieces (`pieces`) packed greedily up to [`PASSAGE_WORDS`].
fn split_region(text: &str, region: Range<usize>, out: &mut Vec<Range<usize>>) {
    let mut pieces = Vec::new();
    pieces_of(text, region, 0, &mut pieces);
    let mut current: Option<(Range<usize>, usize)> = None;
    for (piece, words) in pieces {
        current = match current {
            Some((range, n))
                if n + words <= PASSAGE_WORDS || (n < PASSAGE_WORDS / 2 && n + words <= PASSAGE_MAX_WORDS) =>
            {
                Some((range.start..piece.end, n + words))
            }
            Some((range, _)) => {
                out.push(range);
                Some((piece, words))
            }
            None => Some((piece, words)),
        };
    }
    if let Some((range, _)) = current {
        out.push(range);
    }
}

/// Where a region may be cut, coarsest first: paragraphs, lines, sentence ends, spaces.
const SEPARATORS: [&str; 4] = ["\n\n", "\n", ". ", " "];

/// The pieces of `region` no longer than [`PASSAGE_MAX_WORDS`] words each (with their word
/// counts), cut at the coarsest separator that makes them fit; pieces with no word are dropped.
fn pieces_of(text: &str, region: Range<usize>, level: usize, out: &mut Vec<(Range<usize>, usize)>) {
    let Some(slice) = text.get(region.clone()) else { return };
    let words = word_count(slice);
    if words == 0 {
        return;
    }
    let Some(separator) = SEPARATORS.get(level) else {
        out.push((trimmed(text, region), words));
        return;
    };
    if words <= PASSAGE_MAX_WORDS {
        out.push((trimmed(text, region), words));
        return;
    }
    let mut start = region.start;
    for (at, _) in slice.match_indices(separator) {
        let end = region.start + at + separator.len();
        pieces_of(text, start..end, level + 1, out);
        start = end;
    }
    pieces_of(text, start..region.end, level + 1, out);
}

/// `range` without leading and trailing whitespace.
fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
    let slice = text.get(range.clone()).unwrap_or("");
    let start = range.start + (slice.len() - slice.trim_start().len());
    let end = range.start + slice.trim_end().len();
    start..end.max(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(n: usize, tag: &str) -> String {
        (0..n).map(|i| format!("{tag}{i}")).collect::<Vec<_>>().join(" ")
    }

    fn texts<'a>(text: &'a str, ranges: &[Range<usize>]) -> Vec<&'a str> {
        ranges.iter().map(|r| &text[r.clone()]).collect()
    }

    #[test]
    fn a_short_text_is_one_passage() {
        let text = "  One short paragraph.\n\nAnd another.  ";
        assert_eq!(texts(text, &passages(text, &[])), ["One short paragraph.\n\nAnd another."]);
        assert!(passages("   ", &[]).is_empty());
    }

    #[test]
    fn paragraphs_are_packed_up_to_about_a_hundred_words() {
        let text = [words(60, "a"), words(30, "b"), words(50, "c"), words(20, "d")].join("\n\n");
        let got = passages(&text, &[]);
        assert_eq!(got.len(), 2);
        assert!(texts(&text, &got)[0].ends_with("b29"));
        assert!(texts(&text, &got)[1].starts_with("c0") && texts(&text, &got)[1].ends_with("d19"));
        let all: usize = texts(&text, &got).iter().map(|t| word_count(t)).sum();
        assert_eq!(all, 160, "every word is in a passage");
    }

    #[test]
    fn a_long_paragraph_is_cut_at_lines_then_sentences_then_words() {
        let lines = (0..30).map(|i| format!("row {i} has value {i}")).collect::<Vec<_>>().join("\n");
        let got = passages(&lines, &[]);
        assert!(got.len() >= 2 && got.iter().all(|r| word_count(&lines[r.clone()]) <= PASSAGE_MAX_WORDS));
        assert!(texts(&lines, &got).iter().all(|t| t.starts_with("row ")), "cut between lines");
        let unbroken = words(400, "w");
        let got = passages(&unbroken, &[]);
        assert!(got.len() >= 3 && got.iter().all(|r| word_count(&unbroken[r.clone()]) <= PASSAGE_MAX_WORDS));
    }

    #[test]
    fn a_passage_never_crosses_a_merged_section() {
        let own = words(20, "own");
        let text = format!("{own}\n\ntestTimeout [number]\n\nDefault timeout.");
        let part = own.len() + 2;
        let got = passages(&text, &[part, text.len(), 10_000, 3]);
        assert_eq!(texts(&text, &got)[texts(&text, &got).len() - 1], "testTimeout [number]\n\nDefault timeout.");
        assert!(got.iter().all(|r| r.end <= part || r.start >= part));
    }
}
