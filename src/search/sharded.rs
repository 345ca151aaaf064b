//! Search over a bundle that arrives in parts, as the browser fetches it: the manifest and
//! chunk table first, then per question the term shards of its terms (through their catalog
//! pages), and per result the chunk shard holding its metadata and text (one file named by its
//! number since format 5; before, a metadata and a text file listed by catalog pages). This
//! decides which files a question or a result needs — from the same tokenizer the index was
//! built with — so the caller (the worker) only fetches what it is told and never tokenizes.
//!
//! A search runs once every term shard of its question is attached, and then gives exactly
//! the scores of the whole index (see `lexical::shards`) — or once the shards that failed to
//! load are marked unavailable (`mark_unavailable`): then the question is scored from the
//! shards that arrived, its words in the others left out, and the results say which were
//! missing (`unavailable_for`) and rate at most `low`. Which page and shard hold a term or a
//! chunk is the catalogs' to say (`bundle::Catalog`, `bundle::FetchedPages`).
//!
//! A large site's page table (which chunk is on which page) is fetched only by a search
//! asked from a page (`files_for_page`), with the question's term shards.
//!
//! A large site's dense index comes in parts too (`dense::partitioned`): once a question's
//! vector exists, `files_for_vector` names the parts it needs (the partitions nearest it,
//! then the int8 rows of its best candidates; the head lists the first, their codes the
//! second — a bundle of format 3 or 4 listed them by catalog pages), and a semantic search
//! waits for them — or, once they are marked unavailable, answers by keywords (at most `low`).

use super::conversation::{in_context_query, FollowUpOptions};
use super::error::SearchError;
use super::hybrid::{HybridSearch, SearchOptions, SearchResults};
use crate::bundle::{
    BundleError, BundleReader, Catalog, ChunkMeta, ChunkShardEntry, DenseLayout, DensePartEntry, FetchedPages,
    FileEntry, FileKind, Manifest, Shard, ShardAt, TermShardEntry,
};
use crate::dense::partitioned::PartKind;
use crate::dense::AnyDenseIndex;
use crate::lexical::expand::{typed_word_terms, typo_words};
use crate::lexical::query_terms;
use serde::de::IntoDeserializer;
use serde::{Deserialize, Serialize};

/// Catalog pages (term and chunk pages together) up to which a site's are all fetched when
/// its index opens (`ShardedSearch::files_at_open`): a sample-sized site has two.
pub const PAGES_AT_OPEN: usize = 4;

/// The kinds of file fetched on demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "FilePart"))]
pub enum Part {
    /// A catalog page of term shards (index in `manifest.files.terms`).
    TermPage,
    /// A term shard (index over all term shards).
    Terms,
    /// A catalog page of chunk shards (index in `manifest.files.chunks`).
    ChunkPage,
    /// A chunk shard's metadata (index over all chunk shards).
    Meta,
    /// A chunk shard's text (index over all chunk shards).
    Text,
    /// A chunk shard by number, its metadata and text together (format 5; its number).
    Chunks,
    /// A catalog page of the dense index's parts (index in `manifest.files.dense_parts`).
    DensePage,
    /// A part of the dense index in parts (its part id).
    Dense,
    /// The page table (`manifest.files.pages`, id 0): which chunk is on which page, fetched
    /// by a search asked from a page (`SearchOptions::page`), never by one that is not.
    Pages,
}

impl Part {
    /// The part by its serialised name (`"termPage"`, `"terms"`, `"chunkPage"`, `"meta"`,
    /// `"text"`, `"chunks"`, `"densePage"`, `"dense"`, `"pages"`).
    pub fn from_name(name: &str) -> Option<Part> {
        // serde's own string deserializer: no serde_json::Value code in the search module.
        let name: serde::de::value::StrDeserializer<serde::de::value::Error> = name.into_deserializer();
        Part::deserialize(name).ok()
    }
}

/// A file to fetch and hand back with [`ShardedSearch::attach`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct NeededFile {
    pub part: Part,
    pub id: usize,
    pub name: String,
    /// Its size; 0 for a chunk shard by number (known once fetched: what checks it is its
    /// proof, not a listed size).
    pub bytes: u64,
}

impl NeededFile {
    fn new(part: Part, id: usize, file: &FileEntry) -> Self {
        NeededFile { part, id, name: file.name.clone(), bytes: file.bytes }
    }
}

pub struct ShardedSearch {
    reader: BundleReader,
    /// Present once the chunk table is attached.
    search: Option<HybridSearch>,
    term_pages: FetchedPages<TermShardEntry>,
    /// Which term shards are attached (to the lexical index).
    terms: Vec<bool>,
    /// Term shards and term catalog pages that could not be loaded: a search goes on
    /// without their terms (until they arrive).
    terms_unavailable: Vec<bool>,
    term_pages_unavailable: Vec<bool>,
    chunk_pages: FetchedPages<ChunkShardEntry>,
    metas: Vec<Option<Vec<ChunkMeta>>>,
    texts: Vec<Option<Vec<String>>>,
    /// The dense catalog's pages received (a bundle whose dense index is whole has none).
    dense_pages: FetchedPages<DensePartEntry>,
    /// Dense parts and dense catalog pages that could not be loaded: a semantic search that
    /// needs one answers by keywords instead.
    dense_unavailable: Vec<(Part, usize)>,
    /// Whether the chunk table knows the pages: from the start when the bundle has no page
    /// table of its own (a small site's pages are in the chunk table), else once it arrives.
    pages_attached: bool,
    /// The page table could not be loaded: a search asked from a page goes on without it.
    pages_unavailable: bool,
}

impl ShardedSearch {
    pub fn new(manifest: &[u8]) -> Result<Self, BundleError> {
        let reader = BundleReader::new(manifest)?;
        let files = &reader.manifest().files;
        Ok(ShardedSearch {
            term_pages: FetchedPages::new(&files.terms),
            terms: vec![false; files.terms.shard_count()],
            terms_unavailable: vec![false; files.terms.shard_count()],
            term_pages_unavailable: vec![false; files.terms.len()],
            chunk_pages: FetchedPages::new(&files.chunks),
            metas: vec![None; chunk_shard_count(reader.manifest())],
            texts: vec![None; chunk_shard_count(reader.manifest())],
            dense_pages: FetchedPages::new(files.dense_parts.as_ref().unwrap_or(&Catalog::default())),
            dense_unavailable: Vec::new(),
            pages_attached: files.pages.is_none(),
            pages_unavailable: false,
            search: None,
            reader,
        })
    }

    pub fn manifest(&self) -> &Manifest {
        self.reader.manifest()
    }

    /// Verifies the chunk table and starts the (still empty) lexical index.
    pub fn attach_chunk_table(&mut self, bytes: &[u8]) -> Result<(), ShardedError> {
        if self.search.is_some() {
            return Err(ShardedError::AlreadyAttached("the chunk table".into()));
        }
        let table = self.reader.chunk_table(bytes)?;
        let lexical = self.reader.empty_lexical()?;
        self.search = Some(HybridSearch::from_table(table, lexical)?);
        Ok(())
    }

    /// Verifies and parses the dense index, or the head of the index in parts (the caller
    /// attaches it to the search).
    pub fn read_dense(&self, bytes: &[u8]) -> Result<AnyDenseIndex, BundleError> {
        self.reader.dense(bytes)
    }

    /// The files a semantic search for `vector` with `options` still needs (empty when the
    /// dense index is whole, or has every part it needs): the partitions' codes, then the rows
    /// of the best candidates, each listed by the head or by its partition's codes (bundle
    /// format 5). In a bundle of format 3 or 4, whose dense catalog pages list the parts,
    /// those pages first — with a partition's codes, the pages listing its int8 rows, so the
    /// second round needs no page of its own.
    pub fn files_for_vector(&self, vector: &[f32], options: &SearchOptions) -> Result<Vec<NeededFile>, ShardedError> {
        let Some(search) = &self.search else { return Ok(Vec::new()) };
        let Some(index) = search.dense().and_then(AnyDenseIndex::parts) else { return Ok(Vec::new()) };
        let mut out = Vec::new();
        let Some(catalog) = &self.reader.manifest().files.dense_parts else {
            for part in search.needed_dense_parts(vector, options)? {
                let file = self.reader.dense_part_file(index, part)?;
                push_new(&mut out, Some(NeededFile::new(Part::Dense, part as usize, &file)));
            }
            return Ok(out);
        };
        for part in search.needed_dense_parts(vector, options)? {
            push_new(&mut out, self.dense_file(catalog, part as usize));
            if let Ok(PartKind::Codes { partition }) = index.part_kind(part) {
                for rows in index.shard_parts(partition) {
                    if let Some(ShardAt::PageMissing(page)) = self.dense_pages.by_id(catalog, rows as usize) {
                        push_new(&mut out, page_file(Part::DensePage, catalog, page));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Dense part `part`'s file, or its catalog page's while that is missing.
    fn dense_file(&self, catalog: &Catalog<DensePartEntry>, part: usize) -> Option<NeededFile> {
        match self.dense_pages.by_id(catalog, part)? {
            ShardAt::PageMissing(page) => page_file(Part::DensePage, catalog, page),
            ShardAt::Found { id, shard } => Some(NeededFile::new(Part::Dense, id, &shard.file)),
        }
    }

    /// The same for a follow-up's two vectors.
    pub fn files_for_vectors(
        &self,
        vector: Option<&[f32]>,
        context_vector: Option<&[f32]>,
        options: &SearchOptions,
    ) -> Result<Vec<NeededFile>, ShardedError> {
        let mut out = Vec::new();
        for v in vector.into_iter().chain(context_vector) {
            for needed in self.files_for_vector(v, options)? {
                push_new(&mut out, Some(needed));
            }
        }
        Ok(out)
    }

    /// `vector` if a search may use it: `Ok(None)` (answer by keywords, partial) when a dense
    /// part it needs is marked unavailable, an error while one is still to come.
    fn usable_vector<'v>(
        &self,
        vector: Option<&'v [f32]>,
        options: &SearchOptions,
    ) -> Result<Option<&'v [f32]>, ShardedError> {
        let Some(v) = vector else { return Ok(None) };
        let needed = self.files_for_vector(v, options)?;
        match needed.iter().find(|f| !self.is_unavailable(f)) {
            Some(missing) => {
                Err(ShardedError::NotLoaded(format!("{} (a part the question's vector needs)", missing.name)))
            }
            None if needed.is_empty() => Ok(Some(v)),
            None => Ok(None),
        }
    }

    /// The word table's shards, listed by the catalog page `manifest.model.words` (verified).
    pub fn word_files(&self, bytes: &[u8]) -> Result<Vec<FileEntry>, BundleError> {
        self.reader.word_page(bytes)
    }

    pub fn ready(&self) -> bool {
        self.search.is_some()
    }

    pub fn search_mut(&mut self) -> Option<&mut HybridSearch> {
        self.search.as_mut()
    }

    pub fn search_ref(&self) -> Option<&HybridSearch> {
        self.search.as_ref()
    }

    /// The catalog pages worth fetching with the chunk table, before any question: on a site
    /// whose catalog is [`PAGES_AT_OPEN`] pages at most (a few KB), all of them, so a question
    /// goes straight to its shards instead of waiting a round trip for its page first. Empty
    /// on a larger site (a question fetches the pages of its own terms), or once attached.
    pub fn files_at_open(&self) -> Vec<NeededFile> {
        let files = &self.reader.manifest().files;
        if files.terms.len() + files.chunks.len() > PAGES_AT_OPEN {
            return Vec::new();
        }
        let mut out = missing_pages(Part::TermPage, &self.term_pages, &files.terms);
        out.extend(missing_pages(Part::ChunkPage, &self.chunk_pages, &files.chunks));
        out
    }

    /// The files a search for `query` still needs before it can run: catalog pages first
    /// (a shard cannot be named before its page is read), then term shards. With
    /// `expand_words` (`SearchOptions::expand_words`) also the shards of what its words expand
    /// to (`lexical::expand`): every shard holding terms the typed word begins, the shards of
    /// the shorter terms it begins with, and — once a word's own shard says the site lacks
    /// it — the shards of its one-edit variants (one more round). Empty when the search can run.
    pub fn files_for_query(&self, query: &str, expand_words: bool) -> Vec<NeededFile> {
        let mut out: Vec<NeededFile> = Vec::new();
        let mut exact = query_terms(query);
        if expand_words {
            if let Some(typed) = typed_word_terms(query) {
                self.files_for_prefix(&typed.prefix, &mut out);
                exact.extend(typed.cuts);
            }
            for word in typo_words(query) {
                if self.lacks(&word.own) {
                    exact.extend(word.variants);
                }
            }
        }
        crate::sort::sort_dedup(&mut exact);
        for term in exact {
            let needed = match self.term_pages.locate(&self.reader.manifest().files.terms, term.as_str()) {
                None => continue,
                Some(ShardAt::PageMissing(page)) => {
                    page_file(Part::TermPage, &self.reader.manifest().files.terms, page)
                }
                Some(ShardAt::Found { id, shard }) => self.unattached(id, shard),
            };
            push_new(&mut out, needed);
        }
        out
    }

    /// Term shard `id` as a file to fetch, unless attached.
    fn unattached(&self, id: usize, shard: &TermShardEntry) -> Option<NeededFile> {
        (!self.terms.get(id).copied().unwrap_or(true)).then(|| NeededFile::new(Part::Terms, id, &shard.file))
    }

    /// Adds the term shards whose range holds a term beginning with `prefix` (from the one
    /// that would hold `prefix` itself, while the next one's first term begins with it), or
    /// the catalog page to read first.
    fn files_for_prefix(&self, prefix: &str, out: &mut Vec<NeededFile>) {
        let catalog = &self.reader.manifest().files.terms;
        let mut id = match self.term_pages.locate(catalog, prefix) {
            None => return,
            Some(ShardAt::PageMissing(page)) => return push_new(out, page_file(Part::TermPage, catalog, page)),
            Some(ShardAt::Found { id, shard }) => {
                push_new(out, self.unattached(id, shard));
                id
            }
        };
        loop {
            id += 1;
            match self.term_pages.by_id(catalog, id) {
                Some(ShardAt::Found { shard, .. }) if shard.first_term.starts_with(prefix) => {
                    push_new(out, self.unattached(id, shard));
                }
                // A page not read yet: its shards are named next round; the pages after it
                // that the prefix reaches are fetched with it.
                Some(ShardAt::PageMissing(page)) => match catalog.page(page) {
                    Some(entry) if entry.range.first_term.starts_with(prefix) => {
                        push_new(out, page_file(Part::TermPage, catalog, page));
                        id = entry.first_shard + entry.shards - 1;
                    }
                    _ => return,
                },
                _ => return,
            }
        }
    }

    /// Whether the index lacks `term` for sure: its shard is attached and does not have it.
    fn lacks(&self, term: &str) -> bool {
        let Some(search) = self.search.as_ref() else { return false };
        match self.term_pages.locate(&self.reader.manifest().files.terms, term) {
            Some(ShardAt::Found { id, .. }) if self.terms.get(id).copied().unwrap_or(false) => {
                search.lexical().doc_freq(term) == 0
            }
            _ => false,
        }
    }

    /// The files a search for the follow-up `question`, asked after the `earlier` questions
    /// (oldest first), still needs: those of the question and of its text in context
    /// ([`in_context_query`]), and the page table when the bundle has one apart and the
    /// conversation's page gets a vote (`FollowUpOptions::page_weight`). Empty when
    /// [`ShardedSearch::search_follow_up`] can run.
    pub fn files_for_follow_up<S: AsRef<str>>(
        &self,
        question: &str,
        earlier: &[S],
        follow_up: &FollowUpOptions,
        expand_words: bool,
    ) -> Vec<NeededFile> {
        let mut out = self.files_for_query(question, expand_words);
        if let Some(in_context) = in_context_query(question, earlier, follow_up) {
            for needed in self.files_for_query(&in_context, expand_words) {
                push_new(&mut out, Some(needed));
            }
            push_new(&mut out, self.page_table_file(follow_up.page_weight > 0.0));
        }
        out
    }

    /// The page table, when a search with `options` needs it (asked from a page) and it has
    /// not arrived: fetched with the question's term shards.
    pub fn files_for_page(&self, options: &SearchOptions) -> Option<NeededFile> {
        self.page_table_file(options.page.is_some())
    }

    /// The page table as a file still to fetch, when `wanted` and the bundle has one apart.
    fn page_table_file(&self, wanted: bool) -> Option<NeededFile> {
        let file = self.reader.manifest().files.pages.as_ref()?;
        (wanted && !self.pages_attached).then(|| NeededFile::new(Part::Pages, 0, file))
    }

    /// The page table as a part a search with `options` goes without (it could not be had).
    pub fn unavailable_page(&self, options: &SearchOptions) -> Option<NeededFile> {
        self.files_for_page(options).filter(|_| self.pages_unavailable)
    }

    /// `options` as a search may use them: unchanged unless they name a page and the page
    /// table is missing — then without the page (and partial: `true`) once the table is
    /// marked unavailable, an error while it is still to come.
    fn page_options(&self, options: &SearchOptions) -> Result<(SearchOptions, bool), ShardedError> {
        match self.files_for_page(options) {
            None => Ok((options.clone(), false)),
            Some(_) if self.pages_unavailable => {
                Ok((SearchOptions { page: None, page_only: false, ..options.clone() }, true))
            }
            Some(file) => {
                Err(ShardedError::NotLoaded(format!("{} (the page table a search from a page needs)", file.name)))
            }
        }
    }

    /// The files still needed for the metadata and text of chunks `indices`: their chunk
    /// shards by number (format 5: one round), or catalog pages first, then the metadata and
    /// text files of their chunk shards.
    pub fn files_for_chunks(&self, indices: &[u32]) -> Vec<NeededFile> {
        let files = &self.reader.manifest().files;
        let catalog = &files.chunks;
        let mut out: Vec<NeededFile> = Vec::new();
        if let Some(numbered) = &files.chunk_shards {
            for &index in indices {
                if let Some((n, _)) = numbered.locate(index as usize) {
                    if self.metas.get(n).is_some_and(Option::is_none) {
                        let file = NeededFile { part: Part::Chunks, id: n, name: numbered.name(n), bytes: 0 };
                        push_new(&mut out, Some(file));
                    }
                }
            }
            return out;
        }
        for &index in indices {
            match self.chunk_pages.locate(catalog, &(index as usize)) {
                None => {}
                Some(ShardAt::PageMissing(page)) => push_new(&mut out, page_file(Part::ChunkPage, catalog, page)),
                Some(ShardAt::Found { id, shard }) => {
                    if self.metas.get(id).is_some_and(Option::is_none) {
                        push_new(&mut out, Some(NeededFile::new(Part::Meta, id, &shard.meta)));
                    }
                    if self.texts.get(id).is_some_and(Option::is_none) {
                        push_new(&mut out, Some(NeededFile::new(Part::Text, id, &shard.text)));
                    }
                }
            }
        }
        out
    }

    /// The files still needed for the metadata (not the text, where it is apart) of chunks
    /// `indices`: catalog pages first, then metadata files (or the chunk shards by number).
    /// What follow-up suggestions read of a cited chunk's neighbours.
    pub fn files_for_chunk_metas(&self, indices: &[u32]) -> Vec<NeededFile> {
        self.files_for_chunks(indices).into_iter().filter(|f| f.part != Part::Text).collect()
    }

    /// Verifies and attaches one fetched file. Attaching a part twice is a no-op.
    pub fn attach(&mut self, part: Part, id: usize, bytes: &[u8]) -> Result<(), ShardedError> {
        let files = &self.reader.manifest().files;
        match part {
            Part::TermPage => {
                self.known(part, id)?;
                self.term_pages.attach(&files.terms, id, bytes)?;
                if self.term_pages_unavailable.get(id).copied().unwrap_or(false) {
                    self.term_pages_unavailable[id] = false;
                    if let (Some(page), Some(search)) = (files.terms.page(id), self.search.as_mut()) {
                        search.lexical_mut().release(&page.range.first_term);
                    }
                }
            }
            Part::ChunkPage => {
                self.known(part, id)?;
                self.chunk_pages.attach(&files.chunks, id, bytes)?;
            }
            Part::Terms => {
                if self.terms.get(id).copied().unwrap_or(true) {
                    return self.known(part, id);
                }
                let entry = attached_shard(&self.term_pages, &files.terms, part, id)?;
                let next = self.term_pages.end_of(&files.terms, id);
                let page = files.terms.page_of_shard(id).map_or(0, |(page, _)| page);
                let terms = self.reader.term_shard(entry, next, bytes, page)?;
                let search = self.search.as_mut().ok_or_else(|| ShardedError::NotLoaded("the chunk table".into()))?;
                let lexical = search.lexical_mut();
                lexical
                    .attach_terms(terms)
                    .map_err(|e| BundleError::Corrupt { name: entry.file.name.clone(), reason: e.to_string() })?;
                lexical.release(&entry.first_term);
                self.terms[id] = true;
                self.terms_unavailable[id] = false;
            }
            Part::Meta => {
                if self.metas.get(id).is_none_or(Option::is_some) {
                    return self.known(part, id);
                }
                let entry = attached_shard(&self.chunk_pages, &files.chunks, part, id)?;
                let page = files.chunks.page_of_shard(id).map_or(0, |(page, _)| page);
                self.metas[id] = Some(self.reader.meta_shard(entry, bytes, page)?);
            }
            Part::Text => {
                if self.texts.get(id).is_none_or(Option::is_some) {
                    return self.known(part, id);
                }
                let entry = attached_shard(&self.chunk_pages, &files.chunks, part, id)?;
                let page = files.chunks.page_of_shard(id).map_or(0, |(page, _)| page);
                self.texts[id] = Some(self.reader.text_shard(entry, bytes, page)?);
            }
            Part::Chunks => {
                self.known(part, id)?;
                if self.metas[id].is_none() {
                    let (metas, texts) = self.reader.numbered_shard(id, bytes)?;
                    (self.metas[id], self.texts[id]) = (Some(metas), Some(texts));
                }
            }
            Part::Pages => {
                self.known(part, id)?;
                if self.pages_attached {
                    return Ok(());
                }
                let pages = self.reader.page_table(bytes)?;
                let search = self.search.as_mut().ok_or_else(|| ShardedError::NotLoaded("the chunk table".into()))?;
                search.attach_pages(pages);
                self.pages_attached = true;
                self.pages_unavailable = false;
            }
            Part::DensePage => {
                self.known(part, id)?;
                if let Some(catalog) = &files.dense_parts {
                    self.dense_pages.attach(catalog, id, bytes)?;
                }
                self.dense_unavailable.retain(|&(p, i)| (p, i) != (part, id));
            }
            Part::Dense => {
                self.known(part, id)?;
                let search = self.search.as_mut().ok_or_else(|| ShardedError::NotLoaded("the chunk table".into()))?;
                let index = (search.dense_mut().and_then(AnyDenseIndex::parts_mut))
                    .ok_or_else(|| ShardedError::NotLoaded("the dense index's head".into()))?;
                if !index.is_attached(id as u32) {
                    match &files.dense_parts {
                        // Formats 3 and 4: checked against its catalog page.
                        Some(catalog) => {
                            let entry = attached_shard(&self.dense_pages, catalog, part, id)?;
                            let page = catalog.page_of_shard(id).map_or(0, |(page, _)| page);
                            self.reader.attach_dense_part(index, entry, bytes, page)?;
                        }
                        None => self.reader.attach_listed_dense_part(index, id as u32, bytes)?,
                    }
                }
                self.dense_unavailable.retain(|&(p, i)| (p, i) != (part, id));
            }
        }
        Ok(())
    }

    /// Refuses an id that names no part (attaching an attached part again is fine).
    fn known(&self, part: Part, id: usize) -> Result<(), ShardedError> {
        let files = &self.reader.manifest().files;
        let count = match part {
            Part::Terms => self.terms.len(),
            Part::Meta | Part::Text => files.chunks.shard_count(),
            Part::Chunks => files.chunk_shards.as_ref().map_or(0, |numbered| numbered.shards),
            Part::TermPage => files.terms.len(),
            Part::ChunkPage => files.chunks.len(),
            Part::DensePage => files.dense_parts.as_ref().map_or(0, Catalog::len),
            Part::Dense => match &files.dense_parts {
                Some(catalog) => catalog.shard_count(),
                None => (self.search.as_ref().and_then(HybridSearch::dense).and_then(AnyDenseIndex::parts))
                    .map_or(0, |index| index.part_count() as usize),
            },
            Part::Pages => usize::from(files.pages.is_some()),
        };
        if id < count {
            Ok(())
        } else {
            Err(ShardedError::NoSuchPart(format!("{part:?} {id}")))
        }
    }

    /// Marks a term shard or term catalog page (`part`, `id` as `files_for_query` named it)
    /// that could not be loaded: searches go on without the terms it holds — they are neither
    /// scored nor counted as words the site never uses — until it is attached. A dense part or
    /// page marked so turns the semantic searches that need it into keyword searches (rated at
    /// most `low`); the page table marked so, the searches asked from a page go on without
    /// the page (at most `low`). Other parts have nothing to mark (a result without its chunk
    /// shard keeps its index).
    pub fn mark_unavailable(&mut self, part: Part, id: usize) -> Result<(), ShardedError> {
        self.known(part, id)?;
        let files = &self.reader.manifest().files;
        let search = self.search.as_mut().ok_or_else(|| ShardedError::NotLoaded("the chunk table".into()))?;
        match part {
            Part::Terms if !self.terms[id] => {
                let Some(ShardAt::Found { shard, .. }) = self.term_pages.by_id(&files.terms, id) else {
                    return Err(ShardedError::NotLoaded(format!("the term catalog page of term shard {id}")));
                };
                let end = self.term_pages.end_of(&files.terms, id);
                search.lexical_mut().withhold(&shard.first_term, end);
                self.terms_unavailable[id] = true;
            }
            Part::TermPage if self.term_pages.missing().any(|page| page == id) => {
                let (Some(page), next) = (files.terms.page(id), files.terms.page(id + 1)) else {
                    return Err(ShardedError::NoSuchPart(format!("{part:?} {id}")));
                };
                search.lexical_mut().withhold(&page.range.first_term, next.map(|n| n.range.first_term.as_str()));
                self.term_pages_unavailable[id] = true;
            }
            Part::Dense | Part::DensePage if !self.dense_unavailable.contains(&(part, id)) => {
                self.dense_unavailable.push((part, id));
            }
            Part::Pages if !self.pages_attached => self.pages_unavailable = true,
            _ => {}
        }
        Ok(())
    }

    /// The parts `lexical_query` needs that are marked unavailable: what a search for it
    /// goes without (empty: the search is exact).
    pub fn unavailable_for(&self, lexical_query: &str, expand_words: bool) -> Vec<NeededFile> {
        self.files_for_query(lexical_query, expand_words).into_iter().filter(|f| self.is_unavailable(f)).collect()
    }

    /// The same for a follow-up: the parts of the question's and of its text in context's
    /// terms ([`files_for_follow_up`](Self::files_for_follow_up)) that are marked unavailable.
    pub fn unavailable_for_follow_up<S: AsRef<str>>(
        &self,
        question: &str,
        earlier: &[S],
        follow_up: &FollowUpOptions,
        expand_words: bool,
    ) -> Vec<NeededFile> {
        self.files_for_follow_up(question, earlier, follow_up, expand_words)
            .into_iter()
            .filter(|f| self.is_unavailable(f))
            .collect()
    }

    /// Whether `file` is a term or dense part marked unavailable.
    fn is_unavailable(&self, file: &NeededFile) -> bool {
        match file.part {
            Part::Terms => self.terms_unavailable.get(file.id).copied().unwrap_or(false),
            Part::TermPage => self.term_pages_unavailable.get(file.id).copied().unwrap_or(false),
            Part::Dense | Part::DensePage => self.dense_unavailable.contains(&(file.part, file.id)),
            Part::Pages => self.pages_unavailable,
            _ => false,
        }
    }

    /// Searches; `lexical_query` is the text whose terms are scored (the question, or in
    /// selected mode question + selection). Refuses while a term shard it needs is neither
    /// attached nor marked unavailable, so a result is never ranked on part of its terms
    /// unknowingly; with parts unavailable ([`unavailable_for`](Self::unavailable_for)) the
    /// confidence is at most `low`.
    pub fn search(
        &self,
        lexical_query: &str,
        vector: Option<&[f32]>,
        options: &SearchOptions,
    ) -> Result<SearchResults, ShardedError> {
        let search = self.search.as_ref().ok_or_else(|| ShardedError::NotLoaded("the chunk table".into()))?;
        let partial = self.partial_or_missing(&self.files_for_query(lexical_query, options.expand_words))?;
        let (options, without_page) = self.page_options(options)?;
        let usable = self.usable_vector(vector, &options)?;
        let partial = partial || without_page || usable.is_none() && vector.is_some();
        Ok(at_most_low_if(partial, search.search(lexical_query, usable, &options)?))
    }

    /// Searches for the follow-up `question` asked after the `earlier` questions (oldest
    /// first), as [`HybridSearch::search_follow_up`] does: `vector` embeds the question,
    /// `context_vector` its text in context. Refuses while a term shard of either text is
    /// neither attached nor marked unavailable ([`ShardedSearch::files_for_follow_up`]); with
    /// parts unavailable the confidence is at most `low`, as in [`search`](Self::search).
    pub fn search_follow_up<S: AsRef<str>>(
        &self,
        question: &str,
        vector: Option<&[f32]>,
        context_vector: Option<&[f32]>,
        earlier: &[S],
        options: &SearchOptions,
        follow_up: &FollowUpOptions,
    ) -> Result<SearchResults, ShardedError> {
        let search = self.search.as_ref().ok_or_else(|| ShardedError::NotLoaded("the chunk table".into()))?;
        let partial =
            self.partial_or_missing(&self.files_for_follow_up(question, earlier, follow_up, options.expand_words))?;
        let (options, without_page) = self.page_options(options)?;
        let (options, partial) = (&options, partial || without_page);
        // Both vectors or neither: a follow-up's two searches are of one kind.
        let (usable, usable_context) =
            (self.usable_vector(vector, options)?, self.usable_vector(context_vector, options)?);
        let semantic = usable.is_some() == vector.is_some() && usable_context.is_some() == context_vector.is_some();
        let (vector, context_vector) = if semantic { (vector, context_vector) } else { (None, None) };
        Ok(at_most_low_if(
            partial || !semantic,
            search.search_follow_up(question, vector, context_vector, earlier, options, follow_up)?,
        ))
    }

    /// The one gate before a search: `needed` (the term parts not attached) must all be marked
    /// unavailable, or the search waits for the first that is not; whether any is (the search
    /// then goes without it: partial).
    fn partial_or_missing(&self, needed: &[NeededFile]) -> Result<bool, ShardedError> {
        match needed.iter().find(|f| !self.is_unavailable(f)) {
            Some(missing) => {
                Err(ShardedError::NotLoaded(format!("{} (a part the question's terms need)", missing.name)))
            }
            None => Ok(!needed.is_empty()),
        }
    }

    /// Whether `name` is one of the bundle's chunk shards by number (format 5).
    pub fn names_numbered_file(&self, name: &str) -> bool {
        self.reader.manifest().files.chunk_shards.as_ref().is_some_and(|numbered| numbered.names(name))
    }

    /// Whether `name` has the shape of a dense index part that the dense head lists (format 5:
    /// no manifest entry or catalog page names them), so the cache's housekeeping can keep
    /// them while that head is cached.
    pub fn names_dense_part(&self, name: &str) -> bool {
        let files = &self.reader.manifest().files;
        let kind = FileKind::DensePart;
        files.dense_layout == DenseLayout::Parts
            && files.dense_parts.is_none()
            && name
                .strip_prefix(kind.stem())
                .and_then(|rest| rest.strip_suffix(kind.extension()))
                .is_some_and(|hash| hash.len() > 2 && hash.starts_with('.') && hash.ends_with('.'))
    }

    /// The chunk shard (id over all chunk shards) holding chunk `index`, once its catalog
    /// page is attached (at once, for shards by number).
    pub fn chunk_shard_of(&self, index: u32) -> Option<usize> {
        self.locate(index).map(|(id, _)| id)
    }

    /// Chunk `index`'s shard, and its position in it.
    fn locate(&self, index: u32) -> Option<(usize, usize)> {
        let files = &self.reader.manifest().files;
        if let Some(numbered) = &files.chunk_shards {
            return numbered.locate(index as usize);
        }
        match self.chunk_pages.locate(&files.chunks, &(index as usize))? {
            ShardAt::Found { id, shard } => Some((id, (index as usize).checked_sub(shard.first_chunk)?)),
            ShardAt::PageMissing(_) => None,
        }
    }

    /// Chunk `index`'s metadata, once its shard's metadata is attached.
    pub fn chunk(&self, index: u32) -> Option<&ChunkMeta> {
        let (shard, at) = self.locate(index)?;
        self.metas.get(shard)?.as_ref()?.get(at)
    }

    /// Chunk `index`'s text, once its shard's text is attached.
    pub fn text(&self, index: u32) -> Option<&str> {
        let (shard, at) = self.locate(index)?;
        self.texts.get(shard)?.as_ref()?.get(at).map(String::as_str)
    }

    /// The merged short section of chunk `index` that `query` matched (`super::parts`), once
    /// the chunk's metadata and text and the query's term shards are attached: its index in
    /// the chunk's parts. `None`: the chunk's own section, or not attached yet.
    pub fn matched_part(&self, index: u32, query: &str) -> Option<usize> {
        let (meta, text) = (self.chunk(index)?, self.text(index)?);
        super::matched_part(meta, text, query, self.search.as_ref()?.lexical())
    }
}

/// Chunk shards in all, by number or listed by catalog pages.
fn chunk_shard_count(manifest: &Manifest) -> usize {
    let files = &manifest.files;
    files.chunk_shards.as_ref().map_or_else(|| files.chunks.shard_count(), |numbered| numbered.shards)
}

/// The pages of `catalog` not attached yet, as files to fetch.
fn missing_pages<S: Shard>(part: Part, pages: &FetchedPages<S>, catalog: &Catalog<S>) -> Vec<NeededFile> {
    pages.missing().filter_map(|page| page_file(part, catalog, page)).collect()
}

fn page_file<S: Shard>(part: Part, catalog: &Catalog<S>, page: usize) -> Option<NeededFile> {
    catalog.page(page).map(|entry| NeededFile::new(part, page, &entry.file))
}

/// Adds `needed` unless the same part is already listed.
/// A partial search's results: scored without the parts that could not be had, so rated at
/// most `low`.
fn at_most_low_if(partial: bool, mut results: SearchResults) -> SearchResults {
    if partial {
        results.confidence = results.confidence.at_most_low();
    }
    results
}

fn push_new(out: &mut Vec<NeededFile>, needed: Option<NeededFile>) {
    if let Some(needed) = needed.filter(|n| !out.iter().any(|f| f.part == n.part && f.id == n.id)) {
        out.push(needed);
    }
}

/// Shard `id` of `catalog`, which its catalog page must have brought.
fn attached_shard<'a, S: Shard>(
    pages: &'a FetchedPages<S>,
    catalog: &Catalog<S>,
    part: Part,
    id: usize,
) -> Result<&'a S, ShardedError> {
    match pages.by_id(catalog, id) {
        Some(ShardAt::Found { shard, .. }) => Ok(shard),
        Some(ShardAt::PageMissing(page)) => Err(ShardedError::NotLoaded(format!("{} {page}", S::PAGE.role()))),
        None => Err(ShardedError::NoSuchPart(format!("{part:?} {id}"))),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ShardedError {
    #[error(transparent)]
    Bundle(#[from] BundleError),
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error("{0} is not loaded yet")]
    NotLoaded(String),
    #[error("{0} is already loaded")]
    AlreadyAttached(String),
    #[error("the index has no {0}")]
    NoSuchPart(String),
}

#[cfg(test)]
mod tests {
    use super::Part;

    #[test]
    fn a_part_is_found_by_the_name_it_is_serialised_as() {
        let parts = [
            Part::TermPage,
            Part::Terms,
            Part::ChunkPage,
            Part::Meta,
            Part::Text,
            Part::DensePage,
            Part::Dense,
            Part::Pages,
        ];
        for part in parts {
            let name = serde_json::to_value(part).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
            assert_eq!(Part::from_name(&name), Some(part), "{name}");
        }
        assert_eq!(Part::from_name("term_page"), None);
        assert_eq!(Part::from_name(""), None);
    }
}
