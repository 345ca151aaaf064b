//! Which part of a chunk a question matched (docs/DESIGN.md §2.1): a chunk that took in short
//! sections lists them as parts, each with its own link, and a result or a citation points
//! at the part that answers rather than at the section the chunk is named after (on an API
//! reference, `testTimeout` rather than the option before it).
//!
//! Decided from what the browser has once a result's text arrives: the question's terms
//! weighted by their idf on the site (the term shards of the question are attached), counted
//! in each part's text and, twice, in its heading. A part is chosen only when it matches the
//! question clearly better than the chunk's own section ([`PART_MARGIN`]), or when its heading
//! is the very name the question asks for (`lexical::names`).

use crate::bundle::ChunkMeta;
use crate::lexical::{for_each_token, name_term, query_names, tokenize, LexicalIndex};

/// How many times a heading's terms count against its text's.
const HEADING_WEIGHT: f32 = 2.0;
/// A part must match this many times better than the chunk's own section to be chosen: it is
/// short and was merged for being short, so by default the result is the section it is in.
const PART_MARGIN: f32 = 1.5;
/// BM25's term-frequency saturation, without length normalisation: parts are short by
/// construction and must not win for being short.
const K1: f32 = 1.2;

/// The part of `meta`'s chunk (index in `meta.parts`) that `query` matches best, or `None`
/// for the chunk's own section. `text` is the chunk's text.
pub fn matched_part(meta: &ChunkMeta, text: &str, query: &str, lexical: &LexicalIndex) -> Option<usize> {
    if meta.parts.is_empty() {
        return None;
    }
    // A heading that is the very name asked for decides (see `lexical::names`).
    let names = query_names(query);
    let named = |name: &Option<String>| name.as_ref().is_some_and(|n| names.contains(&name_term(n)));
    if named(&meta.name) {
        return None;
    }
    if let Some(i) = meta.parts.iter().position(|p| named(&p.name) && text.get(p.start..p.end).is_some()) {
        return Some(i);
    }
    let mut words = tokenize(query);
    crate::sort::sort_dedup(&mut words);
    let terms: Vec<(String, f32)> = words
        .into_iter()
        .map(|t| {
            let idf = lexical.idf(&t);
            (t, idf)
        })
        .collect();
    if terms.is_empty() {
        return None;
    }
    // The chunk's own section: the text outside every part.
    let mut own = String::new();
    let mut from = 0;
    for part in &meta.parts {
        own.push_str(text.get(from..part.start).unwrap_or(""));
        own.push('\n');
        from = part.end;
    }
    own.push_str(text.get(from..).unwrap_or(""));
    let own_title = meta.heading_path.last().map_or("", String::as_str);
    let mut best = (score(&terms, own_title, &own) * PART_MARGIN, None);
    for (i, part) in meta.parts.iter().enumerate() {
        // A range outside the text (a damaged bundle) never wins.
        let Some(body) = text.get(part.start..part.end) else { continue };
        let title = part.heading_path.last().map_or("", String::as_str);
        let s = score(&terms, title, body);
        if s > best.0 {
            best = (s, Some(i));
        }
    }
    best.1
}

/// Σ idf · saturated frequency over the question's terms, heading terms counting double.
fn score(terms: &[(String, f32)], title: &str, body: &str) -> f32 {
    let mut counts = vec![0.0f32; terms.len()];
    let mut count = |text: &str, weight: f32| {
        for_each_token(text, |token| {
            if let Some(i) = terms.iter().position(|(t, _)| t == token) {
                counts[i] += weight;
            }
        });
    };
    count(title, HEADING_WEIGHT);
    count(body, 1.0);
    terms.iter().zip(counts).map(|((_, idf), tf)| if tf > 0.0 { idf * tf * (K1 + 1.0) / (tf + K1) } else { 0.0 }).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::SectionPart;
    use crate::lexical::{Document, IndexOptions};

    fn chunk(text: &str, parts: &[(&str, &str)]) -> ChunkMeta {
        let parts = parts
            .iter()
            .map(|(anchor, starts_with)| {
                let start = text.find(starts_with).unwrap();
                SectionPart {
                    url: format!("/docs/config#{anchor}"),
                    heading_path: vec!["Config".into(), starts_with.lines().next().unwrap().into()],
                    start,
                    end: text.len(),
                    name: lectern_name(starts_with),
                }
            })
            .collect::<Vec<_>>();
        let mut parts = parts;
        for i in 1..parts.len() {
            parts[i - 1].end = parts[i].start;
        }
        ChunkMeta {
            chunk_id: "default:current:config#testsequencer:0".into(),
            url: "/docs/config#testsequencer".into(),
            heading_path: vec!["Config".into(), "testSequencer [string]".into()],
            chapter_title: "Config".into(),
            section_title: "testSequencer [string]".into(),
            module: "Docs".into(),
            chapter_id: "config".into(),
            instance: "default".into(),
            version: None,
            word_count: 0,
            position: 0,
            hash: String::new(),
            parts,
            name: Some("testsequencer".into()),
        }
    }

    /// The name a code heading like "testTimeout [number]" gives.
    fn lectern_name(heading: &str) -> Option<String> {
        crate::lexical::heading_name(heading.split_whitespace().next().unwrap_or(""))
    }

    const TEXT: &str = "Lets you use a custom sequencer to order the tests.\n\ntestTimeout [number]\n\nDefault timeout of a test in milliseconds. Default: 5000.\n\nverbose [boolean]\n\nReport each test during the run.";

    fn index() -> LexicalIndex {
        let docs = [TEXT, "tests and sequencers and timeouts", "unrelated text about coverage"];
        let docs: Vec<Document> = docs.iter().map(|t| Document::text(t)).collect();
        LexicalIndex::build(&docs, IndexOptions::default()).unwrap()
    }

    #[test]
    fn the_part_whose_heading_names_the_option_is_chosen() {
        let meta =
            chunk(TEXT, &[("testtimeout-number", "testTimeout [number]"), ("verbose-boolean", "verbose [boolean]")]);
        let lexical = index();
        assert_eq!(matched_part(&meta, TEXT, "testTimeout", &lexical), Some(0));
        assert_eq!(matched_part(&meta, TEXT, "What is the default test timeout?", &lexical), Some(0));
        assert_eq!(matched_part(&meta, TEXT, "verbose", &lexical), Some(1));
        assert_eq!(meta.part_url(Some(1)), "/docs/config#verbose-boolean");
        assert_eq!(matched_part(&meta, TEXT, "custom sequencer order", &lexical), None, "the chunk's own section");
        assert_eq!(matched_part(&meta, TEXT, "coverage", &lexical), None, "no match: the chunk's own section");
    }

    #[test]
    fn a_chunk_without_parts_or_a_bad_range_is_its_own_section() {
        let lexical = index();
        assert_eq!(matched_part(&chunk(TEXT, &[]), TEXT, "verbose", &lexical), None);
        let mut meta = chunk(TEXT, &[("verbose-boolean", "verbose [boolean]")]);
        meta.parts[0].start = 10_000;
        meta.parts[0].end = 10_010;
        assert_eq!(matched_part(&meta, "short", "verbose", &lexical), None);
    }
}
