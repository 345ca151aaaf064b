use instant_distance::Point;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::quantized::{QuantizedQuery, QuantizedVectors};

/// A stored vector as an HNSW point while the graph is built: its id plus a reference to the
/// storage, so two stored vectors can be compared without the graph owning a copy of either.
/// Serialises as the bare id, the same wire form as [`SearchPoint::Stored`].
#[derive(Clone, Copy)]
pub(crate) struct BuildPoint<'a> {
    pub id: u32,
    pub vectors: &'a QuantizedVectors,
}

impl Point for BuildPoint<'_> {
    /// `1 - cosine` of the two int8 vectors: the dequantised dot product, as everywhere else.
    fn distance(&self, other: &Self) -> f32 {
        1.0 - self.vectors.cosine_between(self.id, other.id)
    }
}

impl Serialize for BuildPoint<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(self.id)
    }
}

/// The question being searched, with the storage its distances are computed against.
pub(crate) struct QueryContext<'a> {
    pub query: QuantizedQuery,
    pub vectors: &'a QuantizedVectors,
}

/// An HNSW point in a searchable graph: 16 bytes, no vector data.
///
/// The graph stores `Stored` ids; a search passes a `Query`. instant-distance only ever
/// measures the query against stored points while searching, so the other pairings, which
/// cannot be computed without storage, answer "infinitely far" instead of failing.
#[derive(Clone, Copy)]
pub(crate) enum SearchPoint<'a> {
    Stored(u32),
    Query(&'a QueryContext<'a>),
}

impl Point for SearchPoint<'_> {
    fn distance(&self, other: &Self) -> f32 {
        match (self, other) {
            (SearchPoint::Query(q), SearchPoint::Stored(id)) | (SearchPoint::Stored(id), SearchPoint::Query(q)) => {
                1.0 - q.vectors.cosine_quantized(&q.query, *id)
            }
            _ => f32::INFINITY,
        }
    }
}

impl Serialize for SearchPoint<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A query is never part of a graph; writing an invalid id keeps serialisation infallible.
        serializer.serialize_u32(match self {
            SearchPoint::Stored(id) => *id,
            SearchPoint::Query(_) => u32::MAX,
        })
    }
}

impl<'de> Deserialize<'de> for SearchPoint<'_> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        u32::deserialize(deserializer).map(SearchPoint::Stored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_follow_cosine_and_unmeasurable_pairs_are_far() {
        let vectors = QuantizedVectors::quantize(&[vec![1.0, 0.0], vec![0.0, 1.0], vec![0.6, 0.8]]).unwrap();
        let a = BuildPoint { id: 0, vectors: &vectors };
        let c = BuildPoint { id: 2, vectors: &vectors };
        assert!((a.distance(&c) - 0.4).abs() < 1e-2);
        assert!(a.distance(&a).abs() < 1e-6);
        let context = QueryContext { query: QuantizedQuery::new(&[0.0, 1.0]), vectors: &vectors };
        let q = SearchPoint::Query(&context);
        assert!(q.distance(&SearchPoint::Stored(1)).abs() < 1e-6);
        assert!((SearchPoint::Stored(0).distance(&q) - 1.0).abs() < 1e-6);
        assert_eq!(SearchPoint::Stored(0).distance(&SearchPoint::Stored(1)), f32::INFINITY);
        // An id past the end (only possible from a bug) scores 0, i.e. distance 1, not a panic.
        assert!((q.distance(&SearchPoint::Stored(99)) - 1.0).abs() < 1e-6);
        assert!(std::mem::size_of::<SearchPoint<'_>>() <= 16);
    }
}
