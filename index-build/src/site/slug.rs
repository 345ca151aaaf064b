//! Heading anchors exactly as Docusaurus assigns them.
//!
//! Docusaurus 3 slugs headings with `github-slugger` 1.5: lower-case the
//! text, delete every character that is not a letter, mark, decimal or letter
//! number, connector punctuation (`_`), `-` or a plain space, then turn each
//! space into `-`. The slugger is stateful: a repeated slug gets `-1`, `-2`, …
//! and a generated `x-1` is itself remembered, so a later heading literally
//! titled "x 1" becomes `x-1-1`.

use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// What github-slugger deletes: everything except ` `, `-` and the
/// letters (L), marks (M), decimal and letter numbers (Nd, Nl), connector
/// punctuation (Pc) and other Alphabetic code points of Unicode 13, the
/// version its generated regex was built from. Checked against the npm
/// package over every code point.
const REMOVED_CHARACTERS: &str = r"[^ \-[[\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\p{Alphabetic}]&&\p{Age=13.0}]]";

fn removed_characters() -> Option<&'static Regex> {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    PATTERN.get_or_init(|| Regex::new(REMOVED_CHARACTERS).ok()).as_ref()
}

/// The slug of one heading text, without duplicate numbering.
pub fn slugify(text: &str) -> String {
    let lower = text.to_lowercase();
    let kept = match removed_characters() {
        Some(pattern) => pattern.replace_all(&lower, "").into_owned(),
        // The pattern is a constant and always compiles; this branch only
        // keeps the function total.
        None => lower.chars().filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' ')).collect(),
    };
    kept.replace(' ', "-")
}

/// A per-page slugger: numbers repeated slugs the way github-slugger does.
#[derive(Debug, Default)]
pub struct Slugger {
    occurrences: HashMap<String, usize>,
}

impl Slugger {
    pub fn new() -> Self {
        Self::default()
    }

    /// The unique slug for `text` on this page.
    pub fn slug(&mut self, text: &str) -> String {
        let original = slugify(text);
        let mut candidate = original.clone();
        while self.occurrences.contains_key(&candidate) {
            let count = self.occurrences.entry(original.clone()).or_insert(0);
            *count += 1;
            candidate = format!("{original}-{count}");
        }
        self.occurrences.insert(candidate.clone(), 0);
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_cases_and_turns_spaces_into_hyphens() {
        assert_eq!(slugify("Hello World"), "hello-world");
        assert_eq!(slugify("Two  spaces"), "two--spaces");
    }

    #[test]
    fn removes_punctuation_but_keeps_hyphen_and_underscore() {
        assert_eq!(slugify("What's new? (v2.0)"), "whats-new-v20");
        assert_eq!(slugify("snake_case & kebab-case"), "snake_case--kebab-case");
        assert_eq!(slugify("`useState()` hook"), "usestate-hook");
        assert_eq!(slugify("C++ / Rust: a comparison!"), "c--rust-a-comparison");
    }

    #[test]
    fn removes_emoji_and_symbols() {
        assert_eq!(slugify("🚀 Getting Started"), "-getting-started");
        assert_eq!(slugify("Price in € and $"), "price-in--and-");
        assert_eq!(slugify("x² ≤ y"), "x--y");
    }

    #[test]
    fn keeps_letters_and_numbers_of_all_scripts() {
        assert_eq!(slugify("Привет мир"), "привет-мир");
        assert_eq!(slugify("日本語の見出し"), "日本語の見出し");
        assert_eq!(slugify("Café Über"), "café-über");
        assert_eq!(slugify("١٢٣ عربي"), "١٢٣-عربي");
    }

    #[test]
    fn numbers_duplicates_like_github_slugger() {
        let mut slugger = Slugger::new();
        assert_eq!(slugger.slug("Intro"), "intro");
        assert_eq!(slugger.slug("Intro"), "intro-1");
        assert_eq!(slugger.slug("Intro"), "intro-2");
        // A heading whose own slug equals an earlier generated one.
        assert_eq!(slugger.slug("Intro 1"), "intro-1-1");
        assert_eq!(slugger.slug("Other"), "other");
    }

    #[test]
    fn generated_suffix_skips_existing_slugs() {
        let mut slugger = Slugger::new();
        assert_eq!(slugger.slug("a-1"), "a-1");
        assert_eq!(slugger.slug("a"), "a");
        assert_eq!(slugger.slug("a"), "a-2");
    }
}
