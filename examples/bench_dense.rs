//! Dense retrieval at 5k/20k/100k synthetic MiniLM-shaped vectors: build time, bytes per
//! vector, load time, search latency and recall@10 against exact f32 search, for the exact
//! int8 scan and for HNSW at several `ef_search`; and the cost of int8 itself. Native only.
//!
//! `cargo run --release --example bench_dense -- [SIZES] [QUERIES] [DATA] [KEY=VALUE...]`
//! - SIZES: comma-separated vector counts (default 5000,20000,100000); QUERIES: default 300.
//! - DATA: clustered synthetic (default), `uniform` (random directions, the worst case), or the
//!   path of raw little-endian f32 384-d embeddings whose last QUERIES rows become the queries.
//! - `select=nearest|diverse|diverse-then-nearest`, `efc=N`, `deterministic=false`.

#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

use std::time::Instant;

use lectern::dense::synthetic::{brute_force_top_k, clustered_unit_vectors, queries_near, random_unit_vectors, recall};
use lectern::dense::{DenseIndex, DenseIndexConfig, NeighbourSelection, QuantizedVectors};

#[cfg(target_arch = "wasm32")]
fn main() {}

const DIMS: usize = 384;
const K: usize = 10;
const CLUSTERS: usize = 200;
/// Spread of a cluster: cosine ≈ 0.55 to its centre, ≈ 0.3 between siblings.
const NOISE: f32 = 1.5;
/// Spread of a question around the section it is about: cosine ≈ 0.7 to it.
const QUERY_NOISE: f32 = 1.0;
const WARMUP: usize = 20;

struct Latency {
    median_ms: f64,
    p95_ms: f64,
}

fn latency(mut times: Vec<f64>) -> Latency {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    Latency { median_ms: at(0.5), p95_ms: at(0.95) }
}

/// Runs `search` over every query (after a warm-up), returning latency and mean recall@K.
fn measure(
    queries: &[Vec<f32>],
    truth: &[Vec<(u32, f32)>],
    search: impl Fn(&[f32]) -> Vec<(u32, f32)>,
) -> (Latency, f64) {
    for q in queries.iter().cycle().take(WARMUP) {
        std::hint::black_box(search(q));
    }
    let mut times = Vec::with_capacity(queries.len());
    let mut total_recall = 0.0;
    for (q, t) in queries.iter().zip(truth) {
        let start = Instant::now();
        let found = std::hint::black_box(search(q));
        times.push(start.elapsed().as_secs_f64() * 1e3);
        total_recall += recall(&found, t);
    }
    (latency(times), total_recall / queries.len() as f64)
}

fn truth_f32(vectors: &[Vec<f32>], queries: &[Vec<f32>]) -> Vec<Vec<(u32, f32)>> {
    queries.iter().map(|q| brute_force_top_k(vectors, q, K, |_| true)).collect()
}

/// What int8 costs before any index: recall of the exact int8 scan against exact f32, and the
/// mean / max |cosine(int8) - cosine(f32)| over query × vector pairs.
fn quantisation_cost(name: &str, vectors: &[Vec<f32>], queries: &[Vec<f32>]) {
    let q8 = QuantizedVectors::quantize(vectors).expect("valid vectors");
    let truth = truth_f32(vectors, queries);
    let (_, r) = measure(queries, &truth, |q| q8.scan(q, K, None).expect("valid query"));
    let (mut sum, mut max, mut pairs) = (0f64, 0f32, 0usize);
    for q in queries.iter().take(50) {
        for (i, v) in vectors.iter().enumerate() {
            let exact: f32 = q.iter().zip(v).map(|(a, b)| a * b).sum();
            let err = (q8.cosine(q, i as u32).expect("valid query") - exact).abs();
            sum += f64::from(err);
            max = max.max(err);
            pairs += 1;
        }
    }
    println!("| {name} | {} | {r:.4} | {:.2e} | {max:.2e} |", vectors.len(), sum / pairs as f64);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sizes: Vec<usize> = args
        .get(1)
        .map_or("5000,20000,100000", String::as_str)
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let n_queries: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(300);
    // "uniform" swaps the clustered data for uniformly random directions: the worst case.
    // A file path instead: raw little-endian f32 embeddings of DIMS (e.g. a cached MiniLM
    // corpus); its last `n_queries` vectors are held out as queries, the rest indexed.
    let uniform_data = args.get(3).is_some_and(|s| s == "uniform");
    let real: Option<Vec<Vec<f32>>> = args.get(3).filter(|s| *s != "uniform" && !s.contains('=')).map(|path| {
        let bytes = std::fs::read(path).expect("readable embedding file");
        let floats: Vec<f32> = bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        floats.chunks_exact(DIMS).map(<[f32]>::to_vec).collect()
    });
    // Optional overrides after the positional arguments:
    // select=nearest|diverse|diverse-then-nearest, efc=N, deterministic=false (parallel build).
    let mut base = DenseIndexConfig::default();
    for arg in &args {
        match arg.split_once('=') {
            Some(("select", "nearest")) => base.neighbour_selection = NeighbourSelection::Nearest,
            Some(("select", "diverse")) => base.neighbour_selection = NeighbourSelection::Diverse,
            Some(("select", "diverse-then-nearest")) => {
                base.neighbour_selection = NeighbourSelection::DiverseThenNearest
            }
            Some(("efc", n)) => base.ef_construction = n.parse().expect("efc=N"),
            Some(("deterministic", flag)) => base.deterministic = flag == "true",
            _ => {}
        }
    }
    println!(
        "data: {CLUSTERS} random unit centres in {DIMS} dims; vector = normalize(centre + {NOISE} * g), \
         query = normalize(random vector + {QUERY_NOISE} * g), g ~ N(0, I/{DIMS}); {n_queries} queries, k = {K}"
    );
    println!(
        "config: ef_construction {}, {:?} links, M 32 (fixed by instant-distance), deterministic build {}\n",
        base.ef_construction, base.neighbour_selection, base.deterministic
    );

    println!("## Cost of int8 (exact scan, no graph)\n");
    println!("| data | n | recall@10 int8 scan vs f32 | mean abs cos err | max abs cos err |\n|---|---|---|---|---|");
    let clustered = clustered_unit_vectors(20_000, DIMS, CLUSTERS, NOISE, 11);
    quantisation_cost("clustered", &clustered, &queries_near(&clustered, n_queries, QUERY_NOISE, 12));
    let uniform = random_unit_vectors(20_000, DIMS, 13);
    quantisation_cost("uniform random", &uniform, &random_unit_vectors(n_queries, DIMS, 14));
    drop((clustered, uniform));
    if let Some(real) = &real {
        let split = real.len().saturating_sub(n_queries);
        quantisation_cost("from file", &real[..split], &real[split..]);
    }

    println!("\n## Exact scan vs HNSW\n");
    println!(
        "| n | method | build s | bytes/vector (graph) | load ms | median ms | p95 ms | recall@10 vs f32 | vs int8 scan |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for &n in &sizes {
        let (vectors, queries) = if let Some(real) = &real {
            let split = real.len().saturating_sub(n_queries);
            (real[..split.min(n)].to_vec(), real[split..].to_vec())
        } else if uniform_data {
            (random_unit_vectors(n, DIMS, n as u64), random_unit_vectors(n_queries, DIMS, n as u64 + 1))
        } else {
            let vectors = clustered_unit_vectors(n, DIMS, CLUSTERS, NOISE, n as u64);
            let queries = queries_near(&vectors, n_queries, QUERY_NOISE, n as u64 + 1);
            (vectors, queries)
        };
        let n = vectors.len();
        let truth = truth_f32(&vectors, &queries);

        let start = Instant::now();
        let exact = DenseIndex::build(
            QuantizedVectors::quantize(&vectors).expect("valid vectors"),
            &DenseIndexConfig { graph_threshold: usize::MAX, ..base.clone() },
        )
        .expect("valid config");
        let exact_build = start.elapsed().as_secs_f64();
        let exact_bytes = exact.to_bytes();
        let start = Instant::now();
        std::hint::black_box(DenseIndex::from_bytes(&exact_bytes).expect("own bytes load"));
        let exact_load = start.elapsed().as_secs_f64() * 1e3;
        let scan_truth: Vec<Vec<(u32, f32)>> =
            queries.iter().map(|q| exact.search(q, K, None).expect("valid query")).collect();
        let (lat, r) = measure(&queries, &truth, |q| exact.search(q, K, None).expect("valid query"));
        println!(
            "| {n} | exact int8 scan | {exact_build:.2} | {:.1} (0) | {exact_load:.1} | {:.3} | {:.3} | {r:.4} | 1 |",
            exact_bytes.len() as f64 / n as f64,
            lat.median_ms,
            lat.p95_ms
        );

        let start = Instant::now();
        let mut hnsw = DenseIndex::build(
            QuantizedVectors::quantize(&vectors).expect("valid vectors"),
            &DenseIndexConfig { graph_threshold: 0, ..base.clone() },
        )
        .expect("valid config");
        let hnsw_build = start.elapsed().as_secs_f64();
        let bytes = hnsw.to_bytes();
        let start = Instant::now();
        std::hint::black_box(DenseIndex::from_bytes(&bytes).expect("own bytes load"));
        let hnsw_load = start.elapsed().as_secs_f64() * 1e3;
        let graph_per_vector = (bytes.len() - exact_bytes.len()) as f64 / n as f64;
        for ef in [16, 32, 64, 128] {
            hnsw.set_ef_search(ef).expect("valid ef");
            let (lat, r) = measure(&queries, &truth, |q| hnsw.search(q, K, None).expect("valid query"));
            let r_scan = queries
                .iter()
                .zip(&scan_truth)
                .map(|(q, t)| recall(&hnsw.search(q, K, None).expect("valid query"), t))
                .sum::<f64>()
                / queries.len() as f64;
            println!(
                "| {n} | HNSW ef_search {ef} | {hnsw_build:.2} | {:.1} ({graph_per_vector:.1}) | {hnsw_load:.1} | {:.3} | {:.3} | {r:.4} | {r_scan:.4} |",
                bytes.len() as f64 / n as f64,
                lat.median_ms,
                lat.p95_ms
            );
        }
    }
}
