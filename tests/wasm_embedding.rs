//! The embedder in headless Chromium: the same parity as natively, and equal to the native
//! vectors. Assets (model, fixture, native vectors) come from the local server that
//! scripts/test.sh starts; LECTERN_TEST_ASSETS (compile time) says where.
#![cfg(target_arch = "wasm32")]

mod support;

use lectern::embed::{cosine, EmbedError, Embedder};
use support::browser::fetch_bytes;
use support::reference::{Entry, Reference};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[derive(serde::Deserialize)]
struct NativeEmbedding {
    vector: Vec<f32>,
}

async fn embedder() -> Embedder {
    let onnx = fetch_bytes("model-compact.lcm").await;
    let tokenizer = fetch_bytes("tokenizer.json").await;
    Embedder::from_bytes(&onnx, &tokenizer).unwrap_or_else(|e| panic!("{e}"))
}

#[wasm_bindgen_test]
async fn matches_sentence_transformers_and_native() {
    let embedder = embedder().await;
    let reference: Reference = serde_json::from_slice(&fetch_bytes("reference.json").await).expect("reference");
    let native_lines = String::from_utf8(fetch_bytes("native-compact.jsonl").await).expect("utf-8");
    let native: Vec<NativeEmbedding> =
        native_lines.lines().map(|l| serde_json::from_str(l).expect("native line")).collect();
    let with_vectors: Vec<&Entry> = reference.entries.iter().filter(|e| e.vector.is_some()).collect();
    assert_eq!(native.len(), with_vectors.len(), "native-compact.jsonl has one line per non-empty fixture text");

    let (mut min_cos, mut sum_cos, mut max_diff) = (f32::INFINITY, 0f32, 0f32);
    for (entry, native) in with_vectors.iter().zip(&native) {
        let v = embedder.embed(&entry.text).expect("embeds");
        let c = cosine(&v, entry.vector.as_deref().unwrap_or_default());
        min_cos = min_cos.min(c);
        sum_cos += c;
        let diff = v.iter().zip(&native.vector).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
        max_diff = max_diff.max(diff);
    }
    console_log!(
        "wasm compact-model parity: min cosine {min_cos:.7}, mean {:.7}; max |wasm - native| {max_diff:.2e} over {} texts",
        sum_cos / with_vectors.len() as f32,
        with_vectors.len()
    );
    let mean_cos = sum_cos / with_vectors.len() as f32;
    assert!(min_cos >= 0.98 && mean_cos >= 0.99, "min cosine {min_cos}, mean {mean_cos}");
    assert!(max_diff < 1e-4, "wasm and native differ by {max_diff}");
}

/// The plan's matrix multiplies run Lectern's 4x8 kernel (src/embed/wasm_gemm.rs), not
/// tract's 8x8, which spills registers in V8; the parity test above checks its results.
#[wasm_bindgen_test]
async fn matrix_multiplies_run_the_4x8_kernel() {
    let kernels = embedder().await.matmul_kernels();
    console_log!("matrix-multiply kernels in the plan: {kernels:?}");
    assert!(kernels.iter().any(|k| k == lectern::embed::wasm_gemm_kernel()), "{kernels:?}");
    assert!(!kernels.iter().any(|k| k == "wasm_f32_8x8"), "{kernels:?}");
}

#[wasm_bindgen_test]
async fn refuses_empty_text_and_bad_files() {
    let embedder = embedder().await;
    assert!(matches!(embedder.embed(" \t\n"), Err(EmbedError::EmptyText)));
    let tokenizer = fetch_bytes("tokenizer.json").await;
    assert!(matches!(Embedder::from_bytes(b"not a model", &tokenizer), Err(EmbedError::ModelInvalid(_))));
    let model = fetch_bytes("model-compact.lcm").await;
    assert!(matches!(Embedder::from_bytes(&model, b"{}"), Err(EmbedError::TokenizerInvalid(_))));
    let truncated = Embedder::from_bytes(&model[..model.len() - 1], &tokenizer);
    assert!(matches!(truncated, Err(EmbedError::ModelCorrupt(_))));
}

#[wasm_bindgen_test]
async fn facade_returns_errors_not_panics() {
    let onnx = fetch_bytes("model-compact.lcm").await;
    let tokenizer = fetch_bytes("tokenizer.json").await;
    assert!(lectern::wasm::Embedder::new(b"garbage", &tokenizer).is_err());
    let embedder = lectern::wasm::Embedder::new(&onnx, &tokenizer).expect("loads");
    assert!(embedder.embed("").is_err());
    assert_eq!(embedder.embed("What is a ROS 2 topic?").expect("embeds").len(), 384);
    assert!(embedder.fingerprint().starts_with("sha256:"));
}
