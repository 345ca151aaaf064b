//! A tiny seeded random number generator: builds (k-means seeds, samples) and the synthetic
//! test data must be reproducible, and nothing here needs cryptographic randomness.

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
    #[cfg(any(test, feature = "bench-data"))]
    pub fn gaussian_vector(&mut self, dims: usize) -> Vec<f32> {
        let sd = 1.0 / (dims.max(1) as f32).sqrt();
        (0..dims).map(|_| self.gaussian() * sd).collect()
    }
}
