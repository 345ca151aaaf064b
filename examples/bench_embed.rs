//! Native embedding speed: model load, a 12-token query and a 256-token passage.
//! Run through scripts/bench/embed.sh (`cargo run --release --example bench_embed`), which prints it beside onnxruntime and Chromium.

#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

#[path = "bench/support.rs"]
mod support;

use std::time::Instant;
use support::{BenchTexts, Stats, RUNS, WARMUP};

// The browser figures come from tests/wasm_embed_bench.rs; this file is native only.
#[cfg(target_arch = "wasm32")]
fn main() {}

fn time(embed: impl Fn() -> usize) -> Stats {
    (0..WARMUP).for_each(|_| {
        embed();
    });
    Stats::of(
        (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(embed());
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    )
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use lectern::embed::{ModelFiles, ModelVariant};
    let texts: BenchTexts = serde_json::from_str(include_str!("bench/texts.json"))?;
    let files = ModelFiles::in_dir(&ModelFiles::default_dir(), ModelVariant::Compact);
    let (onnx, tokenizer) = files.read()?;
    let start = Instant::now();
    let embedder = lectern::embed::Embedder::from_bytes(&onnx, &tokenizer)?;
    let load_ms = start.elapsed().as_secs_f64() * 1e3;
    let query_tokens = embedder.token_count(&texts.query)?;
    let passage_tokens = embedder.token_count(&texts.passage)?;
    let query = time(|| embedder.embed(&texts.query).map(|v| v.len()).unwrap_or(0));
    let passage = time(|| embedder.embed(&texts.passage).map(|v| v.len()).unwrap_or(0));
    let report = serde_json::json!({
        "engine": "lectern native (tract, compact weights)",
        "load_ms": load_ms,
        "query": { "tokens": query_tokens, "stats": query },
        "passage": { "tokens": passage_tokens, "stats": passage },
    });
    println!("{report}");
    Ok(())
}
