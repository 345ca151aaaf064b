//! `Retriever`: one bundle, loaded in steps so the browser can answer before everything has
//! arrived — manifest, then chunk metadata + lexical index (keyword search works), then the
//! dense index (hybrid search, with the vectors of the embedder module), and chunk text shard
//! by shard as results need it. The caller fetches; this only verifies, parses and searches.
//! It lives in the small core module: the embedder (tract) is another module, in a worker of
//! its own, so a search is two steps: `vectorQuery` names the text whose vector the search
//! would use (none for a keyword search), and `search` takes that vector if it came.

use super::convert::{from_js, to_js};
use super::errors::{bundle_error, invalid_error, js_error, search_error, Code};
use crate::bundle::{BundleReader, ChunkMeta};
use crate::query;
use crate::search::{Confidence, HybridSearch, SearchMode, SearchOptions};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Retriever {
    reader: BundleReader,
    search: Option<HybridSearch>,
    /// Chunk texts per text shard, once attached.
    texts: Vec<Option<Vec<String>>>,
}

#[wasm_bindgen]
impl Retriever {
    /// Parses and checks `manifest.json` (format, version, consistency).
    #[wasm_bindgen(constructor)]
    pub fn new(manifest: &[u8]) -> Result<Retriever, JsError> {
        let reader = BundleReader::new(manifest).map_err(|e| bundle_error(Code::IndexUnavailable, e))?;
        let shards = reader.manifest().files.text.len();
        Ok(Retriever { reader, search: None, texts: vec![None; shards] })
    }

    /// The parsed manifest, for the file names to fetch.
    #[wasm_bindgen(unchecked_return_type = "Manifest")]
    pub fn manifest(&self) -> Result<JsValue, JsError> {
        to_js(self.reader.manifest())
    }

    /// Verifies and loads the chunk metadata and the lexical index: keyword search works
    /// from here on.
    #[wasm_bindgen(js_name = loadLexical)]
    pub fn load_lexical(&mut self, chunks: &[u8], lexical: &[u8]) -> Result<(), JsError> {
        let index_error = |e| bundle_error(Code::IndexUnavailable, e);
        let chunks = self.reader.chunks(chunks).map_err(index_error)?;
        let lexical = self.reader.lexical(lexical).map_err(index_error)?;
        if self.search.is_some() {
            return Err(js_error(Code::InvalidArgument, "the lexical index is already loaded", None));
        }
        self.search = Some(HybridSearch::new(chunks, lexical).map_err(search_error)?);
        Ok(())
    }

    /// Verifies and attaches the dense index (vectors + graph).
    #[wasm_bindgen(js_name = attachDense)]
    pub fn attach_dense(&mut self, dense: &[u8]) -> Result<(), JsError> {
        let search = self.search.as_mut().ok_or_else(not_loaded)?;
        let dense = self.reader.dense(dense).map_err(|e| bundle_error(Code::IndexUnavailable, e))?;
        search.attach_dense(dense).map_err(search_error)
    }

    /// Checks that a model fingerprint (the embedder module's `modelFingerprint`) is the one
    /// the index was built with. `MODEL_MISMATCH` if not.
    #[wasm_bindgen(js_name = checkModel)]
    pub fn check_model(&self, fingerprint: &str) -> Result<(), JsError> {
        self.reader.manifest().check_model(fingerprint).map_err(|e| bundle_error(Code::ModelMismatch, e))
    }

    /// Keyword search is possible (chunk metadata and lexical index loaded).
    #[wasm_bindgen(getter = lexicalReady)]
    pub fn lexical_ready(&self) -> bool {
        self.search.is_some()
    }

    /// The dense index is attached: with an embedder, semantic search is possible.
    #[wasm_bindgen(getter = denseReady)]
    pub fn dense_ready(&self) -> bool {
        self.search.as_ref().is_some_and(HybridSearch::has_dense)
    }

    /// The text whose embedding a search with these arguments would use — the question, or
    /// in selected mode question + selection — or `undefined` when it would use none (keyword
    /// mode, no dense index yet, selection only). Refuses what `search` would refuse.
    #[wasm_bindgen(js_name = vectorQuery)]
    pub fn vector_query(
        &self,
        question: &str,
        selection: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions | undefined")] options: JsValue,
    ) -> Result<Option<String>, JsError> {
        let question = query::question(question).map_err(invalid_error)?;
        let selection = selection.as_deref().map(query::selection).transpose().map_err(invalid_error)?;
        let options: JsSearchOptions = from_js(options)?;
        let mode = options.to_core()?.mode;
        let dense = self.search.as_ref().is_some_and(HybridSearch::has_dense);
        if !dense || !matches!(mode, SearchMode::Hybrid | SearchMode::Dense) || options.selection_only {
            return Ok(None);
        }
        Ok(Some(match selection {
            Some(selection) => query::selected_mode_query(question, selection),
            None => question.to_string(),
        }))
    }

    /// Searches for `question` (global mode). Semantic when the dense index is attached and
    /// `vector` (the embedding of `vectorQuery`'s text, from the embedder module) is given,
    /// else lexical; `mode_used` says which ran. Hits whose text shard is not attached yet
    /// have `text: null` and their shard is listed in `missing_shards`.
    #[wasm_bindgen(unchecked_return_type = "SearchResults")]
    pub fn search(
        &self,
        question: &str,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions | undefined")] options: JsValue,
        vector: Option<Vec<f32>>,
    ) -> Result<JsValue, JsError> {
        let question = query::question(question).map_err(invalid_error)?;
        let options: JsSearchOptions = from_js(options)?;
        let results = self.run(question, &options, vector)?;
        to_js(&results.with_mode("global", None))
    }

    /// Selected-text mode (SPEC.md §3): the selection is the primary context; retrieval runs
    /// on question + selection and returns related sections. With `selectionOnly` nothing
    /// is retrieved: the selection is the only context.
    #[wasm_bindgen(js_name = searchSelection, unchecked_return_type = "SearchResults")]
    pub fn search_selection(
        &self,
        selection: &str,
        question: &str,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions | undefined")] options: JsValue,
        vector: Option<Vec<f32>>,
    ) -> Result<JsValue, JsError> {
        let selection = query::selection(selection).map_err(invalid_error)?;
        let question = query::question(question).map_err(invalid_error)?;
        let options: JsSearchOptions = from_js(options)?;
        if options.selection_only {
            let empty =
                Results { question, confidence: None, mode_used: None, hits: Vec::new(), missing_shards: Vec::new() };
            return to_js(&empty.with_mode("selected", Some(selection)));
        }
        let combined = query::selected_mode_query(question, selection);
        let mut results = self.run(&combined, &options, vector)?;
        results.question = question;
        to_js(&results.with_mode("selected", Some(selection)))
    }

    /// Verifies and attaches text shard `shard` (its index in `manifest.files.text`).
    #[wasm_bindgen(js_name = attachText)]
    pub fn attach_text(&mut self, shard: usize, bytes: &[u8]) -> Result<(), JsError> {
        let entry = self
            .reader
            .manifest()
            .files
            .text
            .get(shard)
            .ok_or_else(|| js_error(Code::InvalidArgument, format!("no text shard {shard}"), None))?;
        let texts = self.reader.text_shard(entry, bytes).map_err(|e| bundle_error(Code::TextUnavailable, e))?;
        self.texts[shard] = Some(texts);
        Ok(())
    }

    /// The text shard (index in `manifest.files.text`) that holds chunk `chunk`.
    #[wasm_bindgen(js_name = shardOf)]
    pub fn shard_of(&self, chunk: usize) -> Result<usize, JsError> {
        self.shard_index(chunk).ok_or_else(|| no_chunk(chunk))
    }

    /// The text of chunk `chunk`; `TEXT_UNAVAILABLE` until its shard is attached.
    pub fn text(&self, chunk: usize) -> Result<String, JsError> {
        let shard = self.shard_of(chunk)?;
        self.chunk_text(chunk, shard).map(str::to_string).ok_or_else(|| {
            js_error(
                Code::TextUnavailable,
                format!("the text shard of chunk {chunk} is not loaded"),
                Some("NOT_LOADED"),
            )
        })
    }
}

impl Retriever {
    fn run<'a>(
        &'a self,
        question: &'a str,
        options: &JsSearchOptions,
        vector: Option<Vec<f32>>,
    ) -> Result<Results<'a>, JsError> {
        let search = self.search.as_ref().ok_or_else(not_loaded)?;
        let options = options.to_core()?;
        // A vector is used only where vectorQuery asked for one.
        let vector =
            vector.filter(|_| search.has_dense() && matches!(options.mode, SearchMode::Hybrid | SearchMode::Dense));
        let found = search.search(question, vector.as_deref(), &options).map_err(search_error)?;
        let mut missing_shards: Vec<usize> = Vec::new();
        let mut hits = Vec::with_capacity(found.hits.len());
        for hit in found.hits {
            let index = hit.index as usize;
            let chunk = search.chunk(hit.index).ok_or_else(|| no_chunk(index))?;
            let shard = self.shard_index(index).ok_or_else(|| no_chunk(index))?;
            let text = self.chunk_text(index, shard);
            if text.is_none() && !missing_shards.contains(&shard) {
                missing_shards.push(shard);
            }
            hits.push(JsHit {
                index: hit.index,
                shard,
                score: hit.score,
                dense: hit.dense,
                lexical: hit.lexical,
                fused: hit.fused,
                chunk,
                text,
            });
        }
        Ok(Results {
            question,
            confidence: Some(found.confidence),
            mode_used: Some(found.mode_used),
            hits,
            missing_shards,
        })
    }

    fn shard_index(&self, chunk: usize) -> Option<usize> {
        let shards = &self.reader.manifest().files.text;
        shards.iter().position(|s| chunk >= s.first_chunk && chunk < s.first_chunk + s.count)
    }

    fn chunk_text(&self, chunk: usize, shard: usize) -> Option<&str> {
        let first = self.reader.manifest().files.text.get(shard)?.first_chunk;
        self.texts.get(shard)?.as_ref()?.get(chunk - first).map(String::as_str)
    }
}

/// Search options as JS passes them (camelCase; unknown fields are refused so a typo is
/// an error, not a silently ignored option).
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct JsSearchOptions {
    k: Option<usize>,
    mode: Option<SearchMode>,
    candidates: Option<usize>,
    rrf_k: Option<f32>,
    dense_weight: Option<f32>,
    lexical_weight: Option<f32>,
    min_score: Option<f32>,
    filters: Filters,
    /// Selected mode only: no retrieval, the selection is the only context.
    selection_only: bool,
}

#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Filters {
    modules: Vec<String>,
    versions: Vec<String>,
}

impl JsSearchOptions {
    fn to_core(&self) -> Result<SearchOptions, JsError> {
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
            ..defaults
        };
        options.validate().map_err(search_error)?;
        Ok(options)
    }
}

#[derive(Serialize)]
struct Results<'a> {
    question: &'a str,
    /// `null` only in selection-only mode, where nothing is retrieved.
    confidence: Option<Confidence>,
    mode_used: Option<SearchMode>,
    hits: Vec<JsHit<'a>>,
    missing_shards: Vec<usize>,
}

impl<'a> Results<'a> {
    fn with_mode(self, mode: &'static str, selection: Option<&'a str>) -> Tagged<'a> {
        Tagged { mode, selection, results: self }
    }
}

#[derive(Serialize)]
struct Tagged<'a> {
    /// `global` or `selected` (SPEC.md §2's query mode).
    mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    selection: Option<&'a str>,
    #[serde(flatten)]
    results: Results<'a>,
}

#[derive(Serialize)]
struct JsHit<'a> {
    index: u32,
    shard: usize,
    score: f32,
    dense: Option<f32>,
    lexical: Option<f32>,
    fused: f32,
    chunk: &'a ChunkMeta,
    text: Option<&'a str>,
}

fn not_loaded() -> JsError {
    js_error(Code::IndexUnavailable, "the search index is not loaded yet", Some("NOT_LOADED"))
}

fn no_chunk(chunk: usize) -> JsError {
    js_error(Code::InvalidArgument, format!("no chunk {chunk} in this index"), None)
}
