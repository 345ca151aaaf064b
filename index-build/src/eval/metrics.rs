//! Retrieval metrics over labelled questions. Ranks count distinct sections (URLs), as the
//! reader sees sources; alternates in `expected` are equivalent, so a question has one
//! relevant answer and nDCG@10 is `1 / log2(1 + rank)` of the first expected URL.

use super::questions::{Question, Split};
use lectern::search::Signals;
use serde::Serialize;

/// What one question got in one mode.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    pub id: String,
    pub split: Split,
    pub kind: String,
    pub question: String,
    pub expected: Vec<String>,
    pub unanswerable: bool,
    pub off_topic: bool,
    /// Asked after earlier questions of a conversation (`previous`): reported apart.
    pub follow_up: bool,
    /// The selection's section, when the question came with a passage of one.
    pub selection_of: Option<String>,
    pub selected: bool,
    /// 1-based rank of the first expected URL among the distinct URLs retrieved.
    pub rank: Option<usize>,
    /// The search refused (confidence `none`); never counted in selected mode, which
    /// always answers from the selection.
    pub refused: bool,
    pub confidence: String,
    /// The confidence rule's score (its logit of "the site answers this"): what refusal cuts.
    pub confidence_score: f32,
    /// The first distinct URLs retrieved, best first.
    pub top: Vec<String>,
    /// The section URLs of the context the LLM would read (the packed passages), in its order.
    pub context: Vec<String>,
    /// The first five distinct sections: what the LLM read, whole, before issue 25.
    pub context_top5: Vec<String>,
    /// What the confidence was decided from (for calibration).
    pub signals: Signals,
}

impl Outcome {
    pub fn new(
        q: &Question,
        urls: Vec<String>,
        refused: bool,
        confidence: String,
        selection_of: Option<String>,
    ) -> Self {
        let mut distinct: Vec<String> = Vec::new();
        for url in urls {
            if !distinct.contains(&url) {
                distinct.push(url);
            }
        }
        let rank = distinct.iter().position(|u| q.expected.contains(u)).map(|i| i + 1);
        distinct.truncate(10);
        let selected = q.selection.is_some();
        Outcome {
            id: q.id.clone(),
            split: q.split,
            kind: q.kind.clone(),
            question: q.question.clone(),
            expected: q.expected.clone(),
            unanswerable: q.unanswerable,
            off_topic: q.is_off_topic(),
            follow_up: q.is_follow_up(),
            selection_of,
            selected,
            rank,
            refused: refused && !selected,
            confidence,
            confidence_score: 0.0,
            top: distinct,
            context: Vec::new(),
            context_top5: Vec::new(),
            signals: Signals::default(),
        }
    }

    /// Found in the first `k` sections.
    pub fn hit(&self, k: usize) -> bool {
        self.rank.is_some_and(|r| r <= k)
    }

    /// Selected mode's goal: the answer is in the first `k`, or is the selection itself.
    pub fn selection_hit(&self, k: usize) -> bool {
        self.hit(k) || self.answer_is_selection()
    }

    pub fn answer_is_selection(&self) -> bool {
        self.selection_of.as_ref().is_some_and(|s| self.expected.contains(s))
    }

    /// The answering section (or an alternate) is in the context the LLM reads.
    pub fn in_context(&self) -> bool {
        self.context.iter().any(|u| self.expected.contains(u))
    }

    /// The answering section is among the first five sections (the context before issue 25).
    pub fn in_top5(&self) -> bool {
        self.context_top5.iter().any(|u| self.expected.contains(u))
    }

    /// The first source shown is an answering section (never for an unanswerable question).
    pub fn right_first(&self) -> bool {
        !self.unanswerable && self.hit(1)
    }
}

/// Per confidence label: how many questions got it, and how many of those had an answering
/// section as their first source (unanswerable questions count as wrong).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Reliability {
    pub questions: usize,
    pub right_first: usize,
    /// `right_first / questions` (0 when none).
    pub share: f64,
}

/// The figures for one set of outcomes (one split, one mode).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub questions: usize,
    /// Answerable questions asked without a selection and outside a conversation.
    pub answerable: usize,
    pub hit_at_1: f64,
    pub hit_at_3: f64,
    pub hit_at_5: f64,
    pub hit_at_8: f64,
    pub hit_at_10: f64,
    /// Hit at the `--k` asked for.
    pub hit_at_k: f64,
    pub mrr: f64,
    pub ndcg_at_10: f64,
    /// Share of those whose answering section is in the context the LLM reads: the passages
    /// of the chat's `k` candidates packed to its default budget.
    pub context_recall: f64,
    /// The same share for the first five sections, whole (the context before issue 25).
    pub context_recall_top5: f64,
    /// Answerable questions refused (confidence `none`).
    pub false_refusals: usize,
    pub selection: usize,
    /// Selection questions whose answer is in the first k or is the selection.
    pub selection_hits: usize,
    /// Selection questions whose answer is in another section than the selection.
    pub selection_elsewhere: usize,
    pub selection_elsewhere_hits: usize,
    /// Follow-ups (answerable, asked after earlier questions), apart from the rest.
    pub follow_up: usize,
    pub follow_up_hit_at_1: f64,
    pub follow_up_hit_at_3: f64,
    pub follow_up_mrr: f64,
    pub follow_up_context_recall: f64,
    pub follow_up_refused: usize,
    pub near_miss: usize,
    pub near_miss_refused: usize,
    pub off_topic: usize,
    pub off_topic_refused: usize,
    /// Area under the ROC curve of the confidence score, answerable questions (follow-ups
    /// included, selections not) against near misses: 1 = the score always ranks an
    /// answerable question above a near miss, 0.5 = chance. `None` without both kinds.
    pub refusal_auc: Option<f64>,
    /// Per confidence label (`high`, `medium`, `low`), over every question asked without a
    /// selection and not refused: the share whose first source answers it.
    pub reliability: std::collections::BTreeMap<String, Reliability>,
    /// `reliability["high"].share`, for `--require` (1 when nothing is labelled high).
    pub high_right_first: f64,
}

/// Hits of the answerable questions in one group (plain or follow-up).
#[derive(Default)]
struct Tally {
    n: usize,
    hits: [usize; 6],
    rr: f64,
    dcg: f64,
    context: usize,
    top5: usize,
}

/// The cut-offs of `Tally::hits`: 1, 3, 5, 8, 10 and the `--k` asked for.
const HIT_DEPTHS: [usize; 5] = [1, 3, 5, 8, 10];

impl Tally {
    fn add(&mut self, o: &Outcome, k: usize) {
        self.n += 1;
        for (slot, depth) in self.hits.iter_mut().zip(HIT_DEPTHS.iter().copied().chain([k])) {
            *slot += o.hit(depth) as usize;
        }
        self.context += o.in_context() as usize;
        self.top5 += o.in_top5() as usize;
        if let Some(r) = o.rank {
            self.rr += 1.0 / r as f64;
            if r <= 10 {
                self.dcg += 1.0 / (1.0 + r as f64).log2();
            }
        }
    }

    fn share(&self, count: usize) -> f64 {
        count as f64 / self.n.max(1) as f64
    }
}

impl Summary {
    pub fn of<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>, k: usize) -> Self {
        let mut s = Summary::default();
        let (mut plain, mut follow) = (Tally::default(), Tally::default());
        let (mut answerable_scores, mut near_scores) = (Vec::new(), Vec::new());
        for o in outcomes {
            s.questions += 1;
            if !o.selected && !o.refused {
                let label = s.reliability.entry(o.confidence.clone()).or_default();
                label.questions += 1;
                label.right_first += o.right_first() as usize;
            }
            if o.unanswerable {
                if o.off_topic {
                    s.off_topic += 1;
                    s.off_topic_refused += o.refused as usize;
                } else {
                    s.near_miss += 1;
                    s.near_miss_refused += o.refused as usize;
                    near_scores.push(o.confidence_score);
                }
            } else if o.selected {
                s.selection += 1;
                s.selection_hits += o.selection_hit(k) as usize;
                if !o.answer_is_selection() {
                    s.selection_elsewhere += 1;
                    s.selection_elsewhere_hits += o.hit(k) as usize;
                }
            } else if o.follow_up {
                follow.add(o, k);
                s.follow_up_refused += o.refused as usize;
                answerable_scores.push(o.confidence_score);
            } else {
                plain.add(o, k);
                s.false_refusals += o.refused as usize;
                answerable_scores.push(o.confidence_score);
            }
        }
        s.answerable = plain.n;
        [s.hit_at_1, s.hit_at_3, s.hit_at_5, s.hit_at_8, s.hit_at_10, s.hit_at_k] = plain.hits.map(|h| plain.share(h));
        s.mrr = plain.rr / plain.n.max(1) as f64;
        s.ndcg_at_10 = plain.dcg / plain.n.max(1) as f64;
        s.context_recall = plain.share(plain.context);
        s.context_recall_top5 = plain.share(plain.top5);
        s.follow_up = follow.n;
        s.follow_up_hit_at_1 = follow.share(follow.hits[0]);
        s.follow_up_hit_at_3 = follow.share(follow.hits[1]);
        s.follow_up_mrr = follow.rr / follow.n.max(1) as f64;
        s.follow_up_context_recall = follow.share(follow.context);
        s.refusal_auc = auc(&answerable_scores, &near_scores);
        for label in s.reliability.values_mut() {
            label.share = label.right_first as f64 / label.questions.max(1) as f64;
        }
        s.high_right_first = s.reliability.get("high").map_or(1.0, |r| r.share);
        s
    }
}

/// The probability that a random `positive` scores above a random `negative` (ties half).
pub fn auc(positive: &[f32], negative: &[f32]) -> Option<f64> {
    if positive.is_empty() || negative.is_empty() {
        return None;
    }
    let mut wins = 0.0;
    for p in positive {
        for n in negative {
            wins += match p.total_cmp(n) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
        }
    }
    Some(wins / (positive.len() * negative.len()) as f64)
}

#[cfg(test)]
mod tests {
    use super::super::questions::parse;
    use super::*;

    fn outcome(line: &str, urls: &[&str], refused: bool, selection_of: Option<&str>) -> Outcome {
        let q = &parse(line).unwrap()[0];
        Outcome::new(
            q,
            urls.iter().map(|u| u.to_string()).collect(),
            refused,
            "low".into(),
            selection_of.map(Into::into),
        )
    }

    #[test]
    fn ranks_count_distinct_sections_and_any_alternate() {
        let line = r#"{"id":"a","split":"dev","question":"q","expected":["/c","/d"]}"#;
        let o = outcome(line, &["/a", "/a", "/b", "/d", "/c"], false, None);
        assert_eq!(o.rank, Some(3), "the repeated /a counts once, /d is an alternate");
        assert!(o.hit(3) && !o.hit(2));
        assert_eq!(outcome(line, &["/a"], false, None).rank, None);
    }

    #[test]
    fn summary_separates_answerable_selection_and_unanswerable() {
        let answerable = r#"{"id":"a","split":"dev","question":"q","expected":["/x"]}"#;
        let near = r#"{"id":"n","split":"dev","kind":"near-miss","question":"q","unanswerable":true}"#;
        let off = r#"{"id":"o","split":"dev","kind":"off-topic","question":"q","unanswerable":true}"#;
        let sel = r#"{"id":"s","split":"dev","question":"q","expected":["/x"],"selection":"some text here"}"#;
        let outcomes = [
            outcome(answerable, &["/x"], false, None),
            outcome(answerable, &["/a", "/b", "/c", "/x"], true, None),
            outcome(near, &["/a"], true, None),
            outcome(off, &["/a"], false, None),
            outcome(sel, &["/a"], true, Some("/x")),
            outcome(sel, &["/a", "/x"], false, Some("/y")),
            outcome(sel, &["/a", "/b", "/c", "/x"], false, Some("/y")),
        ];
        let s = Summary::of(&outcomes, 3);
        assert_eq!((s.questions, s.answerable, s.false_refusals), (7, 2, 1));
        assert_eq!((s.hit_at_1, s.hit_at_3, s.hit_at_5, s.hit_at_10), (0.5, 0.5, 1.0, 1.0));
        assert!((s.mrr - (1.0 + 0.25) / 2.0).abs() < 1e-9);
        assert!((s.ndcg_at_10 - (1.0 + 1.0 / 5f64.log2()) / 2.0).abs() < 1e-9);
        assert_eq!((s.near_miss, s.near_miss_refused, s.off_topic, s.off_topic_refused), (1, 1, 1, 0));
        assert_eq!((s.selection, s.selection_hits), (3, 2), "the selection itself is the answer once");
        assert_eq!((s.selection_elsewhere, s.selection_elsewhere_hits), (2, 1));
        assert!(!outcomes[4].refused, "selected mode never refuses");
    }

    #[test]
    fn follow_ups_context_and_reliability_are_counted_apart() {
        let plain = r#"{"id":"a","split":"dev","question":"q","expected":["/x"]}"#;
        let follow = r#"{"id":"f","split":"dev","question":"q","expected":["/x"],"previous":["p"]}"#;
        let near = r#"{"id":"n","split":"dev","kind":"near-miss","question":"q","unanswerable":true}"#;
        let labelled = |line: &str, urls: &[&str], label: &str, score: f32, context: &[&str]| {
            let mut o = outcome(line, urls, label == "none", None);
            o.confidence = label.into();
            o.confidence_score = score;
            o.context = context.iter().map(|u| u.to_string()).collect();
            o
        };
        let outcomes = [
            labelled(plain, &["/x"], "high", 3.0, &["/x"]),
            labelled(plain, &["/a", "/x"], "high", 2.0, &["/a"]),
            labelled(follow, &["/b", "/c", "/x"], "low", 0.5, &["/b", "/x"]),
            labelled(near, &["/a"], "medium", 1.0, &[]),
            labelled(near, &["/a"], "none", -1.0, &[]),
        ];
        let s = Summary::of(&outcomes, 3);
        assert_eq!((s.answerable, s.follow_up), (2, 1), "the follow-up is apart");
        assert_eq!((s.hit_at_1, s.context_recall), (0.5, 0.5));
        assert_eq!((s.follow_up_hit_at_1, s.follow_up_hit_at_3, s.follow_up_context_recall), (0.0, 1.0, 1.0));
        let high = &s.reliability["high"];
        assert_eq!((high.questions, high.right_first, s.high_right_first), (2, 1, 0.5));
        assert_eq!(s.reliability["medium"].right_first, 0, "a near miss answered is never right");
        assert!(!s.reliability.contains_key("none"), "refusals show no source");
        // Answerable scores 3, 2, 0.5 against near misses 1, -1: 5 of 6 pairs ordered right.
        assert!((s.refusal_auc.unwrap() - 5.0 / 6.0).abs() < 1e-9);
        assert_eq!(auc(&[1.0], &[]), None);
        assert_eq!(auc(&[1.0], &[1.0]), Some(0.5));
    }
}
