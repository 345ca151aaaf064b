//! Catalogs: how a part of the bundle cut into many shards is listed — the term shards, the
//! chunk shards, and any other part cut by a key (a dense index's partitions would be one).
//! The shards, in key order, are listed by catalog pages of at most [`CATALOG_PAGE_SHARDS`]
//! each; the manifest lists the pages, each with its size and sha256, its place among the
//! shards and the keys its shards cover. So the manifest stays a few kilobytes on any site,
//! and a reader fetches one small page to name the shard that holds a key.
//!
//! [`Catalog`] writes, checks, reads and searches every catalog; a kind of shard only says
//! what its key is and which files it has ([`Shard`]). [`FetchedPages`] holds the pages of one
//! catalog that a reader has received so far.

use super::error::BundleError;
use super::file_entry::{check_name, FileEntry};
use super::file_kind::FileKind;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use std::marker::PhantomData;

/// Shards listed per catalog page: pages small enough to fetch per query, few enough that
/// the manifest stays small (about sqrt of the balance on a 50,000-chunk site).
pub const CATALOG_PAGE_SHARDS: usize = 32;

/// A kind of shard, as its catalog pages list it.
pub trait Shard: Clone + Debug + PartialEq + Serialize + DeserializeOwned {
    /// What shards are ordered by; a shard holds the keys from its first to the next shard's.
    type Key: Ord + Debug + ?Sized;
    /// What a page's manifest entry says of the keys of its shards (beside its file and its
    /// place among the shards).
    type Range: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// The kind of file the catalog's pages are.
    const PAGE: FileKind;

    fn first_key(&self) -> &Self::Key;
    /// The files of the shard.
    fn files(&self) -> Vec<&FileEntry>;
    /// The range of one page's shards (at least one, in key order).
    fn range_of(shards: &[Self]) -> Self::Range;
    fn range_first(range: &Self::Range) -> &Self::Key;
    /// Whether `key`, not before the range's first key nor at the next page's, is in it: true
    /// where a page's keys run to the next page's (terms), not past the end where they stop.
    fn range_holds(range: &Self::Range, key: &Self::Key) -> bool;
    /// Whether a page with `range` may follow one with `previous` (`None`: the first page).
    fn follows(previous: Option<&Self::Range>, range: &Self::Range) -> bool;
    /// Why the shards a page lists do not cover its `range` (before `next`, the next page's),
    /// if they do not.
    fn check_shards(shards: &[Self], range: &Self::Range, next: Option<&Self::Range>) -> Result<(), String>;
}

// Read through `file_fields` (one impl per kind of range, in `shard_entries`).
/// A catalog page's entry in the manifest: its file, the shards it lists
/// (`first_shard..first_shard + shards` over all the catalog's shards) and their keys.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct CatalogPage<R> {
    #[serde(flatten)]
    pub file: FileEntry,
    pub first_shard: usize,
    pub shards: usize,
    #[serde(flatten)]
    pub range: R,
}

/// Reads `$target`, a catalog entry written with a [`FileEntry`] flattened into it (`name`,
/// `bytes`, `sha256`) beside fields of its own, through `$fields`, the same JSON object with
/// every field named; `$build` makes the entry of `$f` (the fields read) and `$file` (their
/// file). Not serde's `flatten` for reading: that buffers each object in serde's `Content`
/// first, generic code that was ~10 KB of the search module (BENCHMARKS.md, "The search
/// module's code"). Writing with `flatten` costs nothing of the kind, so entries are still
/// written so, and a test reads back what each kind writes.
macro_rules! file_fields {
    ($target:ty, $fields:ident { $($field:ident: $ty:ty),* $(,)? }, |$f:ident, $file:ident| $build:expr) => {
        #[derive(serde::Deserialize)]
        struct $fields {
            name: String,
            bytes: u64,
            sha256: String,
            $($field: $ty),*
        }

        impl<'de> serde::Deserialize<'de> for $target {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let $f = <$fields as serde::Deserialize>::deserialize(deserializer)?;
                let $file = FileEntry { name: $f.name, bytes: $f.bytes, sha256: $f.sha256 };
                Ok($build)
            }
        }
    };
}
pub(super) use file_fields;

/// The catalog of one kind of shard: its pages, as the manifest lists them (a JSON array of
/// [`CatalogPage`]s).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent, bound(serialize = "", deserialize = "CatalogPage<S::Range>: DeserializeOwned"))]
pub struct Catalog<S: Shard> {
    pages: Vec<CatalogPage<S::Range>>,
    #[serde(skip)]
    kind: PhantomData<S>,
}

/// An empty catalog: no page, no shard (a bundle without that kind of shard).
impl<S: Shard> Default for Catalog<S> {
    fn default() -> Self {
        Catalog { pages: Vec::new(), kind: PhantomData }
    }
}

impl<S: Shard> Catalog<S> {
    /// Lists `shards` (in key order) on pages of [`CATALOG_PAGE_SHARDS`]; `add` stores each
    /// page's bytes as a file and describes it.
    pub fn write(shards: &[S], mut add: impl FnMut(FileKind, Vec<u8>) -> FileEntry) -> Result<Self, BundleError> {
        let mut pages = Vec::new();
        for (page, listed) in shards.chunks(CATALOG_PAGE_SHARDS).enumerate() {
            let bytes = serde_json::to_vec(listed).map_err(|e| BundleError::Inconsistent(e.to_string()))?;
            pages.push(CatalogPage {
                file: add(S::PAGE, bytes),
                first_shard: page * CATALOG_PAGE_SHARDS,
                shards: listed.len(),
                range: S::range_of(listed),
            });
        }
        Ok(Catalog { pages, kind: PhantomData })
    }

    pub fn pages(&self) -> &[CatalogPage<S::Range>] {
        &self.pages
    }

    pub fn page(&self, page: usize) -> Option<&CatalogPage<S::Range>> {
        self.pages.get(page)
    }

    /// Pages in all.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// Shards in all.
    pub fn shard_count(&self) -> usize {
        self.pages.last().map_or(0, |p| p.first_shard + p.shards)
    }

    /// The page whose range holds `key` (keys before the first page's fall in it).
    pub fn page_of(&self, key: &S::Key) -> Option<usize> {
        let page = starting_at_or_before(&self.pages, |p| S::range_first(&p.range), key);
        self.pages.get(page).filter(|p| S::range_holds(&p.range, key)).map(|_| page)
    }

    /// The page listing shard `id` (over all the catalog's shards), and the shard's place on it.
    pub fn page_of_shard(&self, id: usize) -> Option<(usize, usize)> {
        let page = self.pages.partition_point(|p| p.first_shard <= id).checked_sub(1)?;
        let local = id - self.pages.get(page)?.first_shard;
        (local < self.pages.get(page)?.shards).then_some((page, local))
    }

    /// Refuses pages that do not follow each other: shards counted on without gap, keys in order.
    pub fn check(&self) -> Result<(), BundleError> {
        let mut next_shard = 0;
        let mut previous = None;
        for page in &self.pages {
            if page.first_shard != next_shard || page.shards == 0 || !S::follows(previous, &page.range) {
                return Err(BundleError::Inconsistent(format!(
                    "{} {} does not follow the one before it (shard {}, expected {next_shard}; {:?} after {previous:?})",
                    S::PAGE.role(),
                    page.file.name,
                    page.first_shard,
                    page.range
                )));
            }
            next_shard += page.shards;
            previous = Some(&page.range);
        }
        Ok(())
    }

    /// The shards page `page` lists, once its bytes match the manifest's entry and its shards
    /// cover the entry's range.
    pub fn read_page(&self, page: usize, bytes: &[u8]) -> Result<Vec<S>, BundleError> {
        let entry = (self.pages.get(page))
            .ok_or_else(|| BundleError::Inconsistent(format!("there is no {} {page}", S::PAGE.role())))?;
        entry.file.verify(bytes)?;
        let corrupt = |reason: String| BundleError::Corrupt { name: entry.file.name.clone(), reason };
        let shards: Vec<S> = serde_json::from_slice(bytes).map_err(|e| corrupt(e.to_string()))?;
        if shards.len() != entry.shards {
            return Err(corrupt("its shards do not match the manifest's range".into()));
        }
        let next = self.pages.get(page + 1).map(|p| &p.range);
        S::check_shards(&shards, &entry.range, next).map_err(corrupt)?;
        for file in shards.iter().flat_map(S::files) {
            check_name(&file.name)?;
        }
        Ok(shards)
    }
}

/// Of items in key order, each holding the keys from its first to the next one's, the one
/// that holds `key` (the first, for a key before it): how a key finds its page, and then
/// its shard on the page.
fn starting_at_or_before<T, K: Ord + ?Sized>(items: &[T], first_key: impl Fn(&T) -> &K, key: &K) -> usize {
    items.partition_point(|item| first_key(item) <= key).saturating_sub(1)
}

/// The pages of one catalog that a reader has received, verified and parsed, as they come.
pub struct FetchedPages<S> {
    pages: Vec<Option<Vec<S>>>,
}

/// Where a shard is, for a reader holding some of its catalog's pages.
pub enum ShardAt<'a, S> {
    /// Listed on this page, not received yet.
    PageMissing(usize),
    /// Shard `id` (over all the catalog's shards).
    Found { id: usize, shard: &'a S },
}

impl<S: Shard> FetchedPages<S> {
    /// None of `catalog`'s pages yet.
    pub fn new(catalog: &Catalog<S>) -> Self {
        FetchedPages { pages: vec![None; catalog.len()] }
    }

    /// The pages not received yet.
    pub fn missing(&self) -> impl Iterator<Item = usize> + '_ {
        self.pages.iter().enumerate().filter(|(_, page)| page.is_none()).map(|(id, _)| id)
    }

    /// Verifies and keeps page `page` of `catalog`; a page received before is kept as it was.
    pub fn attach(&mut self, catalog: &Catalog<S>, page: usize, bytes: &[u8]) -> Result<(), BundleError> {
        if let Some(slot @ None) = self.pages.get_mut(page) {
            *slot = Some(catalog.read_page(page, bytes)?);
        }
        Ok(())
    }

    /// The shard whose range holds `key`, or the page to fetch first; `None` when no shard
    /// can hold it.
    pub fn locate(&self, catalog: &Catalog<S>, key: &S::Key) -> Option<ShardAt<'_, S>> {
        let page = catalog.page_of(key)?;
        let Some(shards) = self.pages.get(page)?.as_ref() else {
            return Some(ShardAt::PageMissing(page));
        };
        let local = starting_at_or_before(shards, S::first_key, key);
        let shard = shards.get(local)?;
        Some(ShardAt::Found { id: catalog.page(page)?.first_shard + local, shard })
    }

    /// Shard `id`, or the page to fetch first; `None` when there is no shard `id`.
    pub fn by_id(&self, catalog: &Catalog<S>, id: usize) -> Option<ShardAt<'_, S>> {
        let (page, local) = catalog.page_of_shard(id)?;
        match self.pages.get(page)?.as_ref() {
            None => Some(ShardAt::PageMissing(page)),
            Some(shards) => shards.get(local).map(|shard| ShardAt::Found { id, shard }),
        }
    }

    /// The first key after shard `id`'s range: the next shard's first, or the next page's
    /// (`None` for the last shard, or while its page is missing).
    pub fn end_of<'a>(&'a self, catalog: &'a Catalog<S>, id: usize) -> Option<&'a S::Key> {
        let (page, local) = catalog.page_of_shard(id)?;
        let shards = self.pages.get(page)?.as_ref()?;
        match shards.get(local + 1) {
            Some(next) => Some(next.first_key()),
            None => catalog.page(page + 1).map(|p| S::range_first(&p.range)),
        }
    }
}
