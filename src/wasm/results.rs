//! What a search takes and returns across the boundary, as plain JS objects: the options
//! (camelCase, like every option) and the results (snake_case data, like the bundle's). The
//! TypeScript declarations are generated from these types (`typescript.rs`); `Retriever`
//! fills them. Compiled on every target, for that generator.

use crate::bundle::ChunkMeta;
use crate::query::Mode;
use crate::search::{Confidence, DocsVersion, NeededFile, SearchError, SearchMode, SearchOptions};
use serde::{Deserialize, Serialize};

/// Search options as JS passes them. Unknown fields are refused, so a typo is an error
/// rather than a silently ignored option.
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "SearchOptions", optional_fields))]
pub struct JsSearchOptions {
    /// Results to return, 1–50 (default 3).
    pub k: Option<usize>,
    /// Default "hybrid": semantic + keywords once the model is loaded, keywords until then.
    pub mode: Option<SearchMode>,
    /// Candidates per list before fusion, >= k (default 30).
    pub candidates: Option<usize>,
    /// Reciprocal-rank-fusion constant, > 0 (default 60).
    pub rrf_k: Option<f32>,
    /// Weight of the semantic list in the fusion, >= 0 (default 1).
    pub dense_weight: Option<f32>,
    /// Weight of the keyword list in the fusion, >= 0 (default 1).
    pub lexical_weight: Option<f32>,
    /// Drop results scoring below this, 0–1 (default 0).
    pub min_score: Option<f32>,
    /// Only chunks of these modules / docs versions (empty: all).
    #[cfg_attr(feature = "typescript", ts(as = "Option<Filters>"))]
    pub filters: Filters,
    /// Keyword search also matches the words the last word begins ("dock" finds "docker")
    /// and, for a word of five letters or more the site never uses, the words one edit away
    /// (default false; a search box's query sets it).
    pub expand_words: Option<bool>,
    /// searchSelection only: retrieve nothing; the selection is the only context.
    #[cfg_attr(feature = "typescript", ts(as = "Option<bool>"))]
    pub selection_only: bool,
    /// search only: the conversation's earlier questions, oldest first (a chat passes them
    /// all; the core decides how many count). A follow-up is then also searched after them,
    /// and the two rankings fused.
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<String>>"))]
    pub earlier: Vec<String>,
    /// The page the reader asks from (`location.href` or its path): its sections rank
    /// higher. The core decides which sections are on it and by how much.
    pub page: Option<String>,
    /// Only sections of `page` ("Ask about this page"); needs `page`.
    #[cfg_attr(feature = "typescript", ts(as = "Option<bool>"))]
    pub page_only: bool,
}

#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct Filters {
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<String>>"))]
    pub modules: Vec<String>,
    /// The docs version of each docs instance to search, as Docusaurus names them
    /// (`{instance: pluginId, version: versionName}`; no instance: that name in any
    /// instance). Unversioned instances, and instances named by no entry, are searched
    /// whole (`search::in_scope`).
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<DocsVersion>>"))]
    pub versions: Vec<DocsVersion>,
}

impl JsSearchOptions {
    /// The core's options: the defaults where none is given, checked.
    pub fn to_core(&self) -> Result<SearchOptions, SearchError> {
        let defaults = SearchOptions::default();
        let k = self.k.unwrap_or(defaults.k);
        let options = SearchOptions {
            k,
            mode: self.mode.unwrap_or(defaults.mode),
            // Never fewer candidates than results asked for.
            candidates: self.candidates.unwrap_or(defaults.candidates.max(k)),
            rrf_k: self.rrf_k.unwrap_or(defaults.rrf_k),
            dense_weight: self.dense_weight.unwrap_or(defaults.dense_weight),
            lexical_weight: self.lexical_weight.unwrap_or(defaults.lexical_weight),
            min_score: self.min_score.unwrap_or(defaults.min_score),
            modules: self.filters.modules.clone(),
            versions: self.filters.versions.clone(),
            page: self.page.clone(),
            page_only: self.page_only,
            expand_words: self.expand_words.unwrap_or(defaults.expand_words),
            ..defaults
        };
        options.validate()?;
        Ok(options)
    }
}

/// The texts whose embeddings a search would use (`Retriever.vectorQuery`).
#[derive(Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct VectorQuery {
    /// The question (in selected mode question + selection): `search`'s `vector`.
    pub text: String,
    /// A follow-up's text in context (the earlier questions that count, then the question):
    /// `search`'s `contextVector`. Absent without earlier questions.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub in_context: Option<String>,
}

/// What `Retriever.search` and `searchSelection` return.
#[derive(Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SearchResults<'a> {
    /// "selected" for `searchSelection`, else "global".
    pub mode: Mode,
    /// The validated (trimmed) question.
    pub question: &'a str,
    /// The validated (trimmed) selection, in selected mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub selection: Option<&'a str>,
    /// null only with `selectionOnly`, where nothing is retrieved.
    pub confidence: Option<Confidence>,
    /// Which search ran; null only with `selectionOnly`.
    pub mode_used: Option<SearchMode>,
    pub hits: Vec<Hit<'a>>,
    /// Files the hits' metadata and text still need (catalog pages first: attach, then ask
    /// `filesForChunks` again).
    pub missing: Vec<NeededFile>,
    /// Parts of the keyword index the question needed but which could not be loaded
    /// (`markUnavailable`): the search went without their terms, and its confidence is at
    /// most low. Empty: the search was whole.
    pub unavailable: Vec<NeededFile>,
    /// Keyword search stood in for semantic search while it is on its way (the model suits
    /// the index's language and has neither arrived nor failed: `setLoadState`) and its
    /// evidence is weak: a better answer is likely once semantic search is ready.
    pub provisional: bool,
}

/// One result of a search.
#[derive(Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Hit<'a> {
    /// Chunk index in the bundle.
    pub index: u32,
    /// Its chunk shard (over all chunk shards), once its catalog page is attached.
    pub shard: Option<usize>,
    /// 0–1 relevance: the cosine when the search was semantic, else normalised BM25.
    pub score: f32,
    pub dense: Option<f32>,
    pub lexical: Option<f32>,
    pub fused: f32,
    /// null until the chunk's metadata shard is attached (see `missing`).
    pub chunk: Option<&'a ChunkMeta>,
    /// null until the chunk's text shard is attached (see `missing`).
    pub text: Option<&'a str>,
}

/// The merged short section of a result's chunk that the query matched
/// (`Retriever.matchedPart`): where a result row links and what it shows, in place of the
/// section the chunk is named after.
#[derive(Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct MatchedPart<'a> {
    /// Its index in the chunk's `parts`.
    pub part: u32,
    /// Its own permalink (with its `#anchor`).
    pub url: &'a str,
    /// Page title › … › its own heading.
    pub heading_path: &'a [String],
    /// Its text (its heading line first).
    pub text: &'a str,
}
