//! The `Retriever` facade in headless Chromium: bad input refused with stable codes, keyword
//! search before the dense index and model arrive from only the shards a question needs,
//! and the same results as the native `lectern search` on the sample bundle. Assets come from the server scripts/test.sh runs:
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

    /// A retriever with the chunk table loaded (keyword search works once a question's
    /// term shards are attached).
    async fn lexical(&self) -> Retriever {
        let mut retriever = Retriever::new(&self.manifest).unwrap_or_else(|e| panic!("{:?}", code(e)));
        let table = self.file("/files/chunk_table/name").await;
        retriever.load_table(&table).unwrap_or_else(|e| panic!("{:?}", code(e)));
        retriever
    }
}

/// What the worker does: fetches and attaches what `need` names until it names nothing;
/// returns the files fetched, by part.
async fn attach_needed(retriever: &mut Retriever, need: impl Fn(&Retriever) -> JsValue) -> Vec<(String, String)> {
    let mut fetched = Vec::new();
    for _ in 0..3 {
        let files = to_json(need(retriever));
        let files = files.as_array().expect("a list of files");
        if files.is_empty() {
            return fetched;
        }
        for file in files {
            let (part, name) = (file["part"].as_str().expect("part"), file["name"].as_str().expect("name"));
            let bytes = fetch_bytes(&format!("bundle/{name}")).await;
            let id = file["id"].as_u64().expect("id") as usize;
            retriever.attach(part, id, &bytes).unwrap_or_else(|e| panic!("{name}: {:?}", code(e)));
            fetched.push((part.to_string(), name.to_string()));
        }
    }
    panic!("files still needed after three rounds")
}

async fn attach_for(retriever: &mut Retriever, question: &str, selection: Option<&str>) -> Vec<(String, String)> {
    attach_needed(retriever, |r| {
        r.files_for(question, selection.map(str::to_string), JsValue::UNDEFINED).expect("valid question")
    })
    .await
}

async fn attach_chunks(retriever: &mut Retriever, results: &Value) -> Vec<(String, String)> {
    let indices: Vec<u32> =
        results["hits"].as_array().expect("hits").iter().map(|h| h["index"].as_u64().expect("index") as u32).collect();
    attach_needed(retriever, |r| r.files_for_chunks(&indices).expect("files")).await
}

#[wasm_bindgen_test]
async fn bad_input_is_refused_with_stable_codes() {
    assert_eq!(
        code(Retriever::new(b"not json").err().expect("refused")),
        ("INDEX_UNAVAILABLE".into(), Some("MANIFEST_INVALID".into()))
    );
    let bundle = Bundle::fetch().await;
    // Whatever version the sample is written at, a newer one than the reader knows is refused.
    let mut newer: Value = serde_json::from_slice(&bundle.manifest).expect("the sample's manifest");
    newer["format_version"] = 99.into();
    let newer = serde_json::to_vec(&newer).expect("serialises");
    assert_eq!(code(Retriever::new(&newer).err().expect("refused")).1.as_deref(), Some("WRONG_VERSION"));

    let mut retriever = Retriever::new(&bundle.manifest).expect("manifest");
    assert!(!retriever.lexical_ready() && !retriever.dense_ready());
    assert_eq!(
        code(retriever.search(QUESTION, JsValue::UNDEFINED, None, None).err().unwrap()),
        ("INDEX_UNAVAILABLE".into(), Some("NOT_LOADED".into()))
    );
    let table = bundle.file("/files/chunk_table/name").await;
    // Truncated and flipped files fail their size or checksum check.
    assert_eq!(code(retriever.load_table(&table[..table.len() - 1]).err().unwrap()).1.as_deref(), Some("WRONG_SIZE"));
    let mut flipped = table.clone();
    flipped[10] ^= 1;
    assert_eq!(code(retriever.load_table(&flipped).err().unwrap()).1.as_deref(), Some("CHECKSUM_MISMATCH"));
    retriever.load_table(&table).expect("loads");
    assert_eq!(code_of(retriever.load_table(&table)), "INVALID_ARGUMENT", "loaded once only");
    // A search before its term shards are attached is refused, never ranked on part of them.
    assert_eq!(
        code(retriever.search("robot", JsValue::UNDEFINED, None, None).err().unwrap()),
        ("INDEX_UNAVAILABLE".into(), Some("NOT_LOADED".into()))
    );
    let long = "é".repeat(1000);
    for question in ["robot", QUESTION, long.as_str()] {
        attach_for(&mut retriever, question, None).await;
    }

    let search = |q: &str, o: JsValue| retriever.search(q, o, None, None);
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

    // The sample is written with chunk shards by number (format 5): no catalog page, no
    // separate text files; a shard is checked against the manifest's root before it is read.
    assert_eq!(code_of(retriever.attach("chunks", 999_999, b"[]")), "INVALID_ARGUMENT");
    assert_eq!(code_of(retriever.attach("text", 0, b"[]")), "INVALID_ARGUMENT", "no text files in this bundle");
    assert_eq!(code_of(retriever.attach("everything", 0, b"[]")), "INVALID_ARGUMENT");
    assert_eq!(
        code(retriever.attach("chunks", 0, b"[]").err().unwrap()),
        ("TEXT_UNAVAILABLE".into(), Some("CORRUPT".into())),
        "not a shard with its proof"
    );
    assert_eq!(code(retriever.text(0).err().unwrap()), ("TEXT_UNAVAILABLE".into(), Some("NOT_LOADED".into())));
    assert_eq!(code_of(retriever.text(100_000)), "TEXT_UNAVAILABLE");
    assert_eq!(code_of(retriever.attach("terms", 999_999, b"LXSH")), "INVALID_ARGUMENT", "no such term shard");
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
    assert!(
        retriever.vector_query(QUESTION, None, hybrid.clone()).expect("valid").is_undefined(),
        "no dense index yet"
    );
    retriever.attach_dense(&bundle.file("/files/dense/name").await).expect("dense");
    let texts = to_json(retriever.vector_query(QUESTION, None, hybrid.clone()).expect("valid"));
    assert_eq!(texts, serde_json::json!({ "text": QUESTION }));
    assert!(retriever.vector_query(QUESTION, None, options(r#"{"mode": "lexical"}"#)).expect("valid").is_undefined());
    // A follow-up needs a second vector: that of its text in context.
    let follow_up = options(r#"{"earlier": ["What is a ROS 2 topic?"]}"#);
    let texts = to_json(retriever.vector_query(QUESTION, None, follow_up).expect("valid"));
    assert_eq!(
        texts,
        serde_json::json!({ "text": QUESTION, "in_context": format!("What is a ROS 2 topic?\n{QUESTION}") })
    );
    let selected = "A node discovers its peers through DDS participant announcements.";
    let texts = to_json(retriever.vector_query(QUESTION, Some(selected.into()), JsValue::UNDEFINED).expect("valid"));
    let text = texts["text"].as_str().expect("a text");
    assert!(text.starts_with(QUESTION) && text.ends_with(selected));
    let only = options(r#"{"selectionOnly": true}"#);
    assert!(retriever.vector_query(QUESTION, Some(selected.into()), only).expect("valid").is_undefined());
    assert_eq!(code_of(retriever.vector_query("", None, JsValue::UNDEFINED)), "EMPTY_QUESTION");
    assert_eq!(
        code_of(retriever.vector_query(QUESTION, Some("short".into()), JsValue::UNDEFINED)),
        "SELECTION_TOO_SHORT"
    );
    assert_eq!(code_of(retriever.search(QUESTION, hybrid, Some(vec![0.5; 3]), None)), "INDEX_UNAVAILABLE");
    assert_eq!(code_of(retriever.search(QUESTION, options(r#"{"mode": "dense"}"#), None, None)), "MODEL_UNAVAILABLE");
}

#[wasm_bindgen_test]
async fn searches_by_keywords_before_the_dense_index_and_model() {
    let bundle = Bundle::fetch().await;
    let mut retriever = bundle.lexical().await;
    assert!(retriever.lexical_ready() && !retriever.dense_ready());
    // The question's terms name a few term shards (through their catalog pages), never all.
    let fetched = attach_for(&mut retriever, QUESTION, None).await;
    let terms = fetched.iter().filter(|(part, _)| part == "terms").count();
    let all_terms: u64 = bundle.manifest_json["files"]["terms"]
        .as_array()
        .expect("term pages")
        .iter()
        .map(|p| p["shards"].as_u64().expect("count"))
        .sum();
    console_log!("{QUESTION}: {terms} of {all_terms} term shards, {} files in all", fetched.len());
    assert!(terms >= 1 && (terms as u64) < all_terms, "{fetched:?}");
    assert!(fetched.iter().all(|(part, _)| part == "terms" || part == "termPage"));
    assert!(attach_for(&mut retriever, QUESTION, None).await.is_empty(), "nothing is fetched twice");
    let results = to_json(retriever.search(QUESTION, JsValue::UNDEFINED, None, None).expect("searches"));
    assert_eq!(results["mode"], "global");
    assert_eq!(results["mode_used"], "lexical");
    let hits = results["hits"].as_array().expect("hits");
    assert_eq!(hits.len(), 3);
    assert!(hits.iter().all(|h| h["text"].is_null() && h["chunk"].is_null() && h["dense"].is_null()));
    assert!(!results["missing"].as_array().expect("missing").is_empty());
    // Attaching only what the hits need is enough to read their metadata and texts.
    // Chunk shards by number: at most one file a hit, and no catalog page before them.
    let fetched = attach_chunks(&mut retriever, &results).await;
    assert!(!fetched.is_empty() && fetched.iter().all(|(part, _)| part == "chunks"), "{fetched:?}");
    assert!(fetched.len() <= 3, "{fetched:?}");
    let again = to_json(retriever.search(QUESTION, JsValue::UNDEFINED, None, None).expect("searches"));
    assert_eq!(again["missing"], serde_json::json!([]));
    for hit in again["hits"].as_array().unwrap() {
        let index = hit["index"].as_u64().unwrap() as u32;
        assert!(hit["chunk"]["url"].as_str().unwrap().starts_with("/docs/"));
        assert_eq!(hit["text"].as_str(), Some(retriever.text(index).expect("text").as_str()));
        assert_eq!(retriever.shard_of(index).expect("shard"), hit["shard"].as_u64().unwrap() as usize);
        assert_eq!(to_json(retriever.chunk(index).expect("chunk")), hit["chunk"]);
    }
    // Selected mode: related sections for question + selection; or nothing retrieved.
    let selection = "A node discovers its peers through DDS participant announcements.";
    attach_for(&mut retriever, "What does this mean?", Some(selection)).await;
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
    attach_for(&mut retriever, QUESTION, None).await;
    let onnx = bundle.file("/model/weights/name").await;
    let tokenizer = bundle.file("/model/tokenizer/name").await;
    let fingerprint = model_fingerprint(&onnx, &tokenizer);
    assert_eq!(fingerprint, bundle.manifest_json["model"]["fingerprint"]);
    retriever.check_model(&fingerprint).expect("same model");
    retriever.attach_dense(&bundle.file("/files/dense/name").await).expect("dense");
    assert!(retriever.dense_ready());
    let mut embedder = Embedder::new(&onnx, &tokenizer).expect("model");
    assert_eq!(embedder.fingerprint(), fingerprint);
    // The bundle's model is the compact file's head: the word-table shards the question
    // needs come first, as the worker fetches them — only those, each checked.
    let refused = embedder.embed(QUESTION).expect_err("no word shards yet");
    assert_eq!(code(refused), ("MODEL_UNAVAILABLE".into(), Some("WORDS_MISSING".into())));
    let words = to_json(retriever.word_files(&bundle.file("/model/words/name").await).expect("words catalog"));
    let words = words.as_array().expect("a list of shards");
    let missing = embedder.missing_word_shards(QUESTION).expect("valid");
    assert!(!missing.is_empty() && missing.len() <= 12, "{} of {} shards", missing.len(), words.len());
    let shard = |i: u32| format!("bundle/{}", words[i as usize]["name"].as_str().expect("a name"));
    let wrong = fetch_bytes(&shard(missing[0] + 1)).await;
    assert_eq!(
        code(embedder.add_word_shard(missing[0], &wrong).expect_err("another shard's bytes")),
        ("MODEL_UNAVAILABLE".into(), Some("MODEL_CORRUPT".into()))
    );
    for &i in &missing {
        embedder.add_word_shard(i, &fetch_bytes(&shard(i)).await).expect("its own shard");
    }
    assert!(embedder.missing_word_shards(QUESTION).expect("valid").is_empty());
    let vector = embedder.embed(QUESTION).expect("embeds");
    assert_eq!(vector.len(), 384);

    for mode in ["lexical", "hybrid"] {
        let native: Value = serde_json::from_slice(&fetch_bytes(&format!("native-search-{mode}.json")).await).unwrap();
        let search = |r: &Retriever| {
            let options = options(&format!(r#"{{"k": 5, "mode": "{mode}"}}"#));
            to_json(r.search(QUESTION, options, Some(vector.clone()), None).expect("searches"))
        };
        let first = search(&retriever);
        attach_chunks(&mut retriever, &first).await;
        let got = search(&retriever);
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
