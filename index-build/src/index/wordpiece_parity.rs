//! The hand-written tokenizer (`lectern::embed::WordPieceTokenizer`) against the `tokenizers`
//! crate it replaced, both reading the model's own tokenizer.json: the same model input (ids
//! with [CLS] and [SEP], cut at 256 as the embedder does) and the same word pieces with the
//! same bytes (where `Embedder::windows` cuts a long section), on every section of the sample
//! site and of the shared corpora in ../shared/corpora (or `$LECTERN_CORPORA`; each skipped
//! when absent), and on hard cases. `wordpiece_speed` (ignored) prints both tokenizers' time.

use crate::site::{read_site, Overrides, SiteReport};
use lectern::embed::{embed_text, ModelFiles, WordPieceTokenizer, MAX_TOKENS};
use std::path::{Path, PathBuf};
use tokenizers::{Tokenizer, TruncationParams};

fn tokenizer_json() -> Vec<u8> {
    let path = ModelFiles::default_dir().join("tokenizer.json");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (run scripts/setup.sh model)", path.display()))
}

/// Ours, and the crate set up as the embedder used it: no padding, truncation at 256.
fn both() -> (WordPieceTokenizer, Tokenizer) {
    let json = tokenizer_json();
    let ours = WordPieceTokenizer::from_json(&json).unwrap_or_else(|e| panic!("{e}"));
    let mut reference = Tokenizer::from_bytes(&json).unwrap();
    reference.with_padding(None);
    reference.with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..Default::default() })).unwrap();
    (ours, reference)
}

/// Ids and word pieces (id, start, end) of `text` by the crate: the model input, and all
/// pieces without specials (the truncated encoding and its overflowing parts, in order).
fn reference_tokens(reference: &Tokenizer, text: &str) -> (Vec<u32>, Vec<(u32, usize, usize)>) {
    let ids = reference.encode(text, true).unwrap().get_ids().to_vec();
    let encoding = reference.encode(text, false).unwrap();
    let mut pieces = Vec::new();
    for part in std::iter::once(&encoding).chain(encoding.get_overflowing()) {
        pieces.extend(part.get_ids().iter().zip(part.get_offsets()).map(|(&id, &(start, end))| (id, start, end)));
    }
    (ids, pieces)
}

/// Compares every text; returns how many texts and word pieces were compared and panics
/// with the first differences.
fn compare(label: &str, texts: &[String]) -> (usize, usize) {
    let (ours, reference) = both();
    let mut pieces_compared = 0;
    let mut failures = Vec::new();
    for text in texts {
        let (ids, pieces) = reference_tokens(&reference, text);
        let our_ids = ours.encode(text, MAX_TOKENS);
        let our_pieces: Vec<(u32, usize, usize)> = ours.pieces(text).iter().map(|p| (p.id, p.start, p.end)).collect();
        pieces_compared += pieces.len();
        if our_ids != ids || our_pieces != pieces {
            let at = our_pieces.iter().zip(&pieces).position(|(a, b)| a != b);
            failures.push(format!(
                "{:?}…: ids equal {}, {} vs {} pieces, first difference at {at:?}: ours {:?}, tokenizers {:?}",
                text.chars().take(80).collect::<String>(),
                our_ids == ids,
                our_pieces.len(),
                pieces.len(),
                at.and_then(|i| our_pieces.get(i)),
                at.and_then(|i| pieces.get(i)),
            ));
        }
    }
    eprintln!("{label}: {} texts, {pieces_compared} word pieces compared, {} differ", texts.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{label}: {} of {} texts differ:\n{}",
        failures.len(),
        texts.len(),
        failures.join("\n")
    );
    (texts.len(), pieces_compared)
}

/// What the index build tokenizes for each section: the text alone, the embedded text
/// (heading path, blank line, text) and the heading path's prefix (window budget).
fn section_texts(report: &SiteReport) -> Vec<String> {
    let mut texts = Vec::new();
    for chunk in &report.chunks {
        texts.push(chunk.text.clone());
        texts.push(embed_text(&chunk.heading_path, &chunk.text));
        texts.push(embed_text(&chunk.heading_path, ""));
    }
    texts
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn same_tokens_as_the_tokenizers_crate_on_the_sample_site() {
    let report = read_site(&repo().join("www/example"), &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.chunks.len() >= 50, "the sample site has {} sections", report.chunks.len());
    let (texts, pieces) = compare("www/example", &section_texts(&report));
    assert!(texts >= 150 && pieces >= 20_000, "{texts} texts, {pieces} pieces: too few to compare");
}

#[test]
fn same_tokens_as_the_tokenizers_crate_on_the_shared_corpora() {
    let dir =
        std::env::var_os("LECTERN_CORPORA").map(PathBuf::from).unwrap_or_else(|| repo().join("../shared/corpora"));
    let node = std::process::Command::new("node").arg("--version").output();
    if !node.is_ok_and(|output| output.status.success()) {
        eprintln!("node not found (the corpora's configs need it); skipping");
        return;
    }
    for name in ["physical-ai-textbook", "jest", "typescript-eslint"] {
        let root = dir.join(name);
        if !root.is_dir() {
            eprintln!("{} absent; skipping", root.display());
            continue;
        }
        let report = read_site(&root, &Overrides::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (texts, _) = compare(name, &section_texts(&report));
        assert!(texts >= 100, "{name}: only {texts} texts");
    }
}

#[test]
fn same_tokens_as_the_tokenizers_crate_on_hard_cases() {
    let long_word = "pneumonoultramicroscopicsilicovolcanoconiosis".repeat(3);
    let mut texts: Vec<String> = [
        "",
        " ",
        "\u{a0}\u{2009}",
        // Accents, precomposed and combining, in and out of canonical order; ligatures.
        "Café naïve résumé Ångström façade e\u{301} a\u{323}\u{301} a\u{301}\u{323} \u{1e0b}\u{323} \u{fb01}",
        "Ελληνικά ᾴ a\u{345}\u{301} Ωμέγα Ÿ ŉ ǰ",
        // Case mappings that change length; titlecase.
        "İstanbul ǅemal ΣΑΣ ß ẞ Å K",
        // CJK ideographs (split one by one), extension planes, compatibility ideographs, and
        // scripts BERT does not split (Hangul, kana).
        "中文字符 and 日本語のテキスト 한국어 텍스트 𠀀𪜀 豈更 カタカナ",
        "emoji 😀👍🏽 👨‍👩‍👧 🇫🇷 ❤️ 1️⃣",
        // Control, format and zero-width characters, the replacement character, NUL.
        "ctrl\u{0}\u{1}\u{7}\u{1b}\u{7f}\u{85} zero\u{200b}\u{200c}\u{200d}\u{2060}\u{feff}width \u{fffd}x\u{ad}y",
        // Every kind of whitespace.
        "nbsp\u{a0}thin\u{2009}ideo\u{3000}line\u{2028}para\u{2029}tab\tcr\r\nnel\u{1680}ogham\u{202f}narrow\u{205f}math",
        "private use \u{e000}\u{f8ff} \u{f0000}x",
        "Ａｂｃ１２３ ﬀ ℌ ① ™ ½ ㎏",
        "मनुष्य देवनागरी ไทย عربي עברית ქართული ᏣᎳᎩ",
        // Code, punctuation runs and symbols.
        "fn main() { let x: Vec<_> = (0..10).map(|i| i * 2).collect(); } // -> && || !== ::<> #[derive]",
        "$ ros2 topic echo /cmd_vel --qos-reliability best_effort | grep -E '^linear:' >> out.log 2>&1",
        "..., ... --- ___ *** ¿¡ «» „“ ‘’ — – … ‹›",
        "https://docs.ros.org/en/humble/Tutorials.html?q=a+b&x=1#frag user@example.com C++ C# F#",
        // Added tokens written in the text, and near misses.
        "[CLS] text [SEP] [MASK] [UNK][PAD]x [cls] [CLS [SEP][SEP]",
        "\u{301}\u{301}abc",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Words over 100 characters ([UNK]), just at 100, and with pieces near the limit.
    texts.push(format!("a {long_word} b"));
    texts.push("x".repeat(100));
    texts.push("x".repeat(101));
    texts.push(format!("{}é", "y".repeat(99)));
    texts.push("supercalifragilisticexpialidocious".repeat(2));
    // Longer than the model's window: truncation and every piece after it.
    texts.push("The robot's joints move smoothly. ".repeat(120));
    texts.push("word ".repeat(300) + "中" + &"é".repeat(50));
    let (count, pieces) = compare("hard cases", &texts);
    assert!(count == texts.len() && pieces >= 1_500, "{count} texts, {pieces} pieces");
}

/// Both tokenizers on every section text of the sample site, best of five runs each.
/// `cargo test --release -p index-build wordpiece_speed -- --ignored --nocapture`
#[test]
#[ignore = "a benchmark: prints times, asserts nothing about them"]
fn wordpiece_speed() {
    let report = read_site(&repo().join("www/example"), &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
    let texts = section_texts(&report);
    let (ours, reference) = both();
    let best = |run: &dyn Fn() -> usize| {
        (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                let pieces = run();
                (start.elapsed().as_secs_f64() * 1e3, pieces)
            })
            .fold((f64::INFINITY, 0), |best, run| if run.0 < best.0 { run } else { best })
    };
    let (our_ms, our_pieces) = best(&|| texts.iter().map(|t| ours.pieces(t).len()).sum());
    let (their_ms, their_pieces) =
        best(&|| texts.iter().map(|t| reference.encode(t.as_str(), false).unwrap().get_overflowing().len() + 1).sum());
    let (our_encode_ms, _) = best(&|| texts.iter().map(|t| ours.encode(t, MAX_TOKENS).len()).sum());
    let (their_encode_ms, _) = best(&|| texts.iter().map(|t| reference.encode(t.as_str(), true).unwrap().len()).sum());
    eprintln!("{} texts of the sample site ({our_pieces} word pieces; {their_pieces} encodings)", texts.len());
    eprintln!(
        "all pieces with offsets: wordpiece.rs {our_ms:.1} ms, tokenizers {their_ms:.1} ms ({:.2}x)",
        our_ms / their_ms
    );
    eprintln!(
        "model input (256):       wordpiece.rs {our_encode_ms:.1} ms, tokenizers {their_encode_ms:.1} ms ({:.2}x)",
        our_encode_ms / their_encode_ms
    );
}
