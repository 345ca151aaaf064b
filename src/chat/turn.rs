//! One answer's turn, in order: `status retrieving` once the question is admitted, sources
//! and status, the answer's text, then exactly one `done` or `error` (a refused question's only
//! event), refusing anything out of turn (no token once the end is decided, nothing after the
//! final event). The events themselves are `events.rs`; how the turn ended is an [`Outcome`]
//! (`outcome.rs`). No I/O: the wasm facade supplies ids, the clock, storage and the stream,
//! and sends the events this produces.

use super::config::ChatConfig;
use super::conversation::{Message, Role};
use super::degraded::AnswerNote;
use super::error::ChatError;
use super::events::{ChatEvent, NoticeCode, Status};
use super::outcome::{Conclusion, Outcome};
use super::plan::{
    finish_answer, notes_for, plan, refusal_message, Ask, Plan, Retrieval, RetrievalFailure, SLOW_MESSAGE,
};
use super::prompt::ChatTurn;
use super::sources::{shown_sources, SiteOrigins, SourceReference};
use crate::query::Mode;
use crate::search::Confidence;

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
    /// The answer when the LLM says the context does not hold one (naming the site).
    refusal: String,
    text: String,
    /// Said under the answer: it rests on part of what retrieval should have given.
    notes: Vec<AnswerNote>,
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
            refusal: String::new(),
            text: String::new(),
            notes: Vec::new(),
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

    /// The question as stored: its mode, selection, persona and page with it (`None` when refused:
    /// a refused question is not stored).
    pub fn question(&self, id: String, timestamp: String) -> Option<Message> {
        let ask = self.ask.as_ref()?;
        let mut message = Message::new(id, Role::User, &ask.question, timestamp);
        message.mode = Some(ask.mode);
        message.selection = ask.selection.clone();
        message.persona = Some(ask.persona.id().to_string());
        message.page = ask.page.clone();
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
            Err(RetrievalFailure::Failed { code, told, detail, technical }) => {
                self.phase = Phase::Concluding;
                let error = ChatError::retrieval(told, detail.or(Some(code)), technical);
                return Ok(Next::Conclude(self.outcome_failed(error)));
            }
        };
        self.retrieved = retrieval.chunks.len();
        let plan = plan(ask, &retrieval, history, config, site);
        if matches!(plan, Plan::Generate { .. } | Plan::Extract { .. }) {
            self.notes = notes_for(&retrieval, site);
        }
        match plan {
            Plan::Fail { error } => {
                self.phase = Phase::Concluding;
                Ok(Next::Conclude(self.outcome_failed(error)))
            }
            Plan::Links { answer, sources, confidence, error } => {
                self.send(ChatEvent::Sources { citations: sources.clone() })?;
                self.send(ChatEvent::Token { content: answer.clone() })?;
                self.phase = Phase::Concluding;
                let retrieved = self.retrieved;
                Ok(Next::Conclude(Outcome::Links { text: answer, sources, confidence, retrieved, error }))
            }
            Plan::Refuse { answer, confidence, chunks_retrieved } => {
                self.phase = Phase::Concluding;
                Ok(Next::Conclude(Outcome::Refused { text: answer, confidence, retrieved: chunks_retrieved }))
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
                self.refusal = refusal_message(&config.site_name());
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

    /// The LLM answered that the context does not hold the answer (its refusal marker): the
    /// refusal, as when retrieval finds nothing, with no source.
    pub fn refused(&mut self) -> Result<Outcome, TurnError> {
        self.conclude_stream("refused")?;
        Ok(Outcome::Refused {
            text: std::mem::take(&mut self.refusal),
            confidence: Confidence::None,
            retrieved: self.retrieved,
        })
    }

    /// The reader stopped the stream: what arrived stays as the answer.
    pub fn stopped(&mut self) -> Result<Outcome, TurnError> {
        self.conclude_stream("stopped")?;
        Ok(self.stopped_now())
    }

    /// No LLM to be had (no HTTP response, or the site's proxy refused the question: a limit,
    /// the robot check): the excerpts answer instead, and the reader is told — for a refusal,
    /// with what to do, since its words (when to come back) are its own.
    pub fn unreachable(&mut self, error: ChatError) -> Result<Outcome, TurnError> {
        if self.phase != Phase::Answering || !self.generating {
            return Err(TurnError { event: "unreachable", phase: self.phase });
        }
        let told = if error.refused_by_proxy() {
            format!("{} {}", error.message, error.suggestion)
        } else {
            error.message.clone()
        };
        self.notice(NoticeCode::LlmUnavailable, &told)?;
        let excerpts = std::mem::take(&mut self.excerpts);
        self.token(&excerpts)?;
        self.phase = Phase::Concluding;
        Ok(Outcome::Extracted {
            sources: shown_sources(&excerpts, &self.sources),
            text: excerpts,
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
        let mode = self.ask.as_ref().map_or(Mode::Global, |ask| ask.mode);
        outcome.conclude(mode, id, timestamp, self.notes.clone())
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
            sources: shown_sources(&self.text, &self.sources),
            text: std::mem::take(&mut self.text),
            confidence: self.confidence,
            retrieved: self.retrieved,
        }
    }

    fn outcome_failed(&mut self, error: ChatError) -> Outcome {
        Outcome::Failed {
            error,
            sources: shown_sources(&self.text, &self.sources),
            text: std::mem::take(&mut self.text),
            confidence: self.confidence,
            retrieved: self.retrieved,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::conversation::{AnswerKind, MessageStatus};
    use super::super::error::ChatErrorCode;
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
            page: None,
        }
    }

    fn retrieval(confidence: Confidence) -> Retrieval {
        Retrieval {
            confidence: Some(confidence),
            chunks: vec![
                chunk("a", "/a", "Nodes discover each other through DDS.", 0.7),
                chunk("b", "/b", "Topics carry messages.", 0.5),
            ],
            ..Retrieval::default()
        }
    }

    fn with_endpoint() -> ChatConfig {
        ChatConfig { endpoint: Some("http://127.0.0.1:1/v1/chat/completions".into()), ..ChatConfig::default() }
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
    fn the_llms_refusal_marker_ends_the_turn_as_the_refusal() {
        let mut turn = generating();
        let outcome = turn.refused().unwrap();
        let (event, conclusion) = end(&mut turn, outcome);
        let response = &value(&event)["response"];
        assert_eq!((response["kind"].as_str(), response["confidence"].as_str()), (Some("refusal"), Some("none")));
        assert_eq!(response["answer"], "I couldn't find information about this topic on this site.");
        assert_eq!(response["sources"].as_array().map(Vec::len), Some(0));
        assert!(response["suggestion"].is_string());
        assert_eq!(conclusion.message().kind, Some(AnswerKind::Refusal));
        assert!(turn.refused().is_err(), "once only");
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
        let failure =
            RetrievalFailure::Failed { code: "INDEX_UNAVAILABLE".into(), told: None, detail: None, technical: None };
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
        assert_eq!(value(&event)["response"]["kind"], "refusal");
        assert_eq!(conclusion.message().kind, Some(AnswerKind::Refusal));
    }

    #[test]
    fn unreadable_sections_come_as_links_with_a_retry_never_as_the_refusal() {
        let mut unread = retrieval(Confidence::High);
        for chunk in &mut unread.chunks {
            chunk.text = None;
        }
        let mut turn = Turn::new(Some(ask(Mode::Global)));
        let next = turn.retrieved(Ok(unread), &[], &with_endpoint(), &SiteOrigins::default());
        let Ok(Next::Conclude(outcome)) = next else { panic!("{next:?}") };
        assert_eq!(names(&turn.take_events()), ["sources", "token"]);
        let (event, conclusion) = end(&mut turn, outcome);
        let response = &value(&event)["response"];
        assert_eq!((response["kind"].as_str(), response["confidence"].as_str()), (Some("links"), Some("low")));
        assert_eq!(response["sources"][0]["unread"], true);
        let message = conclusion.message();
        assert_eq!(message.error.as_ref().map(|e| e.action), Some(crate::advice::Action::Retry));

        // Half of them read: the answer is generated, with a note under it.
        let mut half = retrieval(Confidence::High);
        half.chunks[0].text = None;
        let mut turn = Turn::new(Some(ask(Mode::Global)));
        turn.retrieved(Ok(half), &[], &with_endpoint(), &SiteOrigins::default()).unwrap();
        turn.token("Topics [2].").unwrap();
        let outcome = turn.generated().unwrap();
        let (event, _) = end(&mut turn, outcome);
        assert_eq!(value(&event)["response"]["notes"][0]["code"], "SOURCES_UNREAD");
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
    fn a_proxy_refusal_answers_with_the_excerpts_and_says_when_to_come_back() {
        let mut turn = generating();
        let refusal = ChatError::service(429, None, Some("SITE_BUDGET_EXHAUSTED"), Some(7200.0));
        let outcome = turn.unreachable(refusal).unwrap();
        let events = turn.take_events();
        assert_eq!(names(&events), ["notice", "token"]);
        let told = value(&events[0])["message"].as_str().unwrap_or_default().to_string();
        assert!(
            told.starts_with("This site's assistant has reached its limit for today; come back in about 2 hours."),
            "{told}"
        );
        assert!(told.ends_with("answers quote the site itself."), "{told}");
        let (event, conclusion) = end(&mut turn, outcome);
        assert_eq!(value(&event)["response"]["kind"], "extractive");
        assert_eq!(
            conclusion.message().error.as_ref().and_then(|e| e.detail.as_deref()),
            Some("SITE_BUDGET_EXHAUSTED")
        );
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
            (ChatError::rate_limited(crate::query::RateLimited { wait_ms: 500.0 }), "RATE_LIMITED"),
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
                    "action": error.action, "detail": null, "technical": error.technical, "retryable": false,
                    "partial": null,
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
