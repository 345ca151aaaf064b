//! The passage a citation points at: the few consecutive sentences of a cited section that the
//! answer drew on, which the page highlights when the reader follows the citation (the widget
//! only finds them in the rendered page and draws). Decided here so the page restates no rule:
//! the sentences are the excerpt picker's (`extractive::prose_sentences`), scored by the
//! question's terms as the keyword index sees them (`lexical::tokenize`).
//!
//! Within the part of the section that matched best when that is known (a window of a long
//! section, `window`), else within the whole section: the run of at most
//! [`MAX_PASSAGE_SENTENCES`] sentences that holds the most distinct question terms (ties: the
//! shorter run, then the earlier). With no shared term, the window's first whole sentence
//! stands for it; without a window there is no passage (the citation lands on the heading).
//!
//! The citation's link names its passage too ([`passage_link`]), so that the same address,
//! copied or opened in another browser, highlights it: the passage's first and last few
//! words, in a query parameter the page reads once and removes (the widget's passage.js).

use super::extractive::prose_sentences;
use crate::lexical::tokenize;
use std::collections::HashSet;
use std::ops::Range;

/// Sentences per passage at most: enough for a claim and its qualification, short enough
/// that the highlight says "here" rather than "this section".
pub const MAX_PASSAGE_SENTENCES: usize = 3;
/// Characters per passage at most (a run that would pass it is not considered, unless it is
/// one sentence): what a reader takes in at a glance, and what a stored answer can afford
/// for each of its five sources.
pub const MAX_PASSAGE_CHARS: usize = 600;

/// The query parameter a citation's link names its passage in (`?passage=`): beside the
/// section's `#anchor`, which it leaves to the router, so a browser without the widget still
/// lands on the heading.
pub const PASSAGE_PARAM: &str = "passage";
/// Words of the passage's start, and of its end, that the link names: enough to find the
/// passage within its section (the page searches only there), few enough for a short link.
pub const PASSAGE_LINK_WORDS: usize = 5;
/// Between the start's words and the end's in the parameter.
pub const PASSAGE_LINK_SEPARATOR: char = '~';
/// Between two words in the parameter.
pub const PASSAGE_LINK_JOINER: char = '-';

/// The sentences of `text` (a section's clean text) to highlight for `question`, in text order,
/// each exactly as it stands in the text (blank runs aside); empty when nothing stands out.
/// `window` is the byte range of `text` that matched the question best, when known.
pub fn passage(question: &str, text: &str, window: Option<Range<usize>>) -> Vec<String> {
    let (scope, windowed) = match window.as_ref().and_then(|w| text.get(w.clone())) {
        Some(part) => (part, window.as_ref().is_some_and(|w| w.start > 0)),
        None => (text, false),
    };
    let sentences = prose_sentences(scope);
    if sentences.is_empty() {
        return Vec::new();
    }
    let terms: HashSet<String> = tokenize(question).into_iter().collect();
    let shared: Vec<HashSet<String>> =
        sentences.iter().map(|s| tokenize(s).into_iter().filter(|t| terms.contains(t)).collect()).collect();
    // (distinct terms, -length in sentences) is maximised; `>` keeps the earlier on a tie.
    let mut best: Option<(usize, usize, Range<usize>)> = None;
    for start in 0..sentences.len() {
        let mut covered: HashSet<&str> = HashSet::new();
        let mut chars = 0;
        for end in start..(start + MAX_PASSAGE_SENTENCES).min(sentences.len()) {
            chars += sentences[end].chars().count();
            if end > start && chars > MAX_PASSAGE_CHARS {
                break;
            }
            covered.extend(shared[end].iter().map(String::as_str));
            let better = match &best {
                None => true,
                Some((count, len, _)) => covered.len() > *count || (covered.len() == *count && end + 1 - start < *len),
            };
            if better && !covered.is_empty() {
                best = Some((covered.len(), end + 1 - start, start..end + 1));
            }
        }
    }
    match best {
        Some((_, _, run)) => sentences[run].to_vec(),
        // The window matched by meaning, not by words: its first whole sentence (a window
        // after the first begins wherever the model's word pieces ran out).
        None if window.is_some() => {
            let first = usize::from(windowed && sentences.len() > 1);
            sentences[first..=first].to_vec()
        }
        None => Vec::new(),
    }
}

/// The address a citation to `url` opens: `url` with its passage named in [`PASSAGE_PARAM`]
/// (before the `#anchor`), as `start~end` — the passage's first and last
/// [`PASSAGE_LINK_WORDS`] words (runs of letters and digits), lower-cased, joined by `-` — or
/// `start` alone when the passage is no longer than both; `url` itself without a passage.
/// The page matches it on letters and digits only, and takes a value of any other shape for
/// none.
pub fn passage_link(url: &str, sentences: &[String]) -> String {
    let words: Vec<String> = sentences
        .iter()
        .flat_map(|s| s.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() {
        return url.to_string();
    }
    let joiner = PASSAGE_LINK_JOINER.to_string();
    let value = if words.len() <= 2 * PASSAGE_LINK_WORDS {
        words.join(&joiner)
    } else {
        let (start, end) = (&words[..PASSAGE_LINK_WORDS], &words[words.len() - PASSAGE_LINK_WORDS..]);
        format!("{}{PASSAGE_LINK_SEPARATOR}{}", start.join(&joiner), end.join(&joiner))
    };
    let (base, anchor) = match url.find('#') {
        Some(at) => url.split_at(at),
        None => (url, ""),
    };
    let joiner = if base.contains('?') { '&' } else { '?' };
    format!("{base}{joiner}{PASSAGE_PARAM}={}{anchor}", encode_query_value(&value))
}

/// `value` as a query parameter's value: unreserved ASCII as it is, every other byte of its
/// UTF-8 as `%XX`.
fn encode_query_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECTION: &str = "Quality of service decides how messages travel. A reliable publisher resends a \
        sample until the subscriber acknowledges it. A best-effort publisher sends each sample once.\n\n\
        Durability decides what a late subscriber gets. With transient local durability, the publisher \
        keeps its last samples for subscribers that join later. Volatile durability keeps nothing.";

    #[test]
    fn the_sentences_with_the_most_question_terms_in_text_order() {
        let got = passage("What does transient local durability keep for late subscribers?", SECTION, None);
        assert_eq!(
            got,
            [
                "Durability decides what a late subscriber gets.",
                "With transient local durability, the publisher keeps its last samples for subscribers that \
                 join later."
            ]
        );
    }

    #[test]
    fn one_sentence_when_it_holds_every_term_and_the_earlier_on_a_tie() {
        assert_eq!(
            passage("reliable publisher resends", SECTION, None),
            ["A reliable publisher resends a sample until the subscriber acknowledges it."]
        );
        // "publisher" alone: three sentences have it, the first of them is the passage.
        assert_eq!(
            passage("publisher", SECTION, None),
            ["A reliable publisher resends a sample until the subscriber acknowledges it."]
        );
    }

    #[test]
    fn at_most_three_sentences_and_never_a_run_past_the_character_cap() {
        let got = passage("quality service reliable best-effort durability transient volatile", SECTION, None);
        assert!(got.len() <= MAX_PASSAGE_SENTENCES, "{got:?}");
        assert!(got.iter().map(|s| s.chars().count()).sum::<usize>() <= MAX_PASSAGE_CHARS);
        let long = format!("{} servo. {} servo torque.", "Word ".repeat(130), "Other ".repeat(130));
        let got = passage("servo torque", &long, None);
        assert_eq!(got.len(), 1, "two long sentences pass the cap together: {got:?}");
        assert!(got[0].ends_with("servo torque."));
    }

    #[test]
    fn the_best_window_bounds_the_choice() {
        let start = SECTION.find("Durability").unwrap();
        // "publisher" is in both halves; within the second window only the second half counts.
        assert_eq!(
            passage("publisher", SECTION, Some(start..SECTION.len())),
            ["With transient local durability, the publisher keeps its last samples for subscribers that join later."]
        );
        // No shared term: the window's first whole sentence (the first one may be cut).
        let cut = SECTION.find("decides what").unwrap();
        assert_eq!(
            passage("zebra", SECTION, Some(cut..SECTION.len())),
            ["With transient local durability, the publisher keeps its last samples for subscribers that join later."]
        );
        assert_eq!(passage("zebra", SECTION, Some(0..47)), ["Quality of service decides how messages travel."]);
        // A range outside the text (or not on a character boundary) is ignored.
        assert_eq!(passage("volatile", SECTION, Some(5..100_000)), ["Volatile durability keeps nothing."]);
    }

    #[test]
    fn nothing_to_highlight_without_a_shared_term_or_prose() {
        assert!(passage("zebra", SECTION, None).is_empty());
        assert!(passage("servo", "```python\nservo = Servo()\n```", None).is_empty());
        assert!(passage("servo", "", None).is_empty());
    }

    #[test]
    fn sentences_stand_as_in_the_text_across_list_markers_and_line_breaks() {
        let text = "Steps:\n\n- Source the ROS 2 setup file\n  before you run a node.\n- Then start the talker.";
        assert_eq!(
            passage("source the setup file", text, None),
            ["Source the ROS 2 setup file before you run a node."]
        );
    }

    #[test]
    fn the_link_names_the_passages_first_and_last_words_before_the_anchor() {
        let sentences: Vec<String> =
            passage("What does transient local durability keep for late subscribers?", SECTION, None);
        assert_eq!(
            passage_link("https://docs.example.org/docs/qos/#durability", &sentences),
            "https://docs.example.org/docs/qos/?passage=durability-decides-what-a-late~for-subscribers-that-join-later#durability"
        );
        // A short passage: all its words; a URL with a query keeps it; none: the URL itself.
        let short = vec!["Volatile durability keeps nothing.".to_string()];
        assert_eq!(passage_link("/docs/qos?v=2", &short), "/docs/qos?v=2&passage=volatile-durability-keeps-nothing");
        assert_eq!(passage_link("/docs/qos#x", &[]), "/docs/qos#x");
        assert_eq!(passage_link("/docs/qos#x", &["```".to_string()]), "/docs/qos#x");
        // Letters beyond ASCII are percent-encoded (UTF-8), punctuation is dropped.
        let accented = vec!["Die Größe (in Bytes) zählt.".to_string()];
        assert_eq!(passage_link("/de/#a", &accented), "/de/?passage=die-gr%C3%B6%C3%9Fe-in-bytes-z%C3%A4hlt#a");
    }
}
