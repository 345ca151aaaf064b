//! The inverted index and its BM25 search. Postings stay varint-compressed in memory, in the
//! same bytes as on disk: loading is a validation pass and a copy, and a query decodes only
//! the lists of its own terms.

use std::collections::HashMap;
use std::fmt;

use super::bm25::{idf, Bm25Params};
use super::error::LexicalError;
use super::names::name_term;
use super::tokenizer::{for_each_token, tokenize, MAX_TOKEN_BYTES};
use super::varint::{read_u32, write_u32};

/// Most documents an index can number (ids are `u32`).
pub const MAX_DOCUMENTS: usize = u32::MAX as usize;
/// Largest accepted [`IndexOptions::title_boost`].
pub const MAX_TITLE_BOOST: u32 = 16;

/// One retrievable unit (a chunk): its heading path and its text. Terms of the title count
/// `title_boost` times, as if the title were repeated (a simple form of field weighting).
/// `names` are the identifiers its headings name (`names::heading_name`), indexed as name
/// terms, once each.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Document<'a> {
    pub title: &'a str,
    pub body: &'a str,
    pub names: &'a [String],
}

impl<'a> Document<'a> {
    pub fn new(title: &'a str, body: &'a str) -> Self {
        Document { title, body, names: &[] }
    }

    /// A document with no title.
    pub fn text(body: &'a str) -> Self {
        Document { title: "", body, names: &[] }
    }

    /// With the names its headings give.
    pub fn with_names(self, names: &'a [String]) -> Self {
        Document { names, ..self }
    }
}

/// How an index is built.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IndexOptions {
    /// Stored in the index as its defaults; a reader may change them ([`LexicalIndex::set_params`]).
    pub bm25: Bm25Params,
    /// How many times each title term counts, 0..=16: 0 ignores titles, 1 treats the title
    /// as part of the text, higher values favour chunks whose heading names the query.
    /// Fixed at build time because it is baked into the stored counts.
    pub title_boost: u32,
}

impl Default for IndexOptions {
    fn default() -> Self {
        IndexOptions { bm25: Bm25Params::default(), title_boost: 1 }
    }
}

/// BM25 index over documents numbered 0..n in the order given to [`LexicalIndex::build`].
#[derive(Clone, PartialEq)]
pub struct LexicalIndex {
    pub(super) params: Bm25Params,
    pub(super) title_boost: u32,
    /// Weighted term count of each document.
    pub(super) doc_lengths: Vec<u32>,
    /// Sorted vocabulary, concatenated; term i is `term_text[term_ends[i-1]..term_ends[i]]`.
    pub(super) term_text: String,
    pub(super) term_ends: Vec<usize>,
    pub(super) doc_freqs: Vec<u32>,
    /// Term i's postings are `postings[posting_ends[i-1]..posting_ends[i]]`: `doc_freqs[i]`
    /// pairs of varints (doc-id gap, term frequency); the first gap is the doc id itself.
    pub(super) postings: Vec<u8>,
    pub(super) posting_ends: Vec<usize>,
    pub(super) posting_count: u64,
    /// Sum of `doc_lengths` over the whole site. Kept apart because an index assembled from
    /// term shards knows the lengths of only the documents its postings name, while the
    /// average length BM25 divides by is the site's.
    pub(super) length_total: u64,
    /// `k1 · (1 - b + b · |d| / avgdl)` per document, derived from the above.
    pub(super) length_norms: Vec<f32>,
    /// Term ranges whose shard could not be loaded (`lexical::shards`, a partial search): a
    /// query's words in them are neither scored nor counted as words the site never uses.
    pub(super) withheld: Vec<TermSpan>,
}

/// The terms from `first` up to `end` (excluded; `None`: to the last term).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct TermSpan {
    pub first: String,
    pub end: Option<String>,
}

impl TermSpan {
    pub fn holds(&self, term: &str) -> bool {
        self.first.as_str() <= term && self.end.as_deref().is_none_or(|end| term < end)
    }
}

impl fmt::Debug for LexicalIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LexicalIndex")
            .field("params", &self.params)
            .field("title_boost", &self.title_boost)
            .field("documents", &self.doc_count())
            .field("terms", &self.term_count())
            .field("postings", &self.posting_count)
            .finish_non_exhaustive()
    }
}

/// A query reduced to index terms.
/// How well a site's vocabulary covers a question: see [`LexicalIndex::coverage`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueryCoverage {
    pub reference: f32,
    pub unknown_share: f32,
}

pub(super) struct QueryTerms {
    /// Ids of the distinct query terms the index knows, ascending (so the sum of term scores
    /// is the same float whatever the word order of the question).
    pub(super) known: Vec<usize>,
    /// Distinct query terms the index has never seen.
    pub(super) unknown: usize,
}

impl LexicalIndex {
    /// Indexes `docs`; document i gets id i.
    pub fn build(docs: &[Document<'_>], options: IndexOptions) -> Result<Self, LexicalError> {
        options.bm25.validate()?;
        if options.title_boost > MAX_TITLE_BOOST {
            return Err(LexicalError::InvalidParameter {
                name: "title_boost",
                value: options.title_boost as f32,
                expected: "a whole number from 0 to 16 (1 = title counts like text)",
            });
        }
        if u32::try_from(docs.len()).is_err() {
            return Err(LexicalError::TooManyDocuments { count: docs.len(), max: MAX_DOCUMENTS });
        }
        let boost = options.title_boost;
        let mut by_term: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let mut counts: HashMap<String, u32> = HashMap::new();
        let mut doc_lengths = Vec::with_capacity(docs.len());
        for (doc_id, doc) in (0u32..).zip(docs) {
            counts.clear();
            let mut length = 0u32;
            let mut add = |term: &str, weight: u32| {
                length = length.saturating_add(weight);
                match counts.get_mut(term) {
                    Some(count) => *count = count.saturating_add(weight),
                    None => {
                        counts.insert(term.to_owned(), weight);
                    }
                }
            };
            if boost > 0 {
                for_each_token(doc.title, |term| add(term, boost));
            }
            for_each_token(doc.body, |term| add(term, 1));
            let mut names: Vec<String> = doc.names.iter().map(|n| name_term(n)).collect();
            names.sort_unstable();
            names.dedup();
            for term in names.iter().filter(|t| t.len() <= MAX_TOKEN_BYTES) {
                add(term, 1);
            }
            for (term, tf) in counts.drain() {
                by_term.entry(term).or_default().push((doc_id, tf));
            }
            doc_lengths.push(length);
        }

        let mut terms: Vec<(String, Vec<(u32, u32)>)> = by_term.into_iter().collect();
        terms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut index = LexicalIndex {
            params: options.bm25,
            title_boost: boost,
            doc_lengths,
            term_text: String::new(),
            term_ends: Vec::with_capacity(terms.len()),
            doc_freqs: Vec::with_capacity(terms.len()),
            postings: Vec::new(),
            posting_ends: Vec::with_capacity(terms.len()),
            posting_count: 0,
            length_total: 0,
            length_norms: Vec::new(),
            withheld: Vec::new(),
        };
        index.length_total = index.doc_lengths.iter().map(|&len| u64::from(len)).sum();
        for (term, list) in &terms {
            index.term_text.push_str(term);
            index.term_ends.push(index.term_text.len());
            // Documents were visited in id order, so each list is already ascending.
            let mut previous = 0;
            for (i, &(doc, tf)) in list.iter().enumerate() {
                write_u32(&mut index.postings, if i == 0 { doc } else { doc - previous });
                write_u32(&mut index.postings, tf);
                previous = doc;
            }
            index.posting_ends.push(index.postings.len());
            index.doc_freqs.push(list.len() as u32);
            index.posting_count += list.len() as u64;
        }
        index.refresh_length_norms();
        Ok(index)
    }

    /// Assembles an index from validated parts (the reader's path).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn from_validated_parts(
        params: Bm25Params,
        title_boost: u32,
        doc_lengths: Vec<u32>,
        term_text: String,
        term_ends: Vec<usize>,
        doc_freqs: Vec<u32>,
        postings: Vec<u8>,
        posting_ends: Vec<usize>,
        posting_count: u64,
    ) -> Self {
        let mut index = LexicalIndex {
            params,
            title_boost,
            doc_lengths,
            term_text,
            term_ends,
            doc_freqs,
            postings,
            posting_ends,
            posting_count,
            length_total: 0,
            length_norms: Vec::new(),
            withheld: Vec::new(),
        };
        index.length_total = index.doc_lengths.iter().map(|&len| u64::from(len)).sum();
        index.refresh_length_norms();
        index
    }

    pub(super) fn refresh_length_norms(&mut self) {
        let total = self.length_total;
        let avg = if self.doc_lengths.is_empty() { 0.0 } else { total as f64 / self.doc_lengths.len() as f64 };
        let params = self.params;
        self.length_norms = self.doc_lengths.iter().map(|&len| params.length_norm(len, avg as f32)).collect();
    }

    pub fn doc_count(&self) -> u32 {
        self.doc_lengths.len() as u32
    }

    /// Distinct terms in the vocabulary.
    pub fn term_count(&self) -> usize {
        self.term_ends.len()
    }

    /// (term, document) pairs stored.
    pub fn posting_count(&self) -> u64 {
        self.posting_count
    }

    pub fn params(&self) -> Bm25Params {
        self.params
    }

    pub fn title_boost(&self) -> u32 {
        self.title_boost
    }

    /// Rescores with other BM25 parameters; no rebuild needed.
    pub fn set_params(&mut self, params: Bm25Params) -> Result<(), LexicalError> {
        params.validate()?;
        self.params = params;
        self.refresh_length_norms();
        Ok(())
    }

    /// Term `i` of the sorted vocabulary.
    pub(super) fn term(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.term_ends.get(i - 1).copied().unwrap_or(0) };
        let end = self.term_ends.get(i).copied().unwrap_or(start);
        self.term_text.get(start..end).unwrap_or("")
    }

    pub(super) fn term_id(&self, term: &str) -> Option<usize> {
        let (mut low, mut high) = (0, self.term_count());
        while low < high {
            let mid = low + (high - low) / 2;
            match self.term(mid).cmp(term) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    pub(super) fn postings_of(&self, i: usize) -> Postings<'_> {
        let start = if i == 0 { 0 } else { self.posting_ends.get(i - 1).copied().unwrap_or(0) };
        let end = self.posting_ends.get(i).copied().unwrap_or(start);
        Postings::new(self.postings.get(start..end).unwrap_or(&[]), self.doc_freqs.get(i).copied().unwrap_or(0))
    }

    /// Documents containing `term` (already an index term, e.g. from [`tokenize`]).
    pub fn doc_freq(&self, term: &str) -> u32 {
        self.term_id(term).and_then(|i| self.doc_freqs.get(i).copied()).unwrap_or(0)
    }

    /// The documents holding `term` (an index term, e.g. a name term), ascending.
    pub fn docs_with(&self, term: &str) -> Vec<u32> {
        self.term_id(term).map(|i| self.postings_of(i).map(|(doc, _)| doc).collect()).unwrap_or_default()
    }

    /// BM25's inverse document frequency of `term` on this site (a term the index does not
    /// know, or whose shard is not attached, counts as in no document: the highest).
    pub fn idf(&self, term: &str) -> f32 {
        idf(self.doc_count(), self.doc_freq(term))
    }

    pub(super) fn query_terms(&self, query: &str) -> QueryTerms {
        let mut words = tokenize(query);
        crate::sort::sort_dedup(&mut words);
        words.retain(|w| !self.withheld.iter().any(|span| span.holds(w)));
        let mut known: Vec<usize> = words.iter().filter_map(|w| self.term_id(w)).collect();
        crate::sort::sort_by(&mut known, usize::cmp);
        QueryTerms { unknown: words.len() - known.len(), known }
    }

    /// The `k` best documents for `query` as (doc id, BM25 score), best first; equal scores
    /// in ascending id order. `filter` keeps only the ids it accepts (e.g. one chapter). A
    /// query with no index terms (empty, only stop words, unseen words) gives no hits.
    pub fn search(&self, query: &str, k: usize, filter: Option<&dyn Fn(u32) -> bool>) -> Vec<(u32, f32)> {
        let terms = self.query_terms(query);
        self.rank(&terms.known, k, filter)
    }

    /// As [`search`](Self::search), with scores mapped to 0–1 for display by
    /// [`reference_score`](Self::reference_score).
    pub fn search_normalized(&self, query: &str, k: usize, filter: Option<&dyn Fn(u32) -> bool>) -> Vec<(u32, f32)> {
        let terms = self.query_terms(query);
        let reference = self.reference_for(&terms);
        let mut hits = self.rank(&terms.known, k, filter);
        for hit in &mut hits {
            hit.1 = normalize_score(hit.1, reference);
        }
        hits
    }

    /// The BM25 score of an average-length document that contains every distinct query term
    /// exactly once: the sum of the terms' idf (the BM25 fraction is then exactly 1). Terms
    /// the index has never seen count with the idf of a term in no document, so a question
    /// that is half off-topic cannot reach 1. Dividing a raw score by this (and capping at 1)
    /// reads as "how much of the question this document covers, weighted by rarity".
    /// 0 when the query has no terms.
    pub fn reference_score(&self, query: &str) -> f32 {
        self.reference_for(&self.query_terms(query))
    }

    /// [`reference_score`](Self::reference_score) and the share of the question's distinct
    /// terms that no section of the site uses (0 when it has no terms), from one reading of
    /// the question: a question naming things the site never mentions is likely not
    /// answered by it, however close its other words are.
    pub fn coverage(&self, query: &str) -> QueryCoverage {
        let terms = self.query_terms(query);
        let total = terms.known.len() + terms.unknown;
        let unknown_share = if total == 0 { 0.0 } else { terms.unknown as f32 / total as f32 };
        QueryCoverage { reference: self.reference_for(&terms), unknown_share }
    }

    pub(super) fn reference_for(&self, terms: &QueryTerms) -> f32 {
        let n = self.doc_count();
        let known: f32 = terms.known.iter().map(|&t| idf(n, self.doc_freqs.get(t).copied().unwrap_or(0))).sum();
        known + terms.unknown as f32 * idf(n, 0)
    }

    pub(super) fn rank(&self, term_ids: &[usize], k: usize, filter: Option<&dyn Fn(u32) -> bool>) -> Vec<(u32, f32)> {
        if k == 0 || term_ids.is_empty() {
            return Vec::new();
        }
        let n = self.doc_count();
        let mut scores = vec![0.0f32; self.doc_lengths.len()];
        let mut touched: Vec<u32> = Vec::new();
        for &term in term_ids {
            let term_idf = idf(n, self.doc_freqs.get(term).copied().unwrap_or(0));
            for (doc, tf) in self.postings_of(term) {
                let (Some(score), Some(&norm)) = (scores.get_mut(doc as usize), self.length_norms.get(doc as usize))
                else {
                    continue;
                };
                // Every contribution is > 0 (idf > 0, tf ≥ 1), so 0 means "not yet seen".
                if *score == 0.0 {
                    touched.push(doc);
                }
                *score += self.params.term_score(term_idf, tf, norm);
            }
        }
        let hits: Vec<(u32, f32)> = touched
            .into_iter()
            .filter(|&doc| filter.is_none_or(|keep| keep(doc)))
            .map(|doc| (doc, scores.get(doc as usize).copied().unwrap_or(0.0)))
            .collect();
        best_k(hits, k)
    }
}

/// The `k` best of `hits`, best first; equal scores in ascending id order. A total order, so
/// the core's one sort (`crate::sort`) gives it as any would.
pub(super) fn best_k(mut hits: Vec<(u32, f32)>, k: usize) -> Vec<(u32, f32)> {
    crate::sort::sort_by(&mut hits, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    hits.truncate(k);
    hits
}

/// `score / reference`, capped to 0–1 (see [`LexicalIndex::reference_score`]).
pub fn normalize_score(score: f32, reference: f32) -> f32 {
    if reference > 0.0 && score.is_finite() {
        (score / reference).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Decodes one term's postings. Lists are validated on load; should one still be malformed,
/// iteration just stops.
pub(super) struct Postings<'a> {
    bytes: &'a [u8],
    pos: usize,
    left: u32,
    doc: Option<u32>,
}

impl<'a> Postings<'a> {
    pub(super) fn new(bytes: &'a [u8], count: u32) -> Self {
        Postings { bytes, pos: 0, left: count, doc: None }
    }
}

impl Iterator for Postings<'_> {
    type Item = (u32, u32);

    fn next(&mut self) -> Option<(u32, u32)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let gap = read_u32(self.bytes, &mut self.pos)?;
        let tf = read_u32(self.bytes, &mut self.pos)?;
        let doc = match self.doc {
            None => gap,
            Some(previous) => previous.checked_add(gap)?,
        };
        self.doc = Some(doc);
        Some((doc, tf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(texts: &[&str]) -> LexicalIndex {
        let docs: Vec<Document> = texts.iter().map(|t| Document::text(t)).collect();
        LexicalIndex::build(&docs, IndexOptions::default()).unwrap()
    }

    #[test]
    fn bm25_matches_a_hand_computation() {
        // N = 3, |d| = 2, 3, 1, avgdl = 2; "robot" in d0 (tf 1) and d1 (tf 2).
        let idx = index(&["robot arm", "robot robot wheel", "camera"]);
        let hits = idx.search("robot", 10, None);
        // idf = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln 1.6 = 0.4700036
        // d1: 0.4700036 · 2 · 2.2 / (2 + 1.2 · (0.25 + 0.75 · 1.5)) = 0.4700036 · 4.4 / 3.65 = 0.5665797
        // d0: 0.4700036 · 1 · 2.2 / (1 + 1.2 · (0.25 + 0.75 · 1.0)) = 0.4700036
        assert_eq!(hits.len(), 2);
        assert_eq!(hits[0].0, 1);
        assert!((hits[0].1 - 0.566_579_7).abs() < 1e-5, "{}", hits[0].1);
        assert_eq!(hits[1].0, 0);
        assert!((hits[1].1 - 0.470_003_6).abs() < 1e-5, "{}", hits[1].1);
    }

    #[test]
    fn bm25_sums_over_terms_with_other_params() {
        let mut idx = index(&["robot arm", "robot robot wheel", "camera"]);
        idx.set_params(Bm25Params::new(2.0, 0.5).unwrap()).unwrap();
        let hits = idx.search("arm robot", 10, None);
        // d0: robot: ln1.6 · 1 · 3 / (1 + 2 · (0.5 + 0.5 · 1)) = 0.4700036 · 3 / 3 = 0.4700036
        //     arm:   idf = ln(1 + 2.5 / 1.5) = 0.9808293, same fraction 1 → 0.9808293; total 1.4508329
        // d1: robot: 0.4700036 · 2 · 3 / (2 + 2 · (0.5 + 0.5 · 1.5)) = 0.4700036 · 6 / 4.5 = 0.6266715
        assert_eq!(hits[0].0, 0);
        assert!((hits[0].1 - 1.450_832_9).abs() < 1e-5, "{}", hits[0].1);
        assert_eq!(hits[1].0, 1);
        assert!((hits[1].1 - 0.626_671_5).abs() < 1e-5, "{}", hits[1].1);
    }

    #[test]
    fn rarer_terms_and_shorter_documents_rank_higher() {
        let idx = index(&[
            "the robot uses a lidar sensor and a camera sensor for mapping the room around it",
            "lidar",
            "camera camera camera",
        ]);
        let hits = idx.search("lidar", 10, None);
        assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), [1, 0]);
    }

    #[test]
    fn ties_break_by_document_id() {
        let idx = index(&["gripper", "wheel", "gripper", "gripper"]);
        let hits = idx.search("gripper", 10, None);
        assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), [0, 2, 3]);
        assert_eq!(hits[0].1, hits[2].1);
        assert_eq!(idx.search("gripper", 2, None).iter().map(|h| h.0).collect::<Vec<_>>(), [0, 2]);
    }

    #[test]
    fn word_order_does_not_change_scores() {
        let idx = index(&["joint torque limit", "torque sensor", "joint angle"]);
        assert_eq!(idx.search("joint torque", 3, None), idx.search("torque joint", 3, None));
    }

    #[test]
    fn filter_and_k() {
        let idx = index(&["servo motor", "motor driver", "motor", "camera"]);
        let even = |doc: u32| doc.is_multiple_of(2);
        let hits = idx.search("motor", 10, Some(&even));
        assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), [2, 0]);
        assert_eq!(idx.search("motor", 1, None).len(), 1);
        assert!(idx.search("motor", 0, None).is_empty());
        let none = |_: u32| false;
        assert!(idx.search("motor", 10, Some(&none)).is_empty());
    }

    #[test]
    fn empty_stop_word_and_unknown_queries_give_no_hits() {
        let idx = index(&["servo motor", "camera"]);
        for query in ["", "   ", "the of and how do I", "?!", "quaternion"] {
            assert!(idx.search(query, 5, None).is_empty(), "{query:?}");
        }
        assert_eq!(idx.reference_score(""), 0.0);
    }

    #[test]
    fn unknown_share_counts_distinct_words_the_site_never_uses() {
        let idx = index(&["publishers and subscribers exchange messages"]);
        let share = |q: &str| idx.coverage(q).unknown_share;
        assert_eq!(share("publishers exchange messages"), 0.0);
        assert_eq!(share("publishers on an esp32 microcontroller"), 2.0 / 3.0);
        assert_eq!(share("the of and"), 0.0, "only stop words: no terms at all");
        let q = "publishers on an esp32 microcontroller";
        assert_eq!(idx.coverage(q).reference, idx.reference_score(q));
    }

    #[test]
    fn empty_index_searches_fine() {
        let idx = LexicalIndex::build(&[], IndexOptions::default()).unwrap();
        assert_eq!(idx.doc_count(), 0);
        assert!(idx.search("robot", 5, None).is_empty());
        let blank = index(&["", "the"]);
        assert!(blank.search("robot", 5, None).is_empty());
    }

    #[test]
    fn title_terms_count_with_the_boost() {
        let docs =
            [Document::new("Inverse kinematics", "solving joint angles"), Document::text("kinematics kinematics")];
        let plain = LexicalIndex::build(&docs, IndexOptions { title_boost: 1, ..Default::default() }).unwrap();
        let boosted = LexicalIndex::build(&docs, IndexOptions { title_boost: 3, ..Default::default() }).unwrap();
        let ignored = LexicalIndex::build(&docs, IndexOptions { title_boost: 0, ..Default::default() }).unwrap();
        assert_eq!(plain.doc_lengths, [5, 2]);
        assert_eq!(boosted.doc_lengths, [9, 2]);
        assert_eq!(ignored.doc_lengths, [3, 2]);
        assert!(ignored.search("inverse", 5, None).is_empty());
        assert_eq!(boosted.search("inverse", 5, None)[0].0, 0);
        let tf_of_doc0 = |idx: &LexicalIndex| {
            let id = idx.term_id("kinemat").unwrap();
            idx.postings_of(id).find(|p| p.0 == 0).unwrap().1
        };
        assert_eq!((tf_of_doc0(&plain), tf_of_doc0(&boosted)), (1, 3));
    }

    #[test]
    fn rejects_bad_options() {
        let docs = [Document::text("x")];
        let bad_boost = IndexOptions { title_boost: MAX_TITLE_BOOST + 1, ..Default::default() };
        assert!(matches!(LexicalIndex::build(&docs, bad_boost), Err(LexicalError::InvalidParameter { .. })));
        let bad_b = IndexOptions { bm25: Bm25Params { k1: 1.2, b: 2.0 }, ..Default::default() };
        assert!(LexicalIndex::build(&docs, bad_b).is_err());
        let mut idx = index(&["x"]);
        assert!(idx.set_params(Bm25Params { k1: -1.0, b: 0.5 }).is_err());
        assert_eq!(idx.params(), Bm25Params::default());
    }

    #[test]
    fn normalized_scores_are_in_0_1_and_keep_order() {
        let idx = index(&["ros2 topic echo /cmd_vel", "ros2 topic list", "the cmd_vel topic carries velocity"]);
        let raw = idx.search("How do I echo messages on /cmd_vel?", 5, None);
        let shown = idx.search_normalized("How do I echo messages on /cmd_vel?", 5, None);
        assert_eq!(raw.iter().map(|h| h.0).collect::<Vec<_>>(), shown.iter().map(|h| h.0).collect::<Vec<_>>());
        assert!(shown.iter().all(|h| (0.0..=1.0).contains(&h.1)));
        assert!(shown.windows(2).all(|w| w[0].1 >= w[1].1));
        let reference = idx.reference_score("How do I echo messages on /cmd_vel?");
        assert!((shown[0].1 - (raw[0].1 / reference).min(1.0)).abs() < 1e-6);
        // An average-length document with each known term once scores exactly the reference.
        let exact = index(&["alpha beta", "gamma delta"]);
        let hits = exact.search_normalized("alpha beta", 1, None);
        assert!((hits[0].1 - 1.0).abs() < 1e-6);
        // An unseen word halves what a document can cover.
        let half = exact.search_normalized("alpha zeta", 1, None)[0].1;
        assert!(half < 0.6, "{half}");
        assert_eq!(normalize_score(5.0, 0.0), 0.0);
        assert_eq!(normalize_score(f32::NAN, 1.0), 0.0);
    }

    #[test]
    fn question_finds_the_command_chunk() {
        let idx = index(&[
            "A node publishes velocity commands; the robot drives.",
            "Run ros2 topic echo /cmd_vel to print each message as it arrives.",
            "Messages are typed: geometry_msgs/msg/Twist carries linear and angular velocity.",
        ]);
        let hits = idx.search("How do I echo messages on /cmd_vel?", 3, None);
        assert_eq!(hits[0].0, 1);
    }
}
