//! Spherical k-means (cosine), the partitioning of the index and the training of its product
//! quantiser. Seeded and deterministic: the same vectors and seed always give the same
//! centroids, whatever the number of threads (each point's assignment is independent).

use rayon::prelude::*;

use crate::dense::dot::{dot_f32, normalize};
use crate::dense::rng::Rng;

/// Flat row-major f32 matrix: `len` rows of `dims`.
pub(crate) struct Rows<'a> {
    pub data: &'a [f32],
    pub dims: usize,
}

impl<'a> Rows<'a> {
    pub fn len(&self) -> usize {
        self.data.len() / self.dims.max(1)
    }

    pub fn row(&self, i: usize) -> &'a [f32] {
        &self.data[i * self.dims..(i + 1) * self.dims]
    }
}

/// Index and score of the best of `centroids` (by dot product) for `point`.
pub(crate) fn nearest(point: &[f32], centroids: &Rows<'_>) -> (usize, f32) {
    let mut best = (0, f32::NEG_INFINITY);
    for c in 0..centroids.len() {
        let score = dot_f32(point, centroids.row(c));
        if score > best.1 {
            best = (c, score);
        }
    }
    best
}

/// Nearest centroid of every point, in parallel.
pub(crate) fn assign(points: &Rows<'_>, centroids: &Rows<'_>) -> Vec<(usize, f32)> {
    (0..points.len()).into_par_iter().map(|i| nearest(points.row(i), centroids)).collect()
}

/// How k-means is run.
pub(crate) struct KMeans {
    pub k: usize,
    pub iterations: usize,
    /// At most this many points per centroid train it (the rest are only assigned).
    pub sample_per_centroid: usize,
    /// Unit-length centroids, scored by dot product (spherical k-means), or plain means
    /// scored by Euclidean distance (the quantiser's codebooks, on residuals).
    pub spherical: bool,
    pub seed: u64,
}

impl KMeans {
    /// `k` centroids (fewer if there are fewer distinct points) trained on `points`.
    pub fn train(&self, points: &Rows<'_>) -> Vec<f32> {
        let (n, dims) = (points.len(), points.dims);
        let k = self.k.clamp(1, n.max(1));
        let mut rng = Rng::new(self.seed);
        // A seeded sample of the points trains; all of them when there are few.
        let sample_size = n.min(k.saturating_mul(self.sample_per_centroid).max(k));
        let sample: Vec<usize> = sample_indices(n, sample_size, &mut rng);
        let data: Vec<f32> = sample.iter().flat_map(|&i| points.row(i).iter().copied()).collect();
        let sample = Rows { data: &data, dims };

        // Start from k distinct sample points (the sample is already in random order).
        let mut centroids: Vec<f32> = data[..k * dims].to_vec();
        for _ in 0..self.iterations {
            let assigned: Vec<usize> = if self.spherical {
                assign(&sample, &Rows { data: &centroids, dims }).into_iter().map(|a| a.0).collect()
            } else {
                nearest_l2_all(&sample, &Rows { data: &centroids, dims })
            };
            let mut sums = vec![0f64; k * dims];
            let mut counts = vec![0usize; k];
            for (i, &c) in assigned.iter().enumerate() {
                counts[c] += 1;
                for (s, &x) in sums[c * dims..(c + 1) * dims].iter_mut().zip(sample.row(i)) {
                    *s += f64::from(x);
                }
            }
            // An empty cluster restarts at a random point of the largest one, which splits it.
            let largest = (0..k).max_by_key(|&c| (counts[c], std::cmp::Reverse(c))).unwrap_or(0);
            let members_of_largest: Vec<usize> = (0..assigned.len()).filter(|&i| assigned[i] == largest).collect();
            for c in 0..k {
                let target = &mut centroids[c * dims..(c + 1) * dims];
                if counts[c] == 0 {
                    if let Some(&i) = members_of_largest.get(rng.below(members_of_largest.len().max(1))) {
                        target.copy_from_slice(sample.row(i));
                        // A tiny nudge so the two halves of the split do not stay identical.
                        for x in target.iter_mut() {
                            *x *= 1.0 + 1e-3 * rng.gaussian();
                        }
                    }
                } else {
                    for (t, s) in target.iter_mut().zip(&sums[c * dims..(c + 1) * dims]) {
                        *t = (*s / counts[c] as f64) as f32;
                    }
                }
                if self.spherical {
                    normalize(target);
                }
            }
        }
        centroids
    }
}

/// Nearest centroid by squared Euclidean distance, for every point.
pub(crate) fn nearest_l2_all(points: &Rows<'_>, centroids: &Rows<'_>) -> Vec<usize> {
    (0..points.len()).into_par_iter().map(|i| nearest_l2(points.row(i), centroids)).collect()
}

pub(crate) fn nearest_l2(point: &[f32], centroids: &Rows<'_>) -> usize {
    let mut best = (0, f32::INFINITY);
    for c in 0..centroids.len() {
        let d: f32 = point.iter().zip(centroids.row(c)).map(|(a, b)| (a - b) * (a - b)).sum();
        if d < best.1 {
            best = (c, d);
        }
    }
    best.0
}

/// `count` distinct indexes below `n`, in random order (a partial Fisher–Yates shuffle).
fn sample_indices(n: usize, count: usize, rng: &mut Rng) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    for i in 0..count.min(n) {
        let j = i + rng.below(n - i);
        all.swap(i, j);
    }
    all.truncate(count.min(n));
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::synthetic::clustered_unit_vectors;

    #[test]
    fn finds_well_separated_clusters_and_is_deterministic() {
        let vectors = clustered_unit_vectors(600, 16, 6, 0.2, 3);
        let flat: Vec<f32> = vectors.iter().flatten().copied().collect();
        let rows = Rows { data: &flat, dims: 16 };
        let kmeans = KMeans { k: 6, iterations: 15, sample_per_centroid: 1000, spherical: true, seed: 9 };
        let centroids = kmeans.train(&rows);
        assert_eq!(centroids, kmeans.train(&rows), "same seed, same centroids");
        let c = Rows { data: &centroids, dims: 16 };
        // Every point is close to its centroid (noise 0.2: cosine ≈ 0.98 to its centre).
        let worst = assign(&rows, &c).iter().map(|a| a.1).fold(1.0f32, f32::min);
        assert!(worst > 0.9, "worst cosine to a centroid {worst}");
        for i in 0..c.len() {
            assert!((dot_f32(c.row(i), c.row(i)) - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn more_centroids_than_points_gives_one_per_point() {
        let flat = vec![1.0, 0.0, 0.0, 1.0];
        let rows = Rows { data: &flat, dims: 2 };
        let kmeans = KMeans { k: 5, iterations: 3, sample_per_centroid: 10, spherical: false, seed: 1 };
        assert_eq!(kmeans.train(&rows).len(), 4);
    }
}
