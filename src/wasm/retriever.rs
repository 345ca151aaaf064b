//! `Retriever`: one bundle, loaded in parts so the browser fetches only what a question
//! needs — the manifest and chunk table at open (keyword search possible), then per question
//! the term shards of its terms (`filesFor`), per result the chunk shard with its metadata
//! and text (`missing` in the results), and the dense index with the model (hybrid search).
//! The caller fetches what it is told and hands the bytes to `attach`; which files a
//! question needs is decided here, by the tokenizer that built the index, never in JS. A
//! term shard that cannot be loaded is marked (`markUnavailable`) and the question scored
//! from the rest (`unavailable` in the results).
//! It lives in the search module: the embedder (tract) is another module, in a worker of
//! its own, so a search is two steps: `vectorQuery` names the text whose vector the search
//! would use (none for a keyword search), and `search` takes that vector if it came. A
//! follow-up (options `earlier`: the conversation's earlier questions) is also searched in
//! context, so it names a second text (`in_context`), with term shards and a vector of its own.

use super::codes::Code;
use super::convert::{from_js, to_js};
use super::errors::{bundle_error, invalid_error, js_error, search_error};
use super::results::{Hit, JsSearchOptions, MatchedPart, SearchResults, VectorQuery};
use crate::loading::LoadState;
use crate::query::{self, Mode};
use crate::search::follow_ups;
use crate::search::{
    in_context_query, Confidence, FollowUpOptions, NeededFile, Part, SearchMode, ShardedError, ShardedSearch,
};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Retriever {
    inner: ShardedSearch,
    /// Where the runtime's loading is (the worker hands over each state of the loading
    /// machine): with the index's language, it decides whether semantic search is coming.
    load: LoadState,
}

#[wasm_bindgen]
impl Retriever {
    /// Parses and checks `manifest.json` (format, version, consistency).
    #[wasm_bindgen(constructor)]
    pub fn new(manifest: &[u8]) -> Result<Retriever, JsError> {
        let inner = ShardedSearch::new(manifest).map_err(|e| bundle_error(Code::IndexUnavailable, e))?;
        Ok(Retriever { inner, load: LoadState::Opening })
    }

    /// The parsed manifest, for the file names to fetch.
    #[wasm_bindgen(unchecked_return_type = "Manifest")]
    pub fn manifest(&self) -> Result<JsValue, JsError> {
        to_js(self.inner.manifest())
    }

    /// Whether semantic search suits the index's language (the manifest's `site.language`;
    /// the model is English): when not, the model is never loaded and every search is by
    /// keywords (`search::semantic_search_fits`).
    #[wasm_bindgen(js_name = semanticSearchFits)]
    pub fn semantic_search_fits(&self) -> bool {
        self.inner.manifest().semantic_search_fits()
    }

    /// Tells the index where loading is (a `LoadState` from the loading machine, `Loading`):
    /// a weak keyword answer is `provisional` only while semantic search is coming, which it
    /// is not after the model failed nor for an index whose language the model does not suit.
    #[wasm_bindgen(js_name = setLoadState)]
    pub fn set_load_state(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "LoadState")] state: JsValue,
    ) -> Result<(), JsError> {
        self.load = from_js(state)?;
        Ok(())
    }

    /// Whether semantic search is on its way: the model suits the language and has neither
    /// arrived nor failed.
    fn semantic_coming(&self) -> bool {
        self.semantic_search_fits() && self.load.semantic_coming()
    }

    /// Verifies and loads the chunk table (`manifest.files.chunk_table`): keyword search
    /// works from here on, once each question's term shards are attached (`filesFor`).
    #[wasm_bindgen(js_name = loadTable)]
    pub fn load_table(&mut self, table: &[u8]) -> Result<(), JsError> {
        self.inner.attach_chunk_table(table).map_err(|e| sharded_error(Code::IndexUnavailable, e))
    }

    /// The catalog pages to fetch and `attach` with the chunk table, before any question (all
    /// of a small site's; none of a large one's).
    #[wasm_bindgen(js_name = filesAtOpen, unchecked_return_type = "NeededFile[]")]
    pub fn files_at_open(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.files_at_open())
    }

    /// The files a search with these arguments still needs before it can run (catalog pages
    /// first, then term shards: attach them, then ask again until this is empty). Refuses
    /// what `search` / `searchSelection` would refuse.
    #[wasm_bindgen(js_name = filesFor, unchecked_return_type = "NeededFile[]")]
    pub fn files_for(
        &self,
        question: &str,
        selection: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions | undefined")] options: JsValue,
    ) -> Result<JsValue, JsError> {
        let question = query::question(question).map_err(invalid_error)?;
        let selection = selection.as_deref().map(query::selection).transpose().map_err(invalid_error)?;
        let options: JsSearchOptions = from_js(options)?;
        let core = options.to_core().map_err(search_error)?;
        let expand = core.expand_words;
        let mut files = match selection {
            Some(_) if options.selection_only => return to_js(&Vec::<NeededFile>::new()),
            Some(selection) => self.inner.files_for_query(&query::selected_mode_query(question, selection), expand),
            None => self.inner.files_for_follow_up(question, &options.earlier, &FollowUpOptions::default(), expand),
        };
        // A follow-up may have named the page table already.
        if let Some(page) = self.inner.files_for_page(&core).filter(|p| !files.iter().any(|f| f.name == p.name)) {
            files.push(page);
        }
        to_js(&files)
    }

    /// The files still needed for the metadata and text of chunks `indices` (catalog pages
    /// first, then chunk shards; ask again after attaching).
    #[wasm_bindgen(js_name = filesForChunks, unchecked_return_type = "NeededFile[]")]
    pub fn files_for_chunks(&self, indices: &[u32]) -> Result<JsValue, JsError> {
        to_js(&self.inner.files_for_chunks(indices))
    }

    /// The files a semantic search for these vectors (the question's, and a follow-up's in
    /// context, as `vectorQuery` named them) still needs of a dense index in parts: catalog
    /// pages, the nearest partitions' codes, then the best candidates' int8 rows (attach
    /// them, then ask again until this is empty; empty for a dense index in one file).
    #[wasm_bindgen(js_name = filesForVector, unchecked_return_type = "NeededFile[]")]
    pub fn files_for_vector(
        &self,
        vector: Option<Vec<f32>>,
        context_vector: Option<Vec<f32>>,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions | undefined")] options: JsValue,
    ) -> Result<JsValue, JsError> {
        let options: JsSearchOptions = from_js(options)?;
        let options = options.to_core().map_err(search_error)?;
        let files = self
            .inner
            .files_for_vectors(vector.as_deref(), context_vector.as_deref(), &options)
            .map_err(|e| sharded_error(Code::IndexUnavailable, e))?;
        to_js(&files)
    }

    /// Verifies and attaches a file named by `filesFor`, `filesForVector`, `filesForChunks`
    /// or a search's `missing`: `part` and `id` as given there.
    pub fn attach(&mut self, part: &str, id: usize, bytes: &[u8]) -> Result<(), JsError> {
        let part = Part::from_name(part)
            .ok_or_else(|| js_error(Code::InvalidArgument, format!("no part {part:?} in an index"), None))?;
        let code = match part {
            Part::Meta | Part::Text | Part::Chunks | Part::ChunkPage => Code::TextUnavailable,
            Part::TermPage | Part::Terms | Part::DensePage | Part::Dense | Part::Pages => Code::IndexUnavailable,
        };
        self.inner.attach(part, id, bytes).map_err(|e| sharded_error(code, e))
    }

    /// Marks a term shard or term catalog page (`part`, `id` as `filesFor` named it) that
    /// could not be loaded, after its retry: searches go on without its terms (the results
    /// list it in `unavailable`, at most low confidence) until it is attached. A dense part
    /// (`filesForVector`) marked so makes the searches that need it keyword searches
    /// (`modeUsed` lexical, at most low confidence).
    #[wasm_bindgen(js_name = markUnavailable)]
    pub fn mark_unavailable(&mut self, part: &str, id: usize) -> Result<(), JsError> {
        let part = Part::from_name(part)
            .ok_or_else(|| js_error(Code::InvalidArgument, format!("no part {part:?} in an index"), None))?;
        self.inner.mark_unavailable(part, id).map_err(|e| sharded_error(Code::IndexUnavailable, e))
    }

    /// Verifies and attaches the dense index (vectors + graph), or the head of the dense
    /// index in parts (`manifest.files.dense` either way).
    #[wasm_bindgen(js_name = attachDense)]
    pub fn attach_dense(&mut self, dense: &[u8]) -> Result<(), JsError> {
        let dense = self.inner.read_dense(dense).map_err(|e| bundle_error(Code::IndexUnavailable, e))?;
        let search = self.inner.search_mut().ok_or_else(not_loaded)?;
        search.attach_dense(dense).map_err(search_error)
    }

    /// Verifies the catalog page of the model's word table (`manifest.model.words`) and lists
    /// its shards in table order: the embedder names those a question needs by index.
    #[wasm_bindgen(js_name = wordFiles, unchecked_return_type = "FileEntry[]")]
    pub fn word_files(&self, page: &[u8]) -> Result<JsValue, JsError> {
        to_js(&self.inner.word_files(page).map_err(|e| bundle_error(Code::ModelUnavailable, e))?)
    }

    /// Checks that a model fingerprint (the embedder module's `modelFingerprint`) is the one
    /// the index was built with. `MODEL_MISMATCH` if not.
    #[wasm_bindgen(js_name = checkModel)]
    pub fn check_model(&self, fingerprint: &str) -> Result<(), JsError> {
        self.inner.manifest().check_model(fingerprint).map_err(|e| bundle_error(Code::ModelMismatch, e))
    }

    /// Keyword search is possible (the chunk table is loaded).
    #[wasm_bindgen(getter = lexicalReady)]
    pub fn lexical_ready(&self) -> bool {
        self.inner.ready()
    }

    /// The dense index is attached: with an embedder, semantic search is possible.
    #[wasm_bindgen(getter = denseReady)]
    pub fn dense_ready(&self) -> bool {
        self.inner.search_ref().is_some_and(|s| s.has_dense())
    }

    /// The texts whose embeddings a search with these arguments would use — the question, or
    /// in selected mode question + selection, and for a follow-up (`earlier` given) its text
    /// in context — or `undefined` when it would use none (keyword mode, no dense index yet,
    /// selection only). Refuses what `search` would refuse.
    #[wasm_bindgen(js_name = vectorQuery, unchecked_return_type = "VectorQuery | undefined")]
    pub fn vector_query(
        &self,
        question: &str,
        selection: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions | undefined")] options: JsValue,
    ) -> Result<JsValue, JsError> {
        let question = query::question(question).map_err(invalid_error)?;
        let selection = selection.as_deref().map(query::selection).transpose().map_err(invalid_error)?;
        let options: JsSearchOptions = from_js(options)?;
        let mode = options.to_core().map_err(search_error)?.mode;
        if !self.dense_ready() || !matches!(mode, SearchMode::Hybrid | SearchMode::Dense) || options.selection_only {
            return Ok(JsValue::UNDEFINED);
        }
        to_js(&match selection {
            Some(selection) => VectorQuery { text: query::selected_mode_query(question, selection), in_context: None },
            None => VectorQuery {
                text: question.to_string(),
                in_context: in_context_query(question, &options.earlier, &FollowUpOptions::default()),
            },
        })
    }

    /// Searches for `question` (global mode), once `filesFor` has nothing left to fetch.
    /// Semantic when the dense index is attached and `vector` (the embedding of
    /// `vectorQuery`'s `text`, from the embedder module) is given — and for a follow-up
    /// `contextVector` too (that of its `in_context`) — else lexical; `mode_used` says which
    /// ran. Hits whose chunk shard is not attached yet have `chunk` and `text` null, and
    /// `missing` lists the files they need.
    #[wasm_bindgen(unchecked_return_type = "SearchResults")]
    pub fn search(
        &self,
        question: &str,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions | undefined")] options: JsValue,
        vector: Option<Vec<f32>>,
        #[wasm_bindgen(js_name = contextVector)] context_vector: Option<Vec<f32>>,
    ) -> Result<JsValue, JsError> {
        let question = query::question(question).map_err(invalid_error)?;
        let options: JsSearchOptions = from_js(options)?;
        to_js(&self.run(question, &options.earlier, &options, vector, context_vector)?)
    }

    /// Selected-text mode: the selection is the primary context; retrieval runs
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
            let empty = SearchResults {
                mode: Mode::Selected,
                question,
                selection: Some(selection),
                confidence: None,
                mode_used: None,
                hits: Vec::new(),
                missing: Vec::new(),
                unavailable: Vec::new(),
                provisional: false,
            };
            return to_js(&empty);
        }
        let combined = query::selected_mode_query(question, selection);
        let no_earlier: [&str; 0] = [];
        let results = self.run(&combined, &no_earlier, &options, vector, None)?;
        to_js(&SearchResults { mode: Mode::Selected, question, selection: Some(selection), ..results })
    }

    /// Follow-up suggestions, step 1: the files still needed (catalog pages first, then
    /// metadata shards; ask again after attaching) to know the neighbours of the sections an
    /// answer cited. `retrieved`: the answer's retrieved chunks (`index` of each, in rank
    /// order); `cited`: the URLs of its sources.
    #[wasm_bindgen(js_name = followUpFiles, unchecked_return_type = "NeededFile[]")]
    pub fn follow_up_files(&self, retrieved: &[u32], cited: Vec<String>) -> Result<JsValue, JsError> {
        let search = self.inner.search_ref().ok_or_else(not_loaded)?;
        let cited = follow_ups::cited_chunks(retrieved, &cited, |i| self.inner.chunk(i));
        to_js(&self.inner.files_for_chunk_metas(&follow_ups::neighbour_window(&cited, search.len())))
    }

    /// Step 2: the questions to search (each as a follow-up after `earlier`, the conversation's
    /// questions, the answered one last) before any is suggested.
    #[wasm_bindgen(js_name = followUpCandidates, unchecked_return_type = "FollowUpCandidate[]")]
    pub fn follow_up_candidates(
        &self,
        retrieved: &[u32],
        cited: Vec<String>,
        earlier: Vec<String>,
    ) -> Result<JsValue, JsError> {
        let search = self.inner.search_ref().ok_or_else(not_loaded)?;
        let chunk = |i| self.inner.chunk(i);
        let cited = follow_ups::cited_chunks(retrieved, &cited, chunk);
        let phrasing = self.inner.manifest().follow_up_phrasing();
        to_js(&follow_ups::candidates(&cited, chunk, search.len(), &earlier, phrasing))
    }

    /// Step 3: the suggestions to show, given each candidate's search confidence (in order;
    /// `null` where its search failed): never one the index would refuse.
    #[wasm_bindgen(js_name = chooseFollowUps, unchecked_return_type = "FollowUp[]")]
    pub fn choose_follow_ups(
        &self,
        #[wasm_bindgen(unchecked_param_type = "FollowUpCandidate[]")] candidates: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(Confidence | null)[]")] confidences: JsValue,
    ) -> Result<JsValue, JsError> {
        let candidates: Vec<follow_ups::Candidate> = from_js(candidates)?;
        let confidences: Vec<Option<Confidence>> = from_js(confidences)?;
        to_js(&follow_ups::choose(candidates, &confidences))
    }

    /// Whether `name` is a file of this bundle that no catalog page lists: a chunk shard by
    /// number (format 5). What the cache's housekeeping keeps besides the listed files.
    #[wasm_bindgen(js_name = namesNumberedFile)]
    pub fn names_numbered_file(&self, name: &str) -> bool {
        self.inner.names_numbered_file(name)
    }

    /// Whether `name` has the shape of a dense index part that the dense head lists (format 5),
    /// which the cache's housekeeping keeps while the same head is cached.
    #[wasm_bindgen(js_name = namesDensePart)]
    pub fn names_dense_part(&self, name: &str) -> bool {
        self.inner.names_dense_part(name)
    }

    /// The chunk shard (index over all chunk shards) that holds chunk `chunk`, once its
    /// catalog page is attached.
    #[wasm_bindgen(js_name = shardOf)]
    pub fn shard_of(&self, chunk: u32) -> Result<usize, JsError> {
        self.inner.chunk_shard_of(chunk).ok_or_else(|| not_attached(chunk))
    }

    /// Chunk `chunk`'s metadata; `TEXT_UNAVAILABLE` until its shard is attached.
    #[wasm_bindgen(unchecked_return_type = "ChunkMeta")]
    pub fn chunk(&self, chunk: u32) -> Result<JsValue, JsError> {
        to_js(self.inner.chunk(chunk).ok_or_else(|| not_attached(chunk))?)
    }

    /// The text of chunk `chunk`; `TEXT_UNAVAILABLE` until its shard is attached.
    pub fn text(&self, chunk: u32) -> Result<String, JsError> {
        self.inner.text(chunk).map(str::to_string).ok_or_else(|| not_attached(chunk))
    }

    /// The merged short section of chunk `chunk` that `query` matched, so a result links to
    /// its own anchor (the core decides: `search::parts`); `undefined` for the chunk's own
    /// section or before its shard and the query's term shards are attached.
    #[wasm_bindgen(js_name = matchedPart, unchecked_return_type = "MatchedPart | undefined")]
    pub fn matched_part(&self, chunk: u32, query: &str) -> Result<JsValue, JsError> {
        let found = self.inner.matched_part(chunk, query).and_then(|part| {
            let meta = self.inner.chunk(chunk)?;
            let section = meta.parts.get(part)?;
            Some(MatchedPart {
                part: part as u32,
                url: &section.url,
                heading_path: &section.heading_path,
                text: self.inner.text(chunk)?.get(section.start..section.end)?,
            })
        });
        match found {
            Some(found) => to_js(&found),
            None => Ok(JsValue::UNDEFINED),
        }
    }
}

impl Retriever {
    /// Searches for `question` asked after the `earlier` questions (none in selected mode).
    fn run<'a, S: AsRef<str>>(
        &'a self,
        question: &'a str,
        earlier: &[S],
        options: &JsSearchOptions,
        vector: Option<Vec<f32>>,
        context_vector: Option<Vec<f32>>,
    ) -> Result<SearchResults<'a>, JsError> {
        let options = options.to_core().map_err(search_error)?;
        let follow_up = FollowUpOptions::default();
        // Vectors are used only where vectorQuery asked for them, and for a follow-up only
        // both together: its two searches are of one kind, semantic or by keywords.
        let semantic = self.dense_ready() && matches!(options.mode, SearchMode::Hybrid | SearchMode::Dense);
        let in_context = in_context_query(question, earlier, &follow_up).is_some();
        let (vector, context_vector) = match (vector, context_vector) {
            (Some(v), Some(c)) if semantic && in_context => (Some(v), Some(c)),
            (Some(v), _) if semantic && !in_context => (Some(v), None),
            _ => (None, None),
        };
        let found = self
            .inner
            .search_follow_up(question, vector.as_deref(), context_vector.as_deref(), earlier, &options, &follow_up)
            .map_err(|e| sharded_error(Code::IndexUnavailable, e))?;
        let provisional = found.provisional(options.mode, self.semantic_coming());
        let indices: Vec<u32> = found.hits.iter().map(|h| h.index).collect();
        let hits = found
            .hits
            .into_iter()
            .map(|hit| Hit {
                index: hit.index,
                shard: self.inner.chunk_shard_of(hit.index),
                score: hit.score,
                dense: hit.dense,
                lexical: hit.lexical,
                fused: hit.fused,
                chunk: self.inner.chunk(hit.index),
                text: self.inner.text(hit.index),
            })
            .collect();
        Ok(SearchResults {
            mode: Mode::Global,
            question,
            selection: None,
            confidence: Some(found.confidence),
            mode_used: Some(found.mode_used),
            provisional,
            hits,
            missing: self.inner.files_for_chunks(&indices),
            unavailable: {
                let mut unavailable =
                    self.inner.unavailable_for_follow_up(question, earlier, &follow_up, options.expand_words);
                unavailable.extend(self.inner.unavailable_page(&options));
                unavailable
            },
        })
    }
}

fn not_loaded() -> JsError {
    js_error(Code::IndexUnavailable, "the search index is not loaded yet", Some("NOT_LOADED"))
}

fn not_attached(chunk: u32) -> JsError {
    js_error(Code::TextUnavailable, format!("the shard of chunk {chunk} is not loaded"), Some("NOT_LOADED"))
}

fn sharded_error(code: Code, err: ShardedError) -> JsError {
    match err {
        ShardedError::Bundle(e) => bundle_error(code, e),
        ShardedError::Search(e) => search_error(e),
        ShardedError::NotLoaded(_) => js_error(code, err, Some("NOT_LOADED")),
        ShardedError::AlreadyAttached(_) | ShardedError::NoSuchPart(_) => js_error(Code::InvalidArgument, err, None),
    }
}
