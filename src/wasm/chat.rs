//! `Chat`: the conversation (sessionStorage) and one answer at a time, streamed from the
//! configured endpoint. The rules are the core's (`crate::chat`); this file wires them to
//! the browser's clock, randomness, storage and fetch, and reports events to a JS callback.

use super::convert::{from_js, json_of, to_js};
use super::errors::{chat_error, invalid_error};
use super::fetch_stream::{stream_completion, Listener, Request, StreamEnd};
use super::storage::{Notice, Store};
use crate::chat::{
    finish_answer, iso8601, plan, request_body, uuid_v4, AnswerKind, Ask, ChatConfig, ChatError, Conversation, Message,
    MessageError, MessageStatus, Persona, Plan, Retrieval, Role, SiteOrigins, SourceReference, REFUSAL_MESSAGE,
    REFUSAL_SUGGESTION,
};
use crate::query::{self, Invalid, Mode, RateLimiter};
use crate::search::Confidence;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::AbortController;

#[wasm_bindgen]
pub struct Chat {
    state: Rc<RefCell<State>>,
}

struct State {
    config: ChatConfig,
    site: SiteOrigins,
    conversation: Conversation,
    store: Store,
    /// The latest storage notice, and whether it still has to be sent as an event.
    notice: Option<(Notice, bool)>,
    limiter: RateLimiter,
    /// The answer being streamed, if any.
    current: Option<AbortController>,
    stop_requested: bool,
}

/// A question as the JS API passes it (validated by `Chat::validate`).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
struct AskRequest {
    question: String,
    mode: Mode,
    #[serde(skip_serializing_if = "Option::is_none")]
    selection: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    persona: Option<String>,
}

/// Why retrieval failed, as the JS API's error reports it.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RetrievalFailure {
    code: String,
    message: String,
    detail: Option<String>,
}

#[derive(Serialize)]
struct Response<'a> {
    answer: &'a str,
    sources: &'a [SourceReference],
    confidence: Confidence,
    mode_used: Mode,
    chunks_retrieved: usize,
    kind: AnswerKind,
    status: MessageStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<&'static str>,
    message: &'a Message,
}

#[wasm_bindgen]
impl Chat {
    /// Reads the options (see chat.d.ts; an API key in them is refused) and the stored
    /// conversation of this tab.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Chat, JsError> {
        let config = ChatConfig::from_json(&json_of(&options)?).map_err(|e| chat_error(&e))?;
        let site = SiteOrigins::new(&config.site_origins);
        let (store, stored, notice) = Store::open(&config.storage_key);
        let conversation = stored.unwrap_or_else(new_conversation);
        let state = State {
            config,
            site,
            conversation,
            store,
            notice: notice.map(|n| (n, true)),
            limiter: RateLimiter::default(),
            current: None,
            stop_requested: false,
        };
        Ok(Chat { state: Rc::new(RefCell::new(state)) })
    }

    /// A copy of the conversation (SPEC.md's Conversation).
    #[wasm_bindgen(unchecked_return_type = "Conversation")]
    pub fn conversation(&self) -> Result<JsValue, JsError> {
        to_js(&self.state.borrow().conversation)
    }

    /// The latest storage notice for the reader, if storage failed.
    #[wasm_bindgen(getter, js_name = storageNotice)]
    pub fn storage_notice(&self) -> Option<String> {
        self.state.borrow().notice.map(|(n, _)| n.message().to_string())
    }

    /// Starts a new, empty conversation (and forgets the stored one).
    #[wasm_bindgen(js_name = newConversation)]
    pub fn new_conversation(&self) {
        let mut state = self.state.borrow_mut();
        state.stop();
        state.conversation = new_conversation();
        state.store.clear();
    }

    /// Checks a question (SPEC.md's limits and 1 per 2 seconds) and returns it trimmed.
    pub fn validate(&self, request: JsValue) -> Result<JsValue, JsError> {
        let request: AskRequest = from_js(request)?;
        let ask = to_ask(&request).map_err(invalid_error)?;
        if let Some(persona) = request.persona.as_deref().filter(|p| Persona::from_id(p).is_none()) {
            let message = format!(
                "unknown persona `{persona}` (general, beginner, software_engineer, robotics_student, ai_researcher)"
            );
            return Err(chat_error(&ChatError::invalid_config(message)));
        }
        self.state.borrow_mut().limiter.admit(js_sys::Date::now()).map_err(invalid_error)?;
        to_js(&AskRequest {
            question: ask.question,
            mode: ask.mode,
            selection: ask.selection,
            persona: Some(ask.persona.id().to_string()),
        })
    }

    /// The question of the last exchange if it failed or was stopped (for a retry), else null.
    #[wasm_bindgen(js_name = unfinishedQuestion)]
    pub fn unfinished_question(&self) -> Result<JsValue, JsError> {
        match self.state.borrow().conversation.unfinished_question() {
            Some(question) => to_js(&AskRequest {
                question: question.content.clone(),
                mode: question.mode.unwrap_or_default(),
                selection: question.selection.clone(),
                persona: question.persona.clone(),
            }),
            None => Ok(JsValue::NULL),
        }
    }

    /// Removes the last exchange if it failed or was stopped (a retry replaces it).
    #[wasm_bindgen(js_name = dropUnfinished)]
    pub fn drop_unfinished(&self) {
        let mut state = self.state.borrow_mut();
        if state.conversation.take_unfinished_question().is_some() {
            state.save();
        }
    }

    /// Answers a validated question from what retrieval returned (`retrieval`, or
    /// `retrievalError`), reporting events to `onEvent`. Resolves with the Response;
    /// rejects with a coded error (the question and any partial answer are kept).
    #[wasm_bindgen(unchecked_return_type = "Promise<ChatResponse>")]
    pub fn answer(
        &self,
        request: JsValue,
        retrieval: JsValue,
        #[wasm_bindgen(js_name = retrievalError)] retrieval_error: JsValue,
        #[wasm_bindgen(js_name = onEvent)] on_event: js_sys::Function,
    ) -> Result<js_sys::Promise, JsError> {
        let request: AskRequest = from_js(request)?;
        let ask = to_ask(&request).map_err(invalid_error)?;
        // null and undefined read as None.
        let retrieval: Option<Retrieval> = from_js(retrieval)?;
        let failure: Option<RetrievalFailure> = from_js(retrieval_error)?;
        let state = self.state.clone();
        let events = Events(on_event);
        Ok(wasm_bindgen_futures::future_to_promise(async move { run(state, ask, retrieval, failure, events).await }))
    }

    /// Stops the answer being streamed; what has arrived stays.
    pub fn stop(&self) {
        self.state.borrow_mut().stop();
    }
}

impl State {
    fn stop(&mut self) {
        if let Some(controller) = self.current.take() {
            self.stop_requested = true;
            controller.abort();
        }
    }

    fn save(&mut self) -> Option<Notice> {
        let notice = self.store.save(&self.conversation);
        if let Some(n) = notice {
            self.notice = Some((n, true));
        }
        notice
    }

    /// The notice still to be told, marking it told.
    fn untold_notice(&mut self) -> Option<Notice> {
        match &mut self.notice {
            Some((notice, pending @ true)) => {
                *pending = false;
                Some(*notice)
            }
            _ => None,
        }
    }
}

fn to_ask(request: &AskRequest) -> Result<Ask, Invalid> {
    let question = query::question(&request.question)?.to_string();
    let selection = match request.mode {
        Mode::Selected => Some(query::selection(request.selection.as_deref().unwrap_or_default())?.to_string()),
        Mode::Global => None,
    };
    let persona = request.persona.as_deref().and_then(Persona::from_id).unwrap_or_default();
    Ok(Ask { question, mode: request.mode, selection, persona })
}

fn new_id() -> String {
    let mut bytes = [0u8; 16];
    // getrandom reads crypto.getRandomValues; were it ever missing, Math.random is enough
    // for a message id, which is not a secret.
    if getrandom_02::getrandom(&mut bytes).is_err() {
        for b in &mut bytes {
            *b = (js_sys::Math::random() * 256.0) as u8;
        }
    }
    uuid_v4(bytes)
}

fn now() -> String {
    iso8601(js_sys::Date::now())
}

fn new_conversation() -> Conversation {
    Conversation::new(new_id(), now())
}

struct Events(js_sys::Function);

impl Events {
    /// Calls the page's callback; a callback that throws does not break the answer.
    fn emit(&self, event: serde_json::Value) {
        if let Ok(value) = to_js(&event) {
            if let Err(e) = self.0.call1(&JsValue::NULL, &value) {
                web_sys::console::error_2(&"Lectern: onEvent threw".into(), &e);
            }
        }
    }

    fn notice(&self, notice: Notice) {
        self.emit(json!({ "type": "notice", "code": notice.code(), "message": notice.message() }));
    }
}

/// The whole answer: store the question, decide, stream or not, store the answer.
async fn run(
    state: Rc<RefCell<State>>,
    ask: Ask,
    retrieval: Option<Retrieval>,
    failure: Option<RetrievalFailure>,
    events: Events,
) -> Result<JsValue, JsValue> {
    let mut user = Message::new(new_id(), Role::User, &ask.question, now());
    user.mode = Some(ask.mode);
    user.selection = ask.selection.clone();
    user.persona = Some(ask.persona.id().to_string());
    {
        let mut s = state.borrow_mut();
        s.stop(); // one answer at a time: a newer question stops the older one
        s.stop_requested = false;
        s.conversation.push(user);
        s.save();
        if let Some(notice) = s.untold_notice() {
            events.notice(notice);
        }
    }

    let finish = |outcome: Outcome| finish(&state, &ask, outcome, &events);
    if let Some(failure) = failure {
        if failure.code == "ABORTED" {
            return finish(Outcome::Stopped {
                text: String::new(),
                sources: Vec::new(),
                confidence: Confidence::None,
                retrieved: 0,
            });
        }
        let error = ChatError::retrieval(failure.message, failure.detail.or(Some(failure.code)));
        return finish(Outcome::Failed {
            error,
            text: String::new(),
            sources: Vec::new(),
            confidence: Confidence::None,
            retrieved: 0,
        });
    }
    let retrieval = retrieval.unwrap_or_default();
    let retrieved = retrieval.chunks.len();
    let decided = {
        let s = state.borrow();
        let history = s.conversation.history_for_llm();
        plan(&ask, &retrieval, &history, &s.config, &s.site)
    };
    let (turns, sources, confidence, excerpts) = match decided {
        Plan::Refuse { confidence, chunks_retrieved } => {
            return finish(Outcome::Refused { confidence, retrieved: chunks_retrieved });
        }
        Plan::Extract { answer, sources, confidence } => {
            events.emit(json!({ "type": "sources", "citations": sources }));
            events.emit(json!({ "type": "token", "content": answer }));
            return finish(Outcome::Extracted { text: answer, sources, confidence, retrieved, error: None });
        }
        Plan::Generate { turns, sources, confidence, excerpts } => (turns, sources, confidence, excerpts),
    };

    events.emit(json!({ "type": "status", "state": "generating" }));
    events.emit(json!({ "type": "sources", "citations": sources }));
    let controller = match AbortController::new() {
        Ok(c) => c,
        Err(_) => {
            let error = ChatError::network("this browser cannot abort requests");
            return finish(Outcome::Failed { error, text: String::new(), sources, confidence, retrieved });
        }
    };
    let (endpoint, headers, body, slow_after_ms, timeout_ms) = {
        let mut s = state.borrow_mut();
        s.current = Some(controller.clone());
        let c = &s.config;
        (
            c.endpoint.clone().unwrap_or_default(),
            c.headers.clone(),
            request_body(c, &turns),
            c.slow_after_ms,
            c.timeout_ms,
        )
    };
    let request = Request { endpoint: &endpoint, headers: &headers, body: &body, slow_after_ms, timeout_ms };
    let mut listener = StreamListener { state: &state, events: &events, text: String::new() };
    let end = stream_completion(&request, &controller, &mut listener).await;
    let text = listener.text;
    {
        let mut s = state.borrow_mut();
        if s.current.as_ref() == Some(&controller) {
            s.current = None;
        }
    }
    match end {
        StreamEnd::Done => {
            let (answer, cited) = finish_answer(&text, &sources);
            finish(Outcome::Generated { text: answer, sources: cited, confidence, retrieved })
        }
        StreamEnd::Stopped => finish(Outcome::Stopped { text, sources, confidence, retrieved }),
        StreamEnd::Unreachable(error) => {
            // No LLM to be had: the excerpts answer instead (SPEC's extractive mode).
            events.emit(json!({ "type": "notice", "code": "LLM_UNAVAILABLE", "message": error.message }));
            events.emit(json!({ "type": "token", "content": excerpts }));
            finish(Outcome::Extracted { text: excerpts, sources, confidence, retrieved, error: Some(error) })
        }
        StreamEnd::Failed(error) => finish(Outcome::Failed { error, text, sources, confidence, retrieved }),
    }
}

struct StreamListener<'a> {
    state: &'a Rc<RefCell<State>>,
    events: &'a Events,
    text: String,
}

impl Listener for StreamListener<'_> {
    fn slow(&mut self) {
        self.events.emit(json!({ "type": "status", "state": "slow", "message": crate::chat::SLOW_MESSAGE }));
    }

    fn token(&mut self, text: &str) {
        self.text.push_str(text);
        self.events.emit(json!({ "type": "token", "content": text }));
    }

    fn stop_requested(&self) -> bool {
        self.state.borrow().stop_requested
    }
}

enum Outcome {
    Refused {
        confidence: Confidence,
        retrieved: usize,
    },
    Extracted {
        text: String,
        sources: Vec<SourceReference>,
        confidence: Confidence,
        retrieved: usize,
        error: Option<ChatError>,
    },
    Generated {
        text: String,
        sources: Vec<SourceReference>,
        confidence: Confidence,
        retrieved: usize,
    },
    Stopped {
        text: String,
        sources: Vec<SourceReference>,
        confidence: Confidence,
        retrieved: usize,
    },
    Failed {
        error: ChatError,
        text: String,
        sources: Vec<SourceReference>,
        confidence: Confidence,
        retrieved: usize,
    },
}

/// Stores the assistant message for `outcome` and resolves (done) or rejects (error).
fn finish(state: &Rc<RefCell<State>>, ask: &Ask, outcome: Outcome, events: &Events) -> Result<JsValue, JsValue> {
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
        Outcome::Extracted { text, sources, confidence, retrieved, error } => {
            (AnswerKind::Extractive, MessageStatus::Complete, text, sources, confidence, retrieved, error)
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
    let mut message = Message::new(new_id(), Role::Assistant, &text, now());
    message.sources = Some(sources.clone());
    message.confidence = Some(confidence);
    message.kind = Some(kind);
    message.status = Some(status);
    message.error = error.as_ref().map(|e| MessageError::new(e.code, &e.message, &e.suggestion, e.detail.as_deref()));
    {
        let mut s = state.borrow_mut();
        s.conversation.push(message.clone());
        if let Some(notice) = s.save() {
            events.notice(notice);
        }
    }
    let failed = status == MessageStatus::Error;
    let response = Response {
        answer: &message.content,
        sources: &sources,
        confidence,
        mode_used: ask.mode,
        chunks_retrieved: retrieved,
        kind,
        status,
        suggestion: (kind == AnswerKind::Refusal).then_some(REFUSAL_SUGGESTION),
        message: &message,
    };
    match (failed, error) {
        (true, Some(error)) => {
            let partial = (!message.content.is_empty()).then_some(message.content.as_str());
            events.emit(json!({
                "type": "error", "code": error.code.as_str(), "message": error.message, "suggestion": error.suggestion,
                "detail": error.detail, "retryable": error.retryable, "partial": partial,
            }));
            let js: JsValue = chat_error(&error).into();
            if let Some(partial) = partial {
                let _ = js_sys::Reflect::set(&js, &"partial".into(), &partial.into());
            }
            Err(js)
        }
        _ => {
            let value = to_js(&response).map_err(JsValue::from)?;
            events.emit(json!({ "type": "done", "response": serde_json::to_value(&response).unwrap_or_default() }));
            Ok(value)
        }
    }
}
