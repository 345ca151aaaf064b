//! Splits prose and code into index terms. Documents and queries go through the same rules,
//! so a question written in prose ("how do I echo messages on /cmd_vel?") meets the
//! identifiers in a code block (`ros2 topic echo /cmd_vel`).
//!
//! Rules, in order:
//! - A *word* is a run of letters, digits, combining marks and joiners (`_ . / - : \`);
//!   joiners at its ends are dropped (`/cmd_vel` → `cmd_vel`, `end.` → `end`).
//! - A word with joiners inside is an identifier: it is kept whole (`rclpy.init`) and each
//!   part is kept too (`rclpy`, `init`). All-number compounds (`3.9`, `0.05`) stay whole only.
//! - camelCase / PascalCase parts are split off when every part has two or more letters
//!   (`createPublisher` → `createpublisher`, `create`, `publisher`; `URDFs`, `iPhone` stay whole).
//! - Everything is lower-cased (Unicode-aware; final sigma folds to sigma).
//! - Han, kana and Hangul become one term per character plus one per adjacent pair.
//! - Stop words are dropped from prose words only, never from an identifier or its parts,
//!   and not from an all-capitals word in mixed-case text (`CAN` bus, `WHO`).
//! - Prose words and identifier parts are stemmed (Porter2); whole identifiers are not.
//! - Terms longer than [`MAX_TOKEN_BYTES`] are dropped (hashes, base64, unspaced scripts).

use super::stem::stem;
use super::stop_words::is_stop_word;
use std::ops::Range;

/// Bumped whenever a rule above changes: an index stores it, and a reader refuses an index
/// whose documents were split differently from the queries it would now split.
pub const TOKENIZER_VERSION: u16 = 1;

/// Longer terms are almost never typed in a question, and the cap bounds vocabulary size.
pub const MAX_TOKEN_BYTES: usize = 64;

/// Calls `emit` with every term of `text`, in text order (a term may repeat).
pub fn for_each_token(text: &str, mut emit: impl FnMut(&str)) {
    tokens(text, &mut emit);
}

// The work is done once, behind `dyn`: one copy of the rules in the browser's module, not
// one per caller's closure.
fn tokens(text: &str, emit: &mut dyn FnMut(&str)) {
    let mut splitter = WordSplitter::new(emit, has_lower_case(text));
    // The previous span if it was a CJK character, for bigrams.
    let mut previous_cjk: Option<Range<usize>> = None;
    for_each_span(text, |span| match span {
        Span::Word(range) => {
            previous_cjk = None;
            if let Some(word) = text.get(range) {
                splitter.word(word);
            }
        }
        Span::Cjk(range) => {
            if let Some(unigram) = text.get(range.clone()) {
                (splitter.emit)(unigram);
            }
            let pair =
                previous_cjk.as_ref().filter(|p| p.end == range.start).and_then(|p| text.get(p.start..range.end));
            if let Some(bigram) = pair {
                (splitter.emit)(bigram);
            }
            previous_cjk = Some(range);
        }
    });
}

/// A piece of a text that becomes terms, as a byte range: a *word* (a run of word characters
/// and joiners, joiners at its ends included) or one CJK character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Span {
    Word(Range<usize>),
    Cjk(Range<usize>),
}

/// Calls `emit` with the spans of `text` in order: where its terms come from, for whoever
/// must point at them in the text (a result's highlighted words).
pub fn for_each_span(text: &str, mut emit: impl FnMut(Span)) {
    spans(text, &mut emit);
}

fn spans(text: &str, emit: &mut dyn FnMut(Span)) {
    let mut word_start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if is_cjk(c) {
            if let Some(start) = word_start.take() {
                emit(Span::Word(start..i));
            }
            emit(Span::Cjk(i..i + c.len_utf8()));
        } else if is_word_char(c) || is_joiner(c) {
            word_start.get_or_insert(i);
        } else if let Some(start) = word_start.take() {
            emit(Span::Word(start..i));
        }
    }
    if let Some(start) = word_start {
        emit(Span::Word(start..text.len()));
    }
}

/// The terms of one word (a `Span::Word` of a longer text, or a part of one), as
/// `for_each_token` gives them for it there: `mixed_case` says whether that text has lower
/// case (it decides whether an all-capitals word is an acronym).
pub fn for_each_term_of_word(word: &str, mixed_case: bool, mut emit: impl FnMut(&str)) {
    WordSplitter::new(&mut emit, mixed_case).word(word);
}

/// Whether `text` has lower case: all-capitals words in it are then acronyms, not shouting.
pub fn has_lower_case(text: &str) -> bool {
    text.chars().any(char::is_lowercase)
}

/// Whether `c` joins the parts of an identifier (`rclpy.init`, `cmd_vel`, `use-sim-time`).
pub fn is_joiner(c: char) -> bool {
    matches!(c, '_' | '.' | '/' | '-' | ':' | '\\')
}

/// All terms of `text`, in order.
pub fn tokenize(text: &str) -> Vec<String> {
    let mut terms = Vec::new();
    for_each_token(text, |term| terms.push(term.to_owned()));
    terms
}

struct WordSplitter<'e> {
    emit: &'e mut dyn FnMut(&str),
    /// All-capitals words are treated as acronyms only when the text also has lower case;
    /// a shouted query ("HOW DO I…") still loses its stop words.
    mixed_case: bool,
    lowered: String,
    parts: Vec<(usize, usize)>,
}

impl<'e> WordSplitter<'e> {
    fn new(emit: &'e mut dyn FnMut(&str), mixed_case: bool) -> Self {
        WordSplitter { emit, mixed_case, lowered: String::new(), parts: Vec::new() }
    }

    fn word(&mut self, raw: &str) {
        let word = raw.trim_matches(is_joiner);
        if word.is_empty() {
            return;
        }
        let mut segments = word.split(is_joiner).filter(|s| !s.is_empty());
        let is_compound = segments.nth(1).is_some();
        if !is_compound {
            self.segment(word, false);
            return;
        }
        self.emit_whole(word);
        if word.split(is_joiner).all(|s| s.chars().all(char::is_numeric)) {
            return;
        }
        for segment in word.split(is_joiner).filter(|s| !s.is_empty()) {
            self.segment(segment, true);
        }
    }

    fn segment(&mut self, segment: &str, in_identifier: bool) {
        camel_case_parts(segment, &mut self.parts);
        if self.parts.len() > 1 {
            self.emit_whole(segment);
            let parts = std::mem::take(&mut self.parts);
            for part in parts.iter().filter_map(|&(start, end)| segment.get(start..end)) {
                self.simple_word(part, true);
            }
            self.parts = parts;
        } else {
            self.simple_word(segment, in_identifier);
        }
    }

    fn simple_word(&mut self, word: &str, keep_stop_word: bool) {
        let acronym = self.mixed_case
            && !word.chars().any(char::is_lowercase)
            && word.chars().filter(|c| c.is_uppercase()).nth(1).is_some();
        lower_into(word, &mut self.lowered);
        if !keep_stop_word && !acronym && is_stop_word(&self.lowered) {
            return;
        }
        self.emit_lowered_buffer(true);
    }

    /// A whole identifier: lower-cased, never stemmed (it is matched exactly).
    fn emit_whole(&mut self, text: &str) {
        lower_into(text, &mut self.lowered);
        self.emit_lowered_buffer(false);
    }

    fn emit_lowered_buffer(&mut self, stemmed: bool) {
        let term = if stemmed { stem(&self.lowered) } else { std::borrow::Cow::Borrowed(self.lowered.as_str()) };
        if !term.is_empty() && term.len() <= MAX_TOKEN_BYTES {
            (self.emit)(&term);
        }
    }
}

fn lower_into(text: &str, out: &mut String) {
    out.clear();
    for c in text.chars() {
        for lower in c.to_lowercase() {
            // Final and medial sigma are one letter to a searcher.
            out.push(if lower == 'ς' { 'σ' } else { lower });
        }
    }
}

/// Byte ranges of the camelCase parts of `segment`; a single range when it does not split.
fn camel_case_parts(segment: &str, parts: &mut Vec<(usize, usize)>) {
    parts.clear();
    let mut start = 0;
    let mut previous: Option<char> = None;
    for (i, c) in segment.char_indices() {
        if let Some(p) = previous {
            let after = segment.get(i + c.len_utf8()..).unwrap_or("");
            let lower_then_upper = c.is_uppercase() && (p.is_lowercase() || p.is_numeric());
            // "HTTPServer": the last capital of a run starts the next word, but only before a
            // real lower-case word, so plurals of acronyms ("URDFs", "IDs") stay whole.
            let acronym_then_word =
                c.is_uppercase() && p.is_uppercase() && after.chars().take_while(|a| a.is_lowercase()).nth(1).is_some();
            if lower_then_upper || acronym_then_word {
                parts.push((start, i));
                start = i;
            }
        }
        previous = Some(c);
    }
    parts.push((start, segment.len()));
    let has_short_part = parts.iter().any(|&(s, e)| segment.get(s..e).is_none_or(|part| part.chars().nth(1).is_none()));
    if parts.len() > 1 && has_short_part {
        parts.clear();
        parts.push((0, segment.len()));
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// Combining marks and the blocks of scripts whose vowel signs and viramas are marks, not
/// letters: without them "नमस्ते" or a decomposed "é" would be cut mid-word. An
/// approximation of Unicode's Mark category that needs no tables.
fn is_combining_mark(c: char) -> bool {
    matches!(u32::from(c),
        0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD | 0x05BF | 0x05C1..=0x05C2 | 0x05C4..=0x05C5 | 0x05C7
        | 0x0610..=0x061A | 0x064B..=0x065F | 0x0670 | 0x06D6..=0x06DC | 0x06DF..=0x06E8 | 0x06EA..=0x06ED
        | 0x0900..=0x0963 | 0x0966..=0x0DF3 | 0x0E00..=0x0E4E | 0x0E50..=0x0E59 | 0x0E80..=0x0EFF
        | 0x0F71..=0x0F87 | 0x0F8D..=0x0FBC | 0x1000..=0x1049 | 0x1050..=0x109F | 0x1780..=0x17D3
        | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x200C..=0x200D | 0x20D0..=0x20FF | 0xFE00..=0xFE0F | 0xFE20..=0xFE2F)
}

/// Scripts written without spaces between words (Han, kana) and Hangul, whose words carry
/// particles: characters and character pairs stand in for words.
fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x3040..=0x309F | 0x30A0..=0x30FF | 0x31F0..=0x31FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF66..=0xFF9F | 0x20000..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        tokenize(text)
    }

    fn has_all(text: &str, expected: &[&str]) {
        let got = terms(text);
        for term in expected {
            assert!(got.iter().any(|t| t == term), "{text:?} should give {term:?}, got {got:?}");
        }
    }

    #[test]
    fn dotted_identifier_whole_and_parts() {
        assert_eq!(terms("rclpy.init"), ["rclpy.init", "rclpi", "init"]);
    }

    #[test]
    fn snake_case_whole_and_parts() {
        assert_eq!(terms("cmd_vel"), ["cmd_vel", "cmd", "vel"]);
    }

    #[test]
    fn leading_slash_is_dropped() {
        assert_eq!(terms("/cmd_vel"), terms("cmd_vel"));
        assert_eq!(terms("`/cmd_vel`,"), terms("cmd_vel"));
    }

    #[test]
    fn command_line_words() {
        assert_eq!(terms("ros2 topic echo"), ["ros2", "topic", "echo"]);
    }

    #[test]
    fn camel_and_pascal_case() {
        assert_eq!(terms("createPublisher"), ["createpublisher", "creat", "publish"]);
        assert_eq!(terms("HTTPServer"), ["httpserver", "http", "server"]);
        assert_eq!(terms("XmlHttpRequest"), ["xmlhttprequest", "xml", "http", "request"]);
        // A one-letter part or an acronym plural does not split.
        assert_eq!(terms("URDFs"), ["urdf"]);
        assert_eq!(terms("iPhone"), ["iphon"]);
        assert_eq!(terms("getX"), ["getx"]);
    }

    #[test]
    fn identifier_parts_are_stemmed_like_prose() {
        // So "create a publisher" finds `create_publisher` and `createPublisher`.
        let prose = terms("create a publisher");
        for identifier in ["create_publisher", "createPublisher", "node.create_publisher()"] {
            let got = terms(identifier);
            assert!(prose.iter().all(|t| got.contains(t)), "{identifier}: {got:?} lacks {prose:?}");
        }
    }

    #[test]
    fn scoped_identifiers() {
        has_all("rclcpp::Node", &["rclcpp::node", "rclcpp", "node"]);
        has_all("rclpy.node.Node", &["rclpy.node.node", "rclpi", "node"]);
        has_all("--use-sim-time", &["use-sim-time", "use", "sim", "time"]);
    }

    #[test]
    fn numbers_and_versions() {
        assert_eq!(terms("ISO/TS 15066"), ["iso/ts", "iso", "ts", "15066"]);
        assert_eq!(terms("Python 3.9"), ["python", "3.9"]);
        assert_eq!(terms("p < 0.05"), ["p", "0.05"]);
        has_all("v2.1", &["v2.1", "v2", "1"]);
    }

    #[test]
    fn trailing_punctuation_is_dropped() {
        assert_eq!(terms("Robots. Nodes, topics; (services)!"), ["robot", "node", "topic", "servic"]);
    }

    #[test]
    fn lower_cases_unicode() {
        assert_eq!(terms("ÜBER Straße"), ["über", "straße"]);
        assert_eq!(terms("ΟΔΟΣ"), terms("οδος"));
        assert_eq!(terms("Привет Мир"), ["привет", "мир"]);
    }

    #[test]
    fn keeps_marks_inside_words() {
        assert_eq!(terms("नमस्ते दुनिया"), ["नमस्ते", "दुनिया"]);
        // A decomposed accent does not cut the word.
        assert_eq!(terms("cafe\u{301} au lait"), ["cafe\u{301}", "au", "lait"]);
    }

    #[test]
    fn cjk_unigrams_and_bigrams() {
        assert_eq!(terms("机器人"), ["机", "器", "机器", "人", "器人"]);
        assert_eq!(terms("ROS 2の機能"), ["ros", "2", "の", "機", "の機", "能", "機能"]);
        // Punctuation ends a run: no pair across it.
        assert_eq!(terms("机。器"), ["机", "器"]);
    }

    #[test]
    fn stop_words_only_from_prose() {
        assert_eq!(terms("How do I echo messages on the topic?"), ["echo", "messag", "topic"]);
        // Part of an identifier: kept.
        has_all("is_empty", &["is_empty", "is", "empti"]);
        has_all("isEmpty", &["isempty", "is", "empti"]);
        has_all("state-of-the-art", &["state-of-the-art", "of", "the", "art"]);
    }

    #[test]
    fn acronyms_survive_the_stop_list_in_mixed_case_text() {
        assert_eq!(terms("Wire the CAN bus"), ["wire", "can", "bus"]);
        assert_eq!(terms("HOW DO I WIRE IT"), ["wire"]);
    }

    #[test]
    fn prose_is_stemmed() {
        assert_eq!(terms("running publishers controlled"), ["run", "publish", "control"]);
    }

    #[test]
    fn question_meets_command() {
        let question = terms("How do I echo messages on /cmd_vel?");
        let chunk = terms("Run `ros2 topic echo /cmd_vel` to see the velocity commands.");
        for term in ["echo", "cmd_vel", "cmd", "vel"] {
            assert!(question.iter().any(|t| t == term) && chunk.iter().any(|t| t == term), "{term}");
        }
    }

    #[test]
    fn overlong_terms_are_dropped_but_their_parts_kept() {
        let hash = "a".repeat(MAX_TOKEN_BYTES + 1);
        assert!(terms(&hash).is_empty());
        let path = format!("{}/{}", "segment".repeat(9), "file");
        assert_eq!(terms(&path), [stem(&"segment".repeat(9)).into_owned(), "file".to_owned()]);
    }

    #[test]
    fn empty_and_punctuation_only() {
        assert!(terms("").is_empty());
        assert!(terms("  ... --- /// ?!").is_empty());
        assert!(terms("the of and").is_empty());
    }

    #[test]
    fn never_panics_on_odd_text() {
        for text in ["\u{0}", "_", "a_", "\u{10FFFF}", "İstanbul", "ǅemal", "a\u{301}\u{301}", "𠀀𠀁", "ﾊﾟ"] {
            let _ = terms(text);
        }
    }
}
