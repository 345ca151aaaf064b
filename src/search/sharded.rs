//! Search over a bundle that arrives in parts, as the browser fetches it: the manifest and
//! chunk table first, then per question the term shards of its terms (through their catalog
//! pages), and per result the chunk shard holding its metadata and text. This decides which
//! files a question or a result needs — from the same tokenizer the index was built with —
//! so the caller (the worker) only fetches what it is told and never tokenizes.
//!
//! A search runs only once every term shard of its question is attached, and then gives
//! exactly the scores of the whole index (see `lexical::shards`).

use super::{HybridSearch, SearchError, SearchOptions, SearchResults};
use crate::bundle::{BundleError, BundleReader, ChunkMeta, ChunkShardEntry, FileEntry, Manifest, TermShardEntry};
use crate::lexical::{query_terms, shard_of};
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
}

impl Part {
    /// The part by its serialised name (`"termPage"`, `"terms"`, `"chunkPage"`, `"meta"`, `"text"`).
    pub fn from_name(name: &str) -> Option<Part> {
        serde_json::from_value(serde_json::Value::String(name.to_string())).ok()
    }
}

/// A file to fetch and hand back with [`ShardedSearch::attach`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct NeededFile {
    pub part: Part,
    pub id: usize,
    pub name: String,
    pub bytes: u64,
}

pub struct ShardedSearch {
    reader: BundleReader,
    /// Present once the chunk table is attached.
    search: Option<HybridSearch>,
    term_pages: Vec<Option<Vec<TermShardEntry>>>,
    terms: Vec<bool>,
    chunk_pages: Vec<Option<Vec<ChunkShardEntry>>>,
    metas: Vec<Option<Vec<ChunkMeta>>>,
    texts: Vec<Option<Vec<String>>>,
}

impl ShardedSearch {
    pub fn new(manifest: &[u8]) -> Result<Self, BundleError> {
        let reader = BundleReader::new(manifest)?;
        let m = reader.manifest();
        Ok(ShardedSearch {
            term_pages: vec![None; m.files.terms.len()],
            terms: vec![false; m.term_shard_count()],
            chunk_pages: vec![None; m.files.chunks.len()],
            metas: vec![None; m.chunk_shard_count()],
            texts: vec![None; m.chunk_shard_count()],
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

    /// Verifies and parses the dense index (the caller attaches it to the search).
    pub fn read_dense(&self, bytes: &[u8]) -> Result<crate::dense::DenseIndex, BundleError> {
        self.reader.dense(bytes)
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
        let page = |part: Part, id: usize, file: &FileEntry| NeededFile {
            part,
            id,
            name: file.name.clone(),
            bytes: file.bytes,
        };
        let terms = (files.terms.iter().enumerate())
            .filter(|(id, _)| matches!(self.term_pages.get(*id), Some(None)))
            .map(|(id, p)| page(Part::TermPage, id, &p.file));
        let chunks = (files.chunks.iter().enumerate())
            .filter(|(id, _)| matches!(self.chunk_pages.get(*id), Some(None)))
            .map(|(id, p)| page(Part::ChunkPage, id, &p.file));
        terms.chain(chunks).collect()
    }

    /// The files a search for `query` still needs before it can run: catalog pages first
    /// (a shard cannot be named before its page is read), then term shards. Empty when the
    /// search can run.
    pub fn files_for_query(&self, query: &str) -> Vec<NeededFile> {
        let files = &self.reader.manifest().files;
        let mut out: Vec<NeededFile> = Vec::new();
        for term in query_terms(query) {
            let page = self.reader.manifest().term_page_of(&term);
            let Some(page_entry) = files.terms.get(page) else { continue };
            let needed = match self.term_pages.get(page).and_then(Option::as_ref) {
                None => NeededFile {
                    part: Part::TermPage,
                    id: page,
                    name: page_entry.file.name.clone(),
                    bytes: page_entry.file.bytes,
                },
                Some(shards) => {
                    let firsts: Vec<&str> = shards.iter().map(|s| s.first_term.as_str()).collect();
                    let local = shard_of(&firsts, &term);
                    let id = page_entry.first_shard + local;
                    if self.terms.get(id).copied().unwrap_or(true) {
                        continue;
                    }
                    let Some(shard) = shards.get(local) else { continue };
                    NeededFile { part: Part::Terms, id, name: shard.file.name.clone(), bytes: shard.file.bytes }
                }
            };
            if !out.iter().any(|f| f.part == needed.part && f.id == needed.id) {
                out.push(needed);
            }
        }
        out
    }

    /// The files still needed for the metadata and text of chunks `indices`: catalog pages
    /// first, then the metadata and text files of their chunk shards.
    pub fn files_for_chunks(&self, indices: &[u32]) -> Vec<NeededFile> {
        let manifest = self.reader.manifest();
        let mut out: Vec<NeededFile> = Vec::new();
        let mut push = |needed: NeededFile| {
            if !out.iter().any(|f| f.part == needed.part && f.id == needed.id) {
                out.push(needed);
            }
        };
        for &index in indices {
            let Some(page) = manifest.chunk_page_of(index as usize) else { continue };
            let Some(page_entry) = manifest.files.chunks.get(page) else { continue };
            let Some(shards) = self.chunk_pages.get(page).and_then(Option::as_ref) else {
                push(NeededFile {
                    part: Part::ChunkPage,
                    id: page,
                    name: page_entry.file.name.clone(),
                    bytes: page_entry.file.bytes,
                });
                continue;
            };
            let local = shards.partition_point(|s| s.first_chunk <= index as usize).saturating_sub(1);
            let id = page_entry.first_shard + local;
            let Some(shard) = shards.get(local) else { continue };
            if self.metas.get(id).is_some_and(Option::is_none) {
                push(NeededFile { part: Part::Meta, id, name: shard.meta.name.clone(), bytes: shard.meta.bytes });
            }
            if self.texts.get(id).is_some_and(Option::is_none) {
                push(NeededFile { part: Part::Text, id, name: shard.text.name.clone(), bytes: shard.text.bytes });
            }
        }
        out
    }

    /// Verifies and attaches one fetched file. Attaching a part twice is a no-op.
    pub fn attach(&mut self, part: Part, id: usize, bytes: &[u8]) -> Result<(), ShardedError> {
        match part {
            Part::TermPage => {
                self.known(part, id)?;
                if self.term_pages.get(id).is_some_and(Option::is_none) {
                    let shards = self.reader.term_page(id, bytes)?;
                    self.term_pages[id] = Some(shards);
                }
            }
            Part::ChunkPage => {
                self.known(part, id)?;
                if self.chunk_pages.get(id).is_some_and(Option::is_none) {
                    let shards = self.reader.chunk_page(id, bytes)?;
                    self.chunk_pages[id] = Some(shards);
                }
            }
            Part::Terms => {
                if self.terms.get(id).copied().unwrap_or(true) {
                    return self.known(part, id);
                }
                let (entry, next) = self.term_entry(id)?;
                let terms = self.reader.term_shard(&entry, next.as_deref(), bytes)?;
                let search = self.search.as_mut().ok_or_else(|| ShardedError::NotLoaded("the chunk table".into()))?;
                search
                    .lexical_mut()
                    .attach_terms(terms)
                    .map_err(|e| BundleError::Corrupt { name: entry.file.name.clone(), reason: e.to_string() })?;
                self.terms[id] = true;
            }
            Part::Meta => {
                if self.metas.get(id).is_none_or(Option::is_some) {
                    return self.known(part, id);
                }
                let entry = self.chunk_entry(id)?;
                self.metas[id] = Some(self.reader.meta_shard(&entry, bytes)?);
            }
            Part::Text => {
                if self.texts.get(id).is_none_or(Option::is_some) {
                    return self.known(part, id);
                }
                let entry = self.chunk_entry(id)?;
                self.texts[id] = Some(self.reader.text_shard(&entry, bytes)?);
            }
        }
        Ok(())
    }

    /// Refuses an id that names no part (attaching an attached part again is fine).
    fn known(&self, part: Part, id: usize) -> Result<(), ShardedError> {
        let count = match part {
            Part::Terms => self.terms.len(),
            Part::Meta | Part::Text => self.metas.len(),
            Part::TermPage => self.term_pages.len(),
            Part::ChunkPage => self.chunk_pages.len(),
        };
        if id < count {
            Ok(())
        } else {
            Err(ShardedError::NoSuchPart(format!("{part:?} {id}")))
        }
    }

    /// Term shard `id`'s entry and the first term of the shard after it (its range's end).
    fn term_entry(&self, id: usize) -> Result<(TermShardEntry, Option<String>), ShardedError> {
        let pages = &self.reader.manifest().files.terms;
        let page = pages.partition_point(|p| p.first_shard <= id).saturating_sub(1);
        let local = id.checked_sub(pages.get(page).map_or(0, |p| p.first_shard));
        let shards = self
            .term_pages
            .get(page)
            .and_then(Option::as_ref)
            .ok_or_else(|| ShardedError::NotLoaded(format!("term catalog page {page}")))?;
        let entry =
            local.and_then(|l| shards.get(l)).ok_or_else(|| ShardedError::NoSuchPart(format!("term shard {id}")))?;
        let next = match local.and_then(|l| shards.get(l + 1)) {
            Some(next) => Some(next.first_term.clone()),
            None => pages.get(page + 1).map(|p| p.first_term.clone()),
        };
        Ok((entry.clone(), next))
    }

    fn chunk_entry(&self, id: usize) -> Result<ChunkShardEntry, ShardedError> {
        let pages = &self.reader.manifest().files.chunks;
        let page = pages.partition_point(|p| p.first_shard <= id).saturating_sub(1);
        let local = id.checked_sub(pages.get(page).map_or(0, |p| p.first_shard));
        let shards = self
            .chunk_pages
            .get(page)
            .and_then(Option::as_ref)
            .ok_or_else(|| ShardedError::NotLoaded(format!("chunk catalog page {page}")))?;
        local.and_then(|l| shards.get(l)).cloned().ok_or_else(|| ShardedError::NoSuchPart(format!("chunk shard {id}")))
    }

    /// Searches; `lexical_query` is the text whose terms are scored (the question, or in
    /// selected mode question + selection). Refuses while a term shard it needs is missing,
    /// so a result is never ranked on part of its terms.
    pub fn search(
        &self,
        lexical_query: &str,
        vector: Option<&[f32]>,
        options: &SearchOptions,
    ) -> Result<SearchResults, ShardedError> {
        let search = self.search.as_ref().ok_or_else(|| ShardedError::NotLoaded("the chunk table".into()))?;
        if let Some(missing) = self.files_for_query(lexical_query).first() {
            return Err(ShardedError::NotLoaded(format!("{} (a part the question's terms need)", missing.name)));
        }
        Ok(search.search(lexical_query, vector, options)?)
    }

    /// The chunk shard (id over all chunk shards) holding chunk `index`, once its catalog
    /// page is attached.
    pub fn chunk_shard_of(&self, index: u32) -> Option<usize> {
        let manifest = self.reader.manifest();
        let page = manifest.chunk_page_of(index as usize)?;
        let shards = self.chunk_pages.get(page)?.as_ref()?;
        let local = shards.partition_point(|s| s.first_chunk <= index as usize).checked_sub(1)?;
        Some(manifest.files.chunks.get(page)?.first_shard + local)
    }

    /// Chunk `index`'s position in its shard, and the shard.
    fn locate(&self, index: u32) -> Option<(usize, usize)> {
        let shard = self.chunk_shard_of(index)?;
        let entry = self.chunk_entry(shard).ok()?;
        Some((shard, (index as usize).checked_sub(entry.first_chunk)?))
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
