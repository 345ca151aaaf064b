//! The whole pipeline on the sample textbook with the real model: `lectern build`, then
//! retrieval quality on the labelled questions (tests/fixtures/calibration), the CLI's
//! search/inspect contracts, incremental rebuilds and refusal of damaged bundles.

use lectern::bundle::{load_dir, LoadedBundle, MANIFEST_FILE};
use lectern::embed::{Embedder, ModelFiles, ModelVariant};
use lectern::search::{Confidence, HybridSearch, SearchMode, SearchOptions};
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

fn embedder() -> &'static Embedder {
    static EMBEDDER: OnceLock<Embedder> = OnceLock::new();
    EMBEDDER.get_or_init(|| ModelFiles::in_dir(&ModelFiles::default_dir(), ModelVariant::Int8).load().unwrap())
}

fn search_index() -> HybridSearch {
    let LoadedBundle { chunks, lexical, dense, .. } = load_dir(bundle_dir()).unwrap();
    let mut search = HybridSearch::new(chunks, lexical).unwrap();
    search.attach_dense(dense).unwrap();
    search
}

#[path = "../../tests/fixtures/calibration/questions.rs"]
mod questions;

#[test]
fn answerable_questions_find_their_page_and_off_topic_ones_are_refused() {
    let search = search_index();
    let questions = questions::load().unwrap();
    for mode in [SearchMode::Hybrid, SearchMode::Lexical] {
        let options = SearchOptions { mode, ..SearchOptions::default() };
        let run = |q: &str| {
            let vector = (mode != SearchMode::Lexical).then(|| embedder().embed(q).unwrap());
            search.search(q, vector.as_deref(), &options).unwrap()
        };
        let mut found = 0;
        for q in &questions.answerable {
            let results = run(&q.question);
            assert_ne!(results.confidence, Confidence::None, "{mode:?} refused an answerable question: {}", q.question);
            found += results.hits.iter().any(|h| search.chunk(h.index).unwrap().chapter_id == q.chapter_id) as usize;
        }
        let refused = questions.off_topic.iter().filter(|q| run(q).confidence == Confidence::None).count();
        println!(
            "{mode:?}: page in top 3 for {found}/{}; off-topic refused {refused}/{}",
            questions.answerable.len(),
            questions.off_topic.len()
        );
        assert!(found * 100 >= questions.answerable.len() * 90, "{mode:?}: expected page in top 3 for only {found}");
        assert!(
            refused * 100 >= questions.off_topic.len() * 90,
            "{mode:?}: refused only {refused} off-topic questions"
        );
    }
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
    let lexical = copy.join(manifest["files"]["lexical"]["name"].as_str().unwrap());
    let mut bytes = std::fs::read(&lexical).unwrap();
    bytes[10] ^= 1;
    std::fs::write(&lexical, bytes).unwrap();
    let damaged = lectern(&["inspect", copy.to_str().unwrap()]);
    assert!(!damaged.status.success());
    assert!(String::from_utf8_lossy(&damaged.stdout).contains("checksum"));
    let search = lectern(&["search", "--index", copy.to_str().unwrap(), "--mode", "lexical", "PID"]);
    assert!(!search.status.success());
    assert!(String::from_utf8_lossy(&search.stderr).contains("corrupt"));
    std::fs::remove_dir_all(&copy).unwrap();
}
