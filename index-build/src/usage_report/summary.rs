//! Summing up usage events. Questions are counted by their text with case and spacing
//! ignored (shown as first written); an event without a text (the site does not record
//! them) still counts, under "(text not recorded)". An answer's last rating counts (a
//! withdrawn one not at all).

use lectern::search::Confidence;
use lectern::usage::{Rating, UsageEvent};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// What stands for a question whose text was not recorded.
pub const TEXT_NOT_RECORDED: &str = "(text not recorded)";

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct UsageReport {
    pub events: usize,
    pub questions: usize,
    pub answers: usize,
    /// Answers by confidence: high, medium, low.
    pub answers_high: usize,
    pub answers_medium: usize,
    pub answers_low: usize,
    pub refusals: usize,
    /// Answers rated helpful / not helpful (each answer's last rating).
    pub helpful: usize,
    pub not_helpful: usize,
    /// `helpful / (helpful + not_helpful)`; `None` when nothing was rated.
    pub helpful_rate: Option<f64>,
    /// The questions refused most often.
    pub top_refused: Vec<CountedQuestion>,
    /// The questions answered only at low confidence or rated not helpful most often.
    pub top_unanswered: Vec<CountedQuestion>,
    /// The sections answers cited most, with how often readers followed them.
    pub top_cited: Vec<CitedSection>,
    /// The reasons given with "not helpful", most frequent first.
    pub not_helpful_reasons: Vec<CountedQuestion>,
    /// Faults by code, most frequent first.
    pub errors: Vec<(String, usize)>,
    pub searches: usize,
    pub search_clicks: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CountedQuestion {
    pub text: String,
    pub count: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CitedSection {
    pub url: String,
    pub title: String,
    pub cited: usize,
    pub clicked: usize,
}

/// Counts texts by their folded form, keeping the first spelling seen.
#[derive(Default)]
struct Tally {
    counts: HashMap<String, (String, usize, usize)>, // folded -> (shown, count, first seen)
}

impl Tally {
    fn add(&mut self, text: Option<&str>) {
        let shown = text.map(|t| t.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|t| !t.is_empty());
        let shown = shown.unwrap_or_else(|| TEXT_NOT_RECORDED.to_string());
        let order = self.counts.len();
        self.counts.entry(shown.to_lowercase()).or_insert((shown, 0, order)).1 += 1;
    }

    /// The `top` most frequent, ties in the order first seen.
    fn top(self, top: usize) -> Vec<CountedQuestion> {
        let mut all: Vec<(String, usize, usize)> = self.counts.into_values().collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
        all.into_iter().take(top).map(|(text, count, _)| CountedQuestion { text, count }).collect()
    }
}

/// An answer's rating as last given, with what the report shows of it.
struct LastRating<'a> {
    message_id: Option<&'a str>,
    rating: Option<Rating>,
    reason: Option<&'a str>,
    question: Option<&'a str>,
}

/// Sums up `events`, keeping the `top` entries of each list.
pub fn summarize(events: &[UsageEvent], top: usize) -> UsageReport {
    let mut report = UsageReport {
        events: events.len(),
        questions: 0,
        answers: 0,
        answers_high: 0,
        answers_medium: 0,
        answers_low: 0,
        refusals: 0,
        helpful: 0,
        not_helpful: 0,
        helpful_rate: None,
        top_refused: Vec::new(),
        top_unanswered: Vec::new(),
        top_cited: Vec::new(),
        not_helpful_reasons: Vec::new(),
        errors: Vec::new(),
        searches: 0,
        search_clicks: 0,
    };
    let mut refused = Tally::default();
    // An answer is unanswered once, whether it was weak, rated not helpful, or both: by
    // message id (events without one count each).
    let mut unanswered: Vec<(Option<&str>, Option<&str>)> = Vec::new();
    let mut questions_of: HashMap<&str, &str> = HashMap::new();
    // The last rating of each answer (events without a message id: each on its own).
    let mut ratings: Vec<LastRating> = Vec::new();
    let mut cited: BTreeMap<&str, CitedSection> = BTreeMap::new();
    let mut errors: BTreeMap<&str, usize> = BTreeMap::new();

    for event in events {
        match event {
            UsageEvent::Question(_) => report.questions += 1,
            UsageEvent::Answer(answer) => {
                report.answers += 1;
                match answer.confidence {
                    Confidence::High => report.answers_high += 1,
                    Confidence::Medium => report.answers_medium += 1,
                    _ => report.answers_low += 1,
                }
                if let (Some(id), Some(question)) = (answer.message_id.as_deref(), answer.question.as_deref()) {
                    questions_of.insert(id, question);
                }
                if matches!(answer.confidence, Confidence::Low | Confidence::None) {
                    unanswered.push((answer.message_id.as_deref(), answer.question.as_deref()));
                }
                for source in &answer.sources {
                    let entry = cited.entry(source.url.as_str()).or_insert_with(|| CitedSection {
                        url: source.url.clone(),
                        title: source.title.clone(),
                        cited: 0,
                        clicked: 0,
                    });
                    entry.cited += 1;
                    if !source.title.is_empty() {
                        entry.title = source.title.clone();
                    }
                }
            }
            UsageEvent::Refusal(refusal) => {
                report.refusals += 1;
                refused.add(refusal.question.as_deref());
            }
            UsageEvent::Error(error) => *errors.entry(error.code.as_str()).or_default() += 1,
            UsageEvent::Feedback(feedback) => {
                let id = feedback.message_id.as_deref();
                let rating = LastRating {
                    message_id: id,
                    rating: feedback.rating,
                    reason: feedback.reason.as_deref(),
                    question: feedback.question.as_deref(),
                };
                match ratings.iter_mut().find(|r| id.is_some() && r.message_id == id) {
                    Some(earlier) => *earlier = rating,
                    None => ratings.push(rating),
                }
            }
            UsageEvent::CitationClick(click) => {
                let entry = cited.entry(click.url.as_str()).or_insert_with(|| CitedSection {
                    url: click.url.clone(),
                    title: String::new(),
                    cited: 0,
                    clicked: 0,
                });
                entry.clicked += 1;
            }
            UsageEvent::Search(_) => report.searches += 1,
            UsageEvent::SearchClick(_) => report.search_clicks += 1,
        }
    }

    let mut reasons = Tally::default();
    for LastRating { message_id: id, rating, reason, question } in &ratings {
        match rating {
            Some(Rating::Helpful) => report.helpful += 1,
            Some(Rating::NotHelpful) => {
                report.not_helpful += 1;
                if let Some(reason) = reason {
                    reasons.add(Some(reason));
                }
                if id.is_none() || !unanswered.iter().any(|(other, _)| other == id) {
                    unanswered.push((*id, *question));
                }
            }
            None => {}
        }
    }
    let rated = report.helpful + report.not_helpful;
    report.helpful_rate = (rated > 0).then(|| report.helpful as f64 / rated as f64);

    let mut weak = Tally::default();
    for (id, question) in unanswered {
        weak.add(question.or_else(|| id.and_then(|id| questions_of.get(id).copied())));
    }
    report.top_refused = refused.top(top);
    report.top_unanswered = weak.top(top);
    report.not_helpful_reasons = reasons.top(top);
    let mut sections: Vec<CitedSection> = cited.into_values().filter(|s| s.cited > 0 || s.clicked > 0).collect();
    sections.sort_by(|a, b| b.cited.cmp(&a.cited).then(b.clicked.cmp(&a.clicked)).then(a.url.cmp(&b.url)));
    sections.truncate(top);
    report.top_cited = sections;
    let mut errors: Vec<(String, usize)> = errors.into_iter().map(|(code, n)| (code.to_string(), n)).collect();
    errors.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    report.errors = errors;
    report
}
