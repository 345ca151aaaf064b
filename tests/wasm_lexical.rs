//! The lexical index in headless Chromium: the tokenizer's rules, build → bytes → load →
//! search, and refusal of damaged bytes behave exactly as natively (the unit tests in
//! src/lexical run natively only).
#![cfg(target_arch = "wasm32")]

use lectern::lexical::{tokenize, Bm25Params, Document, IndexOptions, LexicalError, LexicalIndex};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn tokenizer_rules_hold_in_the_browser() {
    assert_eq!(tokenize("rclpy.init"), ["rclpy.init", "rclpi", "init"]);
    assert_eq!(tokenize("/cmd_vel"), ["cmd_vel", "cmd", "vel"]);
    assert_eq!(tokenize("createPublisher"), ["createpublisher", "creat", "publish"]);
    assert_eq!(tokenize("ISO/TS 15066, Python 3.9"), ["iso/ts", "iso", "ts", "15066", "python", "3.9"]);
    assert_eq!(tokenize("机器人"), ["机", "器", "机器", "人", "器人"]);
    assert_eq!(tokenize("ÜBER Straße"), ["über", "straße"]);
    assert_eq!(tokenize("How do I echo messages on /cmd_vel?"), ["echo", "messag", "cmd_vel", "cmd", "vel"]);
}

#[wasm_bindgen_test]
fn build_load_and_search_in_the_browser() {
    let docs = [
        Document::new("Nodes", "A node publishes velocity commands."),
        Document::new("Inspecting topics", "Run ros2 topic echo /cmd_vel to print each message."),
        Document::new("QoS", "BEST_EFFORT endpoints send each sample once."),
    ];
    let index = LexicalIndex::build(&docs, IndexOptions::default()).unwrap();
    let bytes = index.to_bytes();
    let mut loaded = LexicalIndex::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, index);
    let hits = loaded.search_normalized("How do I echo messages on /cmd_vel?", 5, None);
    assert_eq!(hits[0].0, 1);
    assert!(hits[0].1 > 0.0 && hits[0].1 <= 1.0);
    let not_one = |doc: u32| doc != 1;
    assert!(loaded.search("echo", 5, Some(&not_one)).is_empty());
    assert!(loaded.search("the of and how", 5, None).is_empty());
    loaded.set_params(Bm25Params::new(0.9, 0.4).unwrap()).unwrap();
    assert_eq!(loaded.search("best effort", 1, None)[0].0, 2);
}

#[wasm_bindgen_test]
fn damaged_bytes_are_refused_in_the_browser() {
    let docs = [Document::text("ros2 topic echo /cmd_vel"), Document::text("camera calibration")];
    let bytes = LexicalIndex::build(&docs, IndexOptions::default()).unwrap().to_bytes();
    for len in 0..bytes.len() {
        assert!(LexicalIndex::from_bytes(&bytes[..len]).is_err(), "prefix of {len} bytes loaded");
    }
    for i in 0..bytes.len() {
        let mut flipped = bytes.clone();
        flipped[i] ^= 0xff;
        if let Ok(index) = LexicalIndex::from_bytes(&flipped) {
            let _ = index.search("echo cmd_vel camera", 3, None);
        }
    }
    assert_eq!(LexicalIndex::from_bytes(b"nope"), Err(LexicalError::NotAnIndex));
}
