//! Follow-up questions retrieved in context. "How far can it see?" after "What does a lidar
//! sensor measure?" names nothing the site can match; alone it retrieves depth cameras, or
//! is refused for sharing too little with the site. Without a second LLM call to rewrite it,
//! the question is searched twice — alone, and after the conversation's earlier questions
//! (`follow_up_query`) — and the two rankings are fused, so a follow-up that names its
//! subject keeps its own results and one that does not borrows the conversation's:
//! - a follow-up that the site answers well alone (`medium` or `high`: it names its subject,
//!   "And which versions of Node?") gives the search in context less weight;
//! - the page the search in context ranks first is where the conversation is, and the next
//!   question is usually about another section of it: its sections get a small extra vote.
//!
//! Confidence is the question's own, except that a short follow-up is never refused for
//! being short.
//!
//! Measured on the dev follow-ups of four sites (BENCHMARKS.md, issue 25); a third vote for
//! the sections the earlier answers cited lost on every setting tried (the next question is
//! usually about something else in the same topic, not about the section already read), and
//! so did searching the earlier questions' content words only (stop words dropped).

use super::confidence::Confidence;
use super::fusion::{reciprocal_rank_fusion, RankedList};
use super::hybrid::{Hit, HybridSearch, SearchOptions, SearchResults};
use super::SearchError;

/// How a follow-up is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FollowUpOptions {
    /// Earlier questions put in front of the follow-up (the most recent ones; 0: the
    /// question is searched alone).
    pub turns: usize,
    /// Weight of the search in context against the question's own (1).
    pub context_weight: f32,
    /// That weight when the question alone is answered at `medium` or `high` (it names
    /// what it asks about).
    pub self_contained_weight: f32,
    /// The extra vote of a section on the page the search in context ranks first, as a
    /// share of a first place's vote (0: none).
    pub page_weight: f32,
}

impl Default for FollowUpOptions {
    /// Chosen on the dev follow-ups (context weight 0.5–3 tried, 1.5 ranked the answer first
    /// most often in hybrid search; the self-contained weight 0–1 and the page vote 0.2–1
    /// tried with it: BENCHMARKS.md).
    fn default() -> Self {
        FollowUpOptions { turns: 2, context_weight: 1.5, self_contained_weight: 0.5, page_weight: 0.3 }
    }
}

impl FollowUpOptions {
    /// Finite, non-negative weights; a message names the offending one.
    pub fn validate(&self) -> Result<(), String> {
        let weights = [
            ("context", self.context_weight),
            ("self-contained", self.self_contained_weight),
            ("page", self.page_weight),
        ];
        match weights.iter().find(|(_, w)| !(w.is_finite() && *w >= 0.0)) {
            Some((name, w)) => Err(format!("the follow-up {name} weight must be a number ≥ 0, not {w}")),
            None => Ok(()),
        }
    }
}

/// The text a follow-up is searched with in context: the last `turns` earlier questions,
/// oldest first, then the question, one per line.
pub fn follow_up_query<S: AsRef<str>>(question: &str, earlier: &[S], turns: usize) -> String {
    let from = earlier.len().saturating_sub(turns);
    let mut text: String = earlier[from..].iter().map(|t| format!("{}\n", t.as_ref().trim())).collect();
    text.push_str(question);
    text
}

/// The text `question` is also searched with, after the `earlier` questions (oldest first),
/// or `None` when it is searched alone (no earlier question, or `turns` 0): what a search in
/// context needs a second vector and its own term shards for.
pub fn in_context_query<S: AsRef<str>>(question: &str, earlier: &[S], follow_up: &FollowUpOptions) -> Option<String> {
    (!earlier.is_empty() && follow_up.turns > 0).then(|| follow_up_query(question, earlier, follow_up.turns))
}

impl HybridSearch {
    /// Searches for `question` asked after the `earlier` questions of the conversation
    /// (oldest first). `vector` embeds the question, `context_vector` embeds
    /// [`follow_up_query`] (both `None` for keyword search). Without earlier questions (or
    /// with `turns` 0) it is [`HybridSearch::search`].
    pub fn search_follow_up<S: AsRef<str>>(
        &self,
        question: &str,
        vector: Option<&[f32]>,
        context_vector: Option<&[f32]>,
        earlier: &[S],
        options: &SearchOptions,
        follow_up: &FollowUpOptions,
    ) -> Result<SearchResults, SearchError> {
        let Some(context_query) = in_context_query(question, earlier, follow_up) else {
            return self.search(question, vector, options);
        };
        let wide = SearchOptions { k: options.candidates.max(options.k), ..options.clone() };
        let alone = self.search(question, vector, &wide)?;
        let in_context = self.search(&context_query, context_vector, &wide)?;
        let pairs = |hits: &[Hit]| hits.iter().map(|h| (h.index, h.fused)).collect::<Vec<_>>();
        let (alone_list, context_list) = (pairs(&alone.hits), pairs(&in_context.hits));
        let self_contained = matches!(alone.confidence, Confidence::High | Confidence::Medium);
        let context_weight = if self_contained { follow_up.self_contained_weight } else { follow_up.context_weight };
        let mut fused = reciprocal_rank_fusion(
            &[
                RankedList { hits: &alone_list, weight: 1.0 },
                RankedList { hits: &context_list, weight: context_weight },
            ],
            options.rrf_k,
        );
        // The conversation's page: a vote for its sections among the candidates.
        let page = in_context.hits.first().and_then(|h| self.page_of(h.index));
        if page.is_some() && follow_up.page_weight > 0.0 {
            let vote = follow_up.page_weight / (options.rrf_k + 1.0);
            for (index, score) in fused.iter_mut() {
                if self.page_of(*index) == page {
                    *score += vote;
                }
            }
            crate::sort::sort_by(&mut fused, |a, b| b.1.total_cmp(&a.1));
        }
        let mut hits = Vec::with_capacity(options.k);
        for (index, score) in fused {
            // A hit keeps the scores of the search that found it (the question's own first).
            let Some(hit) = alone.hits.iter().chain(&in_context.hits).find(|h| h.index == index) else { continue };
            hits.push(Hit { fused: score, ..hit.clone() });
            if hits.len() == options.k {
                break;
            }
        }
        // The question's own verdict, calibrated as every question's is (the search in
        // context inherits the earlier question's, which says little about this one), except
        // that a follow-up is never refused for being short: one that alone shares too little
        // with the site, and in context does not, is answered, labelled low.
        let (confidence, signals) = if alone.confidence == Confidence::None && in_context.confidence != Confidence::None
        {
            (Confidence::Low, in_context.signals)
        } else {
            (alone.confidence, alone.signals)
        };
        Ok(SearchResults { confidence, signals, mode_used: alone.mode_used, hits })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::ChunkMeta;
    use crate::lexical::{Document, IndexOptions, LexicalIndex};

    fn search(texts: &[&str]) -> HybridSearch {
        let urls: Vec<String> = (0..texts.len()).map(|i| format!("/docs/{i}")).collect();
        search_on(texts, &urls.iter().map(String::as_str).collect::<Vec<_>>())
    }

    /// Chunk `i` has `texts[i]` at `urls[i]` (sections of one page share its path).
    fn search_on(texts: &[&str], urls: &[&str]) -> HybridSearch {
        let chunks: Vec<ChunkMeta> = (0..texts.len())
            .map(|i| ChunkMeta {
                chunk_id: format!("c{i}"),
                url: urls[i].to_string(),
                heading_path: vec![format!("Page {i}")],
                chapter_title: String::new(),
                section_title: String::new(),
                module: "Docs".into(),
                chapter_id: format!("{i}"),
                instance: "default".into(),
                version: None,
                word_count: 0,
                position: i,
                hash: format!("h{i}"),
                parts: Vec::new(),
                name: None,
            })
            .collect();
        let docs: Vec<Document> = texts.iter().map(|t| Document::text(t)).collect();
        HybridSearch::new(chunks, LexicalIndex::build(&docs, IndexOptions::default()).unwrap()).unwrap()
    }

    #[test]
    fn the_earlier_question_says_what_it_refers_to() {
        let s = search(&[
            "A lidar sensor measures distance with laser pulses; its range reaches 100 m outdoors.",
            "A depth camera sees up to 10 m; its range shrinks in sunlight.",
            "Servo motors hold a joint angle.",
        ]);
        let earlier = ["What does a lidar sensor measure?"];
        let options = SearchOptions { k: 2, ..SearchOptions::default() };
        let follow = FollowUpOptions::default();
        let hits = s.search_follow_up("How far is its range?", None, None, &earlier, &options, &follow).unwrap().hits;
        assert_eq!(hits[0].index, 0, "lidar, not the depth camera");
        let none: [&str; 0] = [];
        let alone = s.search_follow_up("How far is its range?", None, None, &none, &options, &follow).unwrap();
        assert_eq!(
            alone,
            s.search("How far is its range?", None, &options).unwrap(),
            "no earlier turn: a plain search"
        );
    }

    #[test]
    fn the_context_is_the_last_turns_oldest_first() {
        let earlier = ["first?", " second? ", "third?"];
        assert_eq!(follow_up_query("q", &earlier, 2), "second?\nthird?\nq");
        assert_eq!(follow_up_query("q", &earlier, 0), "q");
        assert_eq!(follow_up_query("q", &earlier[..1], 5), "first?\nq");
        let follow = FollowUpOptions::default();
        assert_eq!(in_context_query("q", &earlier, &follow).as_deref(), Some("second?\nthird?\nq"));
        let none: [&str; 0] = [];
        assert_eq!(in_context_query("q", &none, &follow), None, "no earlier question: alone");
        assert_eq!(in_context_query("q", &earlier, &FollowUpOptions { turns: 0, ..follow }), None);
    }

    #[test]
    fn a_short_follow_up_is_not_refused_when_its_conversation_is_answerable() {
        let s = search(&[
            "Snapshot testing compares rendered output with a stored snapshot file.",
            "Snapshot files should be committed to version control with the tests.",
            "Timers can be faked.",
        ]);
        let earlier = ["What is snapshot testing?"];
        let options = SearchOptions::default();
        let alone = s.search("And in git?", None, &options).unwrap().confidence;
        let follow = s
            .search_follow_up("And in git?", None, None, &earlier, &options, &FollowUpOptions::default())
            .unwrap()
            .confidence;
        assert_eq!(alone, Confidence::None, "alone, the question shares nothing with the site");
        assert_eq!(follow, Confidence::Low);
    }

    #[test]
    fn a_follow_up_that_names_its_subject_keeps_its_own_ranking() {
        let s = search(&[
            "Supported TypeScript versions: typescript-eslint supports TypeScript 5.0 up to 5.6.",
            "Node: Node 18.18 and newer, as the engines field says.",
            "TypeScript compiler versions and the parser: newer TypeScript versions may warn.",
        ]);
        let earlier = [
            "Which TypeScript versions does typescript-eslint support?",
            "Does typescript-eslint support TypeScript 5.6?",
        ];
        let question = "And which Node versions?";
        let options = SearchOptions { k: 3, ..SearchOptions::default() };
        let alone = s.search(question, None, &options).unwrap();
        assert!(matches!(alone.confidence, Confidence::High | Confidence::Medium), "{:?}", alone.confidence);
        let own = |hits: &[Hit]| hits.iter().map(|h| h.index).collect::<Vec<_>>();
        let no_page = FollowUpOptions { page_weight: 0.0, ..FollowUpOptions::default() };
        let leaning = FollowUpOptions { context_weight: 0.0, self_contained_weight: 10.0, ..no_page };
        let pulled = s.search_follow_up(question, None, None, &earlier, &options, &leaning).unwrap();
        assert_ne!(own(&pulled.hits), own(&alone.hits), "a heavy context reorders it");
        let kept = FollowUpOptions { context_weight: 10.0, self_contained_weight: 0.0, ..no_page };
        let got = s.search_follow_up(question, None, None, &earlier, &options, &kept).unwrap();
        assert_eq!(own(&got.hits), own(&alone.hits), "no context weight: its own ranking");
    }

    #[test]
    fn the_conversations_page_gets_a_vote() {
        let s = search_on(
            &[
                "A lidar sensor measures distance with laser pulses.",
                "Mounting: put the sensor high, away from reflections; range depends on the mount.",
                "A depth camera's range is 10 m; its range shrinks in sunlight. Range, range.",
            ],
            &["/docs/lidar#what", "/docs/lidar#mounting", "/docs/camera#range"],
        );
        let earlier = ["What does a lidar sensor measure?"];
        let options = SearchOptions { k: 3, ..SearchOptions::default() };
        let first = |page_weight: f32| {
            let follow = FollowUpOptions { page_weight, ..FollowUpOptions::default() };
            let hits =
                s.search_follow_up("What range does it have?", None, None, &earlier, &options, &follow).unwrap().hits;
            hits.iter().take(2).map(|h| h.index).collect::<Vec<_>>()
        };
        assert!(first(0.0).contains(&2), "without the vote the depth camera is among the first two");
        let mut with_vote = first(5.0);
        with_vote.sort();
        assert_eq!(with_vote, [0, 1], "with it, the lidar page's two sections come first");
    }

    #[test]
    fn follow_up_weights_are_checked() {
        assert!(FollowUpOptions::default().validate().is_ok());
        let bad = FollowUpOptions { page_weight: -1.0, ..FollowUpOptions::default() };
        assert!(bad.validate().unwrap_err().contains("page"));
        let nan = FollowUpOptions { self_contained_weight: f32::NAN, ..FollowUpOptions::default() };
        assert!(nan.validate().is_err());
    }
}
