//! Timing helpers shared by the native and the wasm embedding benchmarks.

/// Min / median / p95 / max of a set of timings in milliseconds.
#[derive(Debug, serde::Serialize)]
pub struct Stats {
    pub runs: usize,
    pub min_ms: f64,
    pub median_ms: f64,
    pub p95_ms: f64,
    pub max_ms: f64,
}

impl Stats {
    pub fn of(mut samples: Vec<f64>) -> Stats {
        samples.sort_by(f64::total_cmp);
        let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
        Stats { runs: samples.len(), min_ms: at(0.0), median_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1.0) }
    }
}

#[derive(serde::Deserialize)]
pub struct BenchTexts {
    pub query: String,
    pub passage: String,
}

pub const WARMUP: usize = 10;
pub const RUNS: usize = 50;
