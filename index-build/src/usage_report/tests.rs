//! The report of tests/fixtures/usage/events.jsonl: each rule of the summary, on events the
//! widget's schema describes, with lines that are not events among them.

use super::read::BadLine;
use super::summary::{CountedQuestion, UsageReport};
use super::*;

const FIXTURE: &str = include_str!("../../../tests/fixtures/usage/events.jsonl");

fn report(top: usize) -> (UsageReport, Vec<BadLine>) {
    let read = read_events(FIXTURE.as_bytes()).unwrap();
    (summarize(&read.events, top), read.bad_lines)
}

fn counted(list: &[CountedQuestion]) -> Vec<(&str, usize)> {
    list.iter().map(|q| (q.text.as_str(), q.count)).collect()
}

#[test]
fn lines_that_are_not_events_are_listed_with_their_number_and_the_rest_is_read() {
    let (report, bad) = report(10);
    assert_eq!(report.events, 24);
    assert_eq!(bad.iter().map(|b| b.line).collect::<Vec<_>>(), vec![26, 27]);
    assert!(bad[0].reason.contains("page_view"), "{}", bad[0].reason);
}

#[test]
fn counts_by_kind_and_confidence() {
    let (r, _) = report(10);
    assert_eq!((r.questions, r.answers, r.refusals, r.searches, r.search_clicks), (2, 5, 4, 1, 1));
    assert_eq!((r.answers_high, r.answers_medium, r.answers_low), (1, 3, 1));
    assert_eq!(r.errors, vec![("LLM_TIMEOUT".to_string(), 2), ("RATE_LIMITED".to_string(), 1)]);
}

#[test]
fn refused_questions_are_grouped_ignoring_case_and_spacing() {
    let (r, _) = report(10);
    assert_eq!(
        counted(&r.top_refused),
        vec![("What pizza should I order?", 2), ("How do I deploy to Kubernetes?", 1), ("(text not recorded)", 1)]
    );
    let (short, _) = report(1);
    assert_eq!(counted(&short.top_refused), vec![("What pizza should I order?", 2)]);
}

#[test]
fn the_last_rating_of_an_answer_counts_and_a_withdrawn_one_not_at_all() {
    let (r, _) = report(10);
    // a1 helpful; a6 not; a7 not, then helpful; a8 not, then withdrawn; a9 not.
    assert_eq!((r.helpful, r.not_helpful), (2, 2));
    assert_eq!(r.helpful_rate, Some(0.5));
    assert_eq!(counted(&r.not_helpful_reasons), vec![("Too vague", 1), ("Wrong standard", 1)]);
    assert_eq!(summarize(&[], 10).helpful_rate, None);
}

#[test]
fn unanswered_is_low_confidence_or_not_helpful_once_per_answer() {
    let (r, _) = report(10);
    assert_eq!(
        counted(&r.top_unanswered),
        vec![("How do I tune the ZMP preview controller gains?", 1), ("Which safety standard covers cobots?", 1)]
    );
}

#[test]
fn sections_are_ranked_by_citations_then_clicks() {
    let (r, _) = report(10);
    let sections: Vec<(&str, usize, usize)> =
        r.top_cited.iter().map(|s| (s.url.as_str(), s.cited, s.clicked)).collect();
    assert_eq!(
        sections,
        vec![
            ("/docs/ros2-fundamentals/qos", 3, 0),
            ("/docs/ros2-fundamentals/nodes-topics#discovery", 1, 1),
            ("/docs/control-and-locomotion/zmp-walking#preview-control", 1, 0),
        ]
    );
    assert_eq!(r.top_cited[0].title, "Quality of Service");
}

#[test]
fn the_text_report_names_each_part() {
    let (r, _) = report(10);
    let text = r.to_string();
    assert!(
        text.starts_with("24 events: 2 questions, 5 answers (high 1, medium 3, low 1), 4 refused, 3 faults;"),
        "{text}"
    );
    assert!(text.contains("helpful rate: 50 % (2 helpful of 4 rated)"));
    assert!(
        text.contains("\nTop refused questions (the site has nothing on them)\n      2  What pizza should I order?\n")
    );
    assert!(text.contains("      3     0  /docs/ros2-fundamentals/qos  Quality of Service\n"));
    assert!(text.contains("      2  LLM_TIMEOUT\n"));
}
