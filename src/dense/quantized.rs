use super::dot::{dot_f32_i8, dot_i8};
use super::top_k::{Scored, TopK};
use super::DenseError;

/// Longest vector accepted. Keeps the i32 accumulator of [`dot_i8`] from overflowing and a
/// corrupt header from claiming absurd rows; real sentence embeddings are 384–4096 wide.
pub const MAX_DIMS: usize = 1 << 16;

/// Most vectors one index can hold: ids are u32, and instant-distance reserves `u32::MAX`.
pub const MAX_VECTORS: usize = (u32::MAX - 1) as usize;

/// Largest code magnitude. Symmetric (no -128) so negating a vector negates its codes exactly.
const CODE_MAX: f32 = 127.0;

/// Largest value accepted in an embedding: a unit vector's components lie in [-1, 1]; the
/// slack absorbs normalisation rounding. Bounding it bounds every score, so none overflows.
pub const MAX_ABS_VALUE: f32 = 1.001;

/// Largest valid scale, computed exactly as `quantize` computes one, so what it writes loads.
pub(crate) const MAX_SCALE: f32 = MAX_ABS_VALUE / CODE_MAX;

/// Unit-length f32 embeddings stored as int8 codes with one f32 scale per vector
/// (`x ≈ code * scale`, `scale = max|x| / 127`): 4x smaller than f32, and each vector's own
/// scale keeps its full int8 range however its values are spread.
///
/// Scores are dequantised dot products. Because the embeddings are L2-normalised before
/// quantisation, a dot product *is* their cosine similarity; quantisation moves it by about
/// 1e-3 (see the tests and `bench_notes.md`), far below the gaps that decide a ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedVectors {
    dims: usize,
    /// `len * dims` codes, vector after vector.
    codes: Vec<i8>,
    scales: Vec<f32>,
}

/// A query quantised like a stored vector, for the integer pre-ranking pass.
pub(crate) struct QuantizedQuery {
    pub codes: Vec<i8>,
    pub scale: f32,
}

impl QuantizedQuery {
    pub fn new(query: &[f32]) -> Self {
        let mut codes = Vec::with_capacity(query.len());
        let scale = quantize_into(query, &mut codes);
        QuantizedQuery { codes, scale }
    }
}

/// Appends the codes of `values` (all finite) to `out` and returns their scale.
fn quantize_into(values: &[f32], out: &mut Vec<i8>) -> f32 {
    let max_abs = values.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max_abs == 0.0 {
        out.extend(std::iter::repeat_n(0i8, values.len()));
        return 0.0;
    }
    let scale = max_abs / CODE_MAX;
    // The clamp only guards against rounding just past 127; `as` saturates anyway.
    out.extend(values.iter().map(|x| (x / scale).round().clamp(-CODE_MAX, CODE_MAX) as i8));
    scale
}

impl QuantizedVectors {
    /// Quantises L2-normalised embeddings that all have the same (non-zero) number of
    /// dimensions. Values must be finite and within ±[`MAX_ABS_VALUE`], as a unit vector's are.
    pub fn quantize<V: AsRef<[f32]>>(vectors: &[V]) -> Result<Self, DenseError> {
        let first = vectors.first().ok_or(DenseError::NoVectors)?.as_ref();
        let dims = first.len();
        if dims == 0 {
            return Err(DenseError::ZeroDims { index: 0 });
        }
        if dims > MAX_DIMS {
            return Err(DenseError::TooManyDims { dims, max: MAX_DIMS });
        }
        if vectors.len() > MAX_VECTORS {
            return Err(DenseError::TooManyVectors { count: vectors.len(), max: MAX_VECTORS });
        }
        let mut codes = Vec::with_capacity(vectors.len() * dims);
        let mut scales = Vec::with_capacity(vectors.len());
        for (index, vector) in vectors.iter().enumerate() {
            let vector = vector.as_ref();
            if vector.len() != dims {
                return Err(DenseError::DimsMismatch { index, expected: dims, found: vector.len() });
            }
            if let Some(position) = vector.iter().position(|x| !x.is_finite()) {
                return Err(DenseError::NonFinite { index, position });
            }
            if let Some(position) = vector.iter().position(|x| x.abs() > MAX_ABS_VALUE) {
                return Err(DenseError::NotNormalized { index, position });
            }
            scales.push(quantize_into(vector, &mut codes));
        }
        Ok(QuantizedVectors { dims, codes, scales })
    }

    /// Reassembles vectors read from bytes. The caller has checked `codes.len() == scales.len() * dims`,
    /// `dims` in `1..=MAX_DIMS`, and every scale in `0.0..=MAX_SCALE`.
    pub(crate) fn from_parts(dims: usize, codes: Vec<i8>, scales: Vec<f32>) -> Self {
        debug_assert_eq!(codes.len(), scales.len() * dims);
        QuantizedVectors { dims, codes, scales }
    }

    pub(crate) fn raw_codes(&self) -> &[i8] {
        &self.codes
    }

    pub(crate) fn raw_scales(&self) -> &[f32] {
        &self.scales
    }

    /// Number of vectors.
    pub fn len(&self) -> usize {
        self.scales.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scales.is_empty()
    }

    /// Width of every vector (384 for all-MiniLM-L6-v2), as read from the data, never assumed.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Codes and scale of vector `index`; an empty row for an index out of range.
    pub(crate) fn row(&self, index: u32) -> (&[i8], f32) {
        let i = index as usize;
        let start = i.saturating_mul(self.dims);
        let codes = self.codes.get(start..start.saturating_add(self.dims)).unwrap_or(&[]);
        (codes, self.scales.get(i).copied().unwrap_or(0.0))
    }

    /// Rejects a query the index cannot score: wrong width or non-finite values.
    pub(crate) fn check_query(&self, query: &[f32]) -> Result<(), DenseError> {
        if query.len() != self.dims {
            return Err(DenseError::QueryDims { expected: self.dims, found: query.len() });
        }
        if query.iter().any(|x| !x.is_finite()) {
            return Err(DenseError::QueryNotFinite);
        }
        Ok(())
    }

    /// Cosine of a checked f32 query with stored vector `index`: the query against the
    /// dequantised vector, `scale * Σ q_j * code_j`.
    pub(crate) fn cosine_unchecked(&self, query: &[f32], index: u32) -> f32 {
        let (codes, scale) = self.row(index);
        dot_f32_i8(query, codes) * scale
    }

    /// Approximate cosine of a quantised query with stored vector `index`, in integer arithmetic.
    pub(crate) fn cosine_quantized(&self, query: &QuantizedQuery, index: u32) -> f32 {
        let (codes, scale) = self.row(index);
        dot_i8(&query.codes, codes) as f32 * (query.scale * scale)
    }

    /// Approximate cosine between two stored vectors (the distance the graph is built on).
    pub(crate) fn cosine_between(&self, a: u32, b: u32) -> f32 {
        let (codes_a, scale_a) = self.row(a);
        let (codes_b, scale_b) = self.row(b);
        dot_i8(codes_a, codes_b) as f32 * (scale_a * scale_b)
    }

    /// Exact cosine of an f32 query with stored vector `index` (a dot product, since both are
    /// unit length), computed against the dequantised vector.
    pub fn cosine(&self, query: &[f32], index: u32) -> Result<f32, DenseError> {
        self.check_query(query)?;
        if index as usize >= self.len() {
            return Err(DenseError::NoSuchVector { index, len: self.len() });
        }
        Ok(self.cosine_unchecked(query, index))
    }

    /// Vector `index` as f32 (`code * scale`), or `None` if there is no such vector.
    pub fn dequantize(&self, index: u32) -> Option<Vec<f32>> {
        if index as usize >= self.len() {
            return None;
        }
        let (codes, scale) = self.row(index);
        Some(codes.iter().map(|&c| f32::from(c) * scale).collect())
    }

    /// Exhaustive search: the `k` vectors with the highest cosine to `query`, best first, as
    /// `(vector index, cosine)`. Only vectors for which `filter` (if any) returns true count.
    ///
    /// Every vector is ranked with an integer int8·int8 dot product (the query quantised like the
    /// vectors), then the best `rescore_pool(k)` are rescored with the f32 query, so the
    /// returned scores are exactly those of [`QuantizedVectors::cosine`].
    pub fn scan(
        &self,
        query: &[f32],
        k: usize,
        filter: Option<&dyn Fn(u32) -> bool>,
    ) -> Result<Vec<(u32, f32)>, DenseError> {
        self.check_query(query)?;
        Ok(self.scan_checked(query, k, filter).into_iter().map(|s| (s.index, s.score)).collect())
    }

    pub(crate) fn scan_checked(&self, query: &[f32], k: usize, filter: Option<&dyn Fn(u32) -> bool>) -> Vec<Scored> {
        if k == 0 {
            return Vec::new();
        }
        let quantized = QuantizedQuery::new(query);
        let mut pool = TopK::new(rescore_pool(k));
        // `len() <= MAX_VECTORS < u32::MAX`, so every index fits in a u32.
        for (i, (codes, &scale)) in self.codes.chunks_exact(self.dims).zip(&self.scales).enumerate() {
            let index = i as u32;
            if filter.is_some_and(|allow| !allow(index)) {
                continue;
            }
            pool.push(index, dot_i8(&quantized.codes, codes) as f32 * (quantized.scale * scale));
        }
        self.rescore(query, pool.into_sorted().into_iter().map(|s| s.index), k)
    }

    /// Exact f32 scores for `candidates`, best `k` first.
    pub(crate) fn rescore(&self, query: &[f32], candidates: impl Iterator<Item = u32>, k: usize) -> Vec<Scored> {
        let mut top = TopK::new(k);
        for index in candidates {
            top.push(index, self.cosine_unchecked(query, index));
        }
        top.into_sorted()
    }
}

/// How many integer-ranked candidates get an exact f32 rescore. Quantising the query as well
/// reorders near-ties (scores move by ~1e-3), so a few more than `k` are kept to let the
/// f32 pass restore the exact top `k`; see the scan-vs-brute-force test.
pub(crate) fn rescore_pool(k: usize) -> usize {
    k.saturating_mul(2).max(k.saturating_add(16))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::synthetic::{brute_force_top_k, clustered_unit_vectors, random_unit_vectors, Rng};

    #[test]
    fn round_trip_error_is_within_half_a_step_per_value() {
        let vectors = random_unit_vectors(200, 384, 1);
        let q = QuantizedVectors::quantize(&vectors).unwrap();
        assert_eq!((q.len(), q.dims()), (200, 384));
        for (i, v) in vectors.iter().enumerate() {
            let back = q.dequantize(i as u32).unwrap();
            let max_abs = v.iter().fold(0f32, |m, x| m.max(x.abs()));
            let half_step = max_abs / 127.0 / 2.0;
            for (a, b) in v.iter().zip(&back) {
                assert!((a - b).abs() <= half_step * 1.0001, "{a} vs {b}");
            }
            // Cosine to itself stays ~1, error far below any ranking gap.
            assert!((q.cosine(v, i as u32).unwrap() - 1.0).abs() < 2e-3);
        }
    }

    #[test]
    fn cosine_error_against_f32_is_small() {
        let vectors = clustered_unit_vectors(500, 384, 20, 0.3, 2);
        let q = QuantizedVectors::quantize(&vectors).unwrap();
        let queries = random_unit_vectors(20, 384, 3);
        let mut worst = 0f32;
        for query in &queries {
            for (i, v) in vectors.iter().enumerate() {
                let exact: f32 = query.iter().zip(v).map(|(a, b)| a * b).sum();
                worst = worst.max((q.cosine(query, i as u32).unwrap() - exact).abs());
            }
        }
        assert!(worst < 5e-3, "worst cosine error {worst}");
    }

    #[test]
    fn zero_vector_quantises_to_zero_scale() {
        let q = QuantizedVectors::quantize(&[vec![0.0, 0.0], vec![0.6, -0.8]]).unwrap();
        assert_eq!(q.dequantize(0).unwrap(), vec![0.0, 0.0]);
        assert_eq!(q.cosine(&[1.0, 0.0], 0).unwrap(), 0.0);
        assert_eq!(q.row(1).0, &[95i8, -127][..]);
    }

    #[test]
    fn rejects_bad_input_with_typed_errors() {
        let none: [Vec<f32>; 0] = [];
        assert_eq!(QuantizedVectors::quantize(&none), Err(DenseError::NoVectors));
        assert_eq!(QuantizedVectors::quantize(&[Vec::<f32>::new()]), Err(DenseError::ZeroDims { index: 0 }));
        assert_eq!(
            QuantizedVectors::quantize(&[vec![1.0, 0.0], vec![1.0]]),
            Err(DenseError::DimsMismatch { index: 1, expected: 2, found: 1 })
        );
        assert_eq!(
            QuantizedVectors::quantize(&[vec![1.0, 0.0], vec![f32::NAN, 1.0]]),
            Err(DenseError::NonFinite { index: 1, position: 0 })
        );
        assert_eq!(
            QuantizedVectors::quantize(&[vec![1.0, 0.0], vec![0.0, -1.5]]),
            Err(DenseError::NotNormalized { index: 1, position: 1 })
        );
        // Rounding just past 1 is tolerated, and its scale is one `from_bytes` accepts.
        let q = QuantizedVectors::quantize(&[vec![1.000_000_1, 0.0]]).unwrap();
        assert!(q.raw_scales()[0] <= MAX_SCALE);
        assert_eq!(
            QuantizedVectors::quantize(&[vec![0.0; MAX_DIMS + 1]]),
            Err(DenseError::TooManyDims { dims: MAX_DIMS + 1, max: MAX_DIMS })
        );
        let q = QuantizedVectors::quantize(&[vec![1.0, 0.0]]).unwrap();
        assert_eq!(q.cosine(&[1.0], 0), Err(DenseError::QueryDims { expected: 2, found: 1 }));
        assert_eq!(q.cosine(&[f32::INFINITY, 0.0], 0), Err(DenseError::QueryNotFinite));
        assert_eq!(q.cosine(&[1.0, 0.0], 1), Err(DenseError::NoSuchVector { index: 1, len: 1 }));
        assert_eq!(q.dequantize(1), None);
        assert!(q.scan(&[1.0, 0.0, 0.0], 3, None).is_err());
    }

    #[test]
    fn scan_equals_brute_force_f32_top_k_on_dequantised_vectors() {
        let mut rng = Rng::new(7);
        for (n, dims) in [(1usize, 3usize), (5, 8), (300, 384), (1000, 64)] {
            let vectors = clustered_unit_vectors(n, dims, 10, 0.2, rng.next_u64());
            let q = QuantizedVectors::quantize(&vectors).unwrap();
            let dequantised: Vec<Vec<f32>> = (0..n as u32).map(|i| q.dequantize(i).unwrap()).collect();
            for query in random_unit_vectors(10, dims, rng.next_u64()) {
                for k in [1, 10, n + 5] {
                    let got = q.scan(&query, k, None).unwrap();
                    let want = brute_force_top_k(&dequantised, &query, k, |_| true);
                    // Same ranking up to float near-ties: position by position the scores agree,
                    // and each returned score is that vector's true score.
                    assert_eq!(got.len(), want.len(), "n={n} dims={dims} k={k}");
                    for (g, w) in got.iter().zip(&want) {
                        assert!((g.1 - w.1).abs() < 1e-4, "n={n} dims={dims} k={k}: {g:?} vs {w:?}");
                        let truth: f32 = dequantised[g.0 as usize].iter().zip(&query).map(|(a, b)| a * b).sum();
                        assert!((g.1 - truth).abs() < 1e-4);
                    }
                }
            }
        }
    }

    #[test]
    fn scan_honours_the_filter_and_k_zero() {
        let vectors = random_unit_vectors(200, 16, 11);
        let q = QuantizedVectors::quantize(&vectors).unwrap();
        let even = |i: u32| i.is_multiple_of(2);
        let got = q.scan(&vectors[3], 10, Some(&even)).unwrap();
        assert_eq!(got.len(), 10);
        assert!(got.iter().all(|(i, _)| i.is_multiple_of(2)));
        assert!(got.windows(2).all(|w| w[0].1 >= w[1].1));
        let only_three = |i: u32| i == 3;
        let got = q.scan(&vectors[0], 10, Some(&only_three)).unwrap();
        assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), vec![3]);
        assert!(q.scan(&vectors[0], 0, None).unwrap().is_empty());
        assert!(q.scan(&vectors[0], 5, Some(&|_| false)).unwrap().is_empty());
    }
}
