//! BERT WordPiece tokenisation as the model's tokenizer.json describes it: the BERT normaliser
//! (control characters out, whitespace to spaces, spaces around CJK ideographs, accents
//! stripped, lower case), the BERT pre-tokeniser (split on whitespace, punctuation alone),
//! greedy longest-match-first WordPiece and the [CLS] … [SEP] template.
//!
//! Hand-written instead of the `tokenizers` crate for size: that crate, the four regex engines
//! it links (a tokenizer.json may name any pre-tokenizer) and their generic code were 1.47 MB
//! of the embedder's wasm code; without them the module is 2.07 -> 1.65 MB brotli
//! (BENCHMARKS.md, "The tokenizer by hand"). It reads the same tokenizer.json (so the model
//! fingerprint is unchanged), refuses one that asks for anything not implemented here, and
//! gives the crate's ids and offsets (index-build's `wordpiece_parity` test). The character
//! tables are the crate's own: `unicode_categories` for control, punctuation and
//! non-spacing marks, std for whitespace and lower case; decompositions come from
//! `unicode-normalization`.

use super::EmbedError;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use unicode_categories::UnicodeCategories;
use unicode_normalization::char::{canonical_combining_class, decompose_canonical};

/// One word piece: its vocabulary id and the bytes `start..end` of the input text it stands
/// for (for a piece inside a word, the characters it covers; for `[UNK]`, the whole word).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub id: u32,
    pub start: usize,
    pub end: usize,
}

/// A BERT tokenizer read from a Hugging Face tokenizer.json. Built once, then cheap to call.
#[derive(Debug)]
pub struct WordPieceTokenizer {
    normalizer: Normalizer,
    vocab: HashMap<String, u32>,
    unk: u32,
    continuing_prefix: String,
    max_word_chars: usize,
    /// The longest vocabulary entry in bytes: no longer piece can match, so the greedy
    /// search starts there instead of at the end of a long word.
    longest_entry: usize,
    cls: u32,
    sep: u32,
    /// Added tokens (`[CLS]`, `[MASK]`, …) found verbatim in the text before it is normalised,
    /// as the crate does: the leftmost match, the longest where several start there.
    added: Vec<(String, u32)>,
}

/// The BertNormalizer settings (`strip_accents` resolved: unset follows `lowercase`).
#[derive(Clone, Copy, Debug)]
struct Normalizer {
    clean_text: bool,
    handle_chinese_chars: bool,
    strip_accents: bool,
    lowercase: bool,
}

/// A character of the normalised text and the bytes of the original text it came from.
#[derive(Clone, Copy, Debug)]
struct NormChar {
    c: char,
    start: usize,
    end: usize,
}

impl WordPieceTokenizer {
    /// Reads the tokenizer from tokenizer.json bytes. Its truncation and padding are not
    /// used: callers truncate (see [`WordPieceTokenizer::encode`]) and never pad, as
    /// sentence-transformers does.
    pub fn from_json(json: &[u8]) -> Result<Self, EmbedError> {
        let file: TokenizerFile =
            serde_json::from_slice(json).map_err(|e| EmbedError::TokenizerInvalid(e.to_string()))?;
        let normalizer = read_normalizer(file.normalizer.as_ref())?;
        match file.pre_tokenizer.as_ref().and_then(|p| p.get("type")).and_then(Value::as_str) {
            Some("BertPreTokenizer") => {}
            other => return Err(unsupported("pre_tokenizer", other.unwrap_or("none"), "BertPreTokenizer")),
        }
        let model = read_model(file.model)?;
        let (cls, sep) = read_template(file.post_processor.as_ref())?;
        let mut added = Vec::with_capacity(file.added_tokens.len());
        for token in file.added_tokens {
            if token.normalized || token.single_word || token.lstrip || token.rstrip || token.content.is_empty() {
                return Err(EmbedError::TokenizerUnsupported(format!(
                    "added token {:?} with normalized, single_word, lstrip or rstrip set (or empty): only \
                     verbatim added tokens are implemented",
                    token.content
                )));
            }
            added.push((token.content, token.id));
        }
        let longest_entry = model.vocab.keys().map(String::len).max().unwrap_or(0);
        Ok(WordPieceTokenizer {
            normalizer,
            unk: model.unk,
            vocab: model.vocab,
            continuing_prefix: model.continuing_prefix,
            max_word_chars: model.max_word_chars,
            longest_entry,
            cls,
            sep,
            added,
        })
    }

    /// The model's input ids for `text`: `[CLS]`, the first word pieces, `[SEP]`, at most
    /// `max_len` in all (at least the two specials).
    pub fn encode(&self, text: &str, max_len: usize) -> Vec<u32> {
        let pieces = self.pieces(text);
        let keep = pieces.len().min(max_len.saturating_sub(2));
        let mut ids = Vec::with_capacity(keep + 2);
        ids.push(self.cls);
        ids.extend(pieces[..keep].iter().map(|p| p.id));
        ids.push(self.sep);
        ids
    }

    /// Every word piece of `text` with its bytes in `text`: no specials, no truncation.
    pub fn pieces(&self, text: &str) -> Vec<Piece> {
        let mut pieces = Vec::new();
        let mut chars = Vec::new();
        let mut scratch = String::new();
        let mut from = 0;
        while from < text.len() {
            let (text_end, added) = match self.next_added(text, from) {
                Some((start, end, id)) => (start, Some(Piece { id, start, end })),
                None => (text.len(), None),
            };
            chars.clear();
            self.normalize(&text[from..text_end], from, &mut chars);
            for word in words(&chars) {
                self.word_pieces(word, &mut scratch, &mut pieces);
            }
            match added {
                Some(piece) => {
                    pieces.push(piece);
                    from = piece.end;
                }
                None => break,
            }
        }
        pieces
    }

    /// The leftmost added token at or after byte `from` (the longest of those starting
    /// there): its bytes and id.
    fn next_added(&self, text: &str, from: usize) -> Option<(usize, usize, u32)> {
        if self.added.is_empty() {
            return None;
        }
        let bytes = text.as_bytes();
        (from..bytes.len()).find_map(|at| {
            // An added token starts with a character's first byte, so `at` is a boundary.
            self.added
                .iter()
                .filter(|(content, _)| bytes[at..].starts_with(content.as_bytes()))
                .max_by_key(|(content, _)| content.len())
                .map(|(content, id)| (at, at + content.len(), *id))
        })
    }

    /// BertNormalizer on `text` (which starts at byte `base` of the input), character by
    /// character, each normalised character keeping the input bytes it came from.
    fn normalize(&self, text: &str, base: usize, out: &mut Vec<NormChar>) {
        let n = self.normalizer;
        let mut push = |c: char, start: usize, end: usize| {
            if !n.strip_accents || c.is_ascii() {
                out.push(NormChar { c, start, end });
            } else {
                decompose_canonical(c, |d| out.push(NormChar { c: d, start, end }));
            }
        };
        for (at, c) in text.char_indices() {
            let (start, end) = (base + at, base + at + c.len_utf8());
            let c = if n.clean_text {
                if c == '\0' || c == '\u{fffd}' || is_control(c) {
                    continue;
                }
                if is_whitespace(c) {
                    ' '
                } else {
                    c
                }
            } else {
                c
            };
            if n.handle_chinese_chars && is_chinese_char(c) {
                push(' ', start, end);
                push(c, start, end);
                push(' ', start, end);
            } else {
                push(c, start, end);
            }
        }
        if n.strip_accents {
            canonical_order(out);
            out.retain(|nc| !nc.c.is_mark_nonspacing());
        }
        if n.lowercase {
            if out.iter().all(|nc| nc.c.is_ascii()) {
                out.iter_mut().for_each(|nc| nc.c.make_ascii_lowercase());
            } else {
                // A few letters lower-case to two characters (İ is i + U+0307).
                let upper = std::mem::take(out);
                for nc in upper {
                    out.extend(nc.c.to_lowercase().map(|c| NormChar { c, ..nc }));
                }
            }
        }
    }

    /// WordPiece on one word: the longest vocabulary entry at its start, then the longest
    /// `##` entry at each following place; `[UNK]` for the whole word when a place has none
    /// or the word is too long.
    fn word_pieces(&self, word: &[NormChar], scratch: &mut String, out: &mut Vec<Piece>) {
        let (Some(first), Some(last)) = (word.first(), word.last()) else { return };
        let unknown = Piece { id: self.unk, start: first.start, end: last.end };
        if word.len() > self.max_word_chars {
            out.push(unknown);
            return;
        }
        // Byte offset of each character in the word, and its length at the end.
        let mut offsets = Vec::with_capacity(word.len() + 1);
        let mut text = String::with_capacity(word.len());
        for nc in word {
            offsets.push(text.len());
            text.push(nc.c);
        }
        offsets.push(text.len());
        let mark = out.len();
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len();
            while end > start && offsets[end] - offsets[start] > self.longest_entry {
                end -= 1;
            }
            let found = loop {
                if end == start {
                    break None;
                }
                scratch.clear();
                if start > 0 {
                    scratch.push_str(&self.continuing_prefix);
                }
                scratch.push_str(&text[offsets[start]..offsets[end]]);
                if let Some(&id) = self.vocab.get(scratch.as_str()) {
                    break Some(id);
                }
                end -= 1;
            };
            let Some(id) = found else {
                out.truncate(mark);
                out.push(unknown);
                return;
            };
            out.push(Piece { id, start: word[start].start, end: word[end - 1].end });
            start = end;
        }
    }
}

/// BertPreTokenizer: words are split at whitespace (dropped) and every punctuation character
/// is a word of its own.
fn words(chars: &[NormChar]) -> impl Iterator<Item = &[NormChar]> {
    let mut rest = chars;
    std::iter::from_fn(move || {
        let skip = rest.iter().take_while(|nc| nc.c.is_whitespace()).count();
        rest = &rest[skip..];
        let first = rest.first()?;
        let len = if is_bert_punctuation(first.c) {
            1
        } else {
            rest.iter().take_while(|nc| !nc.c.is_whitespace() && !is_bert_punctuation(nc.c)).count()
        };
        let (word, tail) = rest.split_at(len);
        rest = tail;
        Some(word)
    })
}

/// NFD's canonical ordering: within each run of combining characters, a stable sort by
/// combining class (each character keeps the input bytes it came from).
fn canonical_order(chars: &mut [NormChar]) {
    let mut i = 0;
    while i < chars.len() {
        if canonical_combining_class(chars[i].c) == 0 {
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|nc| canonical_combining_class(nc.c) != 0).count();
        if run > 1 {
            chars[i..i + run].sort_by_key(|nc| canonical_combining_class(nc.c));
        }
        i += run;
    }
}

/// BERT's whitespace: \t, \n, \r and Unicode White_Space.
fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// BERT's control characters: Cc, Cf and Co, except \t, \n and \r (whitespace to BERT).
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// ASCII punctuation (which includes symbols such as `$`, `+`, `^`) and Unicode P*.
fn is_bert_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// The CJK ideograph blocks BERT puts spaces around (not Hangul, Hiragana or Katakana).
fn is_chinese_char(c: char) -> bool {
    matches!(
        u32::from(c),
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

/// The parts of tokenizer.json read here; the rest (truncation, padding, decoder) is not used.
#[derive(Deserialize)]
struct TokenizerFile {
    #[serde(default)]
    added_tokens: Vec<AddedToken>,
    normalizer: Option<Value>,
    pre_tokenizer: Option<Value>,
    post_processor: Option<Value>,
    model: Value,
}

#[derive(Deserialize)]
struct AddedToken {
    id: u32,
    content: String,
    single_word: bool,
    lstrip: bool,
    rstrip: bool,
    normalized: bool,
}

struct Model {
    vocab: HashMap<String, u32>,
    unk: u32,
    continuing_prefix: String,
    max_word_chars: usize,
}

fn unsupported(part: &str, found: &str, expected: &str) -> EmbedError {
    EmbedError::TokenizerUnsupported(format!("{part} {found} (only {expected} is implemented)"))
}

fn invalid(what: &str) -> EmbedError {
    EmbedError::TokenizerInvalid(what.to_string())
}

fn flag(object: &Value, part: &str, name: &str) -> Result<bool, EmbedError> {
    object.get(name).and_then(Value::as_bool).ok_or_else(|| invalid(&format!("{part}.{name} is not true or false")))
}

fn read_normalizer(value: Option<&Value>) -> Result<Normalizer, EmbedError> {
    let kind = value.and_then(|v| v.get("type")).and_then(Value::as_str);
    let Some(value) = value.filter(|_| kind == Some("BertNormalizer")) else {
        return Err(unsupported("normalizer", kind.unwrap_or("none"), "BertNormalizer"));
    };
    let lowercase = flag(value, "normalizer", "lowercase")?;
    let strip_accents = match value.get("strip_accents") {
        None | Some(Value::Null) => lowercase,
        Some(Value::Bool(strip)) => *strip,
        Some(_) => return Err(invalid("normalizer.strip_accents is not true, false or null")),
    };
    Ok(Normalizer {
        clean_text: flag(value, "normalizer", "clean_text")?,
        handle_chinese_chars: flag(value, "normalizer", "handle_chinese_chars")?,
        strip_accents,
        lowercase,
    })
}

fn read_model(mut value: Value) -> Result<Model, EmbedError> {
    match value.get("type").and_then(Value::as_str) {
        Some("WordPiece") => {}
        other => return Err(unsupported("model", other.unwrap_or("without a type"), "WordPiece")),
    }
    let text = |name: &str| {
        value
            .get(name)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| invalid(&format!("model.{name} is not a string")))
    };
    let unk_token = text("unk_token")?;
    let continuing_prefix = text("continuing_subword_prefix")?;
    let max_word_chars = value
        .get("max_input_chars_per_word")
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| invalid("model.max_input_chars_per_word is not a count"))?;
    let Some(Value::Object(entries)) = value.get_mut("vocab").map(Value::take) else {
        return Err(invalid("model.vocab is not an object of word pieces and ids"));
    };
    let mut vocab = HashMap::with_capacity(entries.len());
    for (piece, id) in entries {
        let id = id.as_u64().and_then(|id| u32::try_from(id).ok());
        let id = id.ok_or_else(|| invalid(&format!("model.vocab gives {piece:?} an id that is not a count")))?;
        vocab.insert(piece, id);
    }
    let unk = *vocab
        .get(&unk_token)
        .ok_or_else(|| invalid(&format!("the unknown token {unk_token:?} is not in model.vocab")))?;
    Ok(Model { vocab, unk, continuing_prefix, max_word_chars })
}

/// The ids around a single text: TemplateProcessing `[X] $A [Y]` (type ids 0) or
/// BertProcessing.
fn read_template(value: Option<&Value>) -> Result<(u32, u32), EmbedError> {
    const EXPECTED: &str = "a template of one special token, the text and one special token";
    let kind = value.and_then(|v| v.get("type")).and_then(Value::as_str);
    let Some(value) = value else { return Err(unsupported("post_processor", "none", EXPECTED)) };
    match kind {
        Some("BertProcessing") => {
            let id = |name: &str| {
                value
                    .get(name)
                    .and_then(|pair| pair.get(1))
                    .and_then(Value::as_u64)
                    .and_then(|id| u32::try_from(id).ok())
                    .ok_or_else(|| invalid(&format!("post_processor.{name} is not [token, id]")))
            };
            Ok((id("cls")?, id("sep")?))
        }
        Some("TemplateProcessing") => {
            let single = value.get("single").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let special = |item: &Value| -> Option<u32> {
                let token = item.get("SpecialToken")?;
                if token.get("type_id").and_then(Value::as_u64) != Some(0) {
                    return None;
                }
                let name = token.get("id")?.as_str()?;
                match value.get("special_tokens")?.get(name)?.get("ids")?.as_array()?.as_slice() {
                    [id] => u32::try_from(id.as_u64()?).ok(),
                    _ => None,
                }
            };
            let text = |item: &Value| {
                item.get("Sequence").is_some_and(|s| {
                    s.get("id").and_then(Value::as_str) == Some("A")
                        && s.get("type_id").and_then(Value::as_u64) == Some(0)
                })
            };
            match single {
                [first, middle, last] if text(middle) => match (special(first), special(last)) {
                    (Some(cls), Some(sep)) => Ok((cls, sep)),
                    _ => Err(unsupported("post_processor", "TemplateProcessing with other specials", EXPECTED)),
                },
                _ => Err(unsupported("post_processor", "TemplateProcessing of another shape", EXPECTED)),
            }
        }
        other => Err(unsupported("post_processor", other.unwrap_or("without a type"), EXPECTED)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tokenizer.json as the model ships it, with a small vocabulary.
    fn json(vocab: &[&str]) -> Value {
        let vocab: serde_json::Map<String, Value> =
            vocab.iter().enumerate().map(|(id, piece)| (piece.to_string(), Value::from(id))).collect();
        serde_json::json!({
            "version": "1.0",
            "truncation": {"max_length": 128, "strategy": "LongestFirst", "stride": 0},
            "padding": null,
            "added_tokens": [
                {"id": 0, "special": true, "content": "[PAD]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false},
                {"id": 1, "special": true, "content": "[UNK]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false},
                {"id": 2, "special": true, "content": "[CLS]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false},
                {"id": 3, "special": true, "content": "[SEP]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false}
            ],
            "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "post_processor": {
                "type": "TemplateProcessing",
                "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
                "pair": [],
                "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]}, "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}}
            },
            "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": true},
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 10, "vocab": vocab}
        })
    }

    const VOCAB: &[&str] =
        &["[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "cafe", "!", "中", "a", "##a", "é"];

    fn tokenizer() -> WordPieceTokenizer {
        WordPieceTokenizer::from_json(json(VOCAB).to_string().as_bytes()).unwrap()
    }

    fn ids(text: &str) -> Vec<u32> {
        tokenizer().pieces(text).iter().map(|p| p.id).collect()
    }

    #[test]
    fn splits_words_into_the_longest_pieces() {
        // un ##aff ##able, with the bytes of each piece in the text.
        let pieces = tokenizer().pieces("  UnAffable!");
        let spans: Vec<(u32, &str)> = pieces.iter().map(|p| (p.id, &"  UnAffable!"[p.start..p.end])).collect();
        assert_eq!(spans, [(4, "Un"), (5, "Aff"), (6, "able"), (8, "!")]);
    }

    #[test]
    fn normalises_as_bert_does() {
        // Accents stripped (the piece covers the whole accented letter), CJK split out,
        // control and zero-width characters dropped, odd whitespace splits.
        let text = "Caf\u{e9}\u{200b}\u{a0}\u{4e2d}\u{4e2d}\u{7}a";
        let pieces = tokenizer().pieces(text);
        assert_eq!(pieces.iter().map(|p| p.id).collect::<Vec<_>>(), [7, 9, 9, 10]);
        assert_eq!(&text[pieces[0].start..pieces[0].end], "Caf\u{e9}");
        assert_eq!(ids("A\u{301}"), [10]);
        assert_eq!(ids("\u{e9}"), [1], "é is e once accents are stripped");
    }

    #[test]
    fn unknown_and_overlong_words_are_one_unk() {
        assert_eq!(ids("unx"), [1]);
        assert_eq!(ids("aaaaaaaaaa"), [10, 11, 11, 11, 11, 11, 11, 11, 11, 11]);
        assert_eq!(ids("aaaaaaaaaaa"), [1]);
        let pieces = tokenizer().pieces("x aaaaaaaaaaa");
        assert_eq!((pieces[1].start, pieces[1].end), (2, 13));
    }

    #[test]
    fn added_tokens_are_found_verbatim_before_normalising() {
        // "aff" is only a continuation; "[sep]" is not the added token but three words.
        assert_eq!(ids("un[CLS]aff [sep]"), [4, 2, 1, 1, 1, 1]);
        let pieces = tokenizer().pieces("a[SEP]");
        assert_eq!(pieces.iter().map(|p| (p.id, p.start, p.end)).collect::<Vec<_>>(), [(10, 0, 1), (3, 1, 6)]);
        assert_eq!(ids(""), Vec::<u32>::new());
    }

    #[test]
    fn encode_adds_the_specials_and_truncates() {
        let tokenizer = tokenizer();
        assert_eq!(tokenizer.encode("unaffable !", 256), [2, 4, 5, 6, 8, 3]);
        assert_eq!(tokenizer.encode("unaffable !", 4), [2, 4, 5, 3]);
        assert_eq!(tokenizer.encode("", 4), [2, 3]);
    }

    #[test]
    fn refuses_what_it_does_not_implement() {
        let refused = |edit: &dyn Fn(&mut Value)| {
            let mut file = json(VOCAB);
            edit(&mut file);
            WordPieceTokenizer::from_json(file.to_string().as_bytes()).unwrap_err().to_string()
        };
        let err = refused(&|f| f["model"]["type"] = "BPE".into());
        assert!(err.contains("model BPE") && err.contains("WordPiece"), "{err}");
        let err = refused(&|f| f["normalizer"] = serde_json::json!({"type": "NFC"}));
        assert!(err.contains("normalizer NFC"), "{err}");
        let err = refused(&|f| f["normalizer"] = Value::Null);
        assert!(err.contains("normalizer none"), "{err}");
        let err = refused(&|f| f["pre_tokenizer"] = serde_json::json!({"type": "Whitespace"}));
        assert!(err.contains("pre_tokenizer Whitespace"), "{err}");
        let err = refused(&|f| f["post_processor"] = serde_json::json!({"type": "RobertaProcessing"}));
        assert!(err.contains("post_processor RobertaProcessing"), "{err}");
        let err = refused(&|f| f["post_processor"]["single"][0]["SpecialToken"]["type_id"] = 1.into());
        assert!(err.contains("TemplateProcessing with other specials"), "{err}");
        let err = refused(&|f| f["added_tokens"][0]["lstrip"] = true.into());
        assert!(err.contains("added token \"[PAD]\""), "{err}");
        let err = refused(&|f| f["model"]["unk_token"] = "<unk>".into());
        assert!(err.contains("\"<unk>\" is not in model.vocab"), "{err}");
        let err = refused(&|f| f["model"]["vocab"] = serde_json::json!([["a", 0.0]]));
        assert!(err.contains("model.vocab"), "{err}");
        let err = refused(&|f| f["normalizer"]["lowercase"] = "yes".into());
        assert!(err.contains("normalizer.lowercase"), "{err}");
        let err = WordPieceTokenizer::from_json(b"{\"model\": ").unwrap_err().to_string();
        assert!(err.contains("tokenizer.json"), "{err}");
        let err = WordPieceTokenizer::from_json(b"[]").unwrap_err().to_string();
        assert!(err.contains("tokenizer.json"), "{err}");
    }
}
