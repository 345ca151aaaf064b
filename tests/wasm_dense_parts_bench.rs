//! The partitioned dense index in headless Chromium (issue 28: search ≤ 20 ms once a
//! question's parts are there): opens a head, runs each question's fetch loop against the
//! asset server as the worker will (the core names the parts, the test fetches them), and
//! times the search once they are attached. Ignored by default: scripts/bench/dense-parts.sh
//! writes the files (`bench_dense_parts … browser=DIR`) and runs it with --include-ignored.
#![cfg(target_arch = "wasm32")]

mod support;

use lectern::dense::partitioned::{PartFilter, PartSearch, PartitionedIndex};
use support::browser::fetch_bytes;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

fn percentile(mut v: Vec<f64>, q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(((v.len().saturating_sub(1)) as f64 * q).round() as usize).copied().unwrap_or(0.0)
}

#[wasm_bindgen_test]
#[ignore]
async fn partitioned_search_time_in_chromium() {
    let settings = String::from_utf8(fetch_bytes("dense-parts/settings.txt").await).expect("text");
    let fields: Vec<usize> = settings.split_whitespace().map(|f| f.parse().expect("a number")).collect();
    let [probe, rescore, k, dims, questions] = fields[..] else { panic!("settings.txt: {settings}") };
    let head = fetch_bytes("dense-parts/head.bin").await;
    let start = now_ms();
    let mut index = PartitionedIndex::open(&head).expect("the head opens");
    let open_ms = now_ms() - start;
    index.set_probe(probe).expect("probe");
    index.set_rescore(rescore).expect("rescore");
    let floats: Vec<f32> = fetch_bytes("dense-parts/queries.f32")
        .await
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let filter = PartFilter::default();
    let (mut search_ms, mut attach_ms, mut rounds_max) = (Vec::new(), Vec::new(), 0);
    for query in floats.chunks_exact(dims).take(questions) {
        let mut attach = 0.0;
        let mut rounds = 0;
        loop {
            match index.search(query, k, &filter).expect("searches") {
                PartSearch::Found(_) => break,
                PartSearch::NeedParts(parts) => {
                    rounds += 1;
                    for part in parts {
                        let bytes = fetch_bytes(&format!("dense-parts/part-{part}.bin")).await;
                        let start = now_ms();
                        index.attach(part, &bytes).expect("the part attaches");
                        attach += now_ms() - start;
                    }
                }
            }
        }
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let start = now_ms();
            std::hint::black_box(index.search(query, k, &filter).expect("searches"));
            best = best.min(now_ms() - start);
        }
        search_ms.push(best);
        attach_ms.push(attach);
        rounds_max = rounds_max.max(rounds);
    }
    let report = serde_json::json!({
        "questions": search_ms.len(),
        "open_ms": open_ms,
        "search_ms": { "median": percentile(search_ms.clone(), 0.5), "p95": percentile(search_ms.clone(), 0.95), "max": percentile(search_ms, 1.0) },
        "attach_ms_per_question": { "median": percentile(attach_ms.clone(), 0.5), "p95": percentile(attach_ms, 0.95) },
        "rounds_max": rounds_max,
        "memory_mb_after_all": index.memory_bytes() as f64 / 1e6,
    });
    console_log!("BENCH {report}");
}
