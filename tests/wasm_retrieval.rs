//! The `Retriever` facade in headless Chromium: bad input refused with stable codes, keyword
//! search before the dense index and model arrive, and the same results as the native
//! `lectern search` on the sample bundle. Assets come from the server scripts/test.sh runs:
//! `bundle/` (`lectern build www/example`) and `native-search-{lexical,hybrid}.json`
//! (`lectern search --json --k 5` for [`QUESTION`]).
#![cfg(target_arch = "wasm32")]

mod support;

use lectern::wasm::{model_fingerprint, Embedder, Retriever};
use serde_json::Value;
use support::browser::fetch_bytes;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const QUESTION: &str = "How do ROS 2 nodes discover each other?";

/// The stable code and detail of a facade error.
fn code(err: JsError) -> (String, Option<String>) {
    let value = JsValue::from(err);
    let get = |key: &str| js_sys::Reflect::get(&value, &key.into()).ok().and_then(|v| v.as_string());
    let code = get("code").expect("every facade error has a code");
    assert_eq!(get("name").as_deref(), Some(code.as_str()), "name equals code");
    assert!(get("suggestion").is_some_and(|s| !s.is_empty()), "every facade error has a suggestion");
    (code, get("detail"))
}

fn code_of<T>(result: Result<T, JsError>) -> String {
    match result {
        Ok(_) => panic!("expected an error"),
        Err(e) => code(e).0,
    }
}

fn to_json(value: JsValue) -> Value {
    let text = js_sys::JSON::stringify(&value).expect("JSON-able").as_string().expect("a string");
    serde_json::from_str(&text).expect("valid JSON")
}

fn options(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("valid JSON")
}

struct Bundle {
    manifest: Vec<u8>,
    manifest_json: Value,
}

impl Bundle {
    async fn fetch() -> Bundle {
        let manifest = fetch_bytes("bundle/manifest.json").await;
        let manifest_json = serde_json::from_slice(&manifest).expect("manifest JSON");
        Bundle { manifest, manifest_json }
    }

    async fn file(&self, pointer: &str) -> Vec<u8> {
        let name = self.manifest_json.pointer(pointer).and_then(Value::as_str).expect(pointer);
        fetch_bytes(&format!("bundle/{name}")).await
    }

    /// A retriever with the chunk metadata and lexical index loaded.
    async fn lexical(&self) -> Retriever {
        let mut retriever = Retriever::new(&self.manifest).unwrap_or_else(|e| panic!("{:?}", code(e)));
        let chunks = self.file("/files/chunks/name").await;
        let lexical = self.file("/files/lexical/name").await;
        retriever.load_lexical(&chunks, &lexical).unwrap_or_else(|e| panic!("{:?}", code(e)));
        retriever
    }

    async fn attach_all_text(&self, retriever: &mut Retriever) {
        let shards = self.manifest_json["files"]["text"].as_array().expect("text shards").len();
        for shard in 0..shards {
            let bytes = self.file(&format!("/files/text/{shard}/name")).await;
            retriever.attach_text(shard, &bytes).unwrap_or_else(|e| panic!("{:?}", code(e)));
        }
    }
}

#[wasm_bindgen_test]
async fn bad_input_is_refused_with_stable_codes() {
    assert_eq!(
        code(Retriever::new(b"not json").err().expect("refused")),
        ("INDEX_UNAVAILABLE".into(), Some("MANIFEST_INVALID".into()))
    );
    let bundle = Bundle::fetch().await;
    let newer = String::from_utf8(bundle.manifest.clone()).unwrap().replacen(
        "\"format_version\": 1",
        "\"format_version\": 99",
        1,
    );
    assert_eq!(code(Retriever::new(newer.as_bytes()).err().expect("refused")).1.as_deref(), Some("WRONG_VERSION"));

    let mut retriever = Retriever::new(&bundle.manifest).expect("manifest");
    assert!(!retriever.lexical_ready() && !retriever.dense_ready());
    assert_eq!(
        code(retriever.search(QUESTION, JsValue::UNDEFINED, None).err().unwrap()),
        ("INDEX_UNAVAILABLE".into(), Some("NOT_LOADED".into()))
    );
    let chunks = bundle.file("/files/chunks/name").await;
    let lexical = bundle.file("/files/lexical/name").await;
    // Swapped, truncated and flipped files fail their size or checksum check.
    assert_eq!(code(retriever.load_lexical(&lexical, &chunks).err().unwrap()).1.as_deref(), Some("WRONG_SIZE"));
    let mut flipped = chunks.clone();
    flipped[10] ^= 1;
    assert_eq!(code(retriever.load_lexical(&flipped, &lexical).err().unwrap()).1.as_deref(), Some("CHECKSUM_MISMATCH"));
    retriever.load_lexical(&chunks, &lexical).expect("loads");
    assert_eq!(code_of(retriever.load_lexical(&chunks, &lexical)), "INVALID_ARGUMENT", "loaded once only");

    let search = |q: &str, o: JsValue| retriever.search(q, o, None);
    assert_eq!(code_of(search("", JsValue::UNDEFINED)), "EMPTY_QUESTION");
    assert_eq!(code_of(search(" \n\t", JsValue::NULL)), "EMPTY_QUESTION");
    assert_eq!(code_of(search(&"é".repeat(1001), JsValue::UNDEFINED)), "QUESTION_TOO_LONG");
    assert!(search(&"é".repeat(1000), JsValue::UNDEFINED).is_ok(), "1000 characters (not bytes) are fine");
    assert_eq!(code_of(search("robot", options(r#"{"k": 0}"#))), "INVALID_OPTIONS");
    assert_eq!(code_of(search("robot", options(r#"{"k": 51}"#))), "INVALID_OPTIONS");
    assert_eq!(code_of(search("robot", options(r#"{"kk": 3}"#))), "INVALID_OPTIONS");
    assert_eq!(code_of(search("robot", options(r#"{"mode": "psychic"}"#))), "INVALID_OPTIONS");
    assert_eq!(code_of(search("robot", options(r#"{"minScore": 2}"#))), "INVALID_OPTIONS");
    assert_eq!(code_of(search("robot", options(r#"{"mode": "dense"}"#))), "MODEL_UNAVAILABLE");
    let err = search("robot", JsValue::from_str("k=3")).err().unwrap();
    assert_eq!(code(err).0, "INVALID_OPTIONS");

    let selection = |s: &str, q: &str| retriever.search_selection(s, q, JsValue::UNDEFINED, None);
    assert_eq!(code_of(selection("too short", QUESTION)), "SELECTION_TOO_SHORT");
    assert_eq!(code_of(selection("   ten chars   ", QUESTION)), "SELECTION_TOO_SHORT", "counted after trimming");
    assert_eq!(code_of(selection(&"y".repeat(5001), QUESTION)), "SELECTION_TOO_LONG");
    assert_eq!(code_of(selection("a selection long enough", "")), "EMPTY_QUESTION");

    assert_eq!(code_of(retriever.attach_text(999, b"[]")), "INVALID_ARGUMENT");
    assert_eq!(
        code(retriever.attach_text(0, b"[]").err().unwrap()),
        ("TEXT_UNAVAILABLE".into(), Some("WRONG_SIZE".into()))
    );
    assert_eq!(code(retriever.text(0).err().unwrap()), ("TEXT_UNAVAILABLE".into(), Some("NOT_LOADED".into())));
    assert_eq!(code_of(retriever.text(100_000)), "INVALID_ARGUMENT");
    assert_eq!(code_of(retriever.attach_dense(b"nope")), "INDEX_UNAVAILABLE");

    let onnx = bundle.file("/model/weights/name").await;
    let tokenizer = bundle.file("/model/tokenizer/name").await;
    let mut changed = tokenizer.clone();
    changed.push(b'\n');
    assert_eq!(
        code(retriever.check_model(&model_fingerprint(&onnx, &changed)).err().unwrap()),
        ("MODEL_MISMATCH".into(), Some("WRONG_MODEL".into()))
    );
    // Which text needs a vector: none before the dense index, none for keywords or the
    // selection alone; the question, or question + selection, after. A vector of the wrong
    // width is an error, never a panic or a silently lexical search.
    let hybrid = options(r#"{"mode": "hybrid"}"#);
    assert_eq!(retriever.vector_query(QUESTION, None, hybrid.clone()).expect("valid"), None, "no dense index yet");
    retriever.attach_dense(&bundle.file("/files/dense/name").await).expect("dense");
    assert_eq!(retriever.vector_query(QUESTION, None, hybrid.clone()).expect("valid").as_deref(), Some(QUESTION));
    assert_eq!(retriever.vector_query(QUESTION, None, options(r#"{"mode": "lexical"}"#)).expect("valid"), None);
    let selected = "A node discovers its peers through DDS participant announcements.";
    let text =
        retriever.vector_query(QUESTION, Some(selected.into()), JsValue::UNDEFINED).expect("valid").expect("a text");
    assert!(text.starts_with(QUESTION) && text.ends_with(selected));
    let only = options(r#"{"selectionOnly": true}"#);
    assert_eq!(retriever.vector_query(QUESTION, Some(selected.into()), only).expect("valid"), None);
    assert_eq!(code_of(retriever.vector_query("", None, JsValue::UNDEFINED)), "EMPTY_QUESTION");
    assert_eq!(
        code_of(retriever.vector_query(QUESTION, Some("short".into()), JsValue::UNDEFINED)),
        "SELECTION_TOO_SHORT"
    );
    assert_eq!(code_of(retriever.search(QUESTION, hybrid, Some(vec![0.5; 3]))), "INDEX_UNAVAILABLE");
    assert_eq!(code_of(retriever.search(QUESTION, options(r#"{"mode": "dense"}"#), None)), "MODEL_UNAVAILABLE");
}

#[wasm_bindgen_test]
async fn searches_by_keywords_before_the_dense_index_and_model() {
    let bundle = Bundle::fetch().await;
    let mut retriever = bundle.lexical().await;
    assert!(retriever.lexical_ready() && !retriever.dense_ready());
    let results = to_json(retriever.search(QUESTION, JsValue::UNDEFINED, None).expect("searches"));
    assert_eq!(results["mode"], "global");
    assert_eq!(results["mode_used"], "lexical");
    let hits = results["hits"].as_array().expect("hits");
    assert_eq!(hits.len(), 3);
    assert!(hits.iter().all(|h| h["text"].is_null() && h["dense"].is_null()));
    let missing: Vec<usize> = serde_json::from_value(results["missing_shards"].clone()).unwrap();
    assert!(!missing.is_empty());
    for hit in hits {
        assert!(missing.contains(&(hit["shard"].as_u64().unwrap() as usize)));
        assert!(hit["chunk"]["url"].as_str().unwrap().starts_with("/docs/"));
    }
    // Attaching only the shards the hits need is enough to read their texts.
    for &shard in &missing {
        let bytes = bundle.file(&format!("/files/text/{shard}/name")).await;
        retriever.attach_text(shard, &bytes).expect("attaches");
    }
    let again = to_json(retriever.search(QUESTION, JsValue::UNDEFINED, None).expect("searches"));
    assert_eq!(again["missing_shards"], serde_json::json!([]));
    for hit in again["hits"].as_array().unwrap() {
        let index = hit["index"].as_u64().unwrap() as usize;
        assert_eq!(hit["text"].as_str(), Some(retriever.text(index).expect("text").as_str()));
        assert_eq!(retriever.shard_of(index).expect("shard"), hit["shard"].as_u64().unwrap() as usize);
    }
    // Selected mode: related sections for question + selection; or nothing retrieved.
    let selection = "A node discovers its peers through DDS participant announcements.";
    let related =
        to_json(retriever.search_selection(selection, "What does this mean?", JsValue::UNDEFINED, None).unwrap());
    assert_eq!(related["mode"], "selected");
    assert_eq!(related["selection"], selection);
    assert_eq!(related["hits"].as_array().unwrap().len(), 3);
    let only =
        to_json(retriever.search_selection(selection, "Explain", options(r#"{"selectionOnly": true}"#), None).unwrap());
    assert_eq!(only["hits"], serde_json::json!([]));
    assert!(only["confidence"].is_null());
}

#[wasm_bindgen_test]
async fn gives_the_native_results_on_the_sample_bundle() {
    let bundle = Bundle::fetch().await;
    let mut retriever = bundle.lexical().await;
    bundle.attach_all_text(&mut retriever).await;
    let onnx = bundle.file("/model/weights/name").await;
    let tokenizer = bundle.file("/model/tokenizer/name").await;
    let fingerprint = model_fingerprint(&onnx, &tokenizer);
    assert_eq!(fingerprint, bundle.manifest_json["model"]["fingerprint"]);
    retriever.check_model(&fingerprint).expect("same model");
    retriever.attach_dense(&bundle.file("/files/dense/name").await).expect("dense");
    assert!(retriever.dense_ready());
    let embedder = Embedder::new(&onnx, &tokenizer).expect("model");
    assert_eq!(embedder.fingerprint(), fingerprint);
    let vector = embedder.embed(QUESTION).expect("embeds");
    assert_eq!(vector.len(), 384);

    for mode in ["lexical", "hybrid"] {
        let native: Value = serde_json::from_slice(&fetch_bytes(&format!("native-search-{mode}.json")).await).unwrap();
        let got = to_json(
            retriever
                .search(QUESTION, options(&format!(r#"{{"k": 5, "mode": "{mode}"}}"#)), Some(vector.clone()))
                .expect("searches"),
        );
        assert_eq!(got["mode_used"], native["mode_used"], "{mode}");
        assert_eq!(got["confidence"], native["confidence"], "{mode}");
        let hits = got["hits"].as_array().unwrap();
        let expected = native["results"].as_array().unwrap();
        assert_eq!(hits.len(), expected.len(), "{mode}");
        let mut max_diff = 0f64;
        for (hit, want) in hits.iter().zip(expected) {
            assert_eq!(hit["chunk"]["chunk_id"], want["chunk_id"], "{mode}");
            assert_eq!(hit["text"], want["text"], "{mode}");
            max_diff = max_diff.max((hit["score"].as_f64().unwrap() - want["score"].as_f64().unwrap()).abs());
        }
        console_log!("{mode}: same {} results as native; max |score diff| {max_diff:.1e}", hits.len());
        assert!(max_diff < 1e-4, "{mode}: scores differ by {max_diff}");
    }
}
