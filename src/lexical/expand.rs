//! Which index terms a query's words may stand for besides their own, for a search box that
//! asks at every keystroke: the word still being typed stands for the words it begins
//! ("dock" for "docker"), and a word of five letters or more that the site never uses for the
//! site's words one edit away ("dcoker" for "docker").
//!
//! Rules (one place: the index scores with them, `search::sharded` fetches the shards they
//! name, and the highlighting of `search::snippet` uses the same typed word):
//! - The *typed word* is the query's last word when nothing follows it and it has
//!   [`MIN_PREFIX_CHARS`] characters or more. It stands for the index terms it begins, and
//!   for the terms a few letters shorter that it begins with (a stem: "configura" is on its
//!   way to "configuration", indexed as "configur").
//! - A *misspelt word* is a plain word (letters and digits) of [`MIN_TYPO_CHARS`] characters
//!   or more whose own term the index does not have. It stands for the stems of its one-edit
//!   variants that the index has: a letter dropped or two swapped anywhere, a letter changed
//!   or added after its first [`TYPO_KEPT_CHARS`] (as Lucene's fuzzy `prefix_length`): the
//!   variants' terms then sit in a few neighbouring term shards, which a browser can name
//!   without the vocabulary.
//!
//! Ranking (`LexicalIndex::search_expanded`): a document matching a word exactly always
//! outranks one matching it only through an expansion.

use super::stem::stem;
use super::stop_words::is_stop_word;
use super::tokenizer::{for_each_span, is_joiner, tokenize, Span};

/// A word still being typed stands for the words it begins once it has this many characters:
/// two letters begin a twentieth of a site's vocabulary (dozens of term shards on a large
/// site), three a few hundredth.
pub const MIN_PREFIX_CHARS: usize = 3;
/// Shortest word given typo tolerance (shorter words have too many neighbours).
pub const MIN_TYPO_CHARS: usize = 5;
/// A changed or added letter of a misspelt word is never among its first this many.
pub const TYPO_KEPT_CHARS: usize = 2;
/// The typed word also stands for the terms it begins with that are up to this many letters
/// shorter (and at least [`MIN_CUT_CHARS`] long): the stems it is on its way past.
const CUT_CHARS: usize = 3;
const MIN_CUT_CHARS: usize = 4;
/// Letters tried where a letter is changed or added.
const ALPHABET: &str = "abcdefghijklmnopqrstuvwxyz0123456789";

/// The query's last word, lower-cased, when the query ends inside it (the reader may be
/// typing it) and it is long enough to mean something.
pub fn typed_word(query: &str) -> Option<String> {
    let mut last = None;
    for_each_span(query, |span| last = Some(span));
    match last? {
        Span::Word(range) if range.end == query.len() => {
            let word = query.get(range)?.trim_start_matches(is_joiner).to_lowercase();
            (word.chars().count() >= MIN_PREFIX_CHARS && !word.contains(is_joiner)).then_some(word)
        }
        _ => None,
    }
}

/// The typed word as the index looks it up: its own terms (its stem, none for a stop word),
/// the prefix of the terms it begins, and the shorter terms it begins with.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedWord {
    pub own: Vec<String>,
    pub prefix: String,
    pub cuts: Vec<String>,
}

/// [`typed_word`] as the index looks it up.
pub fn typed_word_terms(query: &str) -> Option<TypedWord> {
    let prefix = typed_word(query)?;
    let own = tokenize(&prefix);
    let chars: Vec<(usize, char)> = prefix.char_indices().collect();
    let shortest = chars.len().saturating_sub(CUT_CHARS).max(MIN_CUT_CHARS);
    let cuts = (shortest..chars.len()).filter_map(|n| chars.get(n).map(|&(at, _)| prefix[..at].to_string())).collect();
    Some(TypedWord { own, prefix, cuts })
}

/// A word that may be misspelt: its own term, and the distinct stems of its variants
/// (sorted), which the index looks up if it lacks the own term.
#[derive(Clone, Debug, PartialEq)]
pub struct TypoWord {
    pub own: String,
    pub variants: Vec<String>,
}

/// The query's words long enough for typo tolerance, each with its variants' stems.
pub fn typo_words(query: &str) -> Vec<TypoWord> {
    let mut out: Vec<TypoWord> = Vec::new();
    for_each_span(query, |span| {
        let Span::Word(range) = span else { return };
        let Some(word) = query.get(range) else { return };
        let word = word.trim_matches(is_joiner).to_lowercase();
        if word.chars().count() < MIN_TYPO_CHARS || !word.chars().all(|c| c.is_ascii_alphanumeric()) {
            return;
        }
        let own = stem(&word).into_owned();
        if out.iter().any(|w| w.own == own) {
            return;
        }
        out.push(TypoWord { variants: variant_stems(&word, &own), own });
    });
    out
}

/// The stems of `word`'s one-edit variants (see the module's rules), without `own` and stop words.
fn variant_stems(word: &str, own: &str) -> Vec<String> {
    // ASCII only (checked by the caller): bytes are characters.
    let bytes = word.as_bytes();
    let n = bytes.len();
    let mut variants: Vec<Vec<u8>> = Vec::new();
    for i in 0..n {
        let mut v = bytes.to_vec();
        v.remove(i);
        variants.push(v);
        if i + 1 < n && bytes[i] != bytes[i + 1] {
            let mut v = bytes.to_vec();
            v.swap(i, i + 1);
            variants.push(v);
        }
    }
    for i in TYPO_KEPT_CHARS..=n {
        for c in ALPHABET.bytes() {
            if i < n && bytes[i] != c {
                let mut v = bytes.to_vec();
                v[i] = c;
                variants.push(v);
            }
            let mut v = bytes.to_vec();
            v.insert(i, c);
            variants.push(v);
        }
    }
    let mut stems: Vec<String> = variants
        .into_iter()
        .filter_map(|v| String::from_utf8(v).ok())
        .filter(|v| !is_stop_word(v))
        .map(|v| stem(&v).into_owned())
        .filter(|s| s != own)
        .collect();
    crate::sort::sort_dedup(&mut stems);
    stems
}

/// Whether `a` and `b` are one edit apart (a letter dropped, added, changed, or two
/// neighbours swapped).
#[cfg(test)]
fn one_edit(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[common..], &b[common..]);
    match (ra.len(), rb.len()) {
        (0, 0) => false,
        (x, y) if x == y => ra[1..] == rb[1..] || (x >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..]),
        (x, y) if x + 1 == y => ra == &rb[1..],
        (x, y) if y + 1 == x => &ra[1..] == rb,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_typed_word_is_the_last_one_when_nothing_follows_it() {
        assert_eq!(typed_word("how to dock"), Some("dock".into()));
        assert_eq!(typed_word("Dock"), Some("dock".into()));
        assert_eq!(typed_word("dock "), None, "a space ends it");
        assert_eq!(typed_word("do"), None, "too short");
        assert_eq!(typed_word("cmd_v"), None, "an identifier is matched whole");
        let typed = typed_word_terms("configura").unwrap();
        assert_eq!(typed.prefix, "configura");
        assert_eq!(typed.cuts, ["config", "configu", "configur"]);
        assert_eq!(typed_word_terms("the").unwrap().own, Vec::<String>::new(), "a stop word has no own term");
        assert!(typed_word_terms("dock").unwrap().cuts.is_empty());
    }

    #[test]
    fn variants_are_one_edit_away_and_keep_the_first_letters_where_they_widen() {
        let words = typo_words("the dcoker image and a publsher");
        let own: Vec<&str> = words.iter().map(|w| w.own.as_str()).collect();
        assert_eq!(own, ["dcoker", "imag", "publsher"], "words of five letters or more, as stems");
        assert!(words[0].variants.contains(&"docker".to_string()), "two letters swapped");
        assert!(words[2].variants.contains(&"publish".to_string()), "a letter added, then stemmed");
        assert!(typo_words("dock ros2").is_empty(), "under five letters");
        assert!(typo_words("cmd_vel_x").is_empty(), "identifiers are not plain words");
        assert!(!variant_stems("docker", "docker").iter().any(|v| v.starts_with("x") || v.starts_with("dx")));
        assert!(variant_stems("docker", "docker").iter().any(|v| v == "odcker"), "a swap may touch them");
    }

    #[test]
    fn one_edit_is_the_distance_the_variants_cover() {
        for (a, b) in [("docker", "dcoker"), ("docker", "docer"), ("docker", "dockker"), ("docker", "dockar")] {
            assert!(one_edit(a, b), "{a} {b}");
            assert!(variant_stems(b, &stem(b)).contains(&stem(a).into_owned()), "{a} from {b}");
        }
        // A letter changed among the first two is not looked for (it would widen the shards).
        assert!(one_edit("docker", "dxcker") && !variant_stems("dxcker", "dxcker").contains(&"docker".to_string()));
        for (a, b) in [("docker", "docker"), ("docker", "dcoekr"), ("docker", "do")] {
            assert!(!one_edit(a, b), "{a} {b}");
        }
    }
}
