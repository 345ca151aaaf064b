//! One answer as the page hears it (SPEC.md §3): the typed events `onEvent` receives, and the
//! turn that sends them in order — `status retrieving` once the question is admitted, sources
//! and status, the answer's text, then exactly one `done` or `error` (a refused question's only
//! event) — refusing anything out of turn (no token once the end is decided, nothing after the
//! final event). How the turn ended (an answer, a refusal, excerpts, a stop, a fault)
//! is an [`Outcome`], which becomes the stored message and what the JS promise settles with.
//! No I/O: the wasm facade supplies ids, the clock, storage and the stream, and sends the
//! events this produces.

use super::config::ChatConfig;
use super::conversation::{AnswerKind, Message, MessageError, MessageStatus, Role};
use super::error::{ChatError, ChatErrorCode};
use super::plan::{finish_answer, plan, Ask, Plan, Retrieval, REFUSAL_MESSAGE, REFUSAL_SUGGESTION, SLOW_MESSAGE};
use super::prompt::ChatTurn;
use super::sources::{SiteOrigins, SourceReference};
use crate::query::Mode;
use crate::search::Confidence;
use serde::{Deserialize, Serialize};

/// The JS API's error code for a search the reader aborted (www/lectern-js/index.js).
const ABORTED: &str = "ABORTED";

/// An event of one turn, as `onEvent` receives it: `{"type": "token", "content": "…"}`
/// (www/lectern-js/chat.d.ts declares the same union).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ChatEvent {
    /// What the turn is doing: `{"type": "status", "state": …}`.
    Status(Status),
    /// The numbered sources the answer may cite, before its text.
    Sources { citations: Vec<SourceReference> },
    /// A piece of the answer's text, to append to what came before.
    Token { content: String },
    /// Something the reader should be told; the turn goes on.
    Notice { code: NoticeCode, message: String },
    /// The turn ended with an answer (also when stopped, refused or given as excerpts); the
    /// response is what the promise resolves with.
    Done { response: Box<ChatResponse> },
    /// The turn ended with a fault; the promise rejects with the same error.
    Error {
        code: ChatErrorCode,
        message: String,
        suggestion: String,
        /// `null` when unknown: the event has always carried the key.
        detail: Option<String>,
        retryable: bool,
        /// The answer's text that arrived before the fault (kept in the conversation), or null.
        partial: Option<String>,
    },
}

/// The `state` of a status event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum Status {
    /// The question was admitted and goes to retrieval: the first event of its turn.
    Retrieving,
    /// The LLM was asked.
    Generating,
    /// No first token yet after `slowAfterMs` ([`SLOW_MESSAGE`]).
    Slow { message: String },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum NoticeCode {
    /// Storage is disabled or full: the conversation lives in memory only (told once).
    HistoryNotKept,
    /// The stored conversation was unreadable and a new one started.
    HistoryReset,
    /// The endpoint could not be reached: the answer is the excerpts.
    LlmUnavailable,
}

/// SPEC.md's Response: what `ask()` resolves with and the `done` event carries.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChatResponse {
    pub answer: String,
    pub sources: Vec<SourceReference>,
    pub confidence: Confidence,
    pub mode_used: Mode,
    pub chunks_retrieved: usize,
    pub kind: AnswerKind,
    pub status: MessageStatus,
    /// A refusal's [`REFUSAL_SUGGESTION`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// The assistant message as stored.
    pub message: Message,
}

/// What the reader is told when the conversation cannot be kept in storage.
pub const HISTORY_NOT_KEPT_MESSAGE: &str =
    "This browser does not let the site keep the conversation, so it will be lost when you reload the page.";
/// What the reader is told when the stored conversation could not be read.
pub const HISTORY_RESET_MESSAGE: &str = "Your earlier conversation could not be restored, so a new one has started.";

impl NoticeCode {
    pub fn as_str(self) -> &'static str {
        match self {
            NoticeCode::HistoryNotKept => "HISTORY_NOT_KEPT",
            NoticeCode::HistoryReset => "HISTORY_RESET",
            NoticeCode::LlmUnavailable => "LLM_UNAVAILABLE",
        }
    }

    /// The fixed text told with a storage notice; `None` for `LLM_UNAVAILABLE`, which is told
    /// with the error's own message.
    pub fn fixed_message(self) -> Option<&'static str> {
        match self {
            NoticeCode::HistoryNotKept => Some(HISTORY_NOT_KEPT_MESSAGE),
            NoticeCode::HistoryReset => Some(HISTORY_RESET_MESSAGE),
            NoticeCode::LlmUnavailable => None,
        }
    }
}

impl ChatEvent {
    /// The final event of a turn that failed with `error`.
    pub fn error(error: &ChatError, partial: Option<&str>) -> ChatEvent {
        ChatEvent::Error {
            code: error.code,
            message: error.message.clone(),
            suggestion: error.suggestion.clone(),
            detail: error.detail.clone(),
            retryable: error.retryable,
            partial: partial.map(Into::into),
        }
    }

    /// The event's `type`, for messages about it.
    pub fn name(&self) -> &'static str {
        match self {
            ChatEvent::Status(Status::Retrieving) => "status retrieving",
            ChatEvent::Status(Status::Generating) => "status generating",
            ChatEvent::Status(Status::Slow { .. }) => "status slow",
            ChatEvent::Sources { .. } => "sources",
            ChatEvent::Token { .. } => "token",
            ChatEvent::Notice { .. } => "notice",
            ChatEvent::Done { .. } => "done",
            ChatEvent::Error { .. } => "error",
        }
    }

    fn is_final(&self) -> bool {
        matches!(self, ChatEvent::Done { .. } | ChatEvent::Error { .. })
    }
}

/// Why retrieval gave nothing, read from the JS API's error (`{code, message, detail}`).
/// The reader's abort is told apart here, once, where the JS error becomes a type.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(from = "RetrievalError")]
pub enum RetrievalFailure {
    /// The reader stopped the turn while it was retrieving.
    Aborted,
    /// Retrieval failed: the worker's code, message and detail.
    Failed { code: String, message: String, detail: Option<String> },
}

/// The JS API's error as it arrives.
#[derive(Default, Deserialize)]
#[serde(default)]
struct RetrievalError {
    code: String,
    message: String,
    detail: Option<String>,
}

impl From<RetrievalError> for RetrievalFailure {
    fn from(e: RetrievalError) -> RetrievalFailure {
        if e.code == ABORTED {
            RetrievalFailure::Aborted
        } else {
            RetrievalFailure::Failed { code: e.code, message: e.message, detail: e.detail }
        }
    }
}

/// How a turn ended, before its answer is stored.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Confidence `none`: SPEC.md's refusal, the LLM not called.
    Refused { confidence: Confidence, retrieved: usize },
    /// The excerpts, with no LLM configured, or with `unreachable` saying why it could not be had.
    Extracted {
        text: String,
        sources: Vec<SourceReference>,
        confidence: Confidence,
        retrieved: usize,
        unreachable: Option<ChatError>,
    },
    /// The LLM's whole answer.
    Generated { text: String, sources: Vec<SourceReference>, confidence: Confidence, retrieved: usize },
    /// The reader stopped it; what arrived is the answer.
    Stopped { text: String, sources: Vec<SourceReference>, confidence: Confidence, retrieved: usize },
    /// A fault; what arrived before it is kept.
    Failed { error: ChatError, text: String, sources: Vec<SourceReference>, confidence: Confidence, retrieved: usize },
}

/// An outcome as stored and reported: the promise resolves or rejects accordingly.
#[derive(Clone, Debug, PartialEq)]
pub enum Conclusion {
    Answered(ChatResponse),
    Failed { message: Message, error: ChatError },
}

impl Conclusion {
    /// The assistant message to store.
    pub fn message(&self) -> &Message {
        match self {
            Conclusion::Answered(response) => &response.message,
            Conclusion::Failed { message, .. } => message,
        }
    }

    /// A failed answer's text that arrived before the fault, if any.
    pub fn partial(&self) -> Option<&str> {
        match self {
            Conclusion::Answered(_) => None,
            Conclusion::Failed { message, .. } => Some(message.content.as_str()).filter(|c| !c.is_empty()),
        }
    }

    fn event(&self) -> ChatEvent {
        match self {
            Conclusion::Answered(response) => ChatEvent::Done { response: Box::new(response.clone()) },
            Conclusion::Failed { error, .. } => ChatEvent::error(error, self.partial()),
        }
    }
}

/// What to do after retrieval.
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    /// Ask the LLM with these turns; its tokens go to [`Turn::token`], its end to
    /// [`Turn::generated`], [`Turn::stopped`], [`Turn::unreachable`] or [`Turn::failed`].
    Generate(Vec<ChatTurn>),
    /// Decided without the LLM.
    Conclude(Outcome),
}

/// Where a turn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The question is with retrieval.
    Retrieving,
    /// The sources are told or the LLM asked: the answer's text may come.
    Answering,
    /// How it ended is decided: only notices and the final event may follow.
    Concluding,
    /// `done` or `error` was sent: nothing more.
    Ended,
}

/// An event or step that cannot come where the turn is (a bug in the caller).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{event}` cannot come while the turn is {phase:?}")]
pub struct TurnError {
    pub event: &'static str,
    pub phase: Phase,
}

/// One question's answer, from its admission (or refusal) to its one final event. Every event
/// goes through [`Turn::send`], which enforces the order; the caller sends
/// [`Turn::take_events`] on.
#[derive(Clone, Debug)]
pub struct Turn {
    /// `None` for a question refused before it was asked.
    ask: Option<Ask>,
    phase: Phase,
    sent: usize,
    generating: bool,
    sources_told: bool,
    token_arrived: bool,
    slow_told: bool,
    // What the answer rests on, once planned.
    retrieved: usize,
    confidence: Confidence,
    sources: Vec<SourceReference>,
    excerpts: String,
    text: String,
    outbox: Vec<ChatEvent>,
}

impl Turn {
    /// The turn of a question as [`AskRequest::admit`](super::plan::AskRequest::admit) judged
    /// it. Admitted, it goes to retrieval and `status retrieving` is its first event; refused,
    /// the `error` is its only event and the turn has ended (nothing is stored; the caller
    /// rejects with the same error).
    pub fn begin(admitted: Result<Ask, ChatError>) -> Turn {
        let (ask, first) = match admitted {
            Ok(ask) => (Some(ask), ChatEvent::Status(Status::Retrieving)),
            Err(error) => (None, ChatEvent::error(&error, None)),
        };
        let mut turn = Turn::new(ask);
        // The first event of a new turn is always in turn.
        let sent = turn.send(first);
        debug_assert!(sent.is_ok(), "{sent:?}");
        turn
    }

    /// A turn at retrieval that has sent nothing (tests start here too, past admission).
    fn new(ask: Option<Ask>) -> Turn {
        Turn {
            ask,
            phase: Phase::Retrieving,
            sent: 0,
            generating: false,
            sources_told: false,
            token_arrived: false,
            slow_told: false,
            retrieved: 0,
            confidence: Confidence::None,
            sources: Vec::new(),
            excerpts: String::new(),
            text: String::new(),
            outbox: Vec::new(),
        }
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The question as admitted, or `None` when it was refused.
    pub fn ask(&self) -> Option<&Ask> {
        self.ask.as_ref()
    }

    /// The events sent since the last call, in order.
    pub fn take_events(&mut self) -> Vec<ChatEvent> {
        std::mem::take(&mut self.outbox)
    }

    /// The question as stored: its mode, selection and persona with it (`None` when refused:
    /// a refused question is not stored).
    pub fn question(&self, id: String, timestamp: String) -> Option<Message> {
        let ask = self.ask.as_ref()?;
        let mut message = Message::new(id, Role::User, &ask.question, timestamp);
        message.mode = Some(ask.mode);
        message.selection = ask.selection.clone();
        message.persona = Some(ask.persona.id().to_string());
        Some(message)
    }

    /// Sends `event` if it may come now. The order: `status retrieving` (first, if at all); then `sources` once and `status generating` once, in either order, before
    /// any token; `status slow` once, after `generating` and before the first token; tokens
    /// after `sources` or `generating`; notices any time; then one `done` or `error`, after
    /// which nothing. Once the outcome is decided only notices and the final event may come.
    pub fn send(&mut self, event: ChatEvent) -> Result<(), TurnError> {
        use Phase::{Answering, Concluding, Ended, Retrieving};
        let legal = match (&event, self.phase) {
            (_, Ended) => false,
            (ChatEvent::Notice { .. } | ChatEvent::Done { .. } | ChatEvent::Error { .. }, _) => true,
            (_, Concluding) => false,
            (ChatEvent::Status(Status::Retrieving), phase) => phase == Retrieving && self.sent == 0,
            (ChatEvent::Status(Status::Generating), _) => !self.generating && !self.token_arrived,
            (ChatEvent::Status(Status::Slow { .. }), _) => self.generating && !self.token_arrived && !self.slow_told,
            (ChatEvent::Sources { .. }, _) => !self.sources_told && !self.token_arrived,
            (ChatEvent::Token { .. }, phase) => phase == Answering,
        };
        if !legal {
            return Err(TurnError { event: event.name(), phase: self.phase });
        }
        match &event {
            ChatEvent::Status(Status::Generating) => {
                self.generating = true;
                self.phase = Answering;
            }
            ChatEvent::Status(Status::Slow { .. }) => self.slow_told = true,
            ChatEvent::Sources { .. } => {
                self.sources_told = true;
                self.phase = Answering;
            }
            ChatEvent::Token { content } => {
                self.token_arrived = true;
                self.text.push_str(content);
            }
            e if e.is_final() => self.phase = Ended,
            _ => {}
        }
        self.sent += 1;
        self.outbox.push(event);
        Ok(())
    }

    pub fn notice(&mut self, code: NoticeCode, message: &str) -> Result<(), TurnError> {
        self.send(ChatEvent::Notice { code, message: message.into() })
    }

    /// Decides from what retrieval gave (or why it gave nothing) and `history`, the
    /// conversation before the question: refuse, answer with the excerpts, or ask the LLM.
    pub fn retrieved(
        &mut self,
        retrieval: Result<Retrieval, RetrievalFailure>,
        history: &[&Message],
        config: &ChatConfig,
        site: &SiteOrigins,
    ) -> Result<Next, TurnError> {
        let Some(ask) = self.ask.as_ref().filter(|_| self.phase == Phase::Retrieving) else {
            return Err(TurnError { event: "retrieval", phase: self.phase });
        };
        let retrieval = match retrieval {
            Ok(retrieval) => retrieval,
            Err(RetrievalFailure::Aborted) => return Ok(Next::Conclude(self.stopped_now())),
            Err(RetrievalFailure::Failed { code, message, detail }) => {
                self.phase = Phase::Concluding;
                let error = ChatError::retrieval(message, detail.or(Some(code)));
                return Ok(Next::Conclude(self.outcome_failed(error)));
            }
        };
        self.retrieved = retrieval.chunks.len();
        match plan(ask, &retrieval, history, config, site) {
            Plan::Refuse { confidence, chunks_retrieved } => {
                self.phase = Phase::Concluding;
                Ok(Next::Conclude(Outcome::Refused { confidence, retrieved: chunks_retrieved }))
            }
            Plan::Extract { answer, sources, confidence } => {
                self.send(ChatEvent::Sources { citations: sources.clone() })?;
                self.send(ChatEvent::Token { content: answer.clone() })?;
                self.phase = Phase::Concluding;
                let retrieved = self.retrieved;
                Ok(Next::Conclude(Outcome::Extracted {
                    text: answer,
                    sources,
                    confidence,
                    retrieved,
                    unreachable: None,
                }))
            }
            Plan::Generate { turns, sources, confidence, excerpts } => {
                self.send(ChatEvent::Status(Status::Generating))?;
                self.send(ChatEvent::Sources { citations: sources.clone() })?;
                self.sources = sources;
                self.confidence = confidence;
                self.excerpts = excerpts;
                Ok(Next::Generate(turns))
            }
        }
    }

    /// No first token yet after `slowAfterMs`.
    pub fn slow(&mut self) -> Result<(), TurnError> {
        self.send(ChatEvent::Status(Status::Slow { message: SLOW_MESSAGE.into() }))
    }

    /// A piece of the LLM's answer.
    pub fn token(&mut self, text: &str) -> Result<(), TurnError> {
        self.send(ChatEvent::Token { content: text.into() })
    }

    /// The LLM's stream ended properly: its text, citing what it cites.
    pub fn generated(&mut self) -> Result<Outcome, TurnError> {
        self.conclude_stream("generated")?;
        let (text, sources) = finish_answer(&self.text, &self.sources);
        Ok(Outcome::Generated { text, sources, confidence: self.confidence, retrieved: self.retrieved })
    }

    /// The reader stopped the stream: what arrived stays as the answer.
    pub fn stopped(&mut self) -> Result<Outcome, TurnError> {
        self.conclude_stream("stopped")?;
        Ok(self.stopped_now())
    }

    /// No LLM to be had (no HTTP response): the excerpts answer instead, and the reader is told.
    pub fn unreachable(&mut self, error: ChatError) -> Result<Outcome, TurnError> {
        if self.phase != Phase::Answering || !self.generating {
            return Err(TurnError { event: "unreachable", phase: self.phase });
        }
        self.notice(NoticeCode::LlmUnavailable, &error.message)?;
        let excerpts = std::mem::take(&mut self.excerpts);
        self.token(&excerpts)?;
        self.phase = Phase::Concluding;
        Ok(Outcome::Extracted {
            text: excerpts,
            sources: std::mem::take(&mut self.sources),
            confidence: self.confidence,
            retrieved: self.retrieved,
            unreachable: Some(error),
        })
    }

    /// The stream (or the request) failed: what arrived is kept with the error.
    pub fn failed(&mut self, error: ChatError) -> Result<Outcome, TurnError> {
        self.conclude_stream("failed")?;
        Ok(self.outcome_failed(error))
    }

    /// The stored answer for `outcome` (`id` and `timestamp` are the facade's), and how the
    /// promise settles. Send it with [`Turn::end`] once it is stored.
    pub fn conclude(&self, outcome: Outcome, id: String, timestamp: String) -> Conclusion {
        let (kind, status, text, sources, confidence, retrieved, error) = match outcome {
            Outcome::Refused { confidence, retrieved } => (
                AnswerKind::Refusal,
                MessageStatus::Complete,
                REFUSAL_MESSAGE.to_string(),
                Vec::new(),
                confidence,
                retrieved,
                None,
            ),
            Outcome::Extracted { text, sources, confidence, retrieved, unreachable } => {
                (AnswerKind::Extractive, MessageStatus::Complete, text, sources, confidence, retrieved, unreachable)
            }
            Outcome::Generated { text, sources, confidence, retrieved } => {
                (AnswerKind::Llm, MessageStatus::Complete, text, sources, confidence, retrieved, None)
            }
            Outcome::Stopped { text, sources, confidence, retrieved } => {
                (AnswerKind::Llm, MessageStatus::Stopped, text, sources, confidence, retrieved, None)
            }
            Outcome::Failed { error, text, sources, confidence, retrieved } => {
                (AnswerKind::Llm, MessageStatus::Error, text, sources, confidence, retrieved, Some(error))
            }
        };
        let mut message = Message::new(id, Role::Assistant, &text, timestamp);
        message.sources = Some(sources.clone());
        message.confidence = Some(confidence);
        message.kind = Some(kind);
        message.status = Some(status);
        message.error =
            error.as_ref().map(|e| MessageError::new(e.code, &e.message, &e.suggestion, e.detail.as_deref()));
        match error {
            Some(error) if status == MessageStatus::Error => Conclusion::Failed { message, error },
            _ => Conclusion::Answered(ChatResponse {
                answer: message.content.clone(),
                sources,
                confidence,
                mode_used: self.ask.as_ref().map_or(Mode::Global, |ask| ask.mode),
                chunks_retrieved: retrieved,
                kind,
                status,
                suggestion: (kind == AnswerKind::Refusal).then(|| REFUSAL_SUGGESTION.to_string()),
                message,
            }),
        }
    }

    /// Sends the final event: `done`, or `error` with the partial answer.
    pub fn end(&mut self, conclusion: &Conclusion) -> Result<(), TurnError> {
        self.send(conclusion.event())
    }

    fn conclude_stream(&mut self, step: &'static str) -> Result<(), TurnError> {
        if self.phase != Phase::Answering || !self.generating {
            return Err(TurnError { event: step, phase: self.phase });
        }
        self.phase = Phase::Concluding;
        Ok(())
    }

    fn stopped_now(&mut self) -> Outcome {
        self.phase = Phase::Concluding;
        Outcome::Stopped {
            text: std::mem::take(&mut self.text),
            sources: std::mem::take(&mut self.sources),
            confidence: self.confidence,
            retrieved: self.retrieved,
        }
    }

    fn outcome_failed(&mut self, error: ChatError) -> Outcome {
        Outcome::Failed {
            error,
            text: std::mem::take(&mut self.text),
            sources: std::mem::take(&mut self.sources),
            confidence: self.confidence,
            retrieved: self.retrieved,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::persona::Persona;
    use super::super::sources::tests::chunk;
    use super::*;
    use serde_json::json;

    fn ask(mode: Mode) -> Ask {
        Ask {
            question: "How do nodes discover each other?".into(),
            mode,
            selection: (mode == Mode::Selected).then(|| "Nodes find each other through DDS discovery.".into()),
            persona: Persona::Beginner,
        }
    }

    fn retrieval(confidence: Confidence) -> Retrieval {
        Retrieval {
            confidence: Some(confidence),
            chunks: vec![
                chunk("a", "/a", "Nodes discover each other through DDS.", 0.7),
                chunk("b", "/b", "Topics carry messages.", 0.5),
            ],
        }
    }

    fn with_endpoint() -> ChatConfig {
        ChatConfig { endpoint: Some("http://127.0.0.1:1/v1/chat/completions".into()), ..ChatConfig::default() }
    }

    fn source(n: usize) -> SourceReference {
        SourceReference {
            n,
            chapter_title: "Chapter".into(),
            section_title: "Section".into(),
            module: "m".into(),
            url: "/a#x".into(),
            score: 0.5,
            heading_path: vec!["Chapter".into(), "Section".into()],
        }
    }

    /// A turn that asked the LLM (events so far taken).
    fn generating() -> Turn {
        let mut turn = Turn::new(Some(ask(Mode::Global)));
        let next = turn.retrieved(Ok(retrieval(Confidence::High)), &[], &with_endpoint(), &SiteOrigins::default());
        assert!(matches!(next, Ok(Next::Generate(_))), "{next:?}");
        turn.take_events();
        turn
    }

    fn names(events: &[ChatEvent]) -> Vec<&'static str> {
        events.iter().map(ChatEvent::name).collect()
    }

    /// Concludes `outcome` and ends the turn; the final event (the only one it sends) and the
    /// conclusion. Events sent before are dropped.
    fn end(turn: &mut Turn, outcome: Outcome) -> (ChatEvent, Conclusion) {
        turn.take_events();
        let conclusion = turn.conclude(outcome, "id-2".into(), "2026-01-01T00:00:01.000Z".into());
        turn.end(&conclusion).unwrap();
        let events = turn.take_events();
        assert_eq!(events.len(), 1, "{events:?}");
        (events.into_iter().next().unwrap(), conclusion)
    }

    fn value(event: &ChatEvent) -> serde_json::Value {
        serde_json::to_value(event).unwrap()
    }

    #[test]
    fn every_event_is_serialised_as_the_page_reads_it() {
        assert_eq!(value(&ChatEvent::Status(Status::Retrieving)), json!({"type": "status", "state": "retrieving"}));
        assert_eq!(value(&ChatEvent::Status(Status::Generating)), json!({"type": "status", "state": "generating"}));
        assert_eq!(
            value(&ChatEvent::Status(Status::Slow { message: SLOW_MESSAGE.into() })),
            json!({"type": "status", "state": "slow", "message": "Response is taking longer than expected…"})
        );
        assert_eq!(
            value(&ChatEvent::Sources { citations: vec![source(1)] }),
            json!({"type": "sources", "citations": [{
                "n": 1, "chapter_title": "Chapter", "section_title": "Section", "module": "m",
                "url": "/a#x", "score": 0.5, "heading_path": ["Chapter", "Section"],
            }]})
        );
        assert_eq!(value(&ChatEvent::Token { content: "DDS".into() }), json!({"type": "token", "content": "DDS"}));
        for (code, wire) in [
            (NoticeCode::HistoryNotKept, "HISTORY_NOT_KEPT"),
            (NoticeCode::HistoryReset, "HISTORY_RESET"),
            (NoticeCode::LlmUnavailable, "LLM_UNAVAILABLE"),
        ] {
            assert_eq!(code.as_str(), wire);
            // The storage notices have fixed texts; an unreachable LLM is told its error.
            assert_eq!(code.fixed_message().is_some(), code != NoticeCode::LlmUnavailable);
            assert_eq!(
                value(&ChatEvent::Notice { code, message: "m".into() }),
                json!({"type": "notice", "code": wire, "message": "m"})
            );
        }
        let error = ChatError::timeout(30_000.0, true);
        assert_eq!(
            value(&ChatEvent::error(&error, Some("DDS"))),
            json!({
                "type": "error", "code": "LLM_TIMEOUT", "message": "No answer arrived within 30 s.",
                "suggestion": "The answer service is slow right now; retry.", "detail": "FIRST_TOKEN",
                "retryable": true, "partial": "DDS",
            })
        );
        // Unknown detail and no partial answer: the keys stay, as null.
        let error = ChatError::invalid_config("bad");
        assert_eq!(
            value(&ChatEvent::error(&error, None)),
            json!({
                "type": "error", "code": "INVALID_CONFIG", "message": "bad",
                "suggestion": "Fix the chat configuration of this site.", "detail": null,
                "retryable": false, "partial": null,
            })
        );
    }

    #[test]
    fn done_carries_the_response_the_promise_resolves_with() {
        let mut turn = generating();
        turn.token("Through DDS [1].").unwrap();
        let outcome = turn.generated().unwrap();
        let (event, conclusion) = end(&mut turn, outcome);
        let Conclusion::Answered(response) = &conclusion else { panic!("{conclusion:?}") };
        let wire = value(&event);
        assert_eq!(wire["type"], "done");
        assert_eq!(wire["response"], serde_json::to_value(response).unwrap());
        let response = &wire["response"];
        assert_eq!(response["answer"], "Through DDS [1].");
        assert_eq!((response["kind"].as_str(), response["status"].as_str()), (Some("llm"), Some("complete")));
        assert_eq!((response["mode_used"].as_str(), response["confidence"].as_str()), (Some("global"), Some("high")));
        assert_eq!(response["chunks_retrieved"], 2);
        assert_eq!(response["sources"].as_array().unwrap().len(), 1, "only the cited source");
        assert_eq!(response["message"]["id"], "id-2");
        assert_eq!(response["message"]["content"], "Through DDS [1].");
        assert!(response.get("suggestion").is_none());
    }

    #[test]
    fn a_generated_answer_streams_in_order_and_ends_once() {
        let mut turn = Turn::begin(Ok(ask(Mode::Global)));
        turn.notice(NoticeCode::HistoryNotKept, "not kept").unwrap();
        let next = turn.retrieved(Ok(retrieval(Confidence::High)), &[], &with_endpoint(), &SiteOrigins::default());
        let Ok(Next::Generate(turns)) = next else { panic!("{next:?}") };
        assert!(turns.last().unwrap().content.contains("How do nodes discover each other?"));
        turn.slow().unwrap();
        turn.token("Through ").unwrap();
        turn.token("DDS [1].").unwrap();
        let outcome = turn.generated().unwrap();
        assert_eq!(turn.phase(), Phase::Concluding);
        let events = turn.take_events();
        assert_eq!(
            names(&events),
            ["status retrieving", "notice", "status generating", "sources", "status slow", "token", "token"]
        );
        let (event, _) = end(&mut turn, outcome);
        assert_eq!(event.name(), "done");
        assert_eq!(turn.phase(), Phase::Ended);
    }

    #[test]
    fn nothing_follows_the_final_event() {
        for failed in [false, true] {
            let mut turn = generating();
            turn.token("Through").unwrap();
            let outcome = if failed {
                turn.failed(ChatError::bad_stream("NO_DONE", "cut")).unwrap()
            } else {
                turn.generated().unwrap()
            };
            let (_, conclusion) = end(&mut turn, outcome);
            for event in [
                ChatEvent::Token { content: "late".into() },
                ChatEvent::Status(Status::Slow { message: SLOW_MESSAGE.into() }),
                ChatEvent::Sources { citations: Vec::new() },
                ChatEvent::Notice { code: NoticeCode::HistoryNotKept, message: "m".into() },
                ChatEvent::error(&ChatError::invalid_config("x"), None),
            ] {
                let name = event.name();
                assert_eq!(turn.send(event), Err(TurnError { event: name, phase: Phase::Ended }));
            }
            assert!(turn.end(&conclusion).is_err(), "a second final event");
            assert!(turn.token("late").is_err() && turn.generated().is_err() && turn.stopped().is_err());
            assert!(turn.take_events().is_empty());
        }
    }

    #[test]
    fn stopping_ends_the_turn_once_keeping_what_arrived() {
        let mut turn = generating();
        turn.token("Through DDS").unwrap();
        let outcome = turn.stopped().unwrap();
        assert!(
            matches!(&outcome, Outcome::Stopped { text, sources, .. } if text == "Through DDS" && sources.len() == 2)
        );
        // A token still in flight after the stop is refused: the end is decided.
        assert_eq!(turn.token(" [1]."), Err(TurnError { event: "token", phase: Phase::Concluding }));
        assert!(turn.stopped().is_err() && turn.failed(ChatError::network("x")).is_err());
        let (event, conclusion) = end(&mut turn, outcome);
        let wire = value(&event);
        assert_eq!((wire["type"].as_str(), wire["response"]["status"].as_str()), (Some("done"), Some("stopped")));
        assert_eq!(conclusion.message().content, "Through DDS");
        assert_eq!(conclusion.message().status, Some(MessageStatus::Stopped));
    }

    #[test]
    fn an_abort_while_retrieving_is_a_typed_value_that_stops_the_turn() {
        let aborted: Option<RetrievalFailure> =
            serde_json::from_str(r#"{"code": "ABORTED", "message": "The search was aborted."}"#).unwrap();
        assert_eq!(aborted, Some(RetrievalFailure::Aborted));
        let none: Option<RetrievalFailure> = serde_json::from_str("null").unwrap();
        assert_eq!(none, None);

        let mut turn = Turn::new(Some(ask(Mode::Global)));
        let next = turn.retrieved(Err(RetrievalFailure::Aborted), &[], &with_endpoint(), &SiteOrigins::default());
        let Ok(Next::Conclude(outcome)) = next else { panic!("{next:?}") };
        assert!(matches!(&outcome, Outcome::Stopped { text, .. } if text.is_empty()));
        assert!(turn.take_events().is_empty(), "no sources, no status: the turn only ends");
        let (event, conclusion) = end(&mut turn, outcome);
        assert_eq!(value(&event)["response"]["status"], "stopped");
        assert_eq!(conclusion.partial(), None);
    }

    #[test]
    fn a_retrieval_failure_ends_with_an_index_error() {
        let failure: RetrievalFailure =
            serde_json::from_str(r#"{"code": "INDEX_UNAVAILABLE", "message": "The index could not be loaded."}"#)
                .unwrap();
        assert_eq!(
            failure,
            RetrievalFailure::Failed {
                code: "INDEX_UNAVAILABLE".into(),
                message: "The index could not be loaded.".into(),
                detail: None
            }
        );
        let mut turn = Turn::new(Some(ask(Mode::Global)));
        let Ok(Next::Conclude(outcome)) = turn.retrieved(Err(failure), &[], &with_endpoint(), &SiteOrigins::default())
        else {
            panic!("expected a conclusion");
        };
        let (event, conclusion) = end(&mut turn, outcome);
        let wire = value(&event);
        assert_eq!(
            (wire["code"].as_str(), wire["detail"].as_str()),
            (Some("INDEX_UNAVAILABLE"), Some("INDEX_UNAVAILABLE"))
        );
        assert_eq!(wire["partial"], serde_json::Value::Null);
        assert!(
            matches!(conclusion, Conclusion::Failed { ref error, .. } if error.code == ChatErrorCode::IndexUnavailable)
        );
        assert_eq!(conclusion.message().status, Some(MessageStatus::Error));
    }

    #[test]
    fn a_fault_ends_with_one_error_event_and_the_partial_answer() {
        let mut turn = generating();
        turn.token("Through DDS").unwrap();
        let outcome = turn.failed(ChatError::timeout(30_000.0, false)).unwrap();
        let (event, conclusion) = end(&mut turn, outcome);
        let wire = value(&event);
        assert_eq!((wire["type"].as_str(), wire["code"].as_str()), (Some("error"), Some("LLM_TIMEOUT")));
        assert_eq!(wire["partial"], "Through DDS");
        assert_eq!(conclusion.partial(), Some("Through DDS"));
        let message = conclusion.message();
        assert_eq!((message.status, message.kind), (Some(MessageStatus::Error), Some(AnswerKind::Llm)));
        assert_eq!(message.error.as_ref().map(|e| e.code.as_str()), Some("LLM_TIMEOUT"));
    }

    #[test]
    fn confidence_none_refuses_with_only_the_final_event() {
        let mut turn = Turn::new(Some(ask(Mode::Global)));
        let next = turn.retrieved(Ok(retrieval(Confidence::None)), &[], &with_endpoint(), &SiteOrigins::default());
        let Ok(Next::Conclude(outcome)) = next else { panic!("{next:?}") };
        assert!(turn.take_events().is_empty());
        let (event, conclusion) = end(&mut turn, outcome);
        let response = &value(&event)["response"];
        assert_eq!((response["kind"].as_str(), response["answer"].as_str()), (Some("refusal"), Some(REFUSAL_MESSAGE)));
        assert_eq!(response["suggestion"], REFUSAL_SUGGESTION);
        assert_eq!(response["sources"], json!([]));
        assert_eq!(conclusion.message().kind, Some(AnswerKind::Refusal));
    }

    #[test]
    fn without_an_endpoint_the_excerpts_come_as_sources_then_one_token() {
        let mut turn = Turn::new(Some(ask(Mode::Global)));
        let next =
            turn.retrieved(Ok(retrieval(Confidence::High)), &[], &ChatConfig::default(), &SiteOrigins::default());
        let Ok(Next::Conclude(outcome)) = next else { panic!("{next:?}") };
        let events = turn.take_events();
        assert_eq!(names(&events), ["sources", "token"]);
        let ChatEvent::Token { content } = &events[1] else { unreachable!() };
        assert!(content.contains("[1]"));
        let (event, _) = end(&mut turn, outcome);
        let response = &value(&event)["response"];
        assert_eq!((response["kind"].as_str(), response["status"].as_str()), (Some("extractive"), Some("complete")));
        assert_eq!(response["answer"].as_str(), Some(content.as_str()));
    }

    #[test]
    fn an_unreachable_llm_is_told_and_the_excerpts_answer() {
        let mut turn = generating();
        let outcome = turn.unreachable(ChatError::network("Failed to fetch")).unwrap();
        let events = turn.take_events();
        assert_eq!(names(&events), ["notice", "token"]);
        assert_eq!(value(&events[0])["code"], "LLM_UNAVAILABLE");
        let (event, conclusion) = end(&mut turn, outcome);
        assert_eq!(value(&event)["response"]["kind"], "extractive");
        // The answer is complete, but the error stays on the message so a retry is offered.
        let message = conclusion.message();
        assert_eq!(message.status, Some(MessageStatus::Complete));
        assert_eq!(message.error.as_ref().and_then(|e| e.detail.as_deref()), Some("NETWORK"));
    }

    #[test]
    fn events_out_of_turn_are_refused() {
        let slow = || ChatEvent::Status(Status::Slow { message: SLOW_MESSAGE.into() });
        let token = || ChatEvent::Token { content: "x".into() };
        let sources = || ChatEvent::Sources { citations: Vec::new() };

        // While retrieving: no token, no slow notice, no stream ending.
        let mut turn = Turn::new(Some(ask(Mode::Global)));
        assert_eq!(turn.send(token()), Err(TurnError { event: "token", phase: Phase::Retrieving }));
        assert!(turn.send(slow()).is_err());
        assert!(turn.generated().is_err() && turn.unreachable(ChatError::network("x")).is_err());
        turn.notice(NoticeCode::HistoryReset, "reset").unwrap();
        // `retrieving` only as the very first event.
        assert!(turn.send(ChatEvent::Status(Status::Retrieving)).is_err());

        // Sources and generating once each, before any token; slow once, before the first token.
        let mut turn = generating();
        assert!(turn.send(sources()).is_err());
        assert!(turn.send(ChatEvent::Status(Status::Generating)).is_err());
        turn.slow().unwrap();
        assert!(turn.slow().is_err(), "a second slow notice");
        turn.token("x").unwrap();
        assert!(turn.send(sources()).is_err());
        assert!(turn.send(ChatEvent::Status(Status::Retrieving)).is_err());
        assert!(turn.retrieved(Ok(Retrieval::default()), &[], &with_endpoint(), &SiteOrigins::default()).is_err());
        let mut late = generating();
        late.token("x").unwrap();
        assert!(late.slow().is_err(), "slow after the first token");

        // Excerpts without an LLM: no slow notice (nothing was asked).
        let mut turn = Turn::new(Some(ask(Mode::Global)));
        turn.retrieved(Ok(retrieval(Confidence::High)), &[], &ChatConfig::default(), &SiteOrigins::default()).unwrap();
        assert_eq!(turn.slow(), Err(TurnError { event: "status slow", phase: Phase::Concluding }));
        let mut turn = Turn::new(Some(ask(Mode::Global)));
        turn.send(sources()).unwrap();
        assert!(turn.send(slow()).is_err());
        assert!(turn.stopped().is_err(), "no stream to stop");
        // Refused events leave nothing to send.
        assert_eq!(names(&turn.take_events()), ["sources"]);
    }

    #[test]
    fn notices_may_come_until_the_final_event() {
        let mut turn = generating();
        turn.notice(NoticeCode::HistoryNotKept, "a").unwrap();
        let outcome = turn.generated().unwrap();
        // Storing the answer may fail: that is told before the final event.
        turn.notice(NoticeCode::HistoryNotKept, "b").unwrap();
        let conclusion = turn.conclude(outcome, "id".into(), "t".into());
        turn.end(&conclusion).unwrap();
        assert_eq!(names(&turn.take_events()), ["notice", "notice", "done"]);
        assert!(turn.notice(NoticeCode::HistoryNotKept, "c").is_err());
    }

    #[test]
    fn the_question_is_stored_with_its_mode_selection_and_persona() {
        let turn = Turn::begin(Ok(ask(Mode::Selected)));
        let message = turn.question("id-1".into(), "2026-01-01T00:00:00.000Z".into()).unwrap();
        assert_eq!((message.role, message.mode), (Role::User, Some(Mode::Selected)));
        assert_eq!(message.selection.as_deref(), Some("Nodes find each other through DDS discovery."));
        assert_eq!(message.persona.as_deref(), Some("beginner"));
        assert_eq!(message.content, "How do nodes discover each other?");
    }

    #[test]
    fn an_admitted_question_begins_with_status_retrieving() {
        let mut turn = Turn::begin(Ok(ask(Mode::Global)));
        assert_eq!(turn.phase(), Phase::Retrieving);
        assert_eq!(turn.ask(), Some(&ask(Mode::Global)));
        assert_eq!(turn.take_events(), [ChatEvent::Status(Status::Retrieving)]);
        // Once only; then retrieval, notices and the final event as for any turn.
        assert!(turn.send(ChatEvent::Status(Status::Retrieving)).is_err());
        turn.notice(NoticeCode::HistoryReset, "reset").unwrap();
        let next = turn.retrieved(Ok(retrieval(Confidence::None)), &[], &with_endpoint(), &SiteOrigins::default());
        let Ok(Next::Conclude(outcome)) = next else { panic!("{next:?}") };
        assert_eq!(names(&turn.take_events()), ["notice"]);
        let (event, _) = end(&mut turn, outcome);
        assert_eq!(event.name(), "done");
    }

    #[test]
    fn a_refused_question_has_one_event_the_error() {
        use crate::query::Invalid;
        for (error, code) in [
            (ChatError::refused(Invalid::EmptyQuestion), "EMPTY_QUESTION"),
            (ChatError::refused(Invalid::RateLimited), "RATE_LIMITED"),
            (ChatError::invalid_config("unknown persona `pirate`"), "INVALID_CONFIG"),
            (ChatError::invalid_argument("not a question"), "INVALID_ARGUMENT"),
        ] {
            let mut turn = Turn::begin(Err(error.clone()));
            assert_eq!(turn.phase(), Phase::Ended);
            assert_eq!(turn.ask(), None);
            let events = turn.take_events();
            assert_eq!(events.len(), 1, "{events:?}");
            // The shape the page has always read: no partial answer, nothing to retry.
            assert_eq!(
                value(&events[0]),
                json!({
                    "type": "error", "code": code, "message": error.message, "suggestion": error.suggestion,
                    "detail": null, "retryable": false, "partial": null,
                })
            );
            // Nothing follows: no status, no retrieval, no second final event; nothing is stored.
            assert!(turn.send(ChatEvent::Status(Status::Retrieving)).is_err());
            assert!(turn.notice(NoticeCode::HistoryNotKept, "m").is_err());
            let next = turn.retrieved(Ok(retrieval(Confidence::High)), &[], &with_endpoint(), &SiteOrigins::default());
            assert_eq!(next, Err(TurnError { event: "retrieval", phase: Phase::Ended }));
            assert!(turn.send(ChatEvent::error(&error, None)).is_err());
            assert_eq!(turn.question("id".into(), "t".into()), None);
            assert!(turn.take_events().is_empty());
        }
    }

    #[test]
    fn the_whole_exchange_from_admission_to_the_final_event_is_in_order() {
        let mut limiter = crate::query::RateLimiter::default();
        let request = super::super::plan::AskRequest { question: "  Why DDS? ".into(), ..Default::default() };
        let mut turn = Turn::begin(request.admit(&mut limiter, 0.0));
        turn.retrieved(Ok(retrieval(Confidence::High)), &[], &with_endpoint(), &SiteOrigins::default()).unwrap();
        turn.token("Through DDS [1].").unwrap();
        let outcome = turn.generated().unwrap();
        let conclusion = turn.conclude(outcome, "id".into(), "t".into());
        turn.end(&conclusion).unwrap();
        assert_eq!(names(&turn.take_events()), ["status retrieving", "status generating", "sources", "token", "done"]);
        // Too soon after: refused by the rate limit, one event.
        let mut refused = Turn::begin(request.admit(&mut limiter, 500.0));
        let events = refused.take_events();
        assert_eq!((names(&events), value(&events[0])["code"].clone()), (vec!["error"], json!("RATE_LIMITED")));
    }
}
