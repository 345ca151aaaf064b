//! Unit tests of follow-up suggestions: neighbours, phrasing, choice.

use super::*;
use crate::bundle::{ChunkMeta, SectionPart};
use crate::search::Confidence;

fn chunk(chapter: &str, path: &[&str], anchor: &str) -> ChunkMeta {
    ChunkMeta {
        chunk_id: format!("{chapter}#{anchor}"),
        url: format!("/docs/{chapter}#{anchor}"),
        heading_path: path.iter().map(|s| s.to_string()).collect(),
        chapter_title: path[0].to_string(),
        section_title: path.last().map(|s| s.to_string()).unwrap_or_default(),
        module: "docs".into(),
        chapter_id: chapter.into(),
        instance: "default".into(),
        version: None,
        word_count: 100,
        position: 0,
        hash: String::new(),
        parts: Vec::new(),
        name: None,
    }
}

/// A page "Testing" (intro, Setup › Install the CLI / Configure, Mocking) after a page "Other".
fn site() -> Vec<ChunkMeta> {
    vec![
        chunk("other", &["Other"], ""),
        chunk("testing", &["Testing"], ""),
        chunk("testing", &["Testing", "Setup"], "setup"),
        chunk("testing", &["Testing", "Setup", "Install the CLI"], "install"),
        chunk("testing", &["Testing", "Setup", "Configure Jest"], "configure"),
        chunk("testing", &["Testing", "Mocking"], "mocking"),
        chunk("testing", &["Testing", "Summary"], "summary"),
        chunk("after", &["After"], ""),
    ]
}

fn path(p: &[&str]) -> Vec<String> {
    p.iter().map(|s| s.to_string()).collect()
}

#[test]
fn neighbours_are_the_next_section_then_children_then_siblings_on_the_same_page() {
    let chunks = site();
    let got = neighbours(&[2], |i| chunks.get(i as usize), chunks.len());
    let urls: Vec<(&str, Relation)> = got.iter().map(|n| (n.url.as_str(), n.relation)).collect();
    assert_eq!(
        urls,
        [
            ("/docs/testing#install", Relation::Next),
            ("/docs/testing#configure", Relation::Child),
            ("/docs/testing#mocking", Relation::Sibling),
            ("/docs/testing#summary", Relation::Sibling),
        ]
    );
    // Nothing from other pages, nothing cited.
    let both = neighbours(&[2, 3], |i| chunks.get(i as usize), chunks.len());
    assert!(both.iter().all(|n| n.url.starts_with("/docs/testing#") && n.url != "/docs/testing#install"));
    // The last section of a page has no next section on another page.
    let last = neighbours(&[6], |i| chunks.get(i as usize), chunks.len());
    assert!(last.iter().all(|n| n.url.starts_with("/docs/testing#")));
}

#[test]
fn a_merged_part_counts_as_a_section_and_a_cited_chunks_parts_as_cited() {
    let mut chunks = site();
    let part = |anchor: &str, p: &[&str]| SectionPart {
        url: format!("/docs/testing#{anchor}"),
        heading_path: path(p),
        start: 0,
        end: 1,
        name: None,
    };
    chunks[4].parts = vec![part("watch", &["Testing", "Setup", "Watch mode"])];
    chunks[2].parts = vec![part("cited-part", &["Testing", "Setup", "Cited part"])];
    let got = neighbours(&[2], |i| chunks.get(i as usize), chunks.len());
    assert!(got.iter().any(|n| n.url == "/docs/testing#watch" && n.relation == Relation::Child));
    assert!(got.iter().all(|n| n.url != "/docs/testing#cited-part"));
    // Cited by a part's URL.
    assert_eq!(cited_chunks(&[0, 2, 5], &["/docs/testing#cited-part"], |i| chunks.get(i as usize)), [2]);
}

#[test]
fn a_chunk_not_loaded_is_skipped_and_the_window_stays_in_range() {
    let chunks = site();
    let got = neighbours(&[2], |i| if i == 3 { None } else { chunks.get(i as usize) }, chunks.len());
    assert_eq!(got[0].url, "/docs/testing#configure");
    assert_eq!(neighbour_window(&[1], 5), [0, 1, 2, 3, 4]);
    assert_eq!(neighbour_window(&[40], 100).first(), Some(&(40 - NEIGHBOUR_WINDOW)));
    assert!(neighbour_window(&[7], 3).is_empty());
}

#[test]
fn headings_become_questions_by_their_shape() {
    let q = |p: &[&str]| question_for(&path(p), Phrasing::ByShape);
    assert_eq!(q(&["P", "Install the CLI"]).as_deref(), Some("How do I install the CLI?"));
    assert_eq!(q(&["P", "Installing the CLI"]).as_deref(), Some("How do I install the CLI?"));
    assert_eq!(q(&["P", "Running tests in parallel"]).as_deref(), Some("How do I run tests in parallel?"));
    assert_eq!(q(&["P", "How to mock a module"]).as_deref(), Some("How do I mock a module?"));
    assert_eq!(q(&["P", "Why is my test slow?"]).as_deref(), Some("Why is my test slow?"));
    assert_eq!(q(&["P", "What a node is"]).as_deref(), Some("What is a node?"));
    assert_eq!(q(&["P", "Why ROS 2"]).as_deref(), Some("Why ROS 2?"));
    assert_eq!(q(&["P", "`--watch`"]).as_deref(), Some("What does --watch do?"));
    assert_eq!(q(&["P", "testTimeout"]).as_deref(), Some("What does testTimeout do?"));
    assert_eq!(q(&["P", "2.1 Inverse kinematics"]).as_deref(), Some("What is Inverse kinematics?"));
    assert_eq!(q(&["P", "Force sensors"]).as_deref(), Some("What are Force sensors?"));
    assert_eq!(q(&["P", "Step 3: Timers"]).as_deref(), Some("What are Timers?"));
    assert_eq!(q(&["P", "Overriding QoS with parameters"]).as_deref(), Some("How do I override QoS with parameters?"));
    assert_eq!(q(&["P", "Bootstrapping a workspace"]).as_deref(), Some("What about bootstrapping a workspace?"));
    assert_eq!(q(&["P", "String methods"]).as_deref(), Some("What are String methods?"));
    assert_eq!(q(&["P", "Logging"]).as_deref(), Some("What is Logging?"));
    // A heading that names a place, not a topic, asks nothing.
    assert_eq!(q(&["P", "Summary"]), None);
    assert_eq!(q(&["P", "Next steps:"]), None);
    assert_eq!(q(&["P", "🚀"]), None);
    assert_eq!(q(&[]), None);
}

#[test]
fn a_site_in_another_language_is_offered_its_headings_as_written() {
    assert_eq!(Phrasing::for_language(None), Phrasing::SHIPPED);
    assert_eq!(Phrasing::for_language(Some("en-GB")), Phrasing::SHIPPED);
    assert_eq!(Phrasing::for_language(Some("zh-CN")), Phrasing::AsWritten);
    let p = path(&["安装", "2.1 修改采样间隔"]);
    assert_eq!(question_for(&p, Phrasing::for_language(Some("zh-CN"))).as_deref(), Some("修改采样间隔"));
    assert_eq!(question_for(&path(&["P", "Summary"]), Phrasing::AsWritten), None);
}

#[test]
fn the_phrasings_differ_as_documented() {
    let p = path(&["Jest CLI Options", "Configuration"]);
    assert_eq!(question_for(&p, Phrasing::WhatAbout).as_deref(), Some("What about Configuration?"));
    assert_eq!(question_for(&p, Phrasing::ByShape).as_deref(), Some("What is Configuration?"));
    assert_eq!(
        question_for(&p, Phrasing::ByShapeInPage).as_deref(),
        Some("What is Configuration in Jest CLI Options?")
    );
    // A long heading says enough alone; a page's own title is not repeated.
    let long = path(&["Jest CLI Options", "Using a custom reporter"]);
    assert_eq!(question_for(&long, Phrasing::ByShapeInPage).as_deref(), Some("How do I use a custom reporter?"));
    assert_eq!(question_for(&path(&["Testing"]), Phrasing::ByShapeInPage).as_deref(), Some("What is Testing?"));
}

#[test]
fn candidates_skip_what_was_asked_and_stop_at_the_limit() {
    let chunks = site();
    let asked = ["how do i install the cli?"];
    let got = candidates(&[2], |i| chunks.get(i as usize), chunks.len(), &asked, Phrasing::ByShape);
    let questions: Vec<&str> = got.iter().map(|c| c.question.as_str()).collect();
    // "Install the CLI" was asked; "Summary" asks nothing.
    assert_eq!(questions, ["How do I configure Jest?", "What is Mocking?"]);
    let many: Vec<ChunkMeta> = (0..20).map(|i| chunk("p", &["P", &format!("Topic {i}")], &format!("t{i}"))).collect();
    let got = candidates(&[0], |i| many.get(i as usize), many.len(), &[] as &[&str], Phrasing::ByShape);
    assert_eq!(got.len(), MAX_CANDIDATES);
}

#[test]
fn refused_candidates_are_never_chosen_and_high_or_medium_come_first() {
    let c = |q: &str| Candidate { question: q.into(), url: format!("/docs/{q}") };
    let got = choose(
        vec![c("a"), c("b"), c("c"), c("d"), c("e")],
        &[Confidence::Low, Confidence::None, Confidence::Medium, Confidence::High, Confidence::Low].map(Some),
    );
    let questions: Vec<&str> = got.iter().map(|f| f.question.as_str()).collect();
    assert_eq!(questions, ["c", "d", "a"]);
    assert!(got.iter().all(|f| f.confidence != Confidence::None));
    // A candidate that was not searched is not shown.
    assert_eq!(choose(vec![c("a"), c("b")], &[Some(Confidence::High)]).len(), 1);
    assert_eq!(choose(vec![c("a"), c("b")], &[None, Some(Confidence::Low)])[0].question, "b");
    assert!(choose(vec![c("a")], &[Some(Confidence::None)]).is_empty());
}
