//! Runs labelled questions through the same search the browser runs (`HybridSearch`, and
//! `query::selected_mode_query` for selections) and records each outcome.

use super::metrics::Outcome;
use super::questions::{selection_text, Question};
use lectern::bundle::page_path;
use lectern::chat::{pack_context, RetrievedChunk, RetrievedPart, SiteOrigins, DEFAULT_CONTEXT_TOKENS, DEFAULT_K};
use lectern::embed::Embedder;
use lectern::search::{
    follow_up_query, matched_part, Confidence, FollowUpOptions, HybridSearch, SearchMode, SearchOptions,
};
use std::collections::HashMap;

/// Sections the LLM read whole before issue 25 (the first five): `context_recall_top5`.
const TOP_SECTIONS: usize = 5;

/// The page each question is asked from (`lectern eval --asked-from`): the reader's page
/// boosts its sections (`SearchOptions::page`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum AskedFrom {
    /// No page (the search box, or a page the index does not have).
    #[default]
    None,
    /// The page of the question's first expected section.
    Own,
    /// A page of another module of the site that holds no expected section (the same one
    /// on every run: the first such page half the site away from its own).
    Other,
}

/// One bundle ready to question, with the query vectors computed so far.
pub struct Evaluator<'a> {
    pub search: &'a HybridSearch,
    pub texts: &'a [String],
    /// The model, for the modes that embed the question (none: keyword search only).
    pub embedder: Option<&'a Embedder>,
    /// How follow-ups are retrieved (`turns` 0: each question alone, as before issue 25).
    pub follow_up: FollowUpOptions,
    pub asked_from: AskedFrom,
    /// Every page in site order, with its module.
    pages: Vec<(String, String)>,
    /// The chat's context: candidates retrieved (`k`) and the token budget they are packed to.
    pub context_k: usize,
    pub context_tokens: usize,
    vectors: HashMap<String, Vec<f32>>,
}

impl<'a> Evaluator<'a> {
    pub fn new(search: &'a HybridSearch, texts: &'a [String], embedder: Option<&'a Embedder>) -> Self {
        let mut pages: Vec<(String, String)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for chunk in search.chunks() {
            let path = page_path(&chunk.url);
            if seen.insert(path.clone()) {
                pages.push((path, chunk.module.clone()));
            }
        }
        Evaluator {
            search,
            texts,
            embedder,
            follow_up: FollowUpOptions::default(),
            asked_from: AskedFrom::None,
            pages,
            context_k: DEFAULT_K as usize,
            context_tokens: DEFAULT_CONTEXT_TOKENS as usize,
            vectors: HashMap::new(),
        }
    }

    /// The page `q` is asked from under `asked_from` (unanswerable questions: none).
    pub fn page_for(&self, q: &Question) -> Option<String> {
        let own = page_path(q.expected.first()?);
        if self.asked_from == AskedFrom::Own {
            return Some(own);
        }
        if self.asked_from == AskedFrom::None {
            return None;
        }
        let pages = &self.pages;
        let expected: Vec<String> = q.expected.iter().map(|u| page_path(u)).collect();
        let at = pages.iter().position(|p| p.0 == own)?;
        let module = &pages[at].1;
        let n = pages.len();
        let unrelated = |other_module: bool| {
            (0..n)
                .map(|i| &pages[(at + n / 2 + i) % n])
                .find(|p| !expected.contains(&p.0) && (!other_module || p.1 != *module))
                .map(|p| p.0.clone())
        };
        // A site of one module: any page that holds no answer.
        unrelated(true).or_else(|| unrelated(false))
    }

    /// The text of the section at `url`: its chunks' texts in order, joined by a space.
    pub fn section_text(&self, url: &str) -> Option<String> {
        let parts: Vec<&str> = self
            .search
            .chunks()
            .iter()
            .zip(self.texts)
            .filter(|(c, _)| c.url == url)
            .map(|(_, t)| t.as_str())
            .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// The first section whose text contains `passage` (whitespace-insensitive).
    fn section_containing(&self, passage: &str) -> Option<String> {
        let squeeze = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        let passage = squeeze(passage);
        let mut seen = std::collections::HashSet::new();
        self.search
            .chunks()
            .iter()
            .map(|c| c.url.as_str())
            .filter(|url| seen.insert(*url))
            .find(|url| self.section_text(url).is_some_and(|t| squeeze(&t).contains(&passage)))
            .map(str::to_string)
    }

    /// Every expected and selection URL that the bundle does not have: a question file out of
    /// step with the site would otherwise read as misses.
    pub fn unknown_urls(&self, questions: &[Question]) -> Vec<String> {
        let known: std::collections::HashSet<&str> = (self.search.chunks().iter())
            .flat_map(|c| std::iter::once(c.url.as_str()).chain(c.parts.iter().map(|p| p.url.as_str())))
            .collect();
        let mut unknown = Vec::new();
        for q in questions {
            let selection = match &q.selection {
                Some(super::questions::SelectionSpec::Passage { of, .. }) => Some(of),
                _ => None,
            };
            for url in q.expected.iter().chain(selection) {
                if !known.contains(url.as_str()) {
                    unknown.push(format!("{}: {url}", q.id));
                }
            }
        }
        unknown
    }

    pub fn run(&mut self, q: &Question, mode: SearchMode, options: &SearchOptions) -> Result<Outcome, String> {
        let (query, selection_of) = match &q.selection {
            Some(spec) => {
                let (text, of) =
                    selection_text(spec, |url| self.section_text(url)).map_err(|e| format!("{}: {e}", q.id))?;
                let selection = lectern::query::selection(&text).map_err(|e| format!("{}: {}", q.id, e.message()))?;
                let question =
                    lectern::query::question(&q.question).map_err(|e| format!("{}: {}", q.id, e.message()))?;
                // A literal selection belongs to the section that contains it.
                let of = of.map(str::to_string).or_else(|| self.section_containing(&text));
                (lectern::query::selected_mode_query(question, selection), of)
            }
            None => {
                let question =
                    lectern::query::question(&q.question).map_err(|e| format!("{}: {}", q.id, e.message()))?;
                (question.to_string(), None)
            }
        };
        let vector = match mode {
            SearchMode::Lexical => None,
            SearchMode::Dense | SearchMode::Hybrid => Some(self.vector(&query)?),
        };
        // Every fused candidate: the reader's k results are a prefix of this list.
        let options = SearchOptions { k: options.candidates.min(50), mode, page: self.page_for(q), ..options.clone() };
        let results = if q.is_follow_up() && self.follow_up.turns > 0 {
            let context_vector = match mode {
                SearchMode::Lexical => None,
                _ => Some(self.vector(&follow_up_query(&query, &q.previous, self.follow_up.turns))?),
            };
            self.search
                .search_follow_up(
                    &query,
                    vector.as_deref(),
                    context_vector.as_deref(),
                    &q.previous,
                    &options,
                    &self.follow_up,
                )
                .map_err(|e| format!("{}: {e}", q.id))?
        } else {
            self.search.search(&query, vector.as_deref(), &options).map_err(|e| format!("{}: {e}", q.id))?
        };
        // Each result links to the part of its chunk that matched (a merged short section's own anchor).
        let urls: Vec<String> = results
            .hits
            .iter()
            .filter_map(|h| {
                let chunk = self.search.chunk(h.index)?;
                let text = self.texts.get(h.index as usize).map_or("", String::as_str);
                Some(chunk.part_url(matched_part(chunk, text, &query, self.search.lexical())).to_string())
            })
            .collect();
        let confidence = format!("{:?}", results.confidence).to_lowercase();
        let rule = match results.mode_used {
            SearchMode::Lexical => &options.keyword_confidence,
            SearchMode::Dense | SearchMode::Hybrid => &options.semantic_confidence,
        };
        // What the LLM read before: the first five sections, whole.
        let mut top: Vec<String> = Vec::new();
        for url in &urls {
            if top.len() == TOP_SECTIONS {
                break;
            }
            if !top.contains(url) {
                top.push(url.clone());
            }
        }
        // What the chat sends it now: the first `k` results' best passages, packed (the same
        // function, on the chunks as the retrieval API gives them).
        let retrieved: Vec<RetrievedChunk> =
            results.hits.iter().take(self.context_k).filter_map(|h| self.retrieved(h.index, h.score)).collect();
        let origins: Vec<&str> = retrieved.iter().map(|c| c.url.as_str()).collect();
        let packed = pack_context(&query, &retrieved, &SiteOrigins::new(&origins), self.context_tokens);
        let context = packed.into_iter().map(|s| s.reference.url).collect();
        let mut outcome = Outcome::new(q, urls, results.confidence == Confidence::None, confidence, selection_of);
        outcome.confidence_score = rule.score(&results.signals);
        outcome.signals = results.signals;
        outcome.context = context;
        outcome.context_top5 = top;
        Ok(outcome)
    }

    /// Chunk `index` as the retrieval API hands it to the chat.
    fn retrieved(&self, index: u32, score: f32) -> Option<RetrievedChunk> {
        let chunk = self.search.chunk(index)?;
        Some(RetrievedChunk {
            chunk_id: chunk.chunk_id.clone(),
            url: chunk.url.clone(),
            heading_path: chunk.heading_path.clone(),
            chapter_title: chunk.chapter_title.clone(),
            section_title: chunk.section_title.clone(),
            module: chunk.module.clone(),
            text: self.texts.get(index as usize).cloned(),
            score,
            parts: (chunk.parts.iter())
                .map(|p| RetrievedPart {
                    url: p.url.clone(),
                    heading_path: p.heading_path.clone(),
                    start: p.start,
                    end: p.end,
                })
                .collect(),
        })
    }

    /// The embedding of `text` (computed once per text).
    pub fn vector(&mut self, text: &str) -> Result<Vec<f32>, String> {
        if let Some(v) = self.vectors.get(text) {
            return Ok(v.clone());
        }
        let embedder = self.embedder.ok_or("no model to embed the question with")?;
        let v = embedder.embed(text).map_err(|e| e.to_string())?;
        self.vectors.insert(text.to_string(), v.clone());
        Ok(v)
    }
}
