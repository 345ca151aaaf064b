use super::graph::HnswGraph;
use super::graph_bytes::MAX_EF;
use super::owners::Owners;
use super::quantized::{QuantizedVectors, MAX_VECTORS};
use super::DenseError;

/// How the graph picks a node's links among the candidates found while inserting it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NeighbourSelection {
    /// The nearest candidates. Cheapest to build by far (no candidate-to-candidate distances).
    Nearest,
    /// The HNSW paper's heuristic: skip a candidate that is closer to an already chosen link
    /// than to the new node, so links spread in all directions. Fewer links, smaller graph.
    Diverse,
    /// `Diverse`, then the skipped candidates fill the free slots (instant-distance's default).
    DiverseThenNearest,
}

/// How a [`DenseIndex`] is built. Every default is measured; see `bench_notes.md`.
#[derive(Clone, Debug, PartialEq)]
pub struct DenseIndexConfig {
    /// Below this many vectors no graph is built and every search is an exact int8 scan.
    /// Any value; 0 always builds a graph. Default 5 000: in the browser (wasm, simd128) the
    /// scan beats the graph up to ~6 000 real MiniLM vectors (~13 000 synthetic ones), and
    /// below that a graph would only add bytes and load time. (Natively the crossover is
    /// lower, ~2 000 real / ~7 500 synthetic, but search runs in the browser.)
    pub graph_threshold: usize,
    /// Candidates kept while inserting into the graph (1..=65536): higher builds slower and
    /// finds better links. 100 is instant-distance's default; 200 measured no better.
    pub ef_construction: usize,
    /// Candidates a graph search returns for exact rescoring (1..=65536): higher is slower
    /// and recalls more. A search asking for more than this many results scans exactly.
    /// 128 gives recall@10 ≈ 0.99 against exact search on real MiniLM vectors (64: ≈ 0.98).
    pub ef_search: usize,
    /// How links are chosen; see [`NeighbourSelection`]. `Diverse` by default: on real MiniLM
    /// vectors it gives the smallest graph (~30 bytes per vector against ~157) and the fastest
    /// build at the same recall.
    pub neighbour_selection: NeighbourSelection,
    /// Seeds the graph's random layer assignment.
    pub seed: u64,
    /// Insert on one thread, so the same vectors always give the same bytes (instant-distance
    /// inserts in parallel otherwise, and the graph then differs from run to run).
    pub deterministic: bool,
}

impl Default for DenseIndexConfig {
    fn default() -> Self {
        DenseIndexConfig {
            graph_threshold: 5_000,
            ef_construction: 100,
            ef_search: 128,
            neighbour_selection: NeighbourSelection::Diverse,
            seed: 0x1EC7_E2A5_EED0_0001,
            deterministic: true,
        }
    }
}

impl DenseIndexConfig {
    fn validate(&self) -> Result<(), DenseError> {
        if !(1..=MAX_EF).contains(&self.ef_construction) {
            return Err(DenseError::InvalidConfig("ef_construction must be between 1 and 65536"));
        }
        if !(1..=MAX_EF).contains(&self.ef_search) {
            return Err(DenseError::InvalidConfig("ef_search must be between 1 and 65536"));
        }
        Ok(())
    }
}

/// int8 vectors, plus an HNSW graph when there are enough of them for it to pay off.
///
/// [`search`](Self::search) returns `(vector index, cosine)` best first; vector indexes are
/// positions in the slice the index was built from. Items (chunks) may own several vectors
/// (the windows of a long text): [`search_items`](Self::search_items) scores each item by its
/// best vector. Without owners, item i is vector i.
pub struct DenseIndex {
    pub(super) vectors: QuantizedVectors,
    pub(super) graph: Option<HnswGraph>,
    pub(super) owners: Option<Owners>,
}

impl std::fmt::Debug for DenseIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DenseIndex")
            .field("len", &self.len())
            .field("dims", &self.dims())
            .field("ef_search", &self.ef_search())
            .finish()
    }
}

impl DenseIndex {
    /// Indexes quantised vectors, building a graph if there are at least `graph_threshold`.
    pub fn build(vectors: QuantizedVectors, config: &DenseIndexConfig) -> Result<Self, DenseError> {
        config.validate()?;
        if vectors.len() > MAX_VECTORS {
            return Err(DenseError::TooManyVectors { count: vectors.len(), max: MAX_VECTORS });
        }
        let graph =
            if vectors.len() >= config.graph_threshold { Some(HnswGraph::build(&vectors, config)?) } else { None };
        Ok(DenseIndex { vectors, graph, owners: None })
    }

    /// Quantises unit-length embeddings and indexes them.
    pub fn from_embeddings<V: AsRef<[f32]>>(embeddings: &[V], config: &DenseIndexConfig) -> Result<Self, DenseError> {
        Self::build(QuantizedVectors::quantize(embeddings)?, config)
    }

    /// Indexes items that own one or more unit-length embeddings each (in item order).
    /// Items of one vector each give exactly the index [`from_embeddings`](Self::from_embeddings) does.
    pub fn from_item_embeddings<V: AsRef<[f32]>>(
        items: &[Vec<V>],
        config: &DenseIndexConfig,
    ) -> Result<Self, DenseError> {
        let counts: Vec<usize> = items.iter().map(Vec::len).collect();
        let flat: Vec<&[f32]> = items.iter().flatten().map(AsRef::as_ref).collect();
        let mut index = Self::from_embeddings(&flat, config)?;
        if counts.iter().any(|&n| n != 1) {
            index.owners = Some(Owners::from_counts(&counts)?);
        }
        Ok(index)
    }

    /// Number of items (chunks) the vectors belong to.
    pub fn item_count(&self) -> usize {
        self.owners.as_ref().map_or(self.vectors.len(), Owners::item_count)
    }

    /// The vectors of `item`.
    pub fn item_vectors(&self, item: u32) -> Option<std::ops::Range<u32>> {
        match &self.owners {
            Some(owners) => owners.vectors_of(item),
            None => ((item as usize) < self.vectors.len()).then_some(item..item + 1),
        }
    }

    /// The cosine of `query` with `item`'s best vector.
    pub fn item_cosine(&self, query: &[f32], item: u32) -> Result<f32, DenseError> {
        let range = self.item_vectors(item).ok_or(DenseError::NoSuchVector { index: item, len: self.item_count() })?;
        let mut best = f32::NEG_INFINITY;
        for v in range {
            best = best.max(self.vectors.cosine(query, v)?);
        }
        Ok(best)
    }

    /// The `k` items most similar to `query`, each scored by its best vector, best first, as
    /// `(item index, cosine)`; `filter` accepts or refuses items.
    pub fn search_items(
        &self,
        query: &[f32],
        k: usize,
        filter: Option<&dyn Fn(u32) -> bool>,
    ) -> Result<Vec<(u32, f32)>, DenseError> {
        let Some(owners) = &self.owners else {
            return self.search(query, k, filter);
        };
        let owner = |v: u32| owners.item_of(v).unwrap_or(u32::MAX);
        let vector_filter = |v: u32| filter.is_none_or(|allow| allow(owner(v)));
        // An item's windows tend to be near each other: ask for more vectors than items, and
        // for more again when duplicates leave fewer than k items.
        let mut want = k.saturating_mul(2).max(1);
        loop {
            let hits = self.search(query, want.min(self.len()), Some(&vector_filter))?;
            let mut items: Vec<(u32, f32)> = Vec::with_capacity(k);
            for (v, score) in &hits {
                let item = owner(*v);
                if !items.iter().any(|(i, _)| *i == item) {
                    items.push((item, *score));
                }
            }
            if items.len() >= k || want >= self.len() {
                items.truncate(k);
                return Ok(items);
            }
            want = want.saturating_mul(2);
        }
    }

    pub fn vectors(&self) -> &QuantizedVectors {
        &self.vectors
    }

    pub fn len(&self) -> usize {
        self.vectors.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vectors.is_empty()
    }

    pub fn dims(&self) -> usize {
        self.vectors.dims()
    }

    pub fn has_graph(&self) -> bool {
        self.graph.is_some()
    }

    /// The graph's search width, if there is a graph.
    pub fn ef_search(&self) -> Option<usize> {
        self.graph.as_ref().map(HnswGraph::ef_search)
    }

    /// Changes the graph's search width (1..=65536), e.g. after loading. Takes milliseconds:
    /// instant-distance fixes `ef` per graph, so the graph is re-encoded. No-op without a graph.
    pub fn set_ef_search(&mut self, ef_search: usize) -> Result<(), DenseError> {
        if !(1..=MAX_EF).contains(&ef_search) {
            return Err(DenseError::InvalidConfig("ef_search must be between 1 and 65536"));
        }
        if let Some(graph) = &self.graph {
            self.graph = Some(graph.with_ef_search(ef_search)?);
        }
        Ok(())
    }

    /// The `k` stored vectors most similar to `query` (a unit-length embedding from the same
    /// model), best first, as `(vector index, cosine)`. Only vectors for which `filter`
    /// returns true are considered.
    ///
    /// With a graph: its `ef_search` candidates are filtered and rescored exactly with the f32
    /// query. If that leaves fewer than `k` (a filter rejecting most vectors, or `k` larger
    /// than `ef_search`), it scans every vector instead, so results that exist are found.
    /// Scores are always [`QuantizedVectors::cosine`] values, whichever path found them.
    pub fn search(
        &self,
        query: &[f32],
        k: usize,
        filter: Option<&dyn Fn(u32) -> bool>,
    ) -> Result<Vec<(u32, f32)>, DenseError> {
        self.vectors.check_query(query)?;
        if k == 0 {
            return Ok(Vec::new());
        }
        if let Some(graph) = self.graph.as_ref().filter(|g| k <= g.ef_search()) {
            let candidates = graph.candidates(&self.vectors, query);
            let allowed = candidates.into_iter().filter(|&id| filter.is_none_or(|allow| allow(id)));
            let top = self.vectors.rescore(query, allowed, k);
            if top.len() >= k {
                return Ok(top.into_iter().map(|s| (s.index, s.score)).collect());
            }
        }
        Ok(self.vectors.scan_checked(query, k, filter).into_iter().map(|s| (s.index, s.score)).collect())
    }

    /// Exhaustive search, whatever the size: the reference the graph is measured against.
    pub fn search_exact(
        &self,
        query: &[f32],
        k: usize,
        filter: Option<&dyn Fn(u32) -> bool>,
    ) -> Result<Vec<(u32, f32)>, DenseError> {
        self.vectors.scan(query, k, filter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::synthetic::{
        brute_force_top_k, clustered_unit_vectors, queries_near, random_unit_vectors, recall,
    };

    fn graph_config() -> DenseIndexConfig {
        DenseIndexConfig { graph_threshold: 0, ..DenseIndexConfig::default() }
    }

    fn mean_recall(index: &DenseIndex, vectors: &[Vec<f32>], queries: &[Vec<f32>], k: usize) -> f64 {
        let total: f64 = queries
            .iter()
            .map(|q| recall(&index.search(q, k, None).unwrap(), &brute_force_top_k(vectors, q, k, |_| true)))
            .sum();
        total / queries.len() as f64
    }

    #[test]
    fn hnsw_recall_on_2k_random_vectors_is_at_least_095() {
        let vectors = random_unit_vectors(2000, 384, 21);
        let index = DenseIndex::from_embeddings(&vectors, &graph_config()).unwrap();
        assert!(index.has_graph());
        let queries = random_unit_vectors(100, 384, 22);
        let r = mean_recall(&index, &vectors, &queries, 10);
        println!("HNSW recall@10 on 2k uniform random 384-d vectors: {r:.3}");
        assert!(r >= 0.95, "recall@10 {r}");
    }

    #[test]
    fn hnsw_recall_on_clustered_vectors_is_at_least_095_with_every_link_selection() {
        let vectors = clustered_unit_vectors(3000, 64, 30, 1.5, 23);
        let queries = queries_near(&vectors, 100, 1.0, 24);
        for neighbour_selection in
            [NeighbourSelection::Nearest, NeighbourSelection::Diverse, NeighbourSelection::DiverseThenNearest]
        {
            let config = DenseIndexConfig { neighbour_selection, ..graph_config() };
            let index = DenseIndex::from_embeddings(&vectors, &config).unwrap();
            let r = mean_recall(&index, &vectors, &queries, 10);
            println!("HNSW recall@10 on 3k clustered vectors, {neighbour_selection:?} links: {r:.3}");
            assert!(r >= 0.95, "{neighbour_selection:?}: recall@10 {r}");
        }
    }

    #[test]
    fn below_threshold_search_is_the_exact_scan() {
        let vectors = random_unit_vectors(300, 32, 25);
        let index = DenseIndex::from_embeddings(&vectors, &DenseIndexConfig::default()).unwrap();
        assert!(!index.has_graph());
        assert_eq!(index.ef_search(), None);
        let q = &vectors[7];
        assert_eq!(index.search(q, 5, None).unwrap(), index.search_exact(q, 5, None).unwrap());
        assert_eq!(index.search(q, 1, None).unwrap()[0].0, 7);
    }

    #[test]
    fn filters_apply_and_a_selective_filter_still_returns_k() {
        let vectors = clustered_unit_vectors(2000, 32, 20, 1.0, 26);
        let index = DenseIndex::from_embeddings(&vectors, &graph_config()).unwrap();
        let query = &vectors[0];
        // Passes 1 vector in 100, almost none of them near the query: the graph's candidates
        // cannot supply 10, so the exact filtered scan must.
        let rare = |i: u32| i % 100 == 37;
        let got = index.search(query, 10, Some(&rare)).unwrap();
        let want = brute_force_top_k(&vectors, query, 10, rare);
        assert_eq!(got.len(), 10);
        assert!(got.iter().all(|(i, _)| rare(*i)));
        assert!(recall(&got, &want) >= 0.9);
        // Fewer matches than k: all of them, no error.
        let three = |i: u32| i < 3;
        let got = index.search(query, 10, Some(&three)).unwrap();
        assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>().len(), 3);
        assert!(index.search(query, 10, Some(&|_| false)).unwrap().is_empty());
        // A permissive filter is served by the graph and still only returns allowed ids.
        let even = |i: u32| i.is_multiple_of(2);
        let got = index.search(query, 10, Some(&even)).unwrap();
        assert_eq!(got.len(), 10);
        assert!(got.iter().all(|(i, _)| i.is_multiple_of(2)));
        assert!(got.windows(2).all(|w| w[0].1 >= w[1].1));
    }

    #[test]
    fn k_larger_than_ef_or_the_index_falls_back_to_the_scan() {
        let vectors = random_unit_vectors(500, 16, 27);
        let index = DenseIndex::from_embeddings(&vectors, &graph_config()).unwrap();
        let ef = index.ef_search().unwrap();
        let got = index.search(&vectors[1], ef + 10, None).unwrap();
        assert_eq!(got, index.search_exact(&vectors[1], ef + 10, None).unwrap());
        assert_eq!(index.search(&vectors[1], 10_000, None).unwrap().len(), 500);
        assert!(index.search(&vectors[1], 0, None).unwrap().is_empty());
    }

    #[test]
    fn query_errors_are_typed() {
        let vectors = random_unit_vectors(100, 8, 28);
        for config in [graph_config(), DenseIndexConfig::default()] {
            let index = DenseIndex::from_embeddings(&vectors, &config).unwrap();
            assert_eq!(index.search(&[0.0; 7], 3, None), Err(DenseError::QueryDims { expected: 8, found: 7 }));
            assert_eq!(index.search(&[f32::NAN; 8], 3, None), Err(DenseError::QueryNotFinite));
        }
    }

    #[test]
    fn config_and_ef_changes_are_checked() {
        let vectors = random_unit_vectors(600, 16, 29);
        let bad = DenseIndexConfig { ef_search: 0, ..graph_config() };
        assert!(matches!(DenseIndex::from_embeddings(&vectors, &bad), Err(DenseError::InvalidConfig(_))));
        let bad = DenseIndexConfig { ef_construction: MAX_EF + 1, ..graph_config() };
        assert!(matches!(DenseIndex::from_embeddings(&vectors, &bad), Err(DenseError::InvalidConfig(_))));
        let mut index = DenseIndex::from_embeddings(&vectors, &graph_config()).unwrap();
        let before = index.search(&vectors[5], 10, None).unwrap();
        index.set_ef_search(200).unwrap();
        assert_eq!(index.ef_search(), Some(200));
        let wide = index.search(&vectors[5], 10, None).unwrap();
        assert_eq!(wide[0].0, 5);
        assert!(recall(&wide, &before) >= 0.8);
        assert!(matches!(index.set_ef_search(0), Err(DenseError::InvalidConfig(_))));
    }

    #[test]
    fn items_score_by_their_best_vector_and_round_trip() {
        let vectors = random_unit_vectors(40, 16, 31);
        // Item 0 owns vectors 0..3, item 1 owns 3, item 2 owns 4..40.
        let items = vec![vectors[0..3].to_vec(), vectors[3..4].to_vec(), vectors[4..].to_vec()];
        for config in [graph_config(), DenseIndexConfig::default()] {
            let index = DenseIndex::from_item_embeddings(&items, &config).unwrap();
            assert_eq!((index.len(), index.item_count()), (40, 3));
            let hits = index.search_items(&vectors[2], 3, None).unwrap();
            assert_eq!(hits[0].0, 0, "item 0 holds the query as its third window");
            assert!(hits[0].1 > 0.99);
            assert_eq!(hits.len(), 3, "every item once");
            assert!((index.item_cosine(&vectors[2], 0).unwrap() - hits[0].1).abs() < 1e-6);
            let not_zero = |i: u32| i != 0;
            assert!(index.search_items(&vectors[2], 3, Some(&not_zero)).unwrap().iter().all(|h| h.0 != 0));
            let back = DenseIndex::from_bytes(&index.to_bytes()).unwrap();
            assert_eq!(back.item_count(), 3);
            assert_eq!(back.item_vectors(2), Some(4..40));
            assert_eq!(back.search_items(&vectors[2], 3, None).unwrap(), hits);
        }
        // One vector per item is the plain index, byte for byte.
        let single: Vec<Vec<Vec<f32>>> = vectors.iter().map(|v| vec![v.clone()]).collect();
        let plain = DenseIndex::from_embeddings(&vectors, &DenseIndexConfig::default()).unwrap();
        assert_eq!(
            DenseIndex::from_item_embeddings(&single, &DenseIndexConfig::default()).unwrap().to_bytes(),
            plain.to_bytes()
        );
        assert_eq!(plain.item_vectors(39), Some(39..40));
        assert_eq!(plain.item_vectors(40), None);
    }

    #[test]
    fn deterministic_builds_are_identical() {
        let vectors = random_unit_vectors(1500, 16, 30);
        let a = DenseIndex::from_embeddings(&vectors, &graph_config()).unwrap();
        let b = DenseIndex::from_embeddings(&vectors, &graph_config()).unwrap();
        assert_eq!(a.to_bytes(), b.to_bytes());
    }
}
