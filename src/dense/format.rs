//! The dense index's own byte format: one file in the bundle, little-endian throughout.
//!
//! ```text
//! offset  size          field
//! 0       4             magic "LDNS" (Lectern DeNSe)
//! 4       2             format version (FORMAT_VERSION)
//! 6       2             flags: bit 0 = an HNSW graph follows the vectors; bit 1 = vector
//!                       owners follow the codes; others must be 0
//! 8       4             dims (1..=65536)
//! 12      4             count (1..=u32::MAX - 1)
//! 16      count × 4     per-vector scale, f32, in 0..=1.001/127 (max |x| / 127 of a unit vector)
//! ..      count × dims  codes, i8, vector after vector
//! ..      count × 4     if flagged: the item (chunk) of each vector, u32, consecutive from 0
//! ..      rest          the graph, if flagged (layout in `graph_bytes.rs`)
//! ```
//!
//! Nothing follows; the bundle's manifest carries the checksum. Every count is checked
//! against the bytes actually present before anything is allocated from it.

use super::graph::HnswGraph;
use super::index::DenseIndex;
use super::owners::Owners;
use super::quantized::{QuantizedVectors, MAX_DIMS, MAX_SCALE, MAX_VECTORS};
use super::{ByteReader, DenseError};

const MAGIC: [u8; 4] = *b"LDNS";
/// Bump on any layout change: a reader refuses other versions rather than misread them.
pub const FORMAT_VERSION: u16 = 1;
const FLAG_GRAPH: u16 = 1;
const FLAG_OWNERS: u16 = 2;
const KNOWN_FLAGS: u16 = FLAG_GRAPH | FLAG_OWNERS;
const HEADER_LEN: usize = 16;

impl DenseIndex {
    /// The index as bytes, to be stored in the bundle and read back with [`DenseIndex::from_bytes`].
    pub fn to_bytes(&self) -> Vec<u8> {
        let count = self.vectors.len();
        // If the graph could not be encoded (a change in instant-distance's serialised form,
        // which the tests would catch), the index is written without it: still correct, just
        // searched by exact scan.
        let graph = self.graph.as_ref().and_then(|graph| {
            let mut out = Vec::new();
            graph.encode(count, &mut out).ok().map(|()| out)
        });
        let flags = if graph.is_some() { FLAG_GRAPH } else { 0 } | if self.owners.is_some() { FLAG_OWNERS } else { 0 };
        let mut out =
            Vec::with_capacity(HEADER_LEN + count * (4 + self.vectors.dims()) + graph.as_ref().map_or(0, Vec::len));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&flags.to_le_bytes());
        // dims <= MAX_DIMS and count <= MAX_VECTORS: both fit in u32.
        out.extend_from_slice(&(self.vectors.dims() as u32).to_le_bytes());
        out.extend_from_slice(&(count as u32).to_le_bytes());
        for scale in self.vectors.raw_scales() {
            out.extend_from_slice(&scale.to_le_bytes());
        }
        out.extend(self.vectors.raw_codes().iter().map(|&c| c as u8));
        if let Some(owners) = &self.owners {
            for item in owners.raw() {
                out.extend_from_slice(&item.to_le_bytes());
            }
        }
        if let Some(graph) = graph {
            out.extend_from_slice(&graph);
        }
        out
    }

    /// Reads an index written by [`DenseIndex::to_bytes`]. Fails with a typed error, never a
    /// panic, on anything else: truncated, mutated, foreign or newer-format bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DenseError> {
        let mut reader = ByteReader::new(bytes);
        reader.require("header", HEADER_LEN as u64)?;
        if reader.take("header", 4)? != MAGIC {
            return Err(DenseError::BadMagic);
        }
        let version = reader.u16("header")?;
        if version != FORMAT_VERSION {
            return Err(DenseError::UnsupportedVersion { found: version, supported: FORMAT_VERSION });
        }
        let flags = reader.u16("header")?;
        if flags & !KNOWN_FLAGS != 0 {
            return Err(DenseError::UnknownFlags { flags });
        }
        let dims = reader.u32("header")? as usize;
        let count = reader.u32("header")? as usize;
        if dims == 0 || dims > MAX_DIMS {
            return Err(DenseError::InvalidHeader("its dimension count is 0 or above 65536"));
        }
        if count == 0 || count > MAX_VECTORS {
            return Err(DenseError::InvalidHeader("its vector count is 0 or above u32::MAX - 1"));
        }
        // u64: `count * (4 + dims)` overflows a 32-bit usize (wasm) for a corrupt header.
        reader.require("vectors", count as u64 * (4 + dims as u64))?;

        let mut scales = Vec::with_capacity(count);
        for (index, raw) in reader.take("vector scales", count * 4)?.chunks_exact(4).enumerate() {
            let scale = f32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
            // A scale above MAX_SCALE can only come from a vector that was not normalised.
            if !(0.0..=MAX_SCALE).contains(&scale) {
                return Err(DenseError::InvalidScale { index });
            }
            scales.push(scale);
        }
        let codes: Vec<i8> = reader.take("vector codes", count * dims)?.iter().map(|&b| b as i8).collect();
        let vectors = QuantizedVectors::from_parts(dims, codes, scales);
        let owners = if flags & FLAG_OWNERS != 0 {
            let raw = reader.take("vector owners", count * 4)?;
            let items = raw.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            Some(Owners::from_vector_owners(items)?)
        } else {
            None
        };

        let graph = if flags & FLAG_GRAPH != 0 { Some(HnswGraph::decode(&mut reader, count)?) } else { None };
        reader.finish()?;
        Ok(DenseIndex { vectors, graph, owners })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::graph_bytes::MAX_EF;
    use crate::dense::synthetic::{clustered_unit_vectors, random_unit_vectors};
    use crate::dense::DenseIndexConfig;

    fn with_graph(n: usize, dims: usize, seed: u64) -> DenseIndex {
        let config = DenseIndexConfig { graph_threshold: 0, ..DenseIndexConfig::default() };
        DenseIndex::from_embeddings(&clustered_unit_vectors(n, dims, 10, 1.0, seed), &config).unwrap()
    }

    fn without_graph(n: usize, dims: usize, seed: u64) -> DenseIndex {
        DenseIndex::from_embeddings(&random_unit_vectors(n, dims, seed), &DenseIndexConfig::default()).unwrap()
    }

    #[test]
    fn round_trips_with_and_without_a_graph() {
        for index in [with_graph(700, 24, 1), without_graph(50, 7, 2)] {
            let bytes = index.to_bytes();
            let back = DenseIndex::from_bytes(&bytes).unwrap();
            assert_eq!(back.vectors(), index.vectors());
            assert_eq!(back.has_graph(), index.has_graph());
            assert_eq!(back.ef_search(), index.ef_search());
            assert_eq!(back.to_bytes(), bytes, "re-encoding is stable");
            for i in [0u32, 3, 17] {
                let q = index.vectors().dequantize(i).unwrap();
                assert_eq!(back.search(&q, 10, None).unwrap(), index.search(&q, 10, None).unwrap());
            }
        }
    }

    #[test]
    fn header_and_sizes_are_as_documented() {
        let index = without_graph(3, 5, 3);
        let bytes = index.to_bytes();
        assert_eq!(&bytes[..4], b"LDNS");
        assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), FORMAT_VERSION);
        assert_eq!(u16::from_le_bytes([bytes[6], bytes[7]]), 0);
        assert_eq!(u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]), 5);
        assert_eq!(u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]), 3);
        assert_eq!(bytes.len(), 16 + 3 * 4 + 3 * 5);
        let graph = with_graph(300, 8, 4).to_bytes();
        assert_eq!(u16::from_le_bytes([graph[6], graph[7]]), FLAG_GRAPH);
    }

    fn set_u32(bytes: &mut [u8], at: usize, value: u32) {
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }

    /// Offset of the graph section in an index of `count` vectors of `dims`.
    fn graph_start(count: usize, dims: usize) -> usize {
        16 + count * (4 + dims)
    }

    #[test]
    fn every_corrupt_header_is_a_typed_error() {
        let good = without_graph(4, 6, 5).to_bytes();
        let err = |bytes: &[u8]| DenseIndex::from_bytes(bytes).err().unwrap();

        assert!(matches!(err(&[]), DenseError::Truncated { section: "header", needed: 16, available: 0 }));
        assert!(matches!(err(&good[..15]), DenseError::Truncated { section: "header", .. }));
        let mut b = good.clone();
        b[0] = b'X';
        assert_eq!(err(&b), DenseError::BadMagic);
        let mut b = good.clone();
        b[4] = 2;
        assert_eq!(err(&b), DenseError::UnsupportedVersion { found: 2, supported: 1 });
        let mut b = good.clone();
        b[6] = 0b100;
        assert_eq!(err(&b), DenseError::UnknownFlags { flags: 4 });
        // Owners flagged on an index without them: the codes' bytes are read as owners and the
        // rest is missing or out of order, never a panic.
        let mut b = good.clone();
        b[6] |= 0b10;
        assert!(DenseIndex::from_bytes(&b).is_err());
        for (at, value) in [(8, 0), (8, MAX_DIMS as u32 + 1), (12, 0), (12, u32::MAX)] {
            let mut b = good.clone();
            set_u32(&mut b, at, value);
            assert!(matches!(err(&b), DenseError::InvalidHeader(_)), "{at} {value}");
        }
        // A header claiming more vectors than the bytes hold fails before allocating.
        let mut b = good.clone();
        set_u32(&mut b, 12, u32::MAX - 1);
        set_u32(&mut b, 8, MAX_DIMS as u32);
        assert!(matches!(err(&b), DenseError::Truncated { section: "vectors", .. }));
        assert!(matches!(err(&good[..good.len() - 1]), DenseError::Truncated { section: "vectors", .. }));
        let mut b = good.clone();
        b[16..20].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(err(&b), DenseError::InvalidScale { index: 0 });
        let mut b = good.clone();
        b[20..24].copy_from_slice(&(-1.0f32).to_le_bytes());
        assert_eq!(err(&b), DenseError::InvalidScale { index: 1 });
        let mut b = good.clone();
        b[20..24].copy_from_slice(&(MAX_SCALE * 1.01).to_le_bytes());
        assert_eq!(err(&b), DenseError::InvalidScale { index: 1 });
        let mut b = good.clone();
        b.push(0);
        assert_eq!(err(&b), DenseError::TrailingBytes { extra: 1 });
        // Claiming a graph that is not there.
        let mut b = good;
        b[6] = 1;
        assert!(matches!(err(&b), DenseError::Truncated { section: "graph header", .. }));
    }

    #[test]
    fn every_corrupt_graph_is_a_typed_error() {
        let (n, dims) = (300, 8);
        let good = with_graph(n, dims, 6).to_bytes();
        let g = graph_start(n, dims);
        let err = |bytes: &[u8]| DenseIndex::from_bytes(bytes).err().unwrap();
        // Layout: ef u32 | order n × 2 | layer-0 nodes | L | layers
        let order = g + 4;
        let zero = order + 2 * n;

        for ef in [0u32, MAX_EF as u32 + 1] {
            let mut b = good.clone();
            set_u32(&mut b, g, ef);
            assert!(matches!(err(&b), DenseError::InvalidGraph(_)));
        }
        // A duplicated id in the order.
        let mut b = good.clone();
        b.copy_within(order..order + 2, order + 2);
        assert!(matches!(err(&b), DenseError::InvalidGraph(_)));
        // An order id past the end.
        let mut b = good.clone();
        b[order..order + 2].copy_from_slice(&(n as u16).to_le_bytes());
        assert!(matches!(err(&b), DenseError::InvalidGraph(_)));
        // Node 0 of layer 0: degree too large, then a neighbour out of range.
        let mut b = good.clone();
        b[zero] = 65;
        assert_eq!(err(&b), DenseError::DegreeTooLarge { layer: 0, node: 0, degree: 65, max: 64 });
        let mut b = good.clone();
        assert!(b[zero] > 0);
        b[zero + 1..zero + 3].copy_from_slice(&(n as u16).to_le_bytes());
        assert_eq!(err(&b), DenseError::NeighbourOutOfRange { layer: 0, node: 0, neighbour: n as u32, limit: n });
        // Truncated anywhere inside the graph.
        assert!(matches!(err(&good[..good.len() - 1]), DenseError::Truncated { .. }));
        assert!(matches!(err(&good[..zero + 1]), DenseError::Truncated { .. }));
    }

    #[test]
    fn corrupt_upper_layers_are_typed_errors() {
        // Hand-made graph over 2 vectors so the upper layers are at known offsets.
        let index = without_graph(2, 3, 7);
        let mut b = index.to_bytes();
        b[6] = 1;
        let head = b.clone();
        let graph = |upper: &[u8]| {
            let mut out = head.clone();
            out.extend_from_slice(&8u32.to_le_bytes()); // ef
            out.extend_from_slice(&[0, 0, 1, 0]); // order 0, 1
            out.extend_from_slice(&[1, 1, 0, 1, 0, 0]); // node 0 -> 1, node 1 -> 0
            out.extend_from_slice(upper);
            out
        };
        let ok = DenseIndex::from_bytes(&graph(&[1, 1, 0, 0, 0, 0])).unwrap(); // 1 layer, 1 node, no links
        assert_eq!(ok.search(&[1.0, 0.0, 0.0], 2, None).unwrap().len(), 2);
        let err = |upper: &[u8]| DenseIndex::from_bytes(&graph(upper)).err().unwrap();
        assert!(matches!(err(&[33]), DenseError::InvalidGraph(_))); // too many layers
        assert!(matches!(err(&[1, 0, 0, 0, 0]), DenseError::InvalidGraph(_))); // empty layer
        assert!(matches!(err(&[1, 3, 0, 0, 0]), DenseError::InvalidGraph(_))); // larger than below
        assert!(matches!(err(&[2, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0]), DenseError::InvalidGraph(_))); // sum > count
        assert_eq!(err(&[1, 1, 0, 0, 0, 33]), DenseError::DegreeTooLarge { layer: 1, node: 0, degree: 33, max: 32 });
        assert_eq!(
            err(&[1, 1, 0, 0, 0, 1, 1, 0]),
            DenseError::NeighbourOutOfRange { layer: 1, node: 0, neighbour: 1, limit: 1 }
        );
        assert!(matches!(err(&[1, 1, 0]), DenseError::Truncated { section: "graph layers", .. }));
        assert!(matches!(err(&[1, 1, 0, 0, 0, 1]), DenseError::Truncated { section: "graph nodes", .. }));
    }
}
