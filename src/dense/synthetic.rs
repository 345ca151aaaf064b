//! Seeded synthetic embeddings and an f32 brute-force reference, for tests and benchmarks.
//! Not public API: compiled for this crate's tests and, through the `bench-data` feature
//! (which the dev-dependency on this crate turns on), for examples/bench_dense.rs.

use super::dot::dot_f32;
use super::top_k::TopK;

pub use super::dot::normalize;
pub use super::rng::Rng;

/// Uniformly random directions: the hardest case for a graph index (no structure to exploit).
pub fn random_unit_vectors(n: usize, dims: usize, seed: u64) -> Vec<Vec<f32>> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut v = rng.gaussian_vector(dims);
            normalize(&mut v);
            v
        })
        .collect()
}

/// `n` unit vectors around `clusters` random unit centres: `normalize(centre + noise * g)` with
/// `g` a random vector of length ≈ 1. With `noise` = 1 a point's cosine to its centre is ≈ 0.7
/// and to a sibling ≈ 0.5, close to how MiniLM places sections of one topic.
pub fn clustered_unit_vectors(n: usize, dims: usize, clusters: usize, noise: f32, seed: u64) -> Vec<Vec<f32>> {
    let centres = random_unit_vectors(clusters.max(1), dims, seed ^ 0xC1u64);
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let centre = &centres[rng.below(centres.len())];
            let mut v: Vec<f32> = centre.iter().zip(rng.gaussian_vector(dims)).map(|(c, g)| c + noise * g).collect();
            normalize(&mut v);
            v
        })
        .collect()
}

/// `n` queries, each a random stored vector moved by `noise` (same meaning as above) and
/// renormalised: a question close to one section, as real questions are.
pub fn queries_near(vectors: &[Vec<f32>], n: usize, noise: f32, seed: u64) -> Vec<Vec<f32>> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let dims = vectors.first().map_or(0, Vec::len);
            let base = &vectors[rng.below(vectors.len())];
            let mut v: Vec<f32> = base.iter().zip(rng.gaussian_vector(dims)).map(|(b, g)| b + noise * g).collect();
            normalize(&mut v);
            v
        })
        .collect()
}

/// Exact f32 top-`k` by dot product among vectors that `allow`, best first (ties: lower index).
pub fn brute_force_top_k(
    vectors: &[Vec<f32>],
    query: &[f32],
    k: usize,
    allow: impl Fn(u32) -> bool,
) -> Vec<(u32, f32)> {
    let mut top = TopK::new(k);
    for (i, v) in vectors.iter().enumerate() {
        if allow(i as u32) {
            top.push(i as u32, dot_f32(query, v));
        }
    }
    top.into_sorted().into_iter().map(|s| (s.index, s.score)).collect()
}

/// Fraction of `truth`'s ids that `found` also contains.
pub fn recall(found: &[(u32, f32)], truth: &[(u32, f32)]) -> f64 {
    if truth.is_empty() {
        return 1.0;
    }
    let hits = truth.iter().filter(|t| found.iter().any(|f| f.0 == t.0)).count();
    hits as f64 / truth.len() as f64
}
