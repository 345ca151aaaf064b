//! Sentence-transformers pooling: attention-masked mean over tokens, then L2 norm.

/// Mean of the rows of `hidden` (`tokens` rows of `dims` values) whose mask is 1,
/// scaled to unit length. Padding rows (mask 0) do not count.
pub fn mean_pool_normalized(hidden: &[f32], mask: &[i64], dims: usize) -> Vec<f32> {
    let mut sum = vec![0f32; dims];
    let mut count = 0f32;
    for (row, &m) in hidden.chunks_exact(dims).zip(mask) {
        if m != 0 {
            count += 1.0;
            sum.iter_mut().zip(row).for_each(|(s, v)| *s += v);
        }
    }
    // sentence-transformers clamps the token count at 1e-9 to avoid a division by zero.
    let count = count.max(1e-9);
    sum.iter_mut().for_each(|s| *s /= count);
    normalize(&mut sum);
    sum
}

/// Scales `v` to unit L2 length (sentence-transformers' `Normalize`, eps 1e-12).
pub fn normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
    v.iter_mut().for_each(|x| *x /= norm);
}

/// Cosine similarity of two vectors (0 when either is all zeros).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_rows_are_ignored() {
        // Two real tokens and one padding row full of large values.
        let hidden = [1.0, 0.0, 3.0, 0.0, 100.0, 100.0];
        let pooled = mean_pool_normalized(&hidden, &[1, 1, 0], 2);
        assert_eq!(pooled, vec![1.0, 0.0]);
    }

    #[test]
    fn result_has_unit_length() {
        let pooled = mean_pool_normalized(&[3.0, 4.0, 3.0, 4.0], &[1, 1], 2);
        assert!((pooled[0] - 0.6).abs() < 1e-6 && (pooled[1] - 0.8).abs() < 1e-6);
    }

    #[test]
    fn all_masked_gives_zero_vector_not_nan() {
        let pooled = mean_pool_normalized(&[1.0, 2.0], &[0], 2);
        assert_eq!(pooled, vec![0.0, 0.0]);
    }

    #[test]
    fn cosine_of_parallel_and_orthogonal_vectors() {
        assert!((cosine(&[1.0, 1.0], &[2.0, 2.0]) - 1.0).abs() < 1e-6);
        assert_eq!(cosine(&[1.0, 0.0], &[0.0, 1.0]), 0.0);
        assert_eq!(cosine(&[0.0, 0.0], &[0.0, 1.0]), 0.0);
    }
}
