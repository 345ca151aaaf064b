//! Embedding speed in headless Chromium (ignored by default; scripts/bench/embed.sh runs it
//! with --ignored): model load, a 12-token query and a 256-token passage.
#![cfg(target_arch = "wasm32")]

#[path = "../examples/bench/support.rs"]
mod bench;
mod support;

use bench::{BenchTexts, Stats, RUNS, WARMUP};
use lectern::embed::Embedder;
use support::browser::fetch_bytes;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

fn time(embedder: &Embedder, text: &str) -> Stats {
    for _ in 0..WARMUP {
        embedder.embed(text).expect("embeds");
    }
    Stats::of(
        (0..RUNS)
            .map(|_| {
                let start = now_ms();
                std::hint::black_box(embedder.embed(text).expect("embeds"));
                now_ms() - start
            })
            .collect(),
    )
}

#[wasm_bindgen_test]
#[ignore]
async fn embedding_speed_in_chromium() {
    let texts: BenchTexts = serde_json::from_str(include_str!("../examples/bench/texts.json")).expect("texts");
    let onnx = fetch_bytes("model-compact.lcm").await;
    let tokenizer = fetch_bytes("tokenizer.json").await;
    let start = now_ms();
    let embedder = Embedder::from_bytes(&onnx, &tokenizer).expect("loads");
    let load_ms = now_ms() - start;
    let report = serde_json::json!({
        "engine": "lectern wasm in Chromium (tract, int8 weights, simd128)",
        "load_ms": load_ms,
        "query": { "tokens": embedder.token_count(&texts.query).expect("tokens"), "stats": time(&embedder, &texts.query) },
        "passage": { "tokens": embedder.token_count(&texts.passage).expect("tokens"), "stats": time(&embedder, &texts.passage) },
    });
    console_log!("BENCH {report}");
}
