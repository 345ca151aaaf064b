//! BM25 with the expansions of `expand` (the typed word's completions, a misspelt word's
//! neighbours): what a search box asks at every keystroke. Each query word is a group — its
//! own term and the terms it expands to — and a document scores, per word, the better of its
//! own term's BM25 and its best expansion's, discounted ([`EXPANSION_WEIGHT`]) and kept below
//! the lowest score the own term gives any document: a document that has the word itself
//! always outranks one that has only a completion or a neighbour of it.
//!
//! A query none of whose words expands scores exactly as [`LexicalIndex::search`] does.

use super::bm25::idf;
use super::expand::{typed_word_terms, typo_words};
use super::index::{best_k, LexicalIndex, QueryCoverage};
use super::tokenizer::tokenize;

/// How much an expansion's BM25 counts against the word's own.
pub const EXPANSION_WEIGHT: f32 = 0.5;
/// Most terms one typed word expands to: the most frequent ones (a two-letter prefix begins
/// hundreds of words; the rare ones are what the reader's next letters will find).
pub const MAX_EXPANSIONS: usize = 24;
/// An expansion's score stays below this share of the lowest exact score of its word.
const BELOW_EXACT: f32 = 0.999;

/// One word of the query: its own term (if the index has it) and the terms it expands to.
#[derive(Debug, PartialEq)]
struct WordGroup {
    own: Option<String>,
    exact: Option<usize>,
    expansions: Vec<usize>,
}

impl LexicalIndex {
    /// The terms of the index from the first that begins with `prefix`, while they do.
    fn terms_beginning<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = usize> + 'a {
        let start = partition(self.term_count(), |i| self.term(i) < prefix);
        (start..self.term_count()).take_while(move |&i| self.term(i).starts_with(prefix))
    }

    fn withholds(&self, term: &str) -> bool {
        self.withheld.iter().any(|span| span.holds(term))
    }

    /// The query's words as groups, or `None` when no word expands (then the plain search
    /// is the same), with the count of the query's terms matching nothing at all.
    fn word_groups(&self, query: &str) -> Option<(Vec<WordGroup>, usize)> {
        let mut words = tokenize(query);
        crate::sort::sort_dedup(&mut words);
        words.retain(|w| !self.withholds(w));
        let mut groups: Vec<WordGroup> = words
            .iter()
            .map(|w| WordGroup { own: Some(w.clone()), exact: self.term_id(w), expansions: Vec::new() })
            .collect();
        let exact: Vec<usize> = groups.iter().filter_map(|g| g.exact).collect();
        let usable = |i: &usize| !exact.contains(i) && !self.withholds(self.term(*i));
        let add = |groups: &mut Vec<WordGroup>, own: Option<&str>, found: Vec<usize>| {
            if found.is_empty() {
                return;
            }
            match groups.iter_mut().find(|g| own.is_some() && g.own.as_deref() == own) {
                Some(group) => group.expansions.extend(found),
                None => groups.push(WordGroup { own: own.map(str::to_string), exact: None, expansions: found }),
            }
        };
        if let Some(typed) = typed_word_terms(query) {
            let mut found: Vec<usize> = self.terms_beginning(&typed.prefix).filter(&usable).collect();
            found.extend(typed.cuts.iter().filter_map(|c| self.term_id(c)).filter(&usable));
            crate::sort::sort_dedup(&mut found);
            if found.len() > MAX_EXPANSIONS {
                let df = |i: &usize| self.doc_freqs.get(*i).copied().unwrap_or(0);
                crate::sort::sort_by(&mut found, |a, b| df(b).cmp(&df(a)).then(a.cmp(b)));
                found.truncate(MAX_EXPANSIONS);
            }
            add(&mut groups, typed.own.first().map(String::as_str), found);
        }
        for word in typo_words(query) {
            if self.term_id(&word.own).is_some() || self.withholds(&word.own) {
                continue;
            }
            let found = word.variants.iter().filter_map(|v| self.term_id(v)).filter(&usable).collect();
            add(&mut groups, Some(&word.own), found);
        }
        for group in &mut groups {
            crate::sort::sort_dedup(&mut group.expansions);
        }
        if groups.iter().all(|g| g.expansions.is_empty()) {
            return None;
        }
        // Summed in the order of their first term, as the plain search sums in term order.
        groups.retain(|g| g.exact.is_some() || !g.expansions.is_empty());
        crate::sort::sort_by_key(&mut groups, |g| g.exact.or(g.expansions.first().copied()));
        let unknown = words.iter().filter(|w| !groups.iter().any(|g| g.own.as_ref() == Some(w))).count();
        Some((groups, unknown))
    }

    /// As [`search`](Self::search), the query's words standing also for their expansions
    /// (`expand`): the typed word for the words it begins, a misspelt word for its neighbours.
    pub fn search_expanded(&self, query: &str, k: usize, filter: Option<&dyn Fn(u32) -> bool>) -> Vec<(u32, f32)> {
        let Some((groups, _)) = self.word_groups(query) else { return self.search(query, k, filter) };
        if k == 0 {
            return Vec::new();
        }
        let n = self.doc_count();
        let docs = self.doc_lengths.len();
        let mut scores = vec![0.0f32; docs];
        let mut touched: Vec<u32> = Vec::new();
        let mut word = vec![0.0f32; docs];
        let mut word_docs: Vec<u32> = Vec::new();
        for group in &groups {
            let mut lowest_exact = f32::INFINITY;
            if let Some(term) = group.exact {
                self.for_each_score(term, n, |doc, score| {
                    word[doc as usize] = score;
                    word_docs.push(doc);
                    lowest_exact = lowest_exact.min(score);
                });
            }
            let cap = lowest_exact * BELOW_EXACT;
            for &term in &group.expansions {
                self.for_each_score(term, n, |doc, score| {
                    let score = (score * EXPANSION_WEIGHT).min(cap);
                    let slot = &mut word[doc as usize];
                    if *slot == 0.0 {
                        word_docs.push(doc);
                    }
                    if score > *slot {
                        *slot = score;
                    }
                });
            }
            for doc in word_docs.drain(..) {
                let (Some(total), Some(score)) = (scores.get_mut(doc as usize), word.get_mut(doc as usize)) else {
                    continue;
                };
                if *total == 0.0 {
                    touched.push(doc);
                }
                *total += *score;
                *score = 0.0;
            }
        }
        let hits = touched
            .into_iter()
            .filter(|&doc| filter.is_none_or(|keep| keep(doc)))
            .map(|doc| (doc, scores.get(doc as usize).copied().unwrap_or(0.0)))
            .collect();
        best_k(hits, k)
    }

    /// [`coverage`](Self::coverage) with the expansions: a word matched only through them
    /// counts as known, with the idf of its most common expansion, discounted as its score is.
    pub fn coverage_expanded(&self, query: &str) -> QueryCoverage {
        let Some((groups, unknown)) = self.word_groups(query) else { return self.coverage(query) };
        let n = self.doc_count();
        let df = |i: usize| self.doc_freqs.get(i).copied().unwrap_or(0);
        let known: f32 = groups
            .iter()
            .map(|g| match g.exact {
                Some(t) => idf(n, df(t)),
                None => g.expansions.iter().map(|&t| idf(n, df(t))).fold(f32::INFINITY, f32::min) * EXPANSION_WEIGHT,
            })
            .sum();
        let total = groups.len() + unknown;
        QueryCoverage {
            reference: known + unknown as f32 * idf(n, 0),
            unknown_share: if total == 0 { 0.0 } else { unknown as f32 / total as f32 },
        }
    }

    /// Calls `emit` with each document holding `term` and the term's BM25 score there.
    fn for_each_score(&self, term: usize, n: u32, mut emit: impl FnMut(u32, f32)) {
        let term_idf = idf(n, self.doc_freqs.get(term).copied().unwrap_or(0));
        for (doc, tf) in self.postings_of(term) {
            if let Some(&norm) = self.length_norms.get(doc as usize) {
                emit(doc, self.params.term_score(term_idf, tf, norm));
            }
        }
    }
}

/// The first of `0..len` for which `before` is false (`before` true, then false).
fn partition(len: usize, before: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, len);
    while low < high {
        let mid = low + (high - low) / 2;
        if before(mid) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low
}

#[cfg(test)]
mod tests {
    use super::super::index::{Document, IndexOptions};
    use super::*;

    fn index(texts: &[(&str, &str)]) -> LexicalIndex {
        let docs: Vec<Document> = texts.iter().map(|(t, b)| Document::new(t, b)).collect();
        LexicalIndex::build(&docs, IndexOptions::default()).unwrap()
    }

    fn ids(hits: &[(u32, f32)]) -> Vec<u32> {
        hits.iter().map(|h| h.0).collect()
    }

    fn site() -> LexicalIndex {
        index(&[
            ("Docker", "Run the simulator in a docker container; docker compose starts it."),
            ("Docking station", "The robot returns to its dock to charge."),
            ("Publishers", "A publisher sends messages on a topic."),
            ("Configuration", "Configure the node with parameters."),
            ("Unrelated", "Cameras and lidars."),
        ])
    }

    #[test]
    fn the_typed_word_finds_the_words_it_begins_below_its_own() {
        let idx = site();
        assert!(idx.search("dock", 5, None).iter().all(|h| h.0 == 1), "plain search: only the exact word");
        let hits = idx.search_expanded("dock", 5, None);
        assert_eq!(ids(&hits), [1, 0], "the dock page first, the docker page after it");
        assert!(hits[1].1 < hits[0].1);
        assert_eq!(ids(&idx.search_expanded("dock ", 5, None)), [1], "a finished word is not a prefix");
        assert_eq!(ids(&idx.search_expanded("doc", 5, None)), [0, 1]);
        assert_eq!(ids(&idx.search_expanded("do", 5, None)), Vec::<u32>::new(), "two letters are not a prefix yet");
        assert_eq!(ids(&idx.search_expanded("configura", 5, None)), [3], "a stem the word is on its way past");
    }

    #[test]
    fn a_misspelt_word_finds_its_neighbours_and_a_known_word_does_not_expand() {
        let idx = site();
        assert!(idx.search("dcoker", 5, None).is_empty());
        assert_eq!(ids(&idx.search_expanded("dcoker", 5, None)), [0]);
        assert_eq!(ids(&idx.search_expanded("publsher messages", 5, None)), [2]);
        assert_eq!(idx.coverage_expanded("dcoker ").unknown_share, 0.0);
        assert_eq!(idx.coverage("dcoker").unknown_share, 1.0);
        // "camera" is known: no neighbour of it is looked for, the search is the plain one.
        assert_eq!(idx.search_expanded("cameras lidars ", 5, None), idx.search("cameras lidars", 5, None));
        assert_eq!(idx.coverage_expanded("cameras lidars "), idx.coverage("cameras lidars"));
    }

    #[test]
    fn without_expansions_the_scores_are_the_plain_ones() {
        let idx = site();
        for query in ["docker container ", "robot charge", "", "the of", "zzzz"] {
            assert_eq!(idx.search_expanded(query, 5, None), idx.search(query, 5, None), "{query:?}");
        }
        assert!(idx.search_expanded("dock", 0, None).is_empty());
        let none = |_: u32| false;
        assert!(idx.search_expanded("dock", 5, Some(&none)).is_empty());
    }

    #[test]
    fn a_typed_word_expands_to_its_most_common_completions_only() {
        let texts: Vec<String> = (0..40).map(|i| format!("prefix{i:02} {}", "common ".repeat(i % 3))).collect();
        let docs: Vec<(&str, &str)> = texts.iter().map(|t| ("", t.as_str())).collect();
        let idx = index(&docs);
        let (groups, _) = idx.word_groups("pre").unwrap();
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].expansions.len(), MAX_EXPANSIONS);
    }
}
