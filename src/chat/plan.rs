//! The ask flow's decisions (SPEC.md §3), after validation and retrieval: refuse at
//! confidence `none` without calling the LLM, otherwise number the sources and build the
//! prompt (or the excerpts when there is no LLM); then finish the answer that came back.

use super::config::ChatConfig;
use super::conversation::Message;
use super::extractive::extractive_answer;
use super::persona::Persona;
use super::prompt::{build_prompt, request_body, ChatTurn};
use super::sources::{number_sources, RetrievedChunk, SiteOrigins, SourceReference};
use crate::query::Mode;
use crate::search::Confidence;
use serde::Deserialize;

pub const REFUSAL_MESSAGE: &str = "I couldn't find information about this topic in the textbook.";
pub const REFUSAL_SUGGESTION: &str = "Try rephrasing your question or asking about a different topic.";
pub const EMPTY_ANSWER_MESSAGE: &str = "I couldn't generate a response. Please try again.";
/// Request bodies stay under this: the reference proxy's default cap is 32 KiB, and without
/// history the largest prompt (a 5000-character selection, five 2000-character sections)
/// is about 17 KB.
pub const MAX_REQUEST_BYTES: usize = 30_000;
pub const SLOW_MESSAGE: &str = "Response is taking longer than expected…";

/// A validated question.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    pub question: String,
    pub mode: Mode,
    pub selection: Option<String>,
    pub persona: Persona,
}

/// What retrieval returned (the retrieval API's SearchResponse; other fields ignored).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Retrieval {
    /// None only when nothing was retrieved on purpose (selection-only).
    pub confidence: Option<Confidence>,
    #[serde(default)]
    pub chunks: Vec<RetrievedChunk>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// Confidence `none` in global mode: answer with [`REFUSAL_MESSAGE`], call nothing.
    Refuse { confidence: Confidence, chunks_retrieved: usize },
    /// Ask the LLM; `excerpts` is the answer if it cannot be reached.
    Generate { turns: Vec<ChatTurn>, sources: Vec<SourceReference>, confidence: Confidence, excerpts: String },
    /// No LLM configured: the excerpts are the answer.
    Extract { answer: String, sources: Vec<SourceReference>, confidence: Confidence },
}

/// Decides how to answer `ask` from `retrieval`, with `history` the conversation before it.
pub fn plan(ask: &Ask, retrieval: &Retrieval, history: &[&Message], config: &ChatConfig, site: &SiteOrigins) -> Plan {
    let retrieved_confidence = retrieval.confidence.unwrap_or(Confidence::None);
    let selection = ask.selection.as_deref().filter(|_| ask.mode == Mode::Selected);
    // In selected mode the reader's own selection is the context, so the answer never rests
    // on retrieval alone; related sections are cited only when retrieval found some.
    let (confidence, usable) = match selection {
        Some(_) => (Confidence::High, retrieved_confidence != Confidence::None && !config.selection_only),
        None => (retrieved_confidence, retrieved_confidence != Confidence::None),
    };
    let numbered = if usable { number_sources(&retrieval.chunks, site) } else { Vec::new() };
    if selection.is_none() && numbered.is_empty() {
        return Plan::Refuse { confidence: Confidence::None, chunks_retrieved: retrieval.chunks.len() };
    }
    let sources: Vec<SourceReference> = numbered.iter().map(|s| s.reference.clone()).collect();
    let excerpts = extractive_answer(&ask.question, selection, &numbered);
    if config.endpoint.is_none() {
        return Plan::Extract { answer: excerpts, sources, confidence };
    }
    // The oldest history goes first when the request would outgrow what proxies accept.
    let mut history = history;
    let turns = loop {
        let turns = build_prompt(ask.persona, &ask.question, selection, &numbered, history);
        if history.is_empty() || request_body(config, &turns).len() <= MAX_REQUEST_BYTES {
            break turns;
        }
        history = &history[1..];
    };
    Plan::Generate { turns, sources, confidence, excerpts }
}

/// The stored answer for the LLM's `text`: SPEC.md's fallback when empty; the sources it
/// cites when it cites any (keeping their numbers), else all of them.
pub fn finish_answer(text: &str, sources: &[SourceReference]) -> (String, Vec<SourceReference>) {
    if text.trim().is_empty() {
        return (EMPTY_ANSWER_MESSAGE.to_string(), Vec::new());
    }
    let cited: Vec<SourceReference> =
        sources.iter().filter(|s| text.contains(&format!("[{}]", s.n))).cloned().collect();
    let sources = if cited.is_empty() { sources.to_vec() } else { cited };
    (text.trim_end().to_string(), sources)
}

#[cfg(test)]
mod tests {
    use super::super::conversation::Role;
    use super::super::sources::tests::chunk;
    use super::*;

    fn ask(mode: Mode, selection: Option<&str>) -> Ask {
        Ask {
            question: "How do nodes discover each other?".into(),
            mode,
            selection: selection.map(Into::into),
            persona: Persona::General,
        }
    }

    fn retrieval(confidence: Option<Confidence>) -> Retrieval {
        Retrieval { confidence, chunks: vec![chunk("a", "/a", "Nodes discover each other through DDS.", 0.7)] }
    }

    fn with_endpoint() -> ChatConfig {
        ChatConfig { endpoint: Some("http://127.0.0.1:1/v1/chat/completions".into()), ..ChatConfig::default() }
    }

    #[test]
    fn confidence_none_refuses_without_a_prompt() {
        let site = SiteOrigins::default();
        let p = plan(&ask(Mode::Global, None), &retrieval(Some(Confidence::None)), &[], &with_endpoint(), &site);
        assert_eq!(p, Plan::Refuse { confidence: Confidence::None, chunks_retrieved: 1 });
        // Sources from another site only: nothing citable, so refused too.
        let foreign = Retrieval {
            confidence: Some(Confidence::High),
            chunks: vec![chunk("x", "https://evil.example/", "t", 0.9)],
        };
        assert!(matches!(plan(&ask(Mode::Global, None), &foreign, &[], &with_endpoint(), &site), Plan::Refuse { .. }));
    }

    #[test]
    fn generate_with_sources_and_excerpts_or_extract_without_endpoint() {
        let site = SiteOrigins::default();
        let r = retrieval(Some(Confidence::Medium));
        let Plan::Generate { turns, sources, confidence, excerpts } =
            plan(&ask(Mode::Global, None), &r, &[], &with_endpoint(), &site)
        else {
            panic!("expected Generate");
        };
        assert_eq!((sources.len(), confidence), (1, Confidence::Medium));
        assert!(turns[1].content.contains("[1] Chapter › Section a"));
        assert!(excerpts.contains("[1]"));
        let extract = plan(&ask(Mode::Global, None), &r, &[], &ChatConfig::default(), &site);
        assert!(matches!(extract, Plan::Extract { ref answer, .. } if answer.contains("through DDS. [1]")));
    }

    #[test]
    fn selected_mode_answers_from_the_selection_even_without_related_sections() {
        let site = SiteOrigins::default();
        let selection = "The integral term removes steady-state error over time.";
        let p = plan(
            &ask(Mode::Selected, Some(selection)),
            &retrieval(Some(Confidence::None)),
            &[],
            &with_endpoint(),
            &site,
        );
        let Plan::Generate { turns, sources, confidence, .. } = p else { panic!("expected Generate") };
        assert_eq!((sources.len(), confidence), (0, Confidence::High));
        assert!(turns[1].content.contains(selection) && !turns[1].content.contains("<context>"));
        let only = ChatConfig { selection_only: true, ..with_endpoint() };
        let p = plan(&ask(Mode::Selected, Some(selection)), &retrieval(Some(Confidence::High)), &[], &only, &site);
        assert!(matches!(p, Plan::Generate { ref sources, .. } if sources.is_empty()));
    }

    #[test]
    fn old_history_is_dropped_to_keep_the_request_small() {
        let site = SiteOrigins::default();
        let long = "word ".repeat(799);
        let earlier: Vec<Message> = (0..10)
            .map(|i| {
                Message::new(format!("{i}"), if i % 2 == 0 { Role::User } else { Role::Assistant }, &long, "t".into())
            })
            .collect();
        let history: Vec<&Message> = earlier.iter().collect();
        let r = retrieval(Some(Confidence::High));
        let Plan::Generate { turns, .. } = plan(&ask(Mode::Global, None), &r, &history, &with_endpoint(), &site) else {
            panic!("expected Generate");
        };
        assert!(request_body(&with_endpoint(), &turns).len() <= MAX_REQUEST_BYTES);
        // system + the newest history that fits + the question; the newest message is kept.
        assert!(turns.len() > 2 && turns.len() < 12, "{}", turns.len());
        assert_eq!(turns[turns.len() - 2].role, "assistant");
    }

    #[test]
    fn finishing_keeps_cited_sources_and_replaces_an_empty_answer() {
        let site = SiteOrigins::default();
        let chunks = [chunk("a", "/a", "x", 0.9), chunk("b", "/b", "y", 0.8), chunk("c", "/c", "z", 0.7)];
        let sources: Vec<SourceReference> = number_sources(&chunks, &site).into_iter().map(|s| s.reference).collect();
        let (text, cited) = finish_answer("It uses DDS [3] and QoS [1].  ", &sources);
        assert_eq!(text, "It uses DDS [3] and QoS [1].");
        assert_eq!(cited.iter().map(|s| s.n).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(finish_answer("No citations.", &sources).1.len(), 3);
        assert_eq!(finish_answer(" \n", &sources), (EMPTY_ANSWER_MESSAGE.to_string(), Vec::new()));
    }
}
