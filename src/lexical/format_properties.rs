//! Property tests: whatever bytes reach `from_bytes` (random, a valid header with random
//! contents, a valid index with bytes flipped, cut, inserted or removed), loading returns
//! instead of panicking, and whatever loads can be searched safely. Each test prints how many
//! inputs it ran (`cargo test -- --nocapture`).

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::test_runner::TestRunner;

use super::format::{FORMAT_VERSION, MAGIC};
use super::tokenizer::TOKENIZER_VERSION;
use super::{Document, IndexOptions, LexicalIndex};

/// Words that exercise each tokenizer rule, space-separated.
const WORDS: &str = "robot robots the cmd_vel /cmd_vel rclpy.init createPublisher ros2 topic echo 3.9 15066 ISO/TS \
                     lidar 機器人 ロボット über CAN naïve a how messages HTTPServer x";

fn words() -> Vec<&'static str> {
    WORDS.split_whitespace().collect()
}

fn corpus() -> impl Strategy<Value = Vec<(String, String)>> {
    let text = prop::collection::vec(prop::sample::select(words()), 0..10).prop_map(|w| w.join(" "));
    prop::collection::vec((text.clone(), text), 0..8)
}

fn queries() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(prop::collection::vec(prop::sample::select(words()), 0..4).prop_map(|w| w.join(" ")), 1..4)
}

#[derive(Debug, Clone)]
enum Mutation {
    Set(usize, u8),
    Flip(usize, u8),
    Insert(usize, u8),
    Remove(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, v)| Mutation::Set(i, v)),
        (any::<usize>(), 0u8..8).prop_map(|(i, bit)| Mutation::Flip(i, bit)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, v)| Mutation::Insert(i, v)),
        any::<usize>().prop_map(Mutation::Remove),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let len = bytes.len().max(1);
    match *mutation {
        Mutation::Set(i, v) => {
            if let Some(b) = bytes.get_mut(i % len) {
                *b = v;
            }
        }
        Mutation::Flip(i, bit) => {
            if let Some(b) = bytes.get_mut(i % len) {
                *b ^= 1 << bit;
            }
        }
        Mutation::Insert(i, v) => bytes.insert(i % (bytes.len() + 1), v),
        Mutation::Remove(i) => {
            if !bytes.is_empty() {
                bytes.remove(i % len);
            }
        }
        Mutation::Truncate(i) => bytes.truncate(i % len),
    }
}

fn build(docs: &[(String, String)], title_boost: u32) -> LexicalIndex {
    let docs: Vec<Document> = docs.iter().map(|(t, b)| Document::new(t, b)).collect();
    LexicalIndex::build(&docs, IndexOptions { title_boost, ..Default::default() }).unwrap()
}

/// Searches a loaded index and checks what a caller relies on.
fn exercise(index: &LexicalIndex, queries: &[String]) {
    let n = index.doc_count();
    let odd = |doc: u32| doc % 2 == 1;
    for query in queries {
        for filter in [None, Some(&odd as &dyn Fn(u32) -> bool)] {
            let hits = index.search(query, 4, filter);
            assert!(hits.len() <= 4);
            assert!(hits.iter().all(|&(doc, score)| doc < n && score.is_finite() && score > 0.0), "{hits:?}");
            assert!(hits.windows(2).all(|w| w[0].1 > w[1].1 || (w[0].1 == w[1].1 && w[0].0 < w[1].0)));
            let shown = index.search_normalized(query, 4, filter);
            assert!(shown.iter().all(|&(_, s)| (0.0..=1.0).contains(&s)));
        }
    }
    // A reloaded index serializes to bytes that load again.
    assert!(LexicalIndex::from_bytes(&index.to_bytes()).is_ok());
}

/// Runs `test` on `cases` generated inputs and prints how many ran.
fn check<S: Strategy>(name: &str, cases: u32, strategy: S, test: impl Fn(S::Value) -> bool) {
    let runs = AtomicUsize::new(0);
    let loaded = AtomicUsize::new(0);
    let mut runner = TestRunner::new(ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() });
    let result = runner.run(&strategy, |value| {
        runs.fetch_add(1, Ordering::Relaxed);
        if test(value) {
            loaded.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    });
    eprintln!(
        "{name}: {} executions, {} of them loaded and were searched",
        runs.load(Ordering::Relaxed),
        loaded.load(Ordering::Relaxed)
    );
    if let Err(failure) = result {
        panic!("{name}: {failure}");
    }
}

fn header_then(boost: u8, body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&TOKENIZER_VERSION.to_le_bytes());
    bytes.extend_from_slice(&1.2f32.to_le_bytes());
    bytes.extend_from_slice(&0.75f32.to_le_bytes());
    bytes.push(boost);
    bytes.extend_from_slice(body);
    bytes
}

/// Loads `bytes`; if that works, searches the result. True if it loaded.
fn load_and_search(bytes: &[u8], queries: &[String]) -> bool {
    match LexicalIndex::from_bytes(bytes) {
        Ok(index) => {
            exercise(&index, queries);
            true
        }
        Err(_) => false,
    }
}

#[test]
fn random_bytes_never_panic() {
    let strategy = (prop::collection::vec(any::<u8>(), 0..600), queries());
    check("random bytes", 20_000, strategy, |(bytes, q)| load_and_search(&bytes, &q));
}

#[test]
fn valid_header_with_random_body_never_panics() {
    // Small bytes dominate so counts and lengths are often plausible and parsing goes deep.
    let body = prop::collection::vec(prop_oneof![0u8..6, any::<u8>()], 0..400);
    check("valid header + random body", 20_000, (0u8..20, body, queries()), |(boost, body, q)| {
        load_and_search(&header_then(boost, &body), &q)
    });
}

#[test]
fn mutated_indexes_never_panic() {
    let strategy = (corpus(), 0u32..4, prop::collection::vec(mutation(), 1..6), queries());
    check("mutated valid index", 30_000, strategy, |(docs, boost, mutations, q)| {
        let mut bytes = build(&docs, boost).to_bytes();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        load_and_search(&bytes, &q)
    });
}

#[test]
fn round_trip_preserves_search() {
    check("round trip", 2000, (corpus(), 0u32..4, queries()), |(docs, boost, q)| {
        let index = build(&docs, boost);
        let bytes = index.to_bytes();
        let back = LexicalIndex::from_bytes(&bytes).unwrap();
        assert_eq!(back, index);
        assert_eq!(back.to_bytes(), bytes);
        for query in &q {
            assert_eq!(back.search(query, 5, None), index.search(query, 5, None));
        }
        exercise(&back, &q);
        true
    });
}
