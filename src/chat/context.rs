//! What the LLM reads (docs/DESIGN.md §3.3): not the first sections whole, but the passages
//! (`crate::passage`) of the retrieved candidates that match the question best, packed to a
//! token budget (the site's `contextTokens`). Every candidate first gets its best passage, in
//! rank order, so the section that answers is in front of the LLM even when the ranking put it
//! tenth; the budget left goes to the passages that match best, better-ranked sections first.
//! The passages of one section — one URL: a merged short section has its own — are joined
//! under one number, numbered in rank order. `lectern eval` measures this same packing
//! (`context_recall`), so the figure is what the chat does.

use super::sources::{source_title, NumberedSource, RetrievedChunk, SiteOrigins, SourceReference, MAX_SOURCES};
use crate::lexical::{for_each_token, tokenize};
use crate::passage::passages;
use std::ops::Range;

/// The context's budget when the site sets none, in tokens.
pub const DEFAULT_CONTEXT_TOKENS: u32 = 2_500;
/// Bounds of `contextTokens`, inclusive: the largest keeps a request with a long selection
/// under what proxies accept (`plan::MAX_REQUEST_BYTES`).
pub const CONTEXT_TOKENS_RANGE: (u32, u32) = (500, 5_000);
/// Characters per token of documentation text: measured with the model's WordPiece tokenizer
/// over the labelled corpora's chunks (`lectern eval` prints it: 4.26 on typescript-eslint,
/// 4.37 Jest, 4.77 the sample, 5.07 the physical-AI textbook), a little under the smallest.
/// A typical LLM's BPE token is no shorter than a word piece, so the budget errs on the small side.
pub const CHARS_PER_TOKEN: f64 = 4.2;
/// What a source's number and heading line costs beside its heading's own tokens, and what the
/// gap between two passages costs.
const HEADER_TOKENS: usize = 4;
const GAP_TOKENS: usize = 2;
/// BM25's term-frequency saturation (no length normalisation: passages are alike in length).
const K1: f32 = 1.2;
/// A passage's rank prior: the first candidate adds this much to its passages' priority (a
/// match score is at most 1), the second half of it, and so on.
const RANK_WEIGHT: f32 = 1.0;
/// What marks passages of one section that are not next to each other in its text.
const GAP: &str = "\n\n[…]\n\n";

/// The tokens `text` counts for in the budget (the [`CHARS_PER_TOKEN`] rule).
pub fn token_estimate(text: &str) -> usize {
    (text.chars().count() as f64 / CHARS_PER_TOKEN).ceil() as usize
}

/// One passage of a candidate.
#[derive(Debug)]
struct Passage<'a> {
    /// The candidate's index in the retrieved list (its rank).
    rank: usize,
    /// Its place among the candidate's passages (text order).
    order: usize,
    url: &'a str,
    heading_path: &'a [String],
    range: Range<usize>,
    tokens: usize,
    score: f32,
}

/// The numbered sources the LLM reads for `question`: the passages of `chunks` (best first, as
/// retrieved) packed into `budget` tokens, one number per URL in rank order. Only this site's
/// URLs count. A chunk whose text could not be loaded is still a source, marked `unread`, when
/// it is among the first [`MAX_SOURCES`] (the reader gets its link); an empty text is nothing
/// to cite. The best passage of the first candidate is always read, even over the budget.
pub fn pack_context(
    question: &str,
    chunks: &[RetrievedChunk],
    site: &SiteOrigins,
    budget: usize,
) -> Vec<NumberedSource> {
    let mut all: Vec<Passage> = Vec::new();
    for (rank, chunk) in chunks.iter().enumerate() {
        let Some(text) = chunk.text.as_deref().filter(|_| site.allows(&chunk.url)) else { continue };
        let breaks: Vec<usize> = chunk.parts.iter().flat_map(|p| [p.start, p.end]).collect();
        for (order, range) in passages(text, &breaks).into_iter().enumerate() {
            let part = chunk.parts.iter().find(|p| p.start <= range.start && range.end <= p.end);
            let (url, heading_path) = match part {
                Some(p) if site.allows(&p.url) => (p.url.as_str(), p.heading_path.as_slice()),
                _ => (chunk.url.as_str(), chunk.heading_path.as_slice()),
            };
            let tokens = token_estimate(text.get(range.clone()).unwrap_or_default()) + GAP_TOKENS;
            all.push(Passage { rank, order, url, heading_path, range, tokens, score: 0.0 });
        }
    }
    score(question, chunks, &mut all);
    let chosen = choose(&all, budget);
    sources(chunks, site, &all, &chosen)
}

/// Scores each passage against `question`: Σ idf · saturated frequency of the question's
/// terms in its text and its own heading, idf over the candidates' passages.
fn score(question: &str, chunks: &[RetrievedChunk], all: &mut [Passage]) {
    let mut terms = tokenize(question);
    terms.sort_unstable();
    terms.dedup();
    if terms.is_empty() || all.is_empty() {
        return;
    }
    let counts: Vec<Vec<f32>> = all
        .iter()
        .map(|p| {
            let mut tf = vec![0.0f32; terms.len()];
            let mut count = |text: &str| {
                for_each_token(text, |token| {
                    if let Ok(i) = terms.binary_search_by(|t| t.as_str().cmp(token)) {
                        tf[i] += 1.0;
                    }
                })
            };
            let text = chunks[p.rank].text.as_deref().unwrap_or_default();
            count(text.get(p.range.clone()).unwrap_or_default());
            count(p.heading_path.last().map_or("", String::as_str));
            tf
        })
        .collect();
    let n = all.len() as f32;
    let idf: Vec<f32> = (0..terms.len())
        .map(|i| {
            let df = counts.iter().filter(|tf| tf[i] > 0.0).count() as f32;
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
        })
        .collect();
    for (p, tf) in all.iter_mut().zip(&counts) {
        p.score =
            tf.iter().zip(&idf).map(|(&f, idf)| if f > 0.0 { idf * f * (K1 + 1.0) / (f + K1) } else { 0.0 }).sum();
    }
}

/// Which passages fit: first each candidate's best passage (the first one when none matches),
/// in rank order, then the others by match and rank, as long as each fits in `budget`.
fn choose(all: &[Passage], budget: usize) -> Vec<bool> {
    let mut chosen = vec![false; all.len()];
    let mut headed: Vec<&str> = Vec::new();
    let mut used = 0;
    let mut take = |i: usize, chosen: &mut Vec<bool>, force: bool| {
        let p = &all[i];
        let header = if headed.contains(&p.url) { 0 } else { heading_tokens(p.heading_path) };
        if force || used + p.tokens + header <= budget {
            used += p.tokens + header;
            chosen[i] = true;
            if header > 0 {
                headed.push(p.url);
            }
        }
    };
    let mut start = 0;
    while start < all.len() {
        let rank = all[start].rank;
        let end = start + all[start..].iter().take_while(|p| p.rank == rank).count();
        // The best of this candidate's passages; the earliest of equals.
        let best = (start..end).fold(start, |best, i| if all[i].score > all[best].score { i } else { best });
        take(best, &mut chosen, start == 0);
        start = end;
    }
    let top = all.iter().map(|p| p.score).fold(0.0f32, f32::max);
    let priority = |p: &Passage| {
        let matched = if top > 0.0 { p.score / top } else { 0.0 };
        matched + RANK_WEIGHT / (1 + p.rank) as f32
    };
    let mut rest: Vec<usize> = (0..all.len()).filter(|&i| !chosen[i]).collect();
    crate::sort::sort_by(&mut rest, |&a, &b| priority(&all[b]).total_cmp(&priority(&all[a])).then(a.cmp(&b)));
    for i in rest {
        take(i, &mut chosen, false);
    }
    chosen
}

fn heading_tokens(heading_path: &[String]) -> usize {
    token_estimate(&crate::heading::join_heading_path(heading_path)) + HEADER_TOKENS
}

/// The chosen passages as numbered sources: one per URL, in the rank of its first passage,
/// its passages in the candidates' order and each candidate's text order.
fn sources(chunks: &[RetrievedChunk], site: &SiteOrigins, all: &[Passage], chosen: &[bool]) -> Vec<NumberedSource> {
    let mut sources: Vec<NumberedSource> = Vec::new();
    let mut last: Vec<(usize, usize)> = Vec::new(); // per source: the rank and order of its last passage
    let mut i = 0;
    for (rank, chunk) in chunks.iter().enumerate() {
        if !site.allows(&chunk.url) || chunk.text.as_deref().is_some_and(|t| t.trim().is_empty()) {
            while i < all.len() && all[i].rank == rank {
                i += 1;
            }
            continue;
        }
        if chunk.text.is_none() {
            if rank < MAX_SOURCES && !sources.iter().any(|s| s.reference.url == chunk.url) {
                sources.push(source(chunk, &chunk.url, &chunk.heading_path, sources.len() + 1, true));
                last.push((rank, 0));
            }
            continue;
        }
        let text = chunk.text.as_deref().unwrap_or_default();
        while i < all.len() && all[i].rank == rank {
            let p = &all[i];
            i += 1;
            if !chosen[i - 1] {
                continue;
            }
            let passage = text.get(p.range.clone()).unwrap_or_default();
            let at = match sources.iter().position(|s| s.reference.url == p.url) {
                Some(at) => at,
                None => {
                    sources.push(source(chunk, p.url, p.heading_path, sources.len() + 1, false));
                    last.push((rank, p.order));
                    let at = sources.len() - 1;
                    sources[at].text = passage.to_string();
                    continue;
                }
            };
            let same = &mut sources[at];
            if same.text.is_empty() {
                same.reference.unread = false;
            } else {
                let next_to = last[at] == (rank, p.order.wrapping_sub(1));
                same.text.push_str(if next_to { "\n\n" } else { GAP });
            }
            same.text.push_str(passage);
            last[at] = (rank, p.order);
        }
    }
    sources
}

fn source(chunk: &RetrievedChunk, url: &str, heading_path: &[String], n: usize, unread: bool) -> NumberedSource {
    let section = heading_path.last().cloned().unwrap_or_else(|| chunk.section_title.clone());
    let section_title = if url == chunk.url { chunk.section_title.clone() } else { section };
    NumberedSource {
        reference: SourceReference {
            n,
            title: source_title(&chunk.chapter_title, &section_title),
            chapter_title: chunk.chapter_title.clone(),
            section_title,
            module: chunk.module.clone(),
            url: url.to_string(),
            score: chunk.score.clamp(0.0, 1.0),
            heading_path: heading_path.to_vec(),
            unread,
            passage: Vec::new(),
            link: String::new(),
        },
        text: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::sources::{tests::chunk, RetrievedPart};
    use super::*;

    fn words(n: usize, tag: &str) -> String {
        (0..n).map(|i| format!("{tag}{i}")).collect::<Vec<_>>().join(" ")
    }

    /// A section of `paragraphs` paragraphs of 80 filler words, `needle` in paragraph `at`.
    fn long(id: &str, paragraphs: usize, at: usize, needle: &str) -> RetrievedChunk {
        let text = (0..paragraphs)
            .map(|i| if i == at { format!("{} {needle}", words(75, "w")) } else { words(80, "w") })
            .collect::<Vec<_>>()
            .join("\n\n");
        chunk(id, &format!("/{id}"), &text, 0.5)
    }

    fn total_tokens(sources: &[NumberedSource]) -> usize {
        sources.iter().map(|s| token_estimate(&s.text) + heading_tokens(&s.reference.heading_path)).sum()
    }

    #[test]
    fn packs_to_the_budget_with_each_candidates_best_passage_first() {
        // Fifteen long candidates; the answer is the ninth's fourth paragraph.
        let chunks: Vec<RetrievedChunk> = (0..15)
            .map(|i| long(&format!("s{i}"), 8, 3, if i == 8 { "lidar range metres" } else { "other" }))
            .collect();
        let whole: usize = chunks.iter().map(|c| token_estimate(c.text.as_deref().unwrap_or(""))).sum();
        for budget in [1_500, 2_500, 4_000] {
            let sources = pack_context("How far is the lidar range?", &chunks, &SiteOrigins::default(), budget);
            assert!(total_tokens(&sources) <= budget, "{budget}: {}", total_tokens(&sources));
            assert!(whole > 2 * budget, "the candidates hold far more than the budget");
            let answer = sources.iter().find(|s| s.reference.url == "/s8").expect("the ninth candidate is read");
            assert!(answer.text.contains("lidar range metres"), "its matching passage, not its first");
            // Numbered in rank order, one number per section.
            let urls: Vec<&str> = sources.iter().map(|s| s.reference.url.as_str()).collect();
            let expected: Vec<String> = (0..urls.len()).map(|i| format!("/s{i}")).collect();
            assert_eq!(urls, expected, "{budget}");
            assert!(sources.iter().enumerate().all(|(i, s)| s.reference.n == i + 1));
        }
        // A larger budget reads more of the first sections.
        let small = pack_context("lidar", &chunks, &SiteOrigins::default(), 1_500);
        let large = pack_context("lidar", &chunks, &SiteOrigins::default(), 4_000);
        assert!(large[0].text.len() > small[0].text.len());
    }

    #[test]
    fn passages_of_one_section_share_its_number_and_gaps_are_marked() {
        // Two chunks of one long section, and a short section merged into another chunk.
        let mut first = long("a", 3, 0, "alpha");
        first.url = "/a#x".into();
        let mut second = long("a2", 3, 2, "alpha");
        second.url = "/a#x".into();
        let own = words(30, "own");
        let text = format!("{own}\n\ntestTimeout [number]\n\nDefault timeout of a test in milliseconds.");
        let mut merged = chunk("c", "/c#testsequencer", &text, 0.4);
        merged.parts = vec![RetrievedPart {
            url: "/c#testtimeout".into(),
            heading_path: vec!["Config".into(), "testTimeout [number]".into()],
            start: own.len() + 2,
            end: text.len(),
        }];
        let chunks = [first, second, merged];
        let sources = pack_context("alpha test timeout", &chunks, &SiteOrigins::default(), 4_000);
        let urls: Vec<&str> = sources.iter().map(|s| s.reference.url.as_str()).collect();
        assert_eq!(urls, ["/a#x", "/c#testsequencer", "/c#testtimeout"]);
        assert_eq!(sources[0].text.matches("alpha").count(), 2, "both chunks' passages under [1]");
        assert_eq!(sources[2].reference.section_title, "testTimeout [number]");
        assert_eq!(sources[2].reference.title, "Chapter › testTimeout [number]");
        assert!(sources[2].text.starts_with("testTimeout [number]"));
        // Two matching passages far apart in one section, under a small budget: a gap between.
        let filler = words(80, "w");
        let text =
            [format!("gamma {}", words(75, "g")), filler.clone(), filler.clone(), format!("{} beta", words(75, "b"))]
                .join("\n\n");
        let sources = pack_context("beta gamma", &[chunk("s", "/s", &text, 0.5)], &SiteOrigins::default(), 200);
        assert_eq!(sources.len(), 1);
        let parts: Vec<&str> = sources[0].text.split(GAP).collect();
        assert_eq!(parts.len(), 2, "{}", sources[0].text);
        assert!(parts[0].starts_with("gamma") && parts[1].ends_with("beta"));
    }

    #[test]
    fn unread_foreign_and_empty_candidates() {
        let mut failed = chunk("a", "/a", "", 0.9);
        failed.text = None;
        let chunks = [
            failed,
            chunk("x", "https://evil.example/x", "foreign text", 0.8),
            chunk("e", "/e", "  ", 0.7),
            chunk("b", "/b", "Nodes discover each other.", 0.6),
        ];
        let sources = pack_context("nodes", &chunks, &SiteOrigins::default(), 2_500);
        let got: Vec<(usize, &str, bool)> =
            sources.iter().map(|s| (s.reference.n, s.reference.url.as_str(), s.reference.unread)).collect();
        assert_eq!(got, [(1, "/a", true), (2, "/b", false)]);
        assert!(pack_context("nodes", &[], &SiteOrigins::default(), 2_500).is_empty());
    }

    #[test]
    fn the_first_candidate_is_read_even_over_a_tiny_budget() {
        let chunks = [long("a", 2, 0, "x"), long("b", 2, 0, "x")];
        let sources = pack_context("x", &chunks, &SiteOrigins::default(), 10);
        assert_eq!(sources.len(), 1);
        assert!(!sources[0].text.is_empty());
    }
}
