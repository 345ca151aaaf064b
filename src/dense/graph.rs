use instant_distance::{Builder, Heuristic, Hnsw, Search};

use super::graph_bytes::{compact_from_wire, wire_ef_search, wire_from_compact, wire_with_ef_search};
use super::graph_point::{BuildPoint, QueryContext, SearchPoint};
use super::quantized::{QuantizedQuery, QuantizedVectors};
use super::{ByteReader, DenseError, DenseIndexConfig, NeighbourSelection};

/// An HNSW graph over the ids of a [`QuantizedVectors`], built and searched by instant-distance.
///
/// The graph holds ids only ([`SearchPoint::Stored`]); distances are computed against the
/// vectors the caller passes in, so no vector is stored twice. instant-distance fixes its
/// `M` at 32 (64 links per node on layer 0, 32 above) and its search width `ef` per graph.
pub(crate) struct HnswGraph {
    // `'static` because stored points borrow nothing; a search borrows it as `'q` (covariance).
    hnsw: Hnsw<SearchPoint<'static>>,
    ef_search: usize,
}

impl HnswGraph {
    /// Builds the graph. With `config.deterministic` the result depends only on the vectors
    /// and the config (instant-distance inserts in parallel otherwise, and the graph varies).
    pub fn build(vectors: &QuantizedVectors, config: &DenseIndexConfig) -> Result<Self, DenseError> {
        // `len() <= MAX_VECTORS < u32::MAX`, so every id fits.
        let points: Vec<BuildPoint<'_>> = (0..vectors.len() as u32).map(|id| BuildPoint { id, vectors }).collect();
        let heuristic = match config.neighbour_selection {
            NeighbourSelection::Nearest => None,
            NeighbourSelection::Diverse => Some(Heuristic { extend_candidates: false, keep_pruned: false }),
            NeighbourSelection::DiverseThenNearest => Some(Heuristic { extend_candidates: false, keep_pruned: true }),
        };
        let builder = Builder::default()
            .ef_construction(config.ef_construction)
            .ef_search(config.ef_search)
            .select_heuristic(heuristic)
            .seed(config.seed);
        let build = move || builder.build_hnsw(points).0;
        let hnsw = match config.deterministic.then(|| rayon::ThreadPoolBuilder::new().num_threads(1).build()) {
            Some(Ok(pool)) => pool.install(build),
            // No threads to be had (wasm): rayon's global pool then runs on this thread anyway.
            _ => build(),
        };
        // The searchable graph has another point type; both serialise points as bare ids, so
        // the wire form converts one into the other (and is the path a loaded graph takes).
        let wire =
            postcard::to_allocvec(&hnsw).map_err(|_| DenseError::InvalidGraph("the built graph did not serialise"))?;
        drop(hnsw);
        Self::from_wire(&wire)
    }

    fn from_wire(wire: &[u8]) -> Result<Self, DenseError> {
        let hnsw = postcard::from_bytes::<Hnsw<SearchPoint<'static>>>(wire)
            .map_err(|_| DenseError::InvalidGraph("its encoded form did not decode"))?;
        Ok(HnswGraph { hnsw, ef_search: wire_ef_search(wire)? })
    }

    fn to_wire(&self) -> Result<Vec<u8>, DenseError> {
        postcard::to_allocvec(&self.hnsw).map_err(|_| DenseError::InvalidGraph("the graph did not serialise"))
    }

    /// How many candidates a search returns (instant-distance's `ef`).
    pub fn ef_search(&self) -> usize {
        self.ef_search
    }

    /// The same graph searching `ef_search` candidates wide. Costs a re-encode of the graph
    /// (milliseconds), since instant-distance fixes `ef` when a graph is built or loaded.
    pub fn with_ef_search(&self, ef_search: usize) -> Result<Self, DenseError> {
        Self::from_wire(&wire_with_ef_search(&self.to_wire()?, ef_search)?)
    }

    /// Up to `ef_search` stored ids near `query`, nearest first by the int8 distance.
    pub fn candidates(&self, vectors: &QuantizedVectors, query: &[f32]) -> Vec<u32> {
        let context = QueryContext { query: QuantizedQuery::new(query), vectors };
        let point = SearchPoint::Query(&context);
        let hnsw: &Hnsw<SearchPoint<'_>> = &self.hnsw;
        let mut search = Search::default();
        hnsw.search(&point, &mut search)
            .filter_map(|item| match item.point {
                SearchPoint::Stored(id) => Some(*id),
                SearchPoint::Query(_) => None,
            })
            .collect()
    }

    /// Appends the compact form (see `graph_bytes`) for a graph over `count` vectors.
    pub fn encode(&self, count: usize, out: &mut Vec<u8>) -> Result<(), DenseError> {
        compact_from_wire(&self.to_wire()?, count, out)
    }

    /// Reads and validates a compact graph over `count` vectors.
    pub fn decode(reader: &mut ByteReader<'_>, count: usize) -> Result<Self, DenseError> {
        Self::from_wire(&wire_from_compact(reader, count)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::synthetic::clustered_unit_vectors;

    #[test]
    fn compact_form_is_much_smaller_than_postcard_and_round_trips() {
        let vectors = QuantizedVectors::quantize(&clustered_unit_vectors(3000, 32, 30, 1.5, 9)).unwrap();
        let graph = HnswGraph::build(&vectors, &DenseIndexConfig::default()).unwrap();
        let wire = graph.to_wire().unwrap();
        let mut compact = Vec::new();
        graph.encode(vectors.len(), &mut compact).unwrap();
        let per_vector = |bytes: usize| bytes as f64 / vectors.len() as f64;
        println!(
            "graph bytes per vector: postcard {:.1}, compact {:.1}",
            per_vector(wire.len()),
            per_vector(compact.len())
        );
        assert!(compact.len() * 2 < wire.len());
        let back = HnswGraph::decode(&mut ByteReader::new(&compact), vectors.len()).unwrap();
        assert_eq!(back.to_wire().unwrap(), wire);
        let query = vectors.dequantize(5).unwrap();
        assert_eq!(back.candidates(&vectors, &query), graph.candidates(&vectors, &query));
    }
}
