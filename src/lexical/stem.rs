//! The English (Porter2) Snowball stemmer, written out here rather than pulled from a crate:
//! `rust-stemmers` compiles eighteen languages into the wasm module, and we need one. The
//! rules follow <https://snowballstem.org/algorithms/english/stemmer.html> as implemented
//! by `rust-stemmers` 1.2 (checked word for word against it in the tests).

use std::borrow::Cow;

/// Stems a lower-case English word. Anything that is not made only of ASCII letters a–z
/// (numbers, identifiers with digits, other scripts) is returned unchanged.
pub fn stem(word: &str) -> Cow<'_, str> {
    if word.len() <= 2 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return Cow::Borrowed(word);
    }
    if let Some(special) = exception1(word) {
        return Cow::Borrowed(special);
    }
    let mut stemmer = Stemmer::new(word.as_bytes());
    stemmer.run();
    let out = stemmer.finish();
    if out == word.as_bytes() {
        return Cow::Borrowed(word);
    }
    // Only ASCII letters go in and come out.
    Cow::Owned(out.iter().map(|&b| char::from(b)).collect())
}

/// Words Porter2 stems irregularly, or leaves alone although the rules would change them.
fn exception1(word: &str) -> Option<&'static str> {
    Some(match word {
        "skis" => "ski",
        "skies" => "sky",
        "dying" => "die",
        "lying" => "lie",
        "tying" => "tie",
        "idly" => "idl",
        "gently" => "gentl",
        "ugly" => "ugli",
        "early" => "earli",
        "only" => "onli",
        "singly" => "singl",
        "sky" => "sky",
        "news" => "news",
        "howe" => "howe",
        "atlas" => "atlas",
        "cosmos" => "cosmos",
        "bias" => "bias",
        "andes" => "andes",
        _ => return None,
    })
}

/// Words left as they are after step 1a.
const EXCEPTION2: [&[u8]; 8] =
    [b"inning", b"outing", b"canning", b"herring", b"earring", b"proceed", b"exceed", b"succeed"];

// Upper-case 'Y' marks a consonant y (initial, or after a vowel), as in the reference.
fn is_vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

struct Stemmer {
    w: Vec<u8>,
    /// Start of region R1 / R2 (byte positions in the original word; may equal its length).
    r1: usize,
    r2: usize,
}

impl Stemmer {
    fn new(word: &[u8]) -> Self {
        let mut w = word.to_vec();
        for i in 0..w.len() {
            let after_vowel = i > 0 && w.get(i - 1).is_some_and(|&p| is_vowel(p));
            if w.get(i) == Some(&b'y') && (i == 0 || after_vowel) {
                w[i] = b'Y';
            }
        }
        let r1 = ["gener", "commun", "arsen"]
            .iter()
            .find(|prefix| w.starts_with(prefix.as_bytes()))
            .map_or_else(|| region_after_vowel_consonant(&w, 0), |prefix| prefix.len());
        let r2 = region_after_vowel_consonant(&w, r1);
        Stemmer { w, r1, r2 }
    }

    fn finish(mut self) -> Vec<u8> {
        for c in &mut self.w {
            if *c == b'Y' {
                *c = b'y';
            }
        }
        self.w
    }

    fn ends_with(&self, suffix: &[u8]) -> bool {
        self.w.ends_with(suffix)
    }

    /// Position where `suffix` starts, if the word ends with it.
    fn suffix_start(&self, suffix: &[u8]) -> Option<usize> {
        self.ends_with(suffix).then(|| self.w.len() - suffix.len())
    }

    fn replace_from(&mut self, start: usize, with: &[u8]) {
        self.w.truncate(start);
        self.w.extend_from_slice(with);
    }

    fn has_vowel_before(&self, end: usize) -> bool {
        self.w.get(..end).is_some_and(|head| head.iter().any(|&c| is_vowel(c)))
    }

    /// Porter2's "short syllable" ending at `end` (exclusive).
    fn short_syllable_ending_at(&self, end: usize) -> bool {
        let w = &self.w;
        match end {
            2 => matches!((w.first(), w.get(1)), (Some(&a), Some(&b)) if is_vowel(a) && !is_vowel(b)),
            e if e >= 3 => match (w.get(e - 3), w.get(e - 2), w.get(e - 1)) {
                (Some(&a), Some(&b), Some(&c)) => {
                    !is_vowel(a) && is_vowel(b) && !is_vowel(c) && !matches!(c, b'w' | b'x' | b'Y')
                }
                _ => false,
            },
            _ => false,
        }
    }

    fn is_short_word(&self) -> bool {
        self.r1 >= self.w.len() && self.short_syllable_ending_at(self.w.len())
    }

    fn run(&mut self) {
        self.step1a();
        if EXCEPTION2.contains(&self.w.as_slice()) {
            return;
        }
        self.step1b();
        self.step1c();
        self.step2();
        self.step3();
        self.step4();
        self.step5();
    }

    fn step1a(&mut self) {
        if let Some(start) = self.suffix_start(b"sses") {
            self.replace_from(start, b"ss");
        } else if let Some(start) = self.suffix_start(b"ied").or_else(|| self.suffix_start(b"ies")) {
            // "ties" → "tie" but "cries" → "cri": more than one letter before the suffix.
            let with: &[u8] = if start > 1 { b"i" } else { b"ie" };
            self.replace_from(start, with);
        } else if self.ends_with(b"us") || self.ends_with(b"ss") {
        } else if let Some(start) = self.suffix_start(b"s") {
            // Delete if a vowel occurs before the letter just before the s ("gaps", not "gas").
            if start >= 1 && self.has_vowel_before(start - 1) {
                self.w.truncate(start);
            }
        }
    }

    fn step1b(&mut self) {
        const SUFFIXES: [&[u8]; 6] = [b"eedly", b"ingly", b"edly", b"eed", b"ing", b"ed"];
        let Some(suffix) = SUFFIXES.iter().find(|s| self.ends_with(s)) else { return };
        let start = self.w.len() - suffix.len();
        if *suffix == b"eedly" || *suffix == b"eed" {
            if start >= self.r1 {
                self.replace_from(start, b"ee");
            }
            return;
        }
        if !self.has_vowel_before(start) {
            return;
        }
        self.w.truncate(start);
        if self.ends_with(b"at") || self.ends_with(b"bl") || self.ends_with(b"iz") {
            self.w.push(b'e');
        } else if self.ends_with_double() {
            self.w.pop();
        } else if self.is_short_word() {
            self.w.push(b'e');
        }
    }

    fn ends_with_double(&self) -> bool {
        const DOUBLES: [&[u8]; 9] = [b"bb", b"dd", b"ff", b"gg", b"mm", b"nn", b"pp", b"rr", b"tt"];
        DOUBLES.iter().any(|d| self.ends_with(d))
    }

    fn step1c(&mut self) {
        let len = self.w.len();
        if len >= 3 && matches!(self.w.last(), Some(b'y' | b'Y')) && self.w.get(len - 2).is_some_and(|&c| !is_vowel(c))
        {
            self.w[len - 1] = b'i';
        }
    }

    fn step2(&mut self) {
        // Longest suffix first; a match that fails its condition stops the step.
        const RULES: [(&[u8], &[u8]); 24] = [
            (b"ization", b"ize"),
            (b"ational", b"ate"),
            (b"fulness", b"ful"),
            (b"ousness", b"ous"),
            (b"iveness", b"ive"),
            (b"tional", b"tion"),
            (b"biliti", b"ble"),
            (b"lessli", b"less"),
            (b"entli", b"ent"),
            (b"ation", b"ate"),
            (b"alism", b"al"),
            (b"aliti", b"al"),
            (b"ousli", b"ous"),
            (b"iviti", b"ive"),
            (b"fulli", b"ful"),
            (b"enci", b"ence"),
            (b"anci", b"ance"),
            (b"abli", b"able"),
            (b"izer", b"ize"),
            (b"ator", b"ate"),
            (b"alli", b"al"),
            (b"bli", b"ble"),
            (b"ogi", b"og"),
            (b"li", b""),
        ];
        let Some(&(suffix, with)) = RULES.iter().find(|(s, _)| self.ends_with(s)) else { return };
        let start = self.w.len() - suffix.len();
        if start < self.r1 {
            return;
        }
        let before = start.checked_sub(1).and_then(|i| self.w.get(i)).copied();
        let allowed = match suffix {
            b"ogi" => before == Some(b'l'),
            b"li" => matches!(before, Some(b'c' | b'd' | b'e' | b'g' | b'h' | b'k' | b'm' | b'n' | b'r' | b't')),
            _ => true,
        };
        if allowed {
            self.replace_from(start, with);
        }
    }

    fn step3(&mut self) {
        const RULES: [(&[u8], &[u8]); 9] = [
            (b"ational", b"ate"),
            (b"tional", b"tion"),
            (b"alize", b"al"),
            (b"icate", b"ic"),
            (b"iciti", b"ic"),
            (b"ative", b""),
            (b"ical", b"ic"),
            (b"ness", b""),
            (b"ful", b""),
        ];
        let Some(&(suffix, with)) = RULES.iter().find(|(s, _)| self.ends_with(s)) else { return };
        let start = self.w.len() - suffix.len();
        if start < self.r1 || (suffix == b"ative" && start < self.r2) {
            return;
        }
        self.replace_from(start, with);
    }

    fn step4(&mut self) {
        const SUFFIXES: [&[u8]; 18] = [
            b"ement", b"ance", b"ence", b"able", b"ible", b"ment", b"ant", b"ent", b"ism", b"ate", b"iti", b"ous",
            b"ive", b"ize", b"ion", b"al", b"er", b"ic",
        ];
        let Some(suffix) = SUFFIXES.iter().find(|s| self.ends_with(s)) else { return };
        let start = self.w.len() - suffix.len();
        if start < self.r2 {
            return;
        }
        if *suffix == b"ion" {
            let before = start.checked_sub(1).and_then(|i| self.w.get(i)).copied();
            if !matches!(before, Some(b's' | b't')) {
                return;
            }
        }
        self.w.truncate(start);
    }

    fn step5(&mut self) {
        let len = self.w.len();
        if len == 0 {
            return;
        }
        let start = len - 1;
        let last = self.w.last().copied();
        let delete = match last {
            Some(b'e') => start >= self.r2 || (start >= self.r1 && !self.short_syllable_ending_at(start)),
            Some(b'l') => start >= self.r2 && start >= 1 && self.w.get(start - 1) == Some(&b'l'),
            _ => false,
        };
        if delete {
            self.w.truncate(start);
        }
    }
}

/// Start of the region after the first non-vowel that follows a vowel, searching from `from`.
fn region_after_vowel_consonant(w: &[u8], from: usize) -> usize {
    (from + 1..w.len())
        .find(|&i| matches!((w.get(i - 1), w.get(i)), (Some(&a), Some(&b)) if is_vowel(a) && !is_vowel(b)))
        .map_or(w.len(), |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_the_reference_examples() {
        // From the Snowball English page and its published vocabulary/output lists.
        let cases = [
            ("consign", "consign"),
            ("consigned", "consign"),
            ("consigning", "consign"),
            ("consignment", "consign"),
            ("consist", "consist"),
            ("consisted", "consist"),
            ("consistency", "consist"),
            ("consistent", "consist"),
            ("consistently", "consist"),
            ("consisting", "consist"),
            ("consists", "consist"),
            ("consolation", "consol"),
            ("consolations", "consol"),
            ("consolatory", "consolatori"),
            ("console", "consol"),
            ("consoled", "consol"),
            ("consoles", "consol"),
            ("consolidate", "consolid"),
            ("consolidated", "consolid"),
            ("consolidating", "consolid"),
            ("consoling", "consol"),
            ("knack", "knack"),
            ("knackeries", "knackeri"),
            ("knaves", "knave"),
            ("knavish", "knavish"),
            ("kneaded", "knead"),
            ("knee", "knee"),
            ("kneel", "kneel"),
            ("knelt", "knelt"),
            ("knew", "knew"),
            ("generously", "generous"),
            ("generate", "generat"),
            ("communication", "communic"),
            ("running", "run"),
            ("hopping", "hop"),
            ("hoped", "hope"),
            ("cries", "cri"),
            ("ties", "tie"),
            ("gas", "gas"),
            ("gaps", "gap"),
            ("kiwis", "kiwi"),
            ("cry", "cri"),
            ("by", "by"),
            ("say", "say"),
            ("succeeded", "succeed"),
            ("proceed", "proceed"),
            ("skies", "sky"),
            ("dying", "die"),
            ("messages", "messag"),
            ("publisher", "publish"),
            ("publishing", "publish"),
            ("robots", "robot"),
            ("controllers", "control"),
            ("yelling", "yell"),
        ];
        for (word, expected) in cases {
            assert_eq!(stem(word), expected, "stem({word})");
        }
    }

    #[test]
    fn leaves_non_words_alone() {
        for word in ["ros2", "15066", "cmd_vel", "naïve", "ab", "", "ÜBER", "Robots"] {
            assert_eq!(stem(word), word);
        }
    }

    /// Every word of the sample textbook plus a list of hard cases, against `rust-stemmers`
    /// (a native-only dev-dependency).
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn matches_rust_stemmers_word_for_word() {
        let reference = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
        let mut words: Vec<String> = [
            "generalizations",
            "oscillators",
            "relational",
            "conditional",
            "rational",
            "valency",
            "hesitancy",
            "digitizer",
            "conformably",
            "radically",
            "differently",
            "vilely",
            "analogously",
            "vietnamization",
            "predication",
            "operator",
            "feudalism",
            "decisiveness",
            "hopefulness",
            "callousness",
            "formality",
            "sensitivity",
            "sensibility",
            "triplicate",
            "formative",
            "formalize",
            "electriciti",
            "electrical",
            "hopeful",
            "goodness",
            "revival",
            "allowance",
            "inference",
            "airliner",
            "gyroscopic",
            "adjustable",
            "defensible",
            "irritant",
            "replacement",
            "adjustment",
            "dependent",
            "adoption",
            "homologou",
            "communism",
            "activate",
            "angulariti",
            "effective",
            "bowdlerize",
            "probate",
            "rate",
            "cease",
            "controll",
            "roll",
            "agreed",
            "feed",
            "bled",
            "luxuriating",
            "filing",
            "happy",
            "sky",
            "ayyy",
            "yesterday",
            "played",
            "enjoying",
            "arsenal",
            "community",
            "general",
            "logi",
            "ecology",
            "tying",
            "inning",
            "innings",
            "outings",
            "earrings",
            "news",
            "andes",
            "bias",
            "biases",
            "atlas",
            "cosmos",
        ]
        .iter()
        .map(|w| w.to_string())
        .collect();
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/example/docs");
        collect_words(&docs, &mut words);
        assert!(words.len() > 1000, "expected the sample textbook's words, found {}", words.len());
        let mut mismatches = Vec::new();
        for word in &words {
            let ours = stem(word);
            let theirs = reference.stem(word);
            if ours != theirs {
                mismatches.push(format!("{word}: ours {ours}, rust-stemmers {theirs}"));
            }
        }
        assert!(mismatches.is_empty(), "{} of {} differ: {:#?}", mismatches.len(), words.len(), mismatches);
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn collect_words(dir: &std::path::Path, words: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                collect_words(&path, words);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                for word in text.split(|c: char| !c.is_ascii_alphabetic()) {
                    if word.len() > 2 {
                        words.push(word.to_ascii_lowercase());
                    }
                }
            }
        }
    }
}
