//! Seeded synthetic embeddings and an f32 brute-force reference, for tests and benchmarks.
//! Not public API: compiled for this crate's tests and, through the `bench-data` feature
//! (which the dev-dependency on this crate turns on), for examples/bench_dense.rs.

use super::dot::dot_f32;
use super::top_k::TopK;

/// SplitMix64: tiny, seedable, good enough to scatter test vectors (not for cryptography).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_f64() * n as f64) as usize % n.max(1)
    }

    /// Standard normal, by Box–Muller.
    pub fn gaussian(&mut self) -> f32 {
        let u1 = self.next_f64().max(f64::MIN_POSITIVE);
        let u2 = self.next_f64();
        ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
    }

    /// A vector of `dims` independent N(0, 1/dims) values: length ≈ 1 in high dimensions.
    pub fn gaussian_vector(&mut self, dims: usize) -> Vec<f32> {
        let sd = 1.0 / (dims.max(1) as f32).sqrt();
        (0..dims).map(|_| self.gaussian() * sd).collect()
    }
}

/// Scales `v` to unit length (leaves a zero vector alone).
pub fn normalize(v: &mut [f32]) {
    let norm = dot_f32(v, v).sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

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
