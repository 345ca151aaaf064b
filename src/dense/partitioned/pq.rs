//! The first pass's compact codes: a 4-bit product quantiser. A vector's residual to its
//! partition's centroid is cut into `subspaces` consecutive slices; each slice is stored as
//! the index (a nibble) of the nearest of 16 codewords learnt for that slice. A query scores
//! every code with one table lookup per slice (asymmetric distance: the query stays f32), so
//! a partition's few thousand codes cost well under a millisecond.
//!
//! 16 codewords per slice keep the codebook tiny (16 × dims values, ~6 KB in int8 for 384
//! dims) so it fits the small file every reader fetches at open; 256 codewords would be 16
//! times that. The codebook is stored as int8 with one scale per slice, and vectors are
//! encoded against the stored (dequantised) codewords, so a reader scores exactly what the
//! writer meant.

use super::kmeans::{nearest_l2, KMeans, Rows};
use crate::dense::{ByteReader, DenseError};

/// Codewords per slice: one nibble.
pub(crate) const CODEWORDS: usize = 16;
/// A residual of two unit vectors has components within ±2 (plus rounding), so a slice's
/// scale (max |value| / 127) is at most this.
const MAX_CODEBOOK_SCALE: f32 = 2.002 / 127.0;

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ProductQuantizer {
    dims: usize,
    subspaces: usize,
    scales: Vec<f32>,
    /// Slice after slice: 16 codewords of that slice's width, int8.
    codes: Vec<i8>,
    /// The same, dequantised: what encoding and scoring use.
    codewords: Vec<f32>,
}

impl ProductQuantizer {
    /// First dimension of slice `m` (`m == subspaces` gives `dims`): slices differ in width by
    /// at most one when `dims` is not a multiple of `subspaces`.
    fn start(&self, m: usize) -> usize {
        m * self.dims / self.subspaces
    }

    pub fn subspaces(&self) -> usize {
        self.subspaces
    }

    /// Bytes of one vector's code.
    pub fn code_len(&self) -> usize {
        self.subspaces.div_ceil(2)
    }

    /// Learns the codewords of each slice by k-means on `residuals` (Euclidean).
    pub fn train(residuals: &Rows<'_>, subspaces: usize, seed: u64) -> Self {
        let dims = residuals.dims;
        let mut pq = ProductQuantizer { dims, subspaces, scales: Vec::new(), codes: Vec::new(), codewords: Vec::new() };
        for m in 0..subspaces {
            let (start, end) = (pq.start(m), pq.start(m + 1));
            let width = end - start;
            let slice: Vec<f32> =
                (0..residuals.len()).flat_map(|i| residuals.row(i)[start..end].iter().copied()).collect();
            let kmeans = KMeans {
                k: CODEWORDS,
                iterations: 20,
                sample_per_centroid: 1024,
                spherical: false,
                seed: seed ^ (m as u64).wrapping_mul(0x9E37_79B9),
            };
            let mut words = kmeans.train(&Rows { data: &slice, dims: width });
            // Fewer distinct residuals than codewords: the unused codewords repeat the last.
            while words.len() < CODEWORDS * width {
                let last = words[words.len().saturating_sub(width)..].to_vec();
                words.extend(if last.is_empty() { vec![0.0; width] } else { last });
            }
            let max_abs = words.iter().fold(0f32, |m, x| m.max(x.abs())).min(MAX_CODEBOOK_SCALE * 127.0);
            let scale = max_abs / 127.0;
            pq.scales.push(scale);
            for w in &words {
                let code = if scale > 0.0 { (w / scale).round().clamp(-127.0, 127.0) as i8 } else { 0 };
                pq.codes.push(code);
            }
        }
        pq.dequantise();
        pq
    }

    fn dequantise(&mut self) {
        self.codewords = Vec::with_capacity(self.codes.len());
        for m in 0..self.subspaces {
            let width = self.start(m + 1) - self.start(m);
            let at = CODEWORDS * self.start(m);
            let scale = self.scales[m];
            self.codewords.extend(self.codes[at..at + CODEWORDS * width].iter().map(|&c| f32::from(c) * scale));
        }
    }

    /// Appends the code of `residual` (`dims` values): two slices a byte, low nibble first.
    pub fn encode(&self, residual: &[f32], out: &mut Vec<u8>) {
        let mut byte = 0u8;
        for m in 0..self.subspaces {
            let (start, end) = (self.start(m), self.start(m + 1));
            let width = end - start;
            let words = &self.codewords[CODEWORDS * start..CODEWORDS * end];
            let nibble = nearest_l2(&residual[start..end], &Rows { data: words, dims: width }) as u8;
            if m % 2 == 0 {
                byte = nibble;
            } else {
                out.push(byte | (nibble << 4));
            }
        }
        if self.subspaces % 2 == 1 {
            out.push(byte);
        }
    }

    /// The query's dot product with every codeword, slice after slice (`subspaces` × 16):
    /// the lookup table [`score`](Self::score) sums from.
    pub fn table(&self, query: &[f32]) -> Vec<f32> {
        let mut table = Vec::with_capacity(self.subspaces * CODEWORDS);
        for m in 0..self.subspaces {
            let (start, end) = (self.start(m), self.start(m + 1));
            let q = &query[start..end];
            let words = &self.codewords[CODEWORDS * start..CODEWORDS * end];
            for word in words.chunks_exact(end - start) {
                table.push(q.iter().zip(word).map(|(a, b)| a * b).sum());
            }
        }
        table
    }

    /// Approximate dot product of the query whose `table` this is with the residual of `code`.
    pub fn score(table: &[f32], code: &[u8]) -> f32 {
        let mut sum = 0f32;
        for (pair, byte) in table.chunks(2 * CODEWORDS).zip(code) {
            sum += pair.get((byte & 0x0F) as usize).copied().unwrap_or(0.0);
            sum += pair.get(CODEWORDS + (byte >> 4) as usize).copied().unwrap_or(0.0);
        }
        sum
    }

    /// The vector `code` stands for.
    pub fn decode(&self, code: &[u8]) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.dims);
        for m in 0..self.subspaces {
            let (start, end) = (self.start(m), self.start(m + 1));
            let byte = code.get(m / 2).copied().unwrap_or(0);
            let nibble = if m % 2 == 0 { byte & 0x0F } else { byte >> 4 } as usize;
            let at = CODEWORDS * start + nibble * (end - start);
            out.extend_from_slice(&self.codewords[at..at + end - start]);
        }
        out
    }

    /// `subspaces` scales (f32), then the int8 codewords: 16 × dims bytes.
    pub fn write(&self, out: &mut Vec<u8>) {
        for scale in &self.scales {
            out.extend_from_slice(&scale.to_le_bytes());
        }
        out.extend(self.codes.iter().map(|&c| c as u8));
    }

    /// Bytes [`write`](Self::write) produces.
    pub fn byte_len(dims: usize, subspaces: usize) -> u64 {
        4 * subspaces as u64 + (CODEWORDS * dims) as u64
    }

    /// Reads what [`write`](Self::write) wrote; the caller has checked `1 <= subspaces <= dims`.
    pub fn read(reader: &mut ByteReader<'_>, dims: usize, subspaces: usize) -> Result<Self, DenseError> {
        reader.require("quantiser", Self::byte_len(dims, subspaces))?;
        let mut scales = Vec::with_capacity(subspaces);
        for raw in reader.take("quantiser", 4 * subspaces)?.chunks_exact(4) {
            let scale = f32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
            if !(0.0..=MAX_CODEBOOK_SCALE).contains(&scale) {
                return Err(DenseError::InvalidHeader("a codebook scale of its quantiser is out of range"));
            }
            scales.push(scale);
        }
        let codes = reader.take("quantiser", CODEWORDS * dims)?.iter().map(|&b| b as i8).collect();
        let mut pq = ProductQuantizer { dims, subspaces, scales, codes, codewords: Vec::new() };
        pq.dequantise();
        Ok(pq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::synthetic::{clustered_unit_vectors, random_unit_vectors};

    fn flat(vectors: &[Vec<f32>]) -> Vec<f32> {
        vectors.iter().flatten().copied().collect()
    }

    #[test]
    fn scores_approximate_dot_products_and_round_trip() {
        let dims = 30;
        // Uneven slices: 30 dims in 7 slices.
        let vectors = clustered_unit_vectors(2000, dims, 12, 0.8, 1);
        let data = flat(&vectors);
        let pq = ProductQuantizer::train(&Rows { data: &data, dims }, 7, 3);
        assert_eq!(pq.code_len(), 4);
        let queries = random_unit_vectors(20, dims, 4);
        let (mut error, mut magnitude) = (0f64, 0f64);
        for v in vectors.iter().take(200) {
            let mut code = Vec::new();
            pq.encode(v, &mut code);
            assert_eq!(code.len(), 4);
            let decoded = pq.decode(&code);
            for q in &queries {
                let table = pq.table(q);
                let approx = ProductQuantizer::score(&table, &code);
                let via_decoded: f32 = q.iter().zip(&decoded).map(|(a, b)| a * b).sum();
                assert!((approx - via_decoded).abs() < 1e-4, "the table sums what decode gives");
                let exact: f32 = q.iter().zip(v).map(|(a, b)| a * b).sum();
                error += f64::from((approx - exact).abs());
                magnitude += f64::from(exact.abs());
            }
        }
        // Random directions have small dot products (~0.15 in 30 dims) and 7 slices of 16
        // codewords are coarse; the error must still be well below the signal.
        assert!(
            error < magnitude * 0.6,
            "mean |approx - exact| {} vs mean |exact| {}",
            error / 4000.0,
            magnitude / 4000.0
        );
        // What the first pass needs: a stored vector, as the query, ranks its own code first.
        let codes: Vec<Vec<u8>> = vectors[..200]
            .iter()
            .map(|v| {
                let mut code = Vec::new();
                pq.encode(v, &mut code);
                code
            })
            .collect();
        let found_itself = (0..200)
            .filter(|&i| {
                let table = pq.table(&vectors[i]);
                let best = (0..200).max_by(|&a, &b| {
                    ProductQuantizer::score(&table, &codes[a]).total_cmp(&ProductQuantizer::score(&table, &codes[b]))
                });
                best == Some(i)
            })
            .count();
        // (Random codes: 1 in 200. Measured: 173.)
        assert!(found_itself >= 160, "{found_itself} of 200 vectors rank their own code first");

        let mut bytes = Vec::new();
        pq.write(&mut bytes);
        assert_eq!(bytes.len() as u64, ProductQuantizer::byte_len(dims, 7));
        let back = ProductQuantizer::read(&mut ByteReader::new(&bytes), dims, 7).unwrap();
        assert_eq!(back, pq);
        let mut bad = bytes.clone();
        bad[0..4].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(ProductQuantizer::read(&mut ByteReader::new(&bad), dims, 7).is_err());
        assert!(matches!(
            ProductQuantizer::read(&mut ByteReader::new(&bytes[..bytes.len() - 1]), dims, 7),
            Err(DenseError::Truncated { .. })
        ));
    }

    #[test]
    fn fewer_points_than_codewords_still_gives_a_full_codebook() {
        let data = vec![0.5, -0.5, 0.1, 0.2];
        let pq = ProductQuantizer::train(&Rows { data: &data, dims: 2 }, 1, 1);
        let mut code = Vec::new();
        pq.encode(&[0.5, -0.5], &mut code);
        let decoded = pq.decode(&code);
        assert!((decoded[0] - 0.5).abs() < 0.01 && (decoded[1] + 0.5).abs() < 0.01);
    }
}
