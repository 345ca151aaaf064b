//! The whole pipeline on the sample textbook with the real model: `lectern build`, then the
//! CLI's search/eval/inspect contracts, incremental rebuilds and refusal of damaged bundles.
//! (Retrieval quality itself is gated by `lectern eval` in scripts/test.sh.)

use lectern::bundle::MANIFEST_FILE;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn lectern(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lectern")).args(args).current_dir(repo()).output().expect("lectern runs")
}

/// The sample site's bundle, built once for all tests in this file.
fn bundle_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("lectern-example-bundle-{}", std::process::id()));
        let out = lectern(&["build", "www/example", "--out", dir.to_str().unwrap(), "--json"]);
        assert!(out.status.success(), "build failed: {}", String::from_utf8_lossy(&out.stderr));
        dir
    })
}

/// A private copy of the shared bundle, for tests that change it.
fn copy_of_bundle(name: &str) -> PathBuf {
    let copy = std::env::temp_dir().join(format!("lectern-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(bundle_dir()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
    }
    copy
}

#[test]
fn eval_reports_every_mode_gates_and_refuses_unknown_urls() {
    let dir = bundle_dir().to_str().unwrap();
    let questions = std::env::temp_dir().join(format!("lectern-eval-{}.jsonl", std::process::id()));
    std::fs::write(
        &questions,
        concat!(
            r#"{"id":"a","split":"dev","kind":"code","question":"How can I watch velocity commands as they are published?","expected":["/docs/ros2-fundamentals/nodes-topics#inspecting-topics-from-the-command-line"]}"#,
            "\n",
            r#"{"id":"b","split":"heldout","kind":"off-topic","question":"What is a good recipe for a chocolate cake?","unanswerable":true}"#,
            "\n",
            r#"{"id":"c","split":"dev","kind":"selection","question":"what does this do?","expected":["/docs/ros2-fundamentals/nodes-topics#inspecting-topics-from-the-command-line"],"selection":{"of":"/docs/ros2-fundamentals/nodes-topics#inspecting-topics-from-the-command-line","from_word":0,"words":30}}"#,
        ),
    )
    .unwrap();
    let q = questions.to_str().unwrap();
    let out = lectern(&["eval", dir, "--questions", q, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = json["summaries"].as_array().unwrap();
    assert_eq!(rows.len(), 9, "dev, heldout and all, for three modes");
    let all_hybrid = rows.iter().find(|r| r["split"] == "all" && r["mode"] == "hybrid").unwrap();
    assert_eq!((all_hybrid["answerable"].as_u64(), all_hybrid["selection"].as_u64()), (Some(1), Some(1)));
    assert_eq!(all_hybrid["selection_hits"], 1, "the selection is the answer");
    assert_eq!(json["outcomes"].as_array().unwrap().len(), 9);

    let gate = lectern(&["eval", dir, "--questions", q, "--mode", "lexical", "--require", "lexical.hit_at_1>=1.01"]);
    assert!(!gate.status.success());
    assert!(String::from_utf8_lossy(&gate.stderr).contains("quality gate failed"));
    let bad_gate = lectern(&["eval", dir, "--questions", q, "--require", "hybrid.hit_at_3"]);
    assert!(!bad_gate.status.success());

    std::fs::write(&questions, r#"{"id":"x","split":"dev","question":"q?","expected":["/docs/nowhere#at-all"]}"#)
        .unwrap();
    let unknown = lectern(&["eval", dir, "--questions", q]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("x: /docs/nowhere#at-all"));
    std::fs::remove_file(&questions).unwrap();
}

#[test]
fn search_with_a_selection_is_selected_mode() {
    let dir = bundle_dir().to_str().unwrap();
    let selection = "ros2 topic echo /cmd_vel prints every message published on the topic";
    let out = lectern(&["search", "--index", dir, "--json", "--selection", selection, "What does this print?"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["mode"], "selected");
    let urls: Vec<&str> = json["results"].as_array().unwrap().iter().map(|r| r["url"].as_str().unwrap()).collect();
    assert!(urls.iter().any(|u| u.starts_with("/docs/ros2-fundamentals/nodes-topics")), "{urls:?}");
    let short = lectern(&["search", "--index", dir, "--selection", "too short", "What is this?"]);
    assert!(!short.status.success());
    assert!(String::from_utf8_lossy(&short.stderr).contains("Selection is too short"));
}

#[test]
fn search_with_previous_questions_retrieves_a_follow_up_in_context() {
    let dir = bundle_dir().to_str().unwrap();
    let question = "Can you show me how to compute it in a few lines of Python?";
    let urls = |args: &[&str]| -> Vec<String> {
        let out = lectern(args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["results"].as_array().unwrap().iter().map(|r| r["url"].as_str().unwrap().to_string()).collect()
    };
    let answer = "/docs/control-and-locomotion/zmp-walking#example";
    let alone = urls(&["search", "--index", dir, "--json", question]);
    assert!(!alone.iter().any(|u| u == answer), "alone, \"it\" names nothing: {alone:?}");
    let previous = "What is the capture point of a walking robot?";
    let follow_up = urls(&["search", "--index", dir, "--json", "--previous", previous, "--", question]);
    assert_eq!(follow_up[0], answer, "{follow_up:?}");
    let empty = lectern(&["search", "--index", dir, "--previous", " ", question]);
    assert!(!empty.status.success(), "an empty earlier question is refused like an empty question");
}

#[test]
fn search_cli_prints_the_documented_json() {
    let dir = bundle_dir().to_str().unwrap();
    let out = lectern(&["search", "--index", dir, "--k", "2", "--json", "How do I echo messages on /cmd_vel?"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(["high", "medium", "low"].contains(&json["confidence"].as_str().unwrap()));
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for field in ["chunk_id", "url", "heading_path", "text", "score", "dense", "lexical"] {
        assert!(results[0].get(field).is_some(), "missing {field}");
    }
    let urls: Vec<&str> = results.iter().map(|r| r["url"].as_str().unwrap()).collect();
    assert!(urls.iter().any(|u| u.starts_with("/docs/ros2-fundamentals/nodes-topics#")), "{urls:?}");

    let lexical = lectern(&["search", "--index", dir, "--mode", "lexical", "--json", "ros2 topic echo /cmd_vel"]);
    let json: serde_json::Value = serde_json::from_slice(&lexical.stdout).unwrap();
    assert_eq!(json["mode_used"], "lexical");
    assert_eq!(
        json["results"][0]["url"],
        "/docs/ros2-fundamentals/nodes-topics#inspecting-topics-from-the-command-line"
    );

    let empty = lectern(&["search", "--index", dir, "  "]);
    assert!(!empty.status.success());
    let missing = lectern(&["search", "--index", "/nonexistent/bundle", "question"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("manifest.json"));
}

#[test]
fn rebuilding_an_unchanged_site_embeds_nothing() {
    let copy = copy_of_bundle("rebuilt-bundle");
    let out = lectern(&["build", "www/example", "--out", copy.to_str().unwrap(), "--json"]);
    assert!(out.status.success());
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["embedded"], 0);
    assert_eq!(summary["reused"], summary["chunks"]);
    std::fs::remove_dir_all(&copy).unwrap();
}

#[test]
fn inspect_reports_damage_and_the_bundle_is_refused() {
    let copy = copy_of_bundle("damaged-bundle");
    let ok = lectern(&["inspect", copy.to_str().unwrap()]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(String::from_utf8_lossy(&ok.stdout).contains(" chunks, "));

    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(copy.join(MANIFEST_FILE)).unwrap()).unwrap();
    // The chunk table: read at open by every search (format 2 has no single lexical file).
    let table = copy.join(manifest["files"]["chunk_table"]["name"].as_str().unwrap());
    let mut bytes = std::fs::read(&table).unwrap();
    bytes[10] ^= 1;
    std::fs::write(&table, bytes).unwrap();
    let damaged = lectern(&["inspect", copy.to_str().unwrap()]);
    assert!(!damaged.status.success());
    assert!(String::from_utf8_lossy(&damaged.stdout).contains("checksum"));
    let search = lectern(&["search", "--index", copy.to_str().unwrap(), "--mode", "lexical", "PID"]);
    assert!(!search.status.success());
    assert!(String::from_utf8_lossy(&search.stderr).contains("corrupt"));
    std::fs::remove_dir_all(&copy).unwrap();
}
