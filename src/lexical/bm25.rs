//! Okapi BM25 scoring. For a query term t and document d:
//!
//! ```text
//! idf(t)      = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))          (Lucene's form: never negative)
//! score(t, d) = idf(t) · tf · (k1 + 1) / (tf + k1 · (1 - b + b · |d| / avgdl))
//! ```
//!
//! with N documents, df(t) documents containing t, tf the (weighted) count of t in d, |d|
//! the (weighted) number of terms in d and avgdl the mean of |d|. A document's score is the
//! sum over the query's distinct terms.

use super::error::LexicalError;

/// The two BM25 knobs. They change only how stored counts are scored, so they can be changed
/// on a loaded index without rebuilding it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bm25Params {
    /// Term-frequency saturation, valid 0.0..=10.0 (typical 0.9–2.0). 0 scores presence only;
    /// larger values let repeated terms keep adding to the score.
    pub k1: f32,
    /// Length normalisation, valid 0.0..=1.0. 0 ignores document length; 1 fully scales term
    /// frequency by length relative to the average.
    pub b: f32,
}

impl Default for Bm25Params {
    fn default() -> Self {
        Bm25Params { k1: 1.2, b: 0.75 }
    }
}

impl Bm25Params {
    pub const K1_MAX: f32 = 10.0;

    /// Checked constructor: see the field docs for the valid ranges.
    pub fn new(k1: f32, b: f32) -> Result<Self, LexicalError> {
        let params = Bm25Params { k1, b };
        params.validate()?;
        Ok(params)
    }

    pub fn validate(&self) -> Result<(), LexicalError> {
        if !(0.0..=Self::K1_MAX).contains(&self.k1) {
            return Err(LexicalError::InvalidParameter {
                name: "k1",
                value: self.k1,
                expected: "a number from 0 to 10 (usually 0.9 to 2.0; default 1.2)",
            });
        }
        if !(0.0..=1.0).contains(&self.b) {
            return Err(LexicalError::InvalidParameter {
                name: "b",
                value: self.b,
                expected: "a number from 0 to 1 (default 0.75)",
            });
        }
        Ok(())
    }

    /// The per-document part of the denominator, `k1 · (1 - b + b · |d| / avgdl)`; computed
    /// once per document when the index is loaded.
    pub(crate) fn length_norm(&self, doc_len: u32, avg_doc_len: f32) -> f32 {
        let relative = if avg_doc_len > 0.0 { doc_len as f32 / avg_doc_len } else { 1.0 };
        self.k1 * (1.0 - self.b + self.b * relative)
    }

    /// The contribution of one term with frequency `tf` to a document with `length_norm`.
    pub(crate) fn term_score(&self, idf: f32, tf: u32, length_norm: f32) -> f32 {
        let tf = tf as f32;
        idf * tf * (self.k1 + 1.0) / (tf + length_norm)
    }
}

pub(crate) fn idf(doc_count: u32, doc_freq: u32) -> f32 {
    let n = doc_count as f32;
    let df = doc_freq as f32;
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_usual_ones() {
        assert_eq!(Bm25Params::default(), Bm25Params { k1: 1.2, b: 0.75 });
        assert!(Bm25Params::default().validate().is_ok());
    }

    #[test]
    fn rejects_out_of_range_and_nan() {
        for (k1, b) in [(-0.1, 0.5), (10.5, 0.5), (f32::NAN, 0.5), (1.0, -0.01), (1.0, 1.01), (1.0, f32::NAN)] {
            assert!(Bm25Params::new(k1, b).is_err(), "k1={k1} b={b}");
        }
        assert!(Bm25Params::new(0.0, 0.0).is_ok());
        assert!(Bm25Params::new(10.0, 1.0).is_ok());
    }

    #[test]
    fn idf_is_positive_even_for_common_terms() {
        assert!(idf(10, 10) > 0.0);
        assert!((idf(3, 2) - 1.6f32.ln()).abs() < 1e-6);
    }

    #[test]
    fn average_length_single_occurrence_scores_idf() {
        // With tf = 1 and |d| = avgdl the BM25 fraction is exactly 1, whatever k1 and b.
        let params = Bm25Params::new(1.7, 0.3).unwrap();
        let norm = params.length_norm(40, 40.0);
        assert!((params.term_score(2.5, 1, norm) - 2.5).abs() < 1e-6);
    }
}
