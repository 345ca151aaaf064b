//! The ask flow's decisions (docs/DESIGN.md §3): admit a question (its limits, its persona, the
//! rate limit); after retrieval, refuse at confidence `none` without calling the LLM,
//! otherwise number the sources and build the prompt (or the excerpts when there is no LLM);
//! then finish the answer that came back.

use super::config::ChatConfig;
use super::context::pack_context;
use super::conversation::Message;
use super::degraded::{links_answer, notes, AnswerNote};
use super::error::ChatError;
use super::extractive::extractive_answer;
use super::page::PageContext;
use super::passage::{passage, passage_link};
use super::persona::Persona;
use super::prompt::{build_prompt, request_body, ChatTurn};
use super::site_name::SiteName;
use super::sources::{number_sources, shown_sources, NumberedSource, RetrievedChunk, SiteOrigins, SourceReference};
use crate::advice::{Action, Advice};
use crate::query::{self, Mode, RateLimiter};
use crate::search::Confidence;
use serde::{Deserialize, Serialize};

/// The answer when the site has nothing on the question: "I couldn't find information about
/// this topic in the Jest docs."
pub fn refusal_message(site: &SiteName) -> String {
    format!("I couldn't find information about this topic {}.", site.location())
}
pub const REFUSAL_SUGGESTION: &str = "Try rephrasing your question or asking about a different topic.";
pub const EMPTY_ANSWER_MESSAGE: &str = "I couldn't generate a response. Please try again.";
/// Request bodies stay under this: the reference proxy's default cap is 32 KiB, and without
/// history the largest prompt (a 5000-character selection, the largest context budget) is
/// about 28 KB of English text.
pub const MAX_REQUEST_BYTES: usize = 30_000;
pub const SLOW_MESSAGE: &str = "Response is taking longer than expected…";

/// A validated question.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    pub question: String,
    pub mode: Mode,
    pub selection: Option<String>,
    pub persona: Persona,
    /// The page it is asked from (cleaned), if any.
    pub page: Option<PageContext>,
}

/// A question as the JS API passes it, before it is admitted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct AskRequest {
    pub question: String,
    /// Default "global"; "selected" needs `selection`.
    #[cfg_attr(feature = "typescript", ts(as = "Option<Mode>", optional))]
    pub mode: Mode,
    /// Read in selected mode only (10–5000 characters there).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub selection: Option<String>,
    /// A persona's id; absent: `general`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<super::persona::Persona>", optional))]
    pub persona: Option<String>,
    /// The page the reader asks from: its sections rank higher, and the LLM is told it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub page: Option<PageContext>,
}

impl AskRequest {
    /// The request in `json`; `null` is an empty one (refused as `EMPTY_QUESTION`), anything
    /// that is not a request is `INVALID_ARGUMENT`.
    pub fn from_json(json: &str) -> Result<AskRequest, ChatError> {
        let request: Option<AskRequest> =
            serde_json::from_str(json).map_err(|e| ChatError::invalid_argument(format!("not a question: {e}")))?;
        Ok(request.unwrap_or_default())
    }

    /// The question to ask, or why it is refused: the limits (docs/DESIGN.md §3.1) on the question and, in
    /// selected mode, the selection; a known persona; then one question per two seconds at
    /// `now_ms` (a question refused for another reason is not counted).
    pub fn admit(&self, limiter: &mut RateLimiter, now_ms: f64) -> Result<Ask, ChatError> {
        let question = query::question(&self.question).map_err(ChatError::refused)?.to_string();
        let selection = match self.mode {
            Mode::Selected => Some(
                query::selection(self.selection.as_deref().unwrap_or_default())
                    .map_err(ChatError::refused)?
                    .to_string(),
            ),
            Mode::Global => None,
        };
        let persona = match self.persona.as_deref() {
            None => Persona::default(),
            Some(id) => Persona::from_id(id).ok_or_else(|| {
                let ids: Vec<&str> = Persona::ALL.iter().map(|p| p.id()).collect();
                ChatError::invalid_config(format!("unknown persona `{id}` ({})", ids.join(", ")))
            })?,
        };
        limiter.admit(now_ms).map_err(ChatError::rate_limited)?;
        let page = self.page.as_ref().and_then(PageContext::cleaned);
        Ok(Ask { question, mode: self.mode, selection, persona, page })
    }
}

impl From<&Ask> for AskRequest {
    fn from(ask: &Ask) -> AskRequest {
        AskRequest {
            question: ask.question.clone(),
            mode: ask.mode,
            selection: ask.selection.clone(),
            persona: Some(ask.persona.id().to_string()),
            page: ask.page.clone(),
        }
    }
}

/// What retrieval returned (the retrieval API's SearchResponse; other fields ignored).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Retrieval {
    /// None only when nothing was retrieved on purpose (selection-only).
    pub confidence: Option<Confidence>,
    #[serde(default)]
    pub chunks: Vec<RetrievedChunk>,
    /// Some of the question's keyword index could not be loaded: it was scored from the rest.
    #[serde(default)]
    pub partial: bool,
    /// The parts that failed to load (a result whose metadata failed is not in `chunks`).
    #[serde(default)]
    pub errors: Vec<FailedPart>,
    /// A keyword-only result with weak evidence, while semantic search is still coming.
    #[serde(default)]
    pub provisional: bool,
}

/// A part of the index that failed to load, as the retrieval API lists it in `errors`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct FailedPart {
    /// "chunks" (a chunk shard by number: metadata and text), "meta", "text", "chunkPage",
    /// "terms", "termPage".
    pub part: Option<String>,
}

impl Retrieval {
    /// Whether results were found but left out because their metadata (their link and title)
    /// could not be loaded: its own file, its catalog page, or its chunk shard by number.
    pub fn results_lost(&self) -> bool {
        self.errors.iter().any(|e| matches!(e.part.as_deref(), Some("meta" | "chunks" | "chunkPage")))
    }
}

/// The JS API's error code for a search the reader aborted (www/lectern-js/index.js).
const ABORTED: &str = "ABORTED";

/// Why retrieval gave nothing, read from the JS API's error (`{code, message, suggestion,
/// action, detail, technical}`). The reader's abort is told apart here, once, where the JS
/// error becomes a type.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(from = "RetrievalError")]
pub enum RetrievalFailure {
    /// The reader stopped the turn while it was retrieving.
    Aborted,
    /// Retrieval failed: the worker's code, what the reader was told, its detail and the
    /// technical text.
    Failed { code: String, told: Option<Advice>, detail: Option<String>, technical: Option<String> },
}

/// The JS API's error as it arrives.
#[derive(Default, Deserialize)]
#[serde(default)]
struct RetrievalError {
    code: String,
    message: String,
    suggestion: String,
    action: Option<Action>,
    detail: Option<String>,
    technical: Option<String>,
}

impl From<RetrievalError> for RetrievalFailure {
    fn from(e: RetrievalError) -> RetrievalFailure {
        if e.code == ABORTED {
            return RetrievalFailure::Aborted;
        }
        let told = e.action.filter(|_| !e.message.is_empty()).map(|action| Advice {
            message: e.message.into(),
            suggestion: e.suggestion.into(),
            action,
        });
        RetrievalFailure::Failed { code: e.code, told, detail: e.detail, technical: e.technical }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// Confidence `none` in global mode: answer with [`refusal_message`], call nothing.
    Refuse { answer: String, confidence: Confidence, chunks_retrieved: usize },
    /// Ask the LLM; `excerpts` is the answer if it cannot be reached.
    Generate { turns: Vec<ChatTurn>, sources: Vec<SourceReference>, confidence: Confidence, excerpts: String },
    /// No LLM configured: the excerpts are the answer.
    Extract { answer: String, sources: Vec<SourceReference>, confidence: Confidence },
    /// Sections were found but none of their texts could be loaded: the answer lists them,
    /// each a link ([`links_answer`]); `error` says why, so a retry is offered.
    Links { answer: String, sources: Vec<SourceReference>, confidence: Confidence, error: ChatError },
    /// Retrieval gave no verdict (part of the index, or every result found, could not be
    /// loaded): a fault to retry, never a refusal.
    Fail { error: ChatError },
}

/// Decides how to answer `ask` from `retrieval`, with `history` the conversation before it.
/// A refusal is only ever retrieval's verdict (confidence `none` from the whole index); a
/// retrieval that missed part of its index or its results answers from what arrived, at most
/// at `low` confidence ([`notes`] says so under the answer).
pub fn plan(ask: &Ask, retrieval: &Retrieval, history: &[&Message], config: &ChatConfig, site: &SiteOrigins) -> Plan {
    let retrieved_confidence = retrieval.confidence.unwrap_or(Confidence::None);
    let selection = ask.selection.as_deref().filter(|_| ask.mode == Mode::Selected);
    let name = config.site_name();
    if selection.is_none() && retrieved_confidence == Confidence::None {
        if retrieval.partial {
            return Plan::Fail { error: ChatError::partial_search() };
        }
        let answer = refusal_message(&name);
        return Plan::Refuse { answer, confidence: Confidence::None, chunks_retrieved: retrieval.chunks.len() };
    }
    // In selected mode the reader's own selection is the context, so the answer never rests
    // on retrieval alone; related sections are cited only when retrieval found some.
    let (confidence, usable) = match selection {
        Some(_) => (Confidence::High, retrieved_confidence != Confidence::None && !config.selection_only),
        None => (retrieved_confidence, true),
    };
    // What the LLM reads: the candidates' best passages for the question (and the selection).
    let mut numbered = if usable {
        let matched = match selection {
            Some(selection) => query::selected_mode_query(&ask.question, selection),
            None => ask.question.clone(),
        };
        pack_context(&matched, &retrieval.chunks, site, config.context_tokens as usize)
    } else {
        Vec::new()
    };
    // What following each citation highlights on its page: from the passages the LLM read.
    for source in &mut numbered {
        source.reference.passage = passage(&ask.question, &source.text, None);
        source.reference.link = passage_link(&source.reference.url, &source.reference.passage);
    }
    let sources: Vec<SourceReference> = numbered.iter().map(|s| s.reference.clone()).collect();
    let readable: Vec<NumberedSource> = numbered.iter().filter(|s| !s.reference.unread).cloned().collect();
    let confidence = match selection {
        None if retrieval.partial || readable.len() < numbered.len() || retrieval.results_lost() => {
            confidence.at_most_low()
        }
        _ => confidence,
    };
    if selection.is_none() && readable.is_empty() {
        return match (numbered.is_empty(), retrieval.results_lost()) {
            (false, _) => Plan::Links {
                answer: links_answer(&numbered),
                sources,
                confidence,
                error: ChatError::sections_unavailable(),
            },
            (true, true) => Plan::Fail { error: ChatError::sections_unavailable() },
            // Nothing found in the part of the index that arrived: no verdict.
            (true, false) if retrieval.partial => Plan::Fail { error: ChatError::partial_search() },
            // Only other sites' sections: nothing this site can cite.
            (true, false) => Plan::Refuse {
                answer: refusal_message(&name),
                confidence: Confidence::None,
                chunks_retrieved: retrieval.chunks.len(),
            },
        };
    }
    let excerpts = extractive_answer(&ask.question, selection, &readable, &name);
    if config.endpoint.is_none() {
        let sources = shown_sources(&excerpts, &sources);
        return Plan::Extract { answer: excerpts, sources, confidence };
    }
    // The oldest history goes first when the request would outgrow what proxies accept.
    let mut history = history;
    let turns = loop {
        let turns = build_prompt(ask.persona, &ask.question, selection, ask.page.as_ref(), &readable, history, &name);
        if history.is_empty() || request_body(config, &turns).len() <= MAX_REQUEST_BYTES {
            break turns;
        }
        history = &history[1..];
    };
    Plan::Generate { turns, sources, confidence, excerpts }
}

/// The notes under the answer to `retrieval` (none for a refusal or a fault).
pub fn notes_for(retrieval: &Retrieval, site: &SiteOrigins) -> Vec<AnswerNote> {
    let numbered = number_sources(&retrieval.chunks, site);
    let unread = numbered.iter().filter(|s| s.reference.unread).count();
    let some_read = unread < numbered.len();
    notes(retrieval.partial, some_read && (unread > 0 || retrieval.results_lost()), retrieval.provisional)
}

/// The stored answer for the LLM's `text`: the fixed fallback (docs/DESIGN.md §3.3) when empty; the sources it
/// cites when it cites any (keeping their numbers), else the first few ([`shown_sources`]).
pub fn finish_answer(text: &str, sources: &[SourceReference]) -> (String, Vec<SourceReference>) {
    if text.trim().is_empty() {
        return (EMPTY_ANSWER_MESSAGE.to_string(), Vec::new());
    }
    (text.trim_end().to_string(), shown_sources(text, sources))
}

#[cfg(test)]
mod tests {
    use super::super::conversation::Role;
    use super::super::degraded::NoteCode;
    use super::super::error::ChatErrorCode;
    use super::super::sources::tests::chunk;
    use super::*;

    fn ask(mode: Mode, selection: Option<&str>) -> Ask {
        Ask {
            question: "How do nodes discover each other?".into(),
            mode,
            selection: selection.map(Into::into),
            persona: Persona::General,
            page: None,
        }
    }

    fn retrieval(confidence: Option<Confidence>) -> Retrieval {
        Retrieval {
            confidence,
            chunks: vec![chunk("a", "/a", "Nodes discover each other through DDS.", 0.7)],
            ..Retrieval::default()
        }
    }

    fn with_endpoint() -> ChatConfig {
        ChatConfig { endpoint: Some("http://127.0.0.1:1/v1/chat/completions".into()), ..ChatConfig::default() }
    }

    #[test]
    fn confidence_none_refuses_without_a_prompt() {
        let site = SiteOrigins::default();
        let p = plan(&ask(Mode::Global, None), &retrieval(Some(Confidence::None)), &[], &with_endpoint(), &site);
        let answer = "I couldn't find information about this topic on this site.".to_string();
        assert_eq!(p, Plan::Refuse { answer, confidence: Confidence::None, chunks_retrieved: 1 });
        let jest = ChatConfig { site_title: Some("Jest".into()), ..with_endpoint() };
        let p = plan(&ask(Mode::Global, None), &retrieval(Some(Confidence::None)), &[], &jest, &site);
        assert!(matches!(p, Plan::Refuse { answer, .. } if answer.ends_with("this topic in the Jest docs.")));
        // Sources from another site only: nothing citable, so refused too.
        let foreign = Retrieval {
            confidence: Some(Confidence::High),
            chunks: vec![chunk("x", "https://evil.example/", "t", 0.9)],
            ..Retrieval::default()
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
        // Each source names the passage that following it highlights.
        assert_eq!(sources[0].passage, ["Nodes discover each other through DDS."]);
        assert!(sources[0].link.contains("passage=nodes-discover-each-other-through-dds"), "{}", sources[0].link);
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
    fn the_largest_context_with_the_longest_question_and_selection_fits_a_request() {
        let site = SiteOrigins::default();
        let text = "Nodes discover each other over DDS and exchange messages on topics. ".repeat(60);
        let chunks: Vec<RetrievedChunk> =
            (0..20).map(|i| chunk(&format!("s{i}"), &format!("/s{i}"), &text, 0.5)).collect();
        let retrieval = Retrieval { confidence: Some(Confidence::High), chunks, ..Retrieval::default() };
        let config =
            ChatConfig { context_tokens: super::super::context::CONTEXT_TOKENS_RANGE.1, k: 20, ..with_endpoint() };
        let ask = Ask {
            question: "Why do nodes discover each other? ".repeat(29),
            mode: Mode::Selected,
            selection: Some("The selected passage about discovery. ".repeat(131)),
            persona: Persona::AiResearcher,
            // The longest page a question can name (PageContext::cleaned cuts longer ones).
            page: PageContext { url: format!("/docs/{}", "p".repeat(600)), title: "T".repeat(300), only: false }
                .cleaned(),
        };
        let Plan::Generate { turns, .. } = plan(&ask, &retrieval, &[], &config, &site) else {
            panic!("expected Generate")
        };
        let body = request_body(&config, &turns).len();
        assert!(body <= MAX_REQUEST_BYTES && body > MAX_REQUEST_BYTES * 2 / 3, "{body}");
    }

    #[test]
    fn a_question_is_admitted_trimmed_or_refused_with_specs_code() {
        let request = |json: &str| AskRequest::from_json(json).unwrap();
        let code = |r: Result<Ask, ChatError>| r.map_err(|e| e.code.as_str()).err();
        let mut limiter = RateLimiter::default();
        let mut admit = |r: &AskRequest| r.admit(&mut limiter, 0.0);

        assert_eq!(code(admit(&request(r#"{"question": "  "}"#))), Some("EMPTY_QUESTION"));
        assert_eq!(code(admit(&request("null"))), Some("EMPTY_QUESTION"));
        let long = format!(r#"{{"question": "{}"}}"#, "x".repeat(1001));
        assert_eq!(code(admit(&request(&long))), Some("QUESTION_TOO_LONG"));
        let short = r#"{"question": "Why?", "mode": "selected", "selection": "too short"}"#;
        assert_eq!(code(admit(&request(short))), Some("SELECTION_TOO_SHORT"));
        let missing = r#"{"question": "Why?", "mode": "selected"}"#;
        assert_eq!(code(admit(&request(missing))), Some("SELECTION_TOO_SHORT"));
        let pirate = admit(&request(r#"{"question": "Why?", "persona": "pirate"}"#)).unwrap_err();
        assert_eq!(pirate.code.as_str(), "INVALID_CONFIG");
        let technical = pirate.technical.unwrap_or_default();
        assert!(technical.contains("unknown persona `pirate` (general, beginner,"), "{technical}");
        for bad in [r#"{"question": 5}"#, r#"{"question": "Why?", "mode": "everywhere"}"#, "[1]"] {
            let error = AskRequest::from_json(bad).unwrap_err();
            assert_eq!((error.code.as_str(), error.retryable), ("INVALID_ARGUMENT", false), "{bad}");
        }

        // Admitted: trimmed, `general` by default, a selection only in selected mode.
        let ask = admit(&request(r#"{"question": " Why? ", "selection": "ignored in global mode"}"#)).unwrap();
        assert_eq!(
            ask,
            Ask { question: "Why?".into(), mode: Mode::Global, selection: None, persona: Persona::General, page: None }
        );
        assert_eq!(
            AskRequest::from(&ask),
            AskRequest { question: "Why?".into(), persona: Some("general".into()), ..AskRequest::default() }
        );
    }

    #[test]
    fn a_retrieval_failure_is_read_from_the_js_error_and_an_abort_told_apart() {
        let read = |json: &str| serde_json::from_str::<Option<RetrievalFailure>>(json).unwrap();
        assert_eq!(
            read(r#"{"code": "ABORTED", "message": "The search was aborted."}"#),
            Some(RetrievalFailure::Aborted)
        );
        assert_eq!(read("null"), None);
        assert_eq!(
            read(r#"{"code": "INDEX_UNAVAILABLE", "message": "The index could not be loaded."}"#),
            Some(RetrievalFailure::Failed {
                code: "INDEX_UNAVAILABLE".into(),
                told: None,
                detail: None,
                technical: None
            })
        );
        // What the reader was told comes along, and the technical text apart.
        let failure = read(
            r#"{"code": "INDEX_UNAVAILABLE", "message": "The site's search index could not be loaded.",
                "suggestion": "Check your connection, then try again.", "action": "retry", "detail": "NETWORK",
                "technical": "Could not download http://x/manifest.json: Failed to fetch"}"#,
        );
        let Some(RetrievalFailure::Failed { told: Some(told), detail, technical, .. }) = failure else { panic!() };
        assert_eq!((told.action, detail.as_deref()), (Action::Retry, Some("NETWORK")));
        assert!(technical.is_some_and(|t| t.contains("manifest.json")));
    }

    /// Two sections found with high confidence; `read` says which texts arrived.
    fn found(read: [bool; 2]) -> Retrieval {
        let mut chunks =
            vec![chunk("a", "/a", "Nodes discover each other through DDS.", 0.7), chunk("b", "/b", "Topics.", 0.5)];
        for (chunk, read) in chunks.iter_mut().zip(read) {
            if !read {
                chunk.text = None;
            }
        }
        Retrieval { confidence: Some(Confidence::High), chunks, ..Retrieval::default() }
    }

    #[test]
    fn a_failed_download_is_never_a_refusal() {
        let site = SiteOrigins::default();
        let global = ask(Mode::Global, None);
        // No text arrived: the sections are listed with their links, at low confidence, and
        // the error stays with the answer so a retry is offered.
        let Plan::Links { answer, sources, confidence, error } =
            plan(&global, &found([false, false]), &[], &with_endpoint(), &site)
        else {
            panic!("expected the links");
        };
        assert!(answer.contains("could not be loaded") && answer.contains("[1]") && answer.contains("[2]"), "{answer}");
        assert!(sources.iter().all(|s| s.unread) && sources.len() == 2);
        assert_eq!((confidence, error.detail.as_deref()), (Confidence::Low, Some("TEXT_UNAVAILABLE")));
        // One text arrived: the LLM reads it; both are sources; confidence at most low.
        let r = found([false, true]);
        let Plan::Generate { turns, sources, confidence, .. } = plan(&global, &r, &[], &with_endpoint(), &site) else {
            panic!("expected Generate");
        };
        assert!(turns[1].content.contains("Topics.") && !turns[1].content.contains("DDS"));
        assert_eq!((sources.len(), sources[0].unread, confidence), (2, true, Confidence::Low));
        assert_eq!(notes_for(&r, &site), [NoteCode::SourcesUnread.note()]);
        // Every result's metadata lost (its own file, or its chunk shard by number): a fault to
        // retry, never the refusal.
        for part in ["meta", "chunks"] {
            let lost = Retrieval {
                confidence: Some(Confidence::High),
                errors: vec![FailedPart { part: Some(part.into()) }],
                ..Retrieval::default()
            };
            let Plan::Fail { error } = plan(&global, &lost, &[], &with_endpoint(), &site) else {
                panic!("expected a fault for {part}")
            };
            assert_eq!((error.code, error.retryable), (ChatErrorCode::IndexUnavailable, true));
        }
        // Confidence none from a partial search is no verdict: a fault, not the refusal.
        let partial = Retrieval { confidence: Some(Confidence::None), partial: true, ..Retrieval::default() };
        let Plan::Fail { error } = plan(&global, &partial, &[], &with_endpoint(), &site) else {
            panic!("expected a fault")
        };
        assert_eq!(error.detail.as_deref(), Some("PARTIAL"));
        // From the whole index it is the verdict.
        let whole = Retrieval { confidence: Some(Confidence::None), ..Retrieval::default() };
        assert!(matches!(plan(&global, &whole, &[], &with_endpoint(), &site), Plan::Refuse { .. }));
        // A partial search whose results are none of this site's: no verdict either.
        let elsewhere = vec![chunk("x", "https://elsewhere.example/x", "Nodes.", 0.7)];
        let partial =
            Retrieval { confidence: Some(Confidence::Low), chunks: elsewhere, partial: true, ..Retrieval::default() };
        let Plan::Fail { error } = plan(&global, &partial, &[], &with_endpoint(), &site) else {
            panic!("expected a fault")
        };
        assert_eq!(error.detail.as_deref(), Some("PARTIAL"));
        let whole = Retrieval { partial: false, ..partial };
        assert!(matches!(plan(&global, &whole, &[], &with_endpoint(), &site), Plan::Refuse { .. }));
        // A partial search that found something answers from it, at low confidence, noted.
        let partial = Retrieval { partial: true, ..found([true, true]) };
        let Plan::Generate { confidence, .. } = plan(&global, &partial, &[], &with_endpoint(), &site) else { panic!() };
        assert_eq!(confidence, Confidence::Low);
        assert_eq!(notes_for(&partial, &site), [NoteCode::PartialSearch.note()]);
        assert_eq!(notes_for(&found([true, true]), &site), []);
        // A keyword-only retrieval with weak evidence says a better answer is coming.
        let provisional = Retrieval { provisional: true, ..found([true, true]) };
        assert_eq!(notes_for(&provisional, &site), [NoteCode::KeywordOnly.note()]);
    }

    #[test]
    fn only_admitted_questions_count_for_the_rate_limit() {
        let mut limiter = RateLimiter::default();
        let ok = AskRequest { question: "Why?".into(), ..AskRequest::default() };
        let empty = AskRequest::default();
        assert!(empty.admit(&mut limiter, 0.0).is_err());
        let selected = AskRequest { question: "Why?".into(), mode: Mode::Selected, ..AskRequest::default() };
        assert!(selected.admit(&mut limiter, 0.0).is_err());
        assert!(ok.admit(&mut limiter, 0.0).is_ok(), "the refused questions were not counted");
        let again = ok.admit(&mut limiter, 1_000.0).unwrap_err();
        assert_eq!((again.code.as_str(), again.retryable), ("RATE_LIMITED", false));
        assert_eq!(again.retry_after_ms, Some(1_000.0), "the core says how long the question must wait");
        assert!(ok.admit(&mut limiter, 2_000.0).is_ok());
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
