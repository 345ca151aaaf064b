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
    /// The selection's section, when the question came with a passage of one.
    pub selection_of: Option<String>,
    pub selected: bool,
    /// 1-based rank of the first expected URL among the distinct URLs retrieved.
    pub rank: Option<usize>,
    /// The search refused (confidence `none`); never counted in selected mode, which
    /// always answers from the selection.
    pub refused: bool,
    pub confidence: String,
    /// The first distinct URLs retrieved, best first.
    pub top: Vec<String>,
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
            selection_of,
            selected,
            rank,
            refused: refused && !selected,
            confidence,
            top: distinct,
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
}

/// The figures for one set of outcomes (one split, one mode).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub questions: usize,
    /// Answerable questions asked without a selection.
    pub answerable: usize,
    pub hit_at_1: f64,
    pub hit_at_3: f64,
    pub hit_at_5: f64,
    /// Hit at the `--k` asked for.
    pub hit_at_k: f64,
    pub mrr: f64,
    pub ndcg_at_10: f64,
    /// Answerable questions refused (confidence `none`).
    pub false_refusals: usize,
    pub selection: usize,
    /// Selection questions whose answer is in the first k or is the selection.
    pub selection_hits: usize,
    /// Selection questions whose answer is in another section than the selection.
    pub selection_elsewhere: usize,
    pub selection_elsewhere_hits: usize,
    pub near_miss: usize,
    pub near_miss_refused: usize,
    pub off_topic: usize,
    pub off_topic_refused: usize,
}

impl Summary {
    pub fn of<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>, k: usize) -> Self {
        let mut s = Summary::default();
        let (mut h1, mut h3, mut h5, mut hk, mut rr, mut dcg) = (0, 0, 0, 0, 0.0, 0.0);
        for o in outcomes {
            s.questions += 1;
            if o.unanswerable {
                if o.off_topic {
                    s.off_topic += 1;
                    s.off_topic_refused += o.refused as usize;
                } else {
                    s.near_miss += 1;
                    s.near_miss_refused += o.refused as usize;
                }
            } else if o.selected {
                s.selection += 1;
                s.selection_hits += o.selection_hit(k) as usize;
                if !o.answer_is_selection() {
                    s.selection_elsewhere += 1;
                    s.selection_elsewhere_hits += o.hit(k) as usize;
                }
            } else {
                s.answerable += 1;
                h1 += o.hit(1) as usize;
                h3 += o.hit(3) as usize;
                h5 += o.hit(5) as usize;
                hk += o.hit(k) as usize;
                s.false_refusals += o.refused as usize;
                if let Some(r) = o.rank {
                    rr += 1.0 / r as f64;
                    if r <= 10 {
                        dcg += 1.0 / (1.0 + r as f64).log2();
                    }
                }
            }
        }
        let n = s.answerable.max(1) as f64;
        s.hit_at_1 = h1 as f64 / n;
        s.hit_at_3 = h3 as f64 / n;
        s.hit_at_5 = h5 as f64 / n;
        s.hit_at_k = hk as f64 / n;
        s.mrr = rr / n;
        s.ndcg_at_10 = dcg / n;
        s
    }
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
        assert_eq!((s.hit_at_1, s.hit_at_3, s.hit_at_5), (0.5, 0.5, 1.0));
        assert!((s.mrr - (1.0 + 0.25) / 2.0).abs() < 1e-9);
        assert!((s.ndcg_at_10 - (1.0 + 1.0 / 5f64.log2()) / 2.0).abs() < 1e-9);
        assert_eq!((s.near_miss, s.near_miss_refused, s.off_topic, s.off_topic_refused), (1, 1, 1, 0));
        assert_eq!((s.selection, s.selection_hits), (3, 2), "the selection itself is the answer once");
        assert_eq!((s.selection_elsewhere, s.selection_elsewhere_hits), (2, 1));
        assert!(!outcomes[4].refused, "selected mode never refuses");
    }
}
