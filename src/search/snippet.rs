//! Where a query's words are in a text: the ranges a result list highlights in a section's
//! heading and snippet. The text is split by the tokenizer that indexed it
//! (`lexical::tokenizer`), so a word is highlighted exactly when one of its terms is one of
//! the query's — "publishers" for "publisher", `cmd_vel` in `/cmd_vel`, the `init` of
//! `rclpy.init` — and no JS restates those rules.
//!
//! A search box asks while the reader types: with `prefix_last`, the query's last word, when
//! nothing follows it, also matches the words it begins ("dock" marks "docker").

use crate::lexical::expand::typed_word;
use crate::lexical::tokenizer::{for_each_span, for_each_term_of_word, has_lower_case, is_joiner, tokenize, Span};
use std::ops::Range;

pub use crate::lexical::expand::MIN_PREFIX_CHARS;

/// The byte ranges of `text` that hold the terms of `query`, in order, merged where they touch.
pub fn match_ranges(query: &str, text: &str, prefix_last: bool) -> Vec<Range<usize>> {
    // A query has a few terms: a list is all the lookup needs (and keeps the module small).
    let terms = tokenize(query);
    let prefix = if prefix_last { typed_word(query) } else { None };
    if terms.is_empty() && prefix.is_none() {
        return Vec::new();
    }
    let matcher = Matcher { terms, prefix, cjk_pairs: has_cjk_pair(query), mixed_case: has_lower_case(text) };
    // Spans come in text order, and so do the ranges pushed for them.
    let mut ranges = Vec::new();
    let mut previous_cjk: Option<Range<usize>> = None;
    for_each_span(text, |span| match span {
        Span::Word(range) => {
            previous_cjk = None;
            matcher.word(text, range, &mut ranges);
        }
        Span::Cjk(range) => {
            let pair = previous_cjk.as_ref().filter(|p| p.end == range.start).map(|p| p.start..range.end);
            if matcher.cjk_pairs {
                // A query of several characters matches by pairs: one shared character
                // (a particle, a common radical) is no match.
                if let Some(pair) = pair.filter(|pair| text.get(pair.clone()).is_some_and(|t| matcher.has(t))) {
                    ranges.push(pair);
                }
            } else if text.get(range.clone()).is_some_and(|t| matcher.has(t)) {
                ranges.push(range.clone());
            }
            previous_cjk = Some(range);
        }
    });
    merge(ranges)
}

struct Matcher {
    terms: Vec<String>,
    /// The last word of the query, lower-cased, when it may still be being typed.
    prefix: Option<String>,
    /// The query has two adjacent CJK characters (so it has CJK pair terms).
    cjk_pairs: bool,
    mixed_case: bool,
}

impl Matcher {
    fn has(&self, term: &str) -> bool {
        self.terms.iter().any(|t| t == term)
    }

    /// Pushes the range of `text[range]` (a word span) when it matches: the whole word without
    /// its outer joiners, or, in an identifier matched only by some parts, those parts.
    fn word(&self, text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
        let Some(word) = text.get(range.clone()) else { return };
        let trimmed = word.trim_start_matches(is_joiner);
        let start = range.start + (word.len() - trimmed.len());
        let trimmed = trimmed.trim_end_matches(is_joiner);
        if trimmed.is_empty() || !self.matches(trimmed) {
            return;
        }
        let compound = trimmed.contains(is_joiner);
        if !compound || self.has(&trimmed.to_lowercase()) {
            out.push(start..start + trimmed.len());
            return;
        }
        // An identifier found by some of its parts: mark those parts.
        let mut offset = start;
        for part in trimmed.split(is_joiner) {
            if !part.is_empty() && self.matches(part) {
                out.push(offset..offset + part.len());
            }
            offset += part.len() + 1; // every joiner is one byte
        }
    }

    fn matches(&self, word: &str) -> bool {
        if let Some(prefix) = &self.prefix {
            if word.to_lowercase().starts_with(prefix.as_str()) {
                return true;
            }
        }
        let mut found = false;
        for_each_term_of_word(word, self.mixed_case, |term| found |= self.has(term));
        found
    }
}

fn has_cjk_pair(query: &str) -> bool {
    let mut previous_end = None;
    let mut found = false;
    for_each_span(query, |span| match span {
        Span::Cjk(range) => {
            found |= previous_end == Some(range.start);
            previous_end = Some(range.end);
        }
        Span::Word(_) => previous_end = None,
    });
    found
}

/// The bounds of sorted byte `ranges` of `text` as UTF-16 offsets, flat (`[start0, end0, …]`):
/// what a JS string's indices are.
pub fn utf16_bounds(text: &str, ranges: &[Range<usize>]) -> Vec<u32> {
    let mut out = Vec::with_capacity(ranges.len() * 2);
    let mut bounds = ranges.iter().flat_map(|r| [r.start, r.end]).peekable();
    let mut units: u32 = 0;
    for (byte, c) in text.char_indices() {
        while bounds.next_if(|&b| b <= byte).is_some() {
            out.push(units);
        }
        units += c.len_utf16() as u32;
    }
    // Bounds at the end of the text.
    out.extend(bounds.map(|_| units));
    out
}

/// Merges ranges (in text order) that overlap or touch ("机器" and "器人" → "机器人").
fn merge(ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for range in ranges {
        match merged.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ => merged.push(range),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marked words of `text` for `query`.
    fn marked<'t>(query: &str, text: &'t str, prefix_last: bool) -> Vec<&'t str> {
        match_ranges(query, text, prefix_last).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn words_match_by_their_stems_not_their_spelling() {
        let text = "A publisher publishes messages; nodes subscribe to published topics.";
        assert_eq!(
            marked("How do I publish a message?", text, false),
            ["publisher", "publishes", "messages", "published"]
        );
    }

    #[test]
    fn stop_words_and_punctuation_are_never_marked() {
        assert_eq!(marked("what is the topic", "The topic is (what) it is.", false), ["topic"]);
    }

    #[test]
    fn identifiers_are_marked_without_their_outer_joiners() {
        assert_eq!(marked("/cmd_vel", "Run `ros2 topic echo /cmd_vel`.", false), ["cmd_vel"]);
        // Found by a part only: that part is marked.
        assert_eq!(marked("init", "Call rclpy.init() first.", false), ["init"]);
        assert_eq!(marked("rclpy.init", "Call rclpy.init() first.", false), ["rclpy.init"]);
        assert_eq!(marked("sim time", "Pass --use-sim-time to the node.", false), ["sim", "time"]);
    }

    #[test]
    fn camel_case_words_match_by_their_parts() {
        assert_eq!(marked("create a publisher", "Call node.createPublisher(…).", false), ["createPublisher"]);
    }

    #[test]
    fn acronyms_follow_the_case_of_the_whole_text() {
        assert_eq!(marked("CAN bus", "Wire the CAN bus; you can test it.", false), ["CAN", "bus"]);
    }

    #[test]
    fn the_last_word_being_typed_matches_as_a_prefix() {
        let text = "Run it in Docker, or dock the robot.";
        assert_eq!(marked("dock", text, true), ["Docker", "dock"]);
        assert_eq!(marked("dock", text, false), ["dock"]);
        // Once a space follows, the word is complete.
        assert_eq!(marked("dock ", text, true), ["dock"]);
        // One letter is too little to mark everything it begins.
        assert!(marked("d", text, true).is_empty());
    }

    #[test]
    fn cjk_queries_match_by_character_pairs() {
        let text = "机器人学习控制。人工智能";
        // "机器" and "器人" touch: one range.
        assert_eq!(marked("机器人", text, false), ["机器人"]);
        // A shared single character (人) is no match when the query has pairs.
        assert_eq!(marked("机器人", "工人", false), Vec::<&str>::new());
        // A one-character query matches that character.
        assert_eq!(marked("人", text, false), ["人", "人"]);
    }

    #[test]
    fn ranges_are_byte_ranges_of_the_original_text() {
        let text = "Über Straße und Straßen";
        let ranges = match_ranges("straße", text, false);
        assert_eq!(ranges.iter().map(|r| &text[r.clone()]).collect::<Vec<_>>(), ["Straße"]);
        assert!(ranges.iter().all(|r| text.is_char_boundary(r.start) && text.is_char_boundary(r.end)));
    }

    #[test]
    fn utf16_bounds_count_what_js_counts() {
        // "é" is one UTF-16 unit (two bytes), "𠀀" two units (four bytes).
        let text = "é 𠀀 robot";
        let ranges = match_ranges("robot", text, false);
        assert_eq!(utf16_bounds(text, &ranges), [5, 10]);
        let whole = [Range { start: 0, end: 2 }];
        assert_eq!(utf16_bounds("ab", &whole), [0, 2]);
        assert!(utf16_bounds("ab", &[]).is_empty());
    }

    #[test]
    fn nothing_to_match_gives_nothing() {
        assert!(match_ranges("", "some text", true).is_empty());
        assert!(match_ranges("the of", "the of", false).is_empty());
        assert!(match_ranges("robot", "", true).is_empty());
    }

    #[test]
    fn never_panics_on_odd_text() {
        for text in ["\u{0}", "_", "a_", "\u{10FFFF}", "İstanbul", "ǅemal", "a\u{301}\u{301}", "𠀀𠀁", "ﾊﾟ", "/./"]
        {
            for query in [text, "a", "ab", "机器"] {
                let _ = match_ranges(query, text, true);
            }
        }
    }
}
