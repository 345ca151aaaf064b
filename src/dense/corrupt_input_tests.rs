//! Property tests: random and mutated bytes thrown at `DenseIndex::from_bytes`, and searches
//! run on whatever loads. Nothing may panic; whatever loads must re-encode to the same bytes.

use std::sync::OnceLock;

use proptest::prelude::*;

use super::synthetic::clustered_unit_vectors;
use super::{DenseIndex, DenseIndexConfig};

/// Valid indexes to mutate: one with a graph (small dims so mutations often hit the graph),
/// one without.
fn fixtures() -> &'static [Vec<u8>] {
    static FIXTURES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let graph = DenseIndexConfig { graph_threshold: 0, ..DenseIndexConfig::default() };
        let with_graph = DenseIndex::from_embeddings(&clustered_unit_vectors(300, 6, 8, 1.0, 1), &graph).unwrap();
        let plain =
            DenseIndex::from_embeddings(&clustered_unit_vectors(40, 5, 4, 1.0, 2), &DenseIndexConfig::default())
                .unwrap();
        assert!(with_graph.has_graph() && !plain.has_graph());
        vec![with_graph.to_bytes(), plain.to_bytes()]
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip {
        at: usize,
        mask: u8,
    },
    Set {
        at: usize,
        value: u8,
    },
    /// Overwrite 4 bytes with a value that tends to matter: 0, 1, a max, a near-max.
    SetU32 {
        at: usize,
        value: u32,
    },
    Truncate {
        at: usize,
    },
    Insert {
        at: usize,
        bytes: Vec<u8>,
    },
    Remove {
        at: usize,
        len: usize,
    },
    Duplicate {
        at: usize,
        len: usize,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        4 => (at, 1u8..).prop_map(|(at, mask)| Mutation::Flip { at, mask }),
        2 => (at, any::<u8>()).prop_map(|(at, value)| Mutation::Set { at, value }),
        2 => (at, prop_oneof![Just(0u32), Just(1), Just(u32::MAX), Just(u32::MAX - 1), Just(65), any::<u32>()])
            .prop_map(|(at, value)| Mutation::SetU32 { at, value }),
        1 => at.prop_map(|at| Mutation::Truncate { at }),
        1 => (at, prop::collection::vec(any::<u8>(), 1..16)).prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        1 => (at, 1usize..64).prop_map(|(at, len)| Mutation::Remove { at, len }),
        1 => (at, 1usize..64).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let n = bytes.len().max(1);
    match mutation {
        Mutation::Flip { at, mask } => {
            if let Some(b) = bytes.get_mut(at % n) {
                *b ^= mask;
            }
        }
        Mutation::Set { at, value } => {
            if let Some(b) = bytes.get_mut(at % n) {
                *b = *value;
            }
        }
        Mutation::SetU32 { at, value } => {
            let at = at % n;
            for (i, v) in value.to_le_bytes().into_iter().enumerate() {
                if let Some(b) = bytes.get_mut(at + i) {
                    *b = v;
                }
            }
        }
        Mutation::Truncate { at } => bytes.truncate(at % n),
        Mutation::Insert { at, bytes: new } => {
            let at = at % (bytes.len() + 1);
            bytes.splice(at..at, new.iter().copied());
        }
        Mutation::Remove { at, len } => {
            let at = at % n;
            let end = (at + len).min(bytes.len());
            if at < end {
                bytes.drain(at..end);
            }
        }
        Mutation::Duplicate { at, len } => {
            let at = at % n;
            let end = (at + len).min(bytes.len());
            if at < end {
                let copy = bytes[at..end].to_vec();
                bytes.splice(end..end, copy);
            }
        }
    }
}

/// Loads `bytes`; if they load, searches them every way the API allows and checks the
/// re-encoding. Only a panic or a broken invariant fails.
fn load_and_search(bytes: &[u8], query_seed: &[f32], k: usize) {
    let Ok(mut index) = DenseIndex::from_bytes(bytes) else { return };
    assert_eq!(index.to_bytes(), bytes, "an accepted index re-encodes to the same bytes");
    let query: Vec<f32> =
        (0..index.dims()).map(|i| query_seed.get(i % query_seed.len().max(1)).copied().unwrap_or(0.5)).collect();
    for filter in [None, Some(&(|i: u32| i % 7 == 3) as &dyn Fn(u32) -> bool)] {
        let found = index.search(&query, k, filter).unwrap();
        assert!(found.len() <= k && found.iter().all(|(i, s)| (*i as usize) < index.len() && s.is_finite()));
        index.search_exact(&query, k, filter).unwrap();
    }
    assert!(index.search(&query[..query.len() - 1], k, None).is_err());
    if index.has_graph() {
        index.set_ef_search(1 + k % 40).unwrap();
        index.search(&query, k, None).unwrap();
    }
}

/// One node: `degree` ids, mostly below `limit`, now and then exactly `limit` (out of range).
fn node(limit: usize, max_degree: usize) -> impl Strategy<Value = Vec<u8>> {
    let id = prop_oneof![2000 => 0..limit as u16, 1 => Just(limit as u16)];
    prop::collection::vec(id, 0..=max_degree).prop_map(|ids| {
        let mut out = vec![ids.len() as u8];
        ids.iter().for_each(|id| out.extend_from_slice(&id.to_le_bytes()));
        out
    })
}

/// A graph section over `count` (< 65 536, so 2-byte ids) vectors in the compact layout.
fn random_graph(count: usize) -> impl Strategy<Value = Vec<u8>> {
    let order = Just((0..count as u16).collect::<Vec<_>>()).prop_shuffle();
    let zero = prop::collection::vec(node(count, 64), count);
    let layers = prop::collection::vec(1..=count.div_ceil(3), 0..4).prop_flat_map(|mut sizes| {
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes.into_iter().map(|n| prop::collection::vec(node(n, 32), n)).collect::<Vec<_>>()
    });
    (1u32..300, order, zero, layers).prop_map(|(ef, order, zero, layers)| {
        let mut out = ef.to_le_bytes().to_vec();
        order.iter().for_each(|id| out.extend_from_slice(&id.to_le_bytes()));
        zero.iter().for_each(|n| out.extend_from_slice(n));
        out.push(layers.len() as u8);
        for layer in &layers {
            out.extend_from_slice(&(layer.len() as u32).to_le_bytes());
            layer.iter().for_each(|n| out.extend_from_slice(n));
        }
        out
    })
}

fn config() -> ProptestConfig {
    // PROPTEST_CASES overrides the default, which keeps this file to a few seconds in release;
    // PROPTEST_RNG_SEED replays a run.
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(3000);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), q in prop::collection::vec(-1.0f32..1.0, 1..8), k in 0usize..40) {
        load_and_search(&bytes, &q, k);
    }

    /// Random vectors and a random graph that is well-formed byte-wise (valid order, degrees
    /// and ids mostly in range, odd layer sizes, duplicate and self links): what gets past
    /// validation must be safe for instant-distance, which indexes without checks.
    #[test]
    fn random_graphs_behind_a_valid_header_never_panic(
        (dims, count, codes, graph) in (1usize..6, 1usize..60).prop_flat_map(|(dims, count)| {
            (Just(dims), Just(count), prop::collection::vec(any::<u8>(), dims * count), random_graph(count))
        }),
        q in prop::collection::vec(-1.0f32..1.0, 1..8),
        k in 0usize..40,
    ) {
        let mut bytes = b"LDNS".to_vec();
        bytes.extend_from_slice(&1u16.to_le_bytes());
        bytes.extend_from_slice(&1u16.to_le_bytes());
        bytes.extend_from_slice(&(dims as u32).to_le_bytes());
        bytes.extend_from_slice(&(count as u32).to_le_bytes());
        for i in 0..count {
            bytes.extend_from_slice(&(0.0001 * (i + 1) as f32).to_le_bytes());
        }
        bytes.extend_from_slice(&codes);
        bytes.extend_from_slice(&graph);
        load_and_search(&bytes, &q, k);
    }

    #[test]
    fn mutated_indexes_never_panic(
        which in 0usize..2,
        mutations in prop::collection::vec(mutation(), 1..6),
        q in prop::collection::vec(-1.0f32..1.0, 1..8),
        k in 0usize..40,
    ) {
        let mut bytes = fixtures()[which].clone();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        load_and_search(&bytes, &q, k);
    }
}

#[test]
fn unmutated_fixtures_load_and_search() {
    for bytes in fixtures() {
        load_and_search(bytes, &[0.3, -0.2, 0.9], 10);
    }
}
