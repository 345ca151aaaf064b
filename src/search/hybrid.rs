//! Hybrid retrieval over one bundle: dense (int8 HNSW + exact rescoring, or the index in
//! parts: `dense::partitioned`), lexical (BM25) and their fusion (the learned one of `fusion_model`, or reciprocal rank fusion), with
//! filters, a score threshold and confidence.

use super::confidence::{Confidence, ConfidenceRule, Signals};
use super::fusion::{reciprocal_rank_fusion, RankedList};
use super::fusion_model::{self, Candidate};
use super::page_boost::PageBoost;
use super::scope::{in_scope, DocsVersion};
use super::SearchError;
use crate::bundle::{page_key, ChunkMeta, ChunkTable};
use crate::dense::partitioned::{PartFilter, PartId, PartSearch};
use crate::dense::{AnyDenseIndex, DenseError};
use crate::lexical::{is_short_query, normalize_score, query_names, LexicalIndex};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum SearchMode {
    Dense,
    Lexical,
    Hybrid,
}

/// How hybrid search orders the union of its two lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fusion {
    /// The fitted linear score of `fusion_model` (the default).
    #[default]
    Learned,
    /// Reciprocal rank fusion with `rrf_k` and the two weights (the order before issue 25).
    Reciprocal,
}

/// Ranking parameters; `SearchOptions::default()` is what the CLI and browser use.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchOptions {
    /// Results to return (1–50; default 3).
    pub k: usize,
    pub mode: SearchMode,
    /// Candidates taken from each list before fusion (≥ k; default 30).
    pub candidates: usize,
    /// How hybrid search fuses its lists (default: learned).
    pub fusion: Fusion,
    /// RRF damping constant (> 0; default 60), for reciprocal rank fusion and dense search.
    pub rrf_k: f32,
    /// Weights of the dense and lexical votes in reciprocal rank fusion (≥ 0; default 1 and 1).
    pub dense_weight: f32,
    pub lexical_weight: f32,
    /// Drop results scoring below this (0–1; default 0: keep all).
    pub min_score: f32,
    /// Only chunks of these modules (empty: all).
    pub modules: Vec<String>,
    /// Only these docs versions, per docs instance (empty: all; `scope::in_scope` says which
    /// chunks a list admits).
    pub versions: Vec<DocsVersion>,
    /// Keyword search also matches the words the query's last word begins and, for a word
    /// the site never uses, its neighbours one edit away (`lexical::expand`): a search box's
    /// query, typed a letter at a time (default false: a question's words as they are).
    pub expand_words: bool,
    /// How confidence is decided with semantic search, and with keyword search alone.
    pub semantic_confidence: ConfidenceRule,
    pub keyword_confidence: ConfidenceRule,
    /// The page the reader asks from (a URL or path; `bundle::page_path` says which page
    /// it is): its sections move up the ranking by `page_boost`. `None`: no page.
    pub page: Option<String>,
    /// Only sections of `page` (asking about the page itself).
    pub page_only: bool,
    pub page_boost: PageBoost,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            k: 3,
            mode: SearchMode::Hybrid,
            candidates: 30,
            fusion: Fusion::Learned,
            rrf_k: 60.0,
            dense_weight: 1.0,
            lexical_weight: 1.0,
            min_score: 0.0,
            modules: Vec::new(),
            versions: Vec::new(),
            expand_words: false,
            semantic_confidence: ConfidenceRule::SEMANTIC,
            keyword_confidence: ConfidenceRule::KEYWORD,
            page: None,
            page_only: false,
            page_boost: PageBoost::default(),
        }
    }
}

impl SearchOptions {
    pub fn validate(&self) -> Result<(), SearchError> {
        let bad = |m: String| Err(SearchError::InvalidOptions(m));
        if !(1..=50).contains(&self.k) {
            return bad(format!("k must be 1–50, not {}", self.k));
        }
        if self.candidates < self.k {
            return bad(format!("candidates ({}) must be at least k ({})", self.candidates, self.k));
        }
        let positive = |v: f32| v.is_finite() && v > 0.0;
        let non_negative = |v: f32| v.is_finite() && v >= 0.0;
        if !positive(self.rrf_k) || !non_negative(self.dense_weight) || !non_negative(self.lexical_weight) {
            return bad("rrf_k must be > 0 and the weights ≥ 0".into());
        }
        if !(0.0..=1.0).contains(&self.min_score) {
            return bad(format!("min_score must be in 0–1, not {}", self.min_score));
        }
        if self.page_only && self.page.is_none() {
            return bad("page_only needs the page".into());
        }
        self.page_boost.validate().map_err(SearchError::InvalidOptions)?;
        self.semantic_confidence.validate().map_err(SearchError::InvalidOptions)?;
        self.keyword_confidence.validate().map_err(SearchError::InvalidOptions)
    }

    /// The key of the page asked from (`bundle::page_key`).
    fn page_key(&self) -> Option<u32> {
        self.page.as_deref().map(page_key)
    }
}

/// One result: a chunk index with its scores.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    pub index: u32,
    /// The 0–1 relevance shown to readers and used for confidence: the cosine when the
    /// search was semantic, else the normalised BM25 score.
    pub score: f32,
    /// Cosine similarity with the question (exact, from the int8 vector).
    pub dense: Option<f32>,
    /// Raw BM25 score (0 when the chunk shares no term with the question).
    pub lexical: Option<f32>,
    /// The fused score that decided the order (learned or RRF).
    pub fused: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchResults {
    pub confidence: Confidence,
    /// What confidence was decided from.
    pub signals: Signals,
    /// What actually ran: `lexical` when dense was asked for but no model or vector is there.
    pub mode_used: SearchMode,
    pub hits: Vec<Hit>,
}

impl SearchResults {
    /// A keyword-only answer to a search that `asked` for semantic search, whose evidence is
    /// weak (`low`), while semantic search is on its way (`semantic_coming`: the model suits
    /// the index's language and has neither arrived nor failed): semantic search would likely
    /// find a better first source soon, so the answer should say so rather than look final.
    /// After the model failed, or where it does not suit the language, no better answer is
    /// coming and none is promised.
    pub fn provisional(&self, asked: SearchMode, semantic_coming: bool) -> bool {
        semantic_coming
            && asked == SearchMode::Hybrid
            && self.mode_used == SearchMode::Lexical
            && self.confidence == Confidence::Low
    }
}

/// A ranked list of chunk indexes with their scores, best first.
type Ranked = Vec<(u32, f32)>;

/// Searches one bundle's chunks. Dense search is optional so the browser can answer
/// lexically while the model is still downloading.
pub struct HybridSearch {
    /// Every chunk's metadata when it is all loaded (natively); empty in the browser, which
    /// fetches the metadata of the results only.
    chunks: Vec<ChunkMeta>,
    /// What ranking needs of every chunk: module, version, and identical sections (a page
    /// repeated unchanged in several doc versions).
    table: ChunkTable,
    lexical: LexicalIndex,
    dense: Option<AnyDenseIndex>,
}

impl HybridSearch {
    pub fn new(chunks: Vec<ChunkMeta>, lexical: LexicalIndex) -> Result<Self, SearchError> {
        let table = ChunkTable::from_metas(&chunks);
        let mut search = Self::from_table(table, lexical)?;
        search.chunks = chunks;
        Ok(search)
    }

    /// Search over the chunk table alone: results name chunk indexes, whose metadata the
    /// caller fetches (the browser's sharded bundle).
    pub fn from_table(table: ChunkTable, lexical: LexicalIndex) -> Result<Self, SearchError> {
        if lexical.doc_count() as usize != table.chunks {
            return Err(SearchError::Inconsistent(format!(
                "lexical index has {} documents for {} chunks",
                lexical.doc_count(),
                table.chunks
            )));
        }
        Ok(HybridSearch { chunks: Vec::new(), table, lexical, dense: None })
    }

    /// The lexical index, to attach term shards to.
    pub fn lexical_mut(&mut self) -> &mut LexicalIndex {
        &mut self.lexical
    }

    /// The lexical index (idf of the question's terms, e.g. for `matched_part`).
    pub fn lexical(&self) -> &LexicalIndex {
        &self.lexical
    }

    /// Gives the chunk table its pages, read from the bundle's page table (checked against
    /// the bundle's chunk count by `BundleReader::page_table`).
    pub fn attach_pages(&mut self, pages: Vec<[u32; 3]>) {
        self.table.set_pages(pages);
    }

    /// Chunks in the bundle.
    pub fn len(&self) -> usize {
        self.table.chunks
    }

    pub fn is_empty(&self) -> bool {
        self.table.chunks == 0
    }

    /// Adds the dense index (once the vectors, or the head of the index in parts, have been
    /// fetched).
    pub fn attach_dense(&mut self, dense: AnyDenseIndex) -> Result<(), SearchError> {
        if dense.item_count() != self.table.chunks {
            return Err(SearchError::Inconsistent(format!(
                "dense index has vectors for {} chunks, the bundle has {} chunks",
                dense.item_count(),
                self.table.chunks
            )));
        }
        self.dense = Some(dense);
        Ok(())
    }

    pub fn has_dense(&self) -> bool {
        self.dense.is_some()
    }

    /// The dense index, to attach parts to.
    pub fn dense_mut(&mut self) -> Option<&mut AnyDenseIndex> {
        self.dense.as_mut()
    }

    pub fn dense(&self) -> Option<&AnyDenseIndex> {
        self.dense.as_ref()
    }

    /// The parts of the dense index in parts that a search for `query_vector` with `options`
    /// still lacks (empty when it can run, or the index is whole or absent): the same
    /// candidates and filter as the search's dense list.
    pub fn needed_dense_parts(
        &self,
        query_vector: &[f32],
        options: &SearchOptions,
    ) -> Result<Vec<PartId>, SearchError> {
        let Some(AnyDenseIndex::Parts(index)) = &self.dense else { return Ok(Vec::new()) };
        if options.mode == SearchMode::Lexical {
            return Ok(Vec::new());
        }
        Ok(match self.parts_search(index, query_vector, options)? {
            PartSearch::NeedParts(parts) => parts,
            PartSearch::Found(_) => Vec::new(),
        })
    }

    /// The dense index in parts searched for `options.candidates` distinct sections, each as
    /// the copy the filters allow ([`Self::allowed_copy`]); only partitions serving the
    /// filtered versions are probed.
    fn parts_search(
        &self,
        index: &crate::dense::partitioned::PartitionedIndex,
        vector: &[f32],
        options: &SearchOptions,
    ) -> Result<PartSearch, SearchError> {
        let slots = self.version_slots(&options.versions);
        let pick = |first: u32| self.allowed_copy(first, options);
        let filtered = !options.modules.is_empty() || !options.versions.is_empty();
        let filter = PartFilter { version_slots: &slots, pick: if filtered { Some(&pick) } else { None } };
        Ok(index.search(vector, options.candidates, &filter)?)
    }

    /// The version slots (`ChunkTable::version_slot`) that chunks in `scope` may have (empty:
    /// any): the partitions of a dense index in parts worth probing. A version name is kept
    /// if the scope admits it in any instance of the bundle (whether that instance has it is
    /// not recorded per name; `pick` then keeps each result to its own instance's scope), and
    /// unversioned chunks are in every scope.
    fn version_slots(&self, scope: &[DocsVersion]) -> Vec<u16> {
        if scope.is_empty() {
            return Vec::new();
        }
        let instances: Vec<Option<&str>> = if self.table.instances.is_empty() {
            vec![None]
        } else {
            self.table.instances.iter().map(|i| Some(i.as_str())).collect()
        };
        let mut slots = vec![0];
        for (i, name) in self.table.versions.iter().enumerate() {
            if instances.iter().any(|&instance| in_scope(scope, instance, Some(name))) {
                slots.push(u16::try_from(i + 1).unwrap_or(u16::MAX));
            }
        }
        slots
    }

    /// Section `first` (a first copy) as the reader may see it: itself if the filters allow
    /// it, else its first copy they allow (the filtered version's), else none.
    fn allowed_copy(&self, first: u32, options: &SearchOptions) -> Option<u32> {
        if self.passes_filters(first, options) {
            return Some(first);
        }
        (self.table.copies.iter())
            .filter(|&&[_, count, copy]| copy <= first && first - copy < count)
            .map(|&[start, _, copy]| start + (first - copy))
            .find(|&c| self.passes_filters(c, options))
    }

    /// Every chunk's metadata (empty when built `from_table`).
    pub fn chunks(&self) -> &[ChunkMeta] {
        &self.chunks
    }

    /// The key of `index`'s page (`None` in a bundle without pages): also where only the
    /// chunk table is loaded, as in the browser.
    pub(super) fn page_of(&self, index: u32) -> Option<u32> {
        self.table.page(index)
    }

    pub fn chunk(&self, index: u32) -> Option<&ChunkMeta> {
        self.chunks.get(index as usize)
    }

    /// Searches for `question`; `query_vector` is its embedding when the model is loaded.
    pub fn search(
        &self,
        question: &str,
        query_vector: Option<&[f32]>,
        options: &SearchOptions,
    ) -> Result<SearchResults, SearchError> {
        options.validate()?;
        let dense = match (options.mode, &self.dense, query_vector) {
            (SearchMode::Lexical, _, _) => None,
            (_, Some(index), Some(vector)) => Some((index, vector)),
            (SearchMode::Dense, _, _) => return Err(SearchError::DenseUnavailable),
            (SearchMode::Hybrid, _, _) => None,
        };
        let mode_used = match (options.mode, dense) {
            (SearchMode::Hybrid, None) => SearchMode::Lexical,
            (mode, _) => mode,
        };

        let (dense_hits, lexical_hits) = self.lists(question, dense, options)?;
        // The learned fusion's first two scores, before the page and a section's name move
        // anything: a confidence signal.
        let mut learned_top: Option<Vec<(u32, f32)>> = None;
        let mut fused = match (mode_used, dense, options.fusion) {
            (SearchMode::Hybrid, Some((index, vector)), Fusion::Learned) => {
                let ranked = fusion_model::rank(&self.pool(&dense_hits, &lexical_hits, index, vector)?);
                learned_top = Some(ranked.iter().take(2).copied().collect());
                ranked
            }
            _ => {
                let lexical_votes: &[(u32, f32)] = if mode_used == SearchMode::Dense { &[] } else { &lexical_hits };
                reciprocal_rank_fusion(
                    &[
                        RankedList { hits: &dense_hits, weight: options.dense_weight },
                        RankedList { hits: lexical_votes, weight: options.lexical_weight },
                    ],
                    options.rrf_k,
                )
            }
        };
        if let Some(page) = options.page_key() {
            // Only the page's own chunks: a section unchanged from another docs version ranks
            // as its first copy, which is that version's page (a version filter keeps the
            // reader's own copy).
            fused = options.page_boost.apply(fused, |i| self.table.page(i) == Some(page));
        }
        // A search-box query that is a section's very name puts that section first
        // (docs/DESIGN.md §5.2), even ahead of the page's sections.
        if mode_used != SearchMode::Dense && is_short_query(question) {
            fused = self.named_first(question, fused, options);
        }

        // BM25 is unbounded; for display and confidence it is scaled by the score of an
        // ideal match for this question (see `LexicalIndex::reference_score`).
        let coverage = if options.expand_words {
            self.lexical.coverage_expanded(question)
        } else {
            self.lexical.coverage(question)
        };
        let lexical_reference = coverage.reference;
        let mut hits = Vec::with_capacity(options.k);
        for (index, fused_score) in fused {
            let lexical = lexical_hits.iter().find(|h| h.0 == index).map(|h| h.1);
            let dense_score = match dense {
                Some((dense_index, vector)) => Some(self.cosine_of(dense_index, vector, index, &dense_hits)?),
                None => None,
            };
            let score = match dense_score {
                Some(cosine) => cosine.clamp(0.0, 1.0),
                None => normalize_score(lexical.unwrap_or(0.0), lexical_reference),
            };
            if score < options.min_score {
                continue;
            }
            hits.push(Hit {
                index,
                score,
                dense: dense_score,
                lexical: if mode_used == SearchMode::Dense { None } else { Some(lexical.unwrap_or(0.0)) },
                fused: fused_score,
            });
            if hits.len() == options.k {
                break;
            }
        }
        let signals = Signals::of(
            dense.map(|_| dense_hits.as_slice()),
            &lexical_hits,
            learned_top.as_deref(),
            lexical_reference,
            coverage.unknown_share,
        );
        let rule = if dense.is_some() { &options.semantic_confidence } else { &options.keyword_confidence };
        Ok(SearchResults { confidence: rule.level(&signals), signals, mode_used, hits })
    }

    /// The dense list (empty without `dense`) and the keyword list, `options.candidates`
    /// distinct sections each. Dense-only search still takes the keyword list, for the
    /// confidence signals.
    fn lists(
        &self,
        question: &str,
        dense: Option<(&AnyDenseIndex, &[f32])>,
        options: &SearchOptions,
    ) -> Result<(Ranked, Ranked), SearchError> {
        let filter = |i: u32| self.passes_filters(i, options);
        let unfiltered = options.modules.is_empty() && options.versions.is_empty() && !options.page_only;
        let filter_ref: Option<&dyn Fn(u32) -> bool> = if unfiltered { None } else { Some(&filter) };
        // Copies of one section count once (the reader would see the same text several
        // times): both lists ask for enough candidates to keep `candidates` distinct ones.
        let depth = options.candidates.saturating_mul(self.table.max_copies).min(self.table.chunks.max(1));
        let dense_hits = match dense {
            Some((AnyDenseIndex::Whole(index), vector)) => {
                self.collapse(index.search_items(vector, depth, filter_ref)?, options)
            }
            Some((AnyDenseIndex::Parts(index), vector)) => match self.parts_search(index, vector, options)? {
                PartSearch::Found(hits) => hits,
                PartSearch::NeedParts(parts) => return Err(SearchError::DensePartsMissing { parts: parts.len() }),
            },
            None => Vec::new(),
        };
        let lexical_hits = if options.expand_words {
            self.lexical.search_expanded(question, depth, filter_ref)
        } else {
            self.lexical.search(question, depth, filter_ref)
        };
        let lexical_hits = self.collapse(lexical_hits, options);
        Ok((dense_hits, lexical_hits))
    }

    /// The union of the two lists as the learned fusion sees it, dense list first.
    fn pool(
        &self,
        dense_hits: &[(u32, f32)],
        lexical_hits: &[(u32, f32)],
        index: &AnyDenseIndex,
        vector: &[f32],
    ) -> Result<Vec<Candidate>, SearchError> {
        let mut pool: Vec<Candidate> = dense_hits
            .iter()
            .enumerate()
            .map(|(r, &(i, cosine))| Candidate {
                index: i,
                dense_rank: Some(r + 1),
                lexical_rank: None,
                cosine,
                bm25: 0.0,
            })
            .collect();
        for (r, &(i, bm25)) in lexical_hits.iter().enumerate() {
            match pool.iter_mut().find(|c| c.index == i) {
                Some(c) => {
                    c.lexical_rank = Some(r + 1);
                    c.bm25 = bm25;
                }
                None => pool.push(Candidate {
                    index: i,
                    dense_rank: None,
                    lexical_rank: Some(r + 1),
                    cosine: self.cosine_of(index, vector, i, dense_hits)?,
                    bm25,
                }),
            }
        }
        Ok(pool)
    }

    /// Every candidate the learned fusion would rank for `question` in hybrid search, with
    /// its features (`fusion_model::FEATURES`): the training data of the fusion
    /// (`lectern eval --dump-candidates`). Empty without the dense index.
    pub fn fusion_candidates(
        &self,
        question: &str,
        query_vector: &[f32],
        options: &SearchOptions,
    ) -> Result<Vec<(Candidate, [f32; 7])>, SearchError> {
        options.validate()?;
        let Some(index) = &self.dense else { return Ok(Vec::new()) };
        let (dense_hits, lexical_hits) = self.lists(question, Some((index, query_vector)), options)?;
        let pool = self.pool(&dense_hits, &lexical_hits, index, query_vector)?;
        let features = fusion_model::pool_features(&pool);
        Ok(pool.into_iter().zip(features).collect())
    }

    /// `fused` with the sections whose heading names an identifier the question asks for
    /// (`lexical::query_names`) moved to the front, in their fused order; such a section that
    /// neither list found comes right after them.
    fn named_first(&self, question: &str, fused: Vec<(u32, f32)>, options: &SearchOptions) -> Vec<(u32, f32)> {
        let mut named: Vec<u32> = Vec::new();
        for term in query_names(question) {
            for doc in self.lexical.docs_with(&term) {
                let first = self.table.first_copy(doc);
                let doc = if first != doc && self.passes_filters(first, options) { first } else { doc };
                if self.passes_filters(doc, options) && !named.contains(&doc) {
                    named.push(doc);
                }
            }
        }
        if named.is_empty() {
            return fused;
        }
        let (mut front, rest): (Vec<_>, Vec<_>) = fused.into_iter().partition(|(doc, _)| named.contains(doc));
        for doc in named {
            if !front.iter().any(|(d, _)| *d == doc) {
                front.push((doc, 0.0));
            }
        }
        front.extend(rest);
        front
    }

    /// `item`'s cosine with `vector`: from the dense list if it is there, else exact from the
    /// whole index. The index in parts holds only the rows a question fetched: an item outside
    /// the dense list is scored from them if they hold it (exact from its int8 row, else
    /// estimated from its 4-bit code, then no higher than the list's last cosine, which an
    /// item outside the list cannot beat), else with that last cosine (0 for an empty list).
    fn cosine_of(
        &self,
        index: &AnyDenseIndex,
        vector: &[f32],
        item: u32,
        dense_hits: &[(u32, f32)],
    ) -> Result<f32, DenseError> {
        if let Some(&(_, cosine)) = dense_hits.iter().find(|h| h.0 == item) {
            return Ok(cosine);
        }
        let last = dense_hits.last().map_or(0.0, |h| h.1);
        Ok(match index {
            AnyDenseIndex::Whole(index) => index.item_cosine(vector, item)?,
            AnyDenseIndex::Parts(index) => match index.attached_item_cosine(vector, self.table.first_copy(item)) {
                Some((cosine, true)) => cosine,
                Some((estimate, false)) => estimate.min(last),
                None => last,
            },
        })
    }

    /// Each hit as its section's first copy (unless the filters exclude that copy), once,
    /// best first, at most `options.candidates`.
    fn collapse(&self, hits: Vec<(u32, f32)>, options: &SearchOptions) -> Vec<(u32, f32)> {
        if self.table.max_copies <= 1 {
            return hits;
        }
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::with_capacity(options.candidates);
        for (index, score) in hits {
            let first = self.table.first_copy(index);
            let index = if first != index && self.passes_filters(first, options) { first } else { index };
            if seen.insert(index) {
                out.push((index, score));
                if out.len() == options.candidates {
                    break;
                }
            }
        }
        out
    }

    fn passes_filters(&self, index: u32, options: &SearchOptions) -> bool {
        let Some(module) = self.table.module(index) else { return false };
        (options.modules.is_empty() || options.modules.iter().any(|m| m == module))
            && in_scope(&options.versions, self.table.instance(index), self.table.version(index))
            && (!options.page_only || self.table.page(index) == options.page_key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexical::{Document, IndexOptions};

    /// Three sections in two doc versions: "a" and "b" unchanged (same hash), "c" changed.
    fn versioned() -> HybridSearch {
        in_instances(&[("default", "current"), ("default", "1.0")])
    }

    /// The three sections of `versioned` in each (instance, version) of `docs`, at
    /// `/<instance>/<version>/<id>`; "c" is changed in every version but `current`.
    fn in_instances(docs: &[(&str, &str)]) -> HybridSearch {
        let sections = [("a", "servo motor torque limits"), ("b", "camera calibration"), ("c", "servo wiring")];
        let mut chunks = Vec::new();
        let mut texts = Vec::new();
        for &(instance, version) in docs {
            for (id, text) in sections {
                let changed = id == "c" && version != "current";
                let route = if instance == "default" { "docs" } else { instance };
                chunks.push(ChunkMeta {
                    chunk_id: format!("{instance}:{version}:{id}#:0"),
                    url: format!("/{route}/{version}/{id}"),
                    heading_path: vec![id.to_string()],
                    chapter_title: id.to_string(),
                    section_title: String::new(),
                    module: "Docs".into(),
                    chapter_id: id.to_string(),
                    instance: instance.into(),
                    version: Some(version.to_string()),
                    word_count: 3,
                    position: chunks.len(),
                    hash: if changed { format!("{id}-old") } else { id.to_string() },
                    parts: Vec::new(),
                    name: None,
                });
                texts.push(if changed { format!("{text} for old servo boards") } else { text.to_string() });
            }
        }
        let lexical = {
            let docs: Vec<Document> = chunks.iter().zip(&texts).map(|(c, t)| Document::new(&c.chapter_id, t)).collect();
            LexicalIndex::build(&docs, IndexOptions::default()).unwrap()
        };
        HybridSearch::new(chunks, lexical).unwrap()
    }

    #[test]
    fn unchanged_copies_of_a_section_count_once() {
        let search = versioned();
        let hits = search.search("servo", None, &SearchOptions { k: 5, ..Default::default() }).unwrap().hits;
        let urls: Vec<&str> = hits.iter().map(|h| search.chunk(h.index).unwrap().url.as_str()).collect();
        // "a" once (its first copy), "c" in both versions: their texts differ.
        assert_eq!(urls.len(), 3, "{urls:?}");
        assert!(urls.contains(&"/docs/current/a") && !urls.contains(&"/docs/1.0/a"), "{urls:?}");
        assert!(urls.contains(&"/docs/current/c") && urls.contains(&"/docs/1.0/c"), "{urls:?}");
    }

    #[test]
    fn only_a_weak_keyword_stand_in_for_semantic_search_is_provisional() {
        let results = |confidence, mode_used| SearchResults {
            confidence,
            signals: Signals::default(),
            mode_used,
            hits: Vec::new(),
        };
        let coming = true;
        assert!(results(Confidence::Low, SearchMode::Lexical).provisional(SearchMode::Hybrid, coming));
        assert!(
            !results(Confidence::Medium, SearchMode::Lexical).provisional(SearchMode::Hybrid, coming),
            "strong evidence"
        );
        assert!(!results(Confidence::None, SearchMode::Lexical).provisional(SearchMode::Hybrid, coming), "a refusal");
        assert!(
            !results(Confidence::Low, SearchMode::Lexical).provisional(SearchMode::Lexical, coming),
            "keywords were asked for"
        );
        assert!(
            !results(Confidence::Low, SearchMode::Hybrid).provisional(SearchMode::Hybrid, coming),
            "semantic search ran"
        );
        assert!(
            !results(Confidence::Low, SearchMode::Lexical).provisional(SearchMode::Hybrid, false),
            "semantic search is not coming: the model failed, or does not suit the language"
        );
    }

    fn urls(search: &HybridSearch, options: &SearchOptions, question: &str) -> Vec<String> {
        let hits = search.search(question, None, options).unwrap().hits;
        hits.iter().map(|h| search.chunk(h.index).unwrap().url.clone()).collect()
    }

    #[test]
    fn the_readers_page_moves_up_and_an_unrelated_one_changes_nothing() {
        let search = versioned();
        let plain = SearchOptions { k: 5, ..Default::default() };
        let before = urls(&search, &plain, "servo wiring");
        let last = before.last().cloned().unwrap_or_default();
        assert!(before.len() >= 3 && before[0] != last, "{before:?}");
        // The reader's address, as the browser has it.
        let page = format!("http://127.0.0.1:3000{last}/?ask=x#top");
        let after = urls(&search, &SearchOptions { page: Some(page), ..plain.clone() }, "servo wiring");
        let at = after.iter().position(|u| *u == last).unwrap_or(usize::MAX);
        assert_eq!(at, before.len().saturating_sub(3), "two places up: {before:?} → {after:?}");
        let unrelated = SearchOptions { page: Some("/docs/current/b".into()), ..plain.clone() };
        assert_eq!(urls(&search, &unrelated, "servo wiring"), before, "no section of the page among the candidates");
    }

    #[test]
    fn asking_about_the_page_searches_it_alone() {
        let search = versioned();
        let options = SearchOptions { k: 5, page: Some("/docs/1.0/a".into()), page_only: true, ..Default::default() };
        assert_eq!(urls(&search, &options, "servo"), ["/docs/1.0/a"]);
        let no_page = SearchOptions { page_only: true, ..Default::default() };
        assert!(search.search("servo", None, &no_page).is_err(), "page_only needs the page");
    }

    #[test]
    fn a_search_box_query_that_is_a_prose_heading_puts_that_section_first() {
        // The diagnosed miss: a short "Next Steps" section that links to the chapter and sits
        // on a page about services outranked the chapter itself by BM25.
        let sections = [
            (
                "/docs/services#next-steps",
                "Services and Actions > Next Steps",
                "Next read the Quality of Service chapter: service quality, service quality.",
            ),
            (
                "/docs/qos",
                "Quality of Service",
                "Profiles decide how reliably messages are delivered and kept for late joiners.",
            ),
        ];
        let chunks: Vec<ChunkMeta> = (sections.iter().enumerate())
            .map(|(i, (url, path, _))| ChunkMeta {
                chunk_id: format!("default:current:{i}"),
                url: url.to_string(),
                heading_path: path.split(" > ").map(str::to_string).collect(),
                chapter_title: String::new(),
                section_title: String::new(),
                module: "Docs".into(),
                chapter_id: i.to_string(),
                instance: "default".into(),
                version: None,
                word_count: 10,
                position: i,
                hash: i.to_string(),
                parts: Vec::new(),
                name: path.rsplit(" > ").next().and_then(crate::lexical::prose_heading_name),
            })
            .collect();
        let names: Vec<Vec<String>> = chunks.iter().map(ChunkMeta::names).collect();
        let docs: Vec<Document> =
            sections.iter().zip(&names).map(|((_, path, text), n)| Document::new(path, text).with_names(n)).collect();
        let search = HybridSearch::new(chunks, LexicalIndex::build(&docs, IndexOptions::default()).unwrap()).unwrap();
        let options = SearchOptions { k: 2, ..Default::default() };
        assert_eq!(urls(&search, &options, "quality of service"), ["/docs/qos", "/docs/services#next-steps"]);
        assert_eq!(search.lexical().search("quality of service", 1, None)[0].0, 0, "BM25 alone ranks the other first");
    }

    #[test]
    fn a_version_filter_keeps_its_own_copy() {
        let search = versioned();
        let options = SearchOptions { k: 5, versions: vec!["1.0".parse().unwrap()], ..Default::default() };
        let hits = search.search("servo", None, &options).unwrap().hits;
        let mut urls: Vec<&str> = hits.iter().map(|h| search.chunk(h.index).unwrap().url.as_str()).collect();
        urls.sort_unstable();
        assert_eq!(urls, ["/docs/1.0/a", "/docs/1.0/c"], "the filtered version's own copy of \"a\"");
    }

    #[test]
    fn two_instances_with_one_version_name_do_not_mix() {
        let search = in_instances(&[("default", "current"), ("default", "1.0"), ("rules", "1.0")]);
        let scope = |entries: &[&str]| SearchOptions {
            k: 10,
            versions: entries.iter().map(|e| e.parse().unwrap()).collect(),
            ..Default::default()
        };
        let mut got = urls(&search, &scope(&["default:current", "rules:1.0"]), "servo");
        got.sort_unstable();
        // The rules' 1.0 copy of "c" is the docs' 1.0 text: it stands for itself here, as the
        // docs' 1.0 is out of scope.
        assert_eq!(got, ["/docs/current/a", "/docs/current/c", "/rules/1.0/c"]);
        let mut got = urls(&search, &scope(&["default:1.0", "rules:1.0"]), "servo");
        got.sort_unstable();
        assert_eq!(got, ["/docs/1.0/a", "/docs/1.0/c", "/rules/1.0/a"], "each copy once, as its first copy in scope");
        // Without the instance, a version name is every instance's.
        let got = urls(&search, &scope(&["1.0"]), "servo");
        assert!(got.iter().all(|u| u.contains("/1.0/")) && got.iter().any(|u| u.starts_with("/rules/")), "{got:?}");
        // An instance the scope does not name is not limited.
        let got = urls(&search, &scope(&["default:current"]), "servo");
        assert!(
            got.iter().any(|u| u.starts_with("/rules/1.0/")) && !got.iter().any(|u| u.starts_with("/docs/1.0/")),
            "{got:?}"
        );
    }
}
