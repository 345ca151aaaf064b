//! `Chat`: the conversation (sessionStorage) and one answer at a time, streamed from the
//! configured endpoint. The rules are the core's (`crate::chat`), and so is the order of the
//! events (`Turn`, `ChatEvent`) from the question's admission to its final event; this file
//! wires them to the browser's clock, randomness, storage and fetch, and hands each event to
//! a JS callback as a plain object.

use super::convert::{from_js, json_of, to_js};
use super::errors::chat_error;
use super::fetch_stream::{stream_completion, Listener, Request, StreamEnd};
use super::storage::Store;
use crate::chat::{
    iso8601, request_body, uuid_v4, AskRequest, ChatConfig, ChatError, ChatErrorCode, Conclusion, Conversation, Next,
    NoticeCode, Outcome, Retrieval, RetrievalFailure, SiteOrigins, Turn, TurnError, TURNSTILE_HEADER,
};
use crate::query::RateLimiter;
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
    notice: Option<(NoticeCode, bool)>,
    limiter: RateLimiter,
    /// The answer being streamed, if any.
    current: Option<AbortController>,
    stop_requested: bool,
}

/// A question `Chat::begin` admitted: its turn, which has told `status retrieving`, and the
/// page's callback, waiting for retrieval. `Chat::answer` takes it.
#[wasm_bindgen]
pub struct AskedQuestion {
    request: AskRequest,
    turn: Turn,
    events: Events,
}

#[wasm_bindgen]
impl AskedQuestion {
    /// The question to retrieve for: trimmed, with its mode, its selection in selected mode,
    /// and its persona.
    #[wasm_bindgen(unchecked_return_type = "AskRequest")]
    pub fn request(&self) -> Result<JsValue, JsError> {
        to_js(&self.request)
    }
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

    /// A copy of the conversation.
    #[wasm_bindgen(unchecked_return_type = "Conversation")]
    pub fn conversation(&self) -> Result<JsValue, JsError> {
        to_js(&self.state.borrow().conversation)
    }

    /// The latest storage notice for the reader, if storage failed.
    #[wasm_bindgen(getter, js_name = storageNotice)]
    pub fn storage_notice(&self) -> Option<String> {
        self.state.borrow().notice.and_then(|(code, _)| code.fixed_message()).map(String::from)
    }

    /// Starts a new, empty conversation (and forgets the stored one).
    #[wasm_bindgen(js_name = newConversation)]
    pub fn new_conversation(&self) {
        let mut state = self.state.borrow_mut();
        state.stop();
        state.conversation = new_conversation();
        state.store.clear();
    }

    /// Begins the turn of a question: admitted (the length limits, a known persona, one
    /// question per 2 seconds), it tells `onEvent` `status retrieving` and returns the
    /// question to retrieve for and to `answer`; refused, `onEvent` gets the `error`, the
    /// turn's only event, and this throws the same error.
    pub fn begin(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AskRequest")] request: JsValue,
        #[wasm_bindgen(js_name = onEvent, unchecked_param_type = "((event: ChatEvent) => void) | undefined")]
        on_event: Option<js_sys::Function>,
    ) -> Result<AskedQuestion, JsError> {
        let events = Events(on_event);
        let admitted = read_request(&request)
            .and_then(|request| request.admit(&mut self.state.borrow_mut().limiter, js_sys::Date::now()));
        let mut turn = Turn::begin(admitted.clone());
        events.flush(&mut turn);
        match admitted {
            Ok(ask) => Ok(AskedQuestion { request: AskRequest::from(&ask), turn, events }),
            Err(error) => Err(chat_error(&error)),
        }
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
                page: question.page.clone(),
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

    /// Answers a question `begin` admitted from what retrieval returned (`retrieval`, or
    /// `retrievalError`), going on with its turn and its `onEvent`. Resolves with the
    /// Response; rejects with a coded error (the question and any partial answer are kept).
    /// `turnstile`: a Cloudflare Turnstile token for the site's proxy, sent with this request
    /// only (a token is spent once verified).
    #[wasm_bindgen(unchecked_return_type = "Promise<ChatResponse>")]
    pub fn answer(
        &self,
        asked: AskedQuestion,
        retrieval: JsValue,
        #[wasm_bindgen(js_name = retrievalError)] retrieval_error: JsValue,
        turnstile: Option<String>,
    ) -> Result<js_sys::Promise, JsError> {
        // null and undefined read as None.
        let retrieval: Option<Retrieval> = from_js(retrieval)?;
        // The reader's abort arrives as the JS API's ABORTED error and is read as such here.
        let failure: Option<RetrievalFailure> = from_js(retrieval_error)?;
        let state = self.state.clone();
        let AskedQuestion { turn, events, .. } = asked;
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            run(state, turn, retrieval, failure, turnstile, events).await
        }))
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

    fn save(&mut self) -> Option<NoticeCode> {
        let notice = self.store.save(&self.conversation);
        if let Some(n) = notice {
            self.notice = Some((n, true));
        }
        notice
    }

    /// The notice still to be told, marking it told.
    fn untold_notice(&mut self) -> Option<NoticeCode> {
        match &mut self.notice {
            Some((notice, pending @ true)) => {
                *pending = false;
                Some(*notice)
            }
            _ => None,
        }
    }
}

/// The page's request as the core reads it; a value JSON cannot carry is refused like any
/// request that is not a question.
fn read_request(request: &JsValue) -> Result<AskRequest, ChatError> {
    if request.is_undefined() {
        return Ok(AskRequest::default());
    }
    let json = json_of(request).map_err(|_| ChatError::invalid_argument("the question is not a JSON object"))?;
    AskRequest::from_json(&json)
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

/// The page's `onEvent`, if it gave one.
struct Events(Option<js_sys::Function>);

impl Events {
    /// Sends the turn's pending events to the page's callback; a callback that throws does
    /// not break the answer.
    fn flush(&self, turn: &mut Turn) {
        let events = turn.take_events();
        let Some(callback) = &self.0 else { return };
        for event in events {
            if let Ok(value) = to_js(&event) {
                if let Err(e) = callback.call1(&JsValue::NULL, &value) {
                    web_sys::console::error_2(&"Lectern: onEvent threw".into(), &e);
                }
            }
        }
    }
}

/// A step the turn refused: a bug here, so it is logged and the answer goes on without it.
fn out_of_turn(error: TurnError) {
    web_sys::console::error_1(&format!("Lectern: {error}").into());
}

/// A turn that cannot go on (a bug here): the promise rejects with a coded error.
fn internal(error: TurnError) -> JsValue {
    let js: JsValue = JsError::new(&format!("Lectern: {error}")).into();
    for key in ["name", "code"] {
        let _ = js_sys::Reflect::set(&js, &key.into(), &ChatErrorCode::Internal.as_str().into());
    }
    js
}

/// The storage notice as the turn tells it.
fn tell(turn: &mut Turn, code: NoticeCode) {
    if let Some(message) = code.fixed_message() {
        turn.notice(code, message).unwrap_or_else(out_of_turn);
    }
}

/// The whole answer: the core's `Turn` decides and orders the events; this stores the
/// question and the answer, streams from the endpoint and sends the events on.
async fn run(
    state: Rc<RefCell<State>>,
    mut turn: Turn,
    retrieval: Option<Retrieval>,
    failure: Option<RetrievalFailure>,
    turnstile: Option<String>,
    events: Events,
) -> Result<JsValue, JsValue> {
    {
        let mut s = state.borrow_mut();
        s.stop(); // one answer at a time: a newer question stops the older one
        s.stop_requested = false;
        if let Some(question) = turn.question(new_id(), now()) {
            s.conversation.push(question);
            s.save();
        }
        if let Some(notice) = s.untold_notice() {
            tell(&mut turn, notice);
        }
    }
    events.flush(&mut turn);

    let retrieval = match failure {
        Some(failure) => Err(failure),
        None => Ok(retrieval.unwrap_or_default()),
    };
    let next = {
        let s = state.borrow();
        turn.retrieved(retrieval, &s.conversation.history_for_llm(), &s.config, &s.site)
    };
    events.flush(&mut turn);
    let turns = match next.map_err(internal)? {
        Next::Conclude(outcome) => return finish(&state, turn, outcome, &events),
        Next::Generate(turns) => turns,
    };

    let Ok(controller) = AbortController::new() else {
        let outcome = turn.failed(ChatError::network("this browser cannot abort requests")).map_err(internal)?;
        return finish(&state, turn, outcome, &events);
    };
    let (endpoint, headers, body, slow_after_ms, timeout_ms) = {
        let mut s = state.borrow_mut();
        s.current = Some(controller.clone());
        let c = &s.config;
        let mut headers = c.headers.clone();
        if let Some(token) = turnstile.filter(|t| !t.is_empty()) {
            headers.insert(TURNSTILE_HEADER.into(), token);
        }
        (c.endpoint.clone().unwrap_or_default(), headers, request_body(c, &turns), c.slow_after_ms, c.timeout_ms)
    };
    let request = Request { endpoint: &endpoint, headers: &headers, body: &body, slow_after_ms, timeout_ms };
    let mut listener = StreamListener { state: &state, events: &events, turn: &mut turn };
    let end = stream_completion(&request, &controller, &mut listener).await;
    {
        let mut s = state.borrow_mut();
        if s.current.as_ref() == Some(&controller) {
            s.current = None;
        }
    }
    let outcome = match end {
        StreamEnd::Done => turn.generated(),
        StreamEnd::Refused => turn.refused(),
        StreamEnd::Stopped => turn.stopped(),
        StreamEnd::Unreachable(error) => turn.unreachable(error),
        StreamEnd::Failed(error) => turn.failed(error),
    };
    events.flush(&mut turn);
    finish(&state, turn, outcome.map_err(internal)?, &events)
}

struct StreamListener<'a> {
    state: &'a Rc<RefCell<State>>,
    events: &'a Events,
    turn: &'a mut Turn,
}

impl Listener for StreamListener<'_> {
    fn slow(&mut self) {
        self.turn.slow().unwrap_or_else(out_of_turn);
        self.events.flush(self.turn);
    }

    fn token(&mut self, text: &str) {
        self.turn.token(text).unwrap_or_else(out_of_turn);
        self.events.flush(self.turn);
    }

    fn stop_requested(&self) -> bool {
        self.state.borrow().stop_requested
    }
}

/// Stores the answer for `outcome`, then sends the final event and resolves (done) or
/// rejects (error, with the partial answer).
fn finish(state: &Rc<RefCell<State>>, mut turn: Turn, outcome: Outcome, events: &Events) -> Result<JsValue, JsValue> {
    let conclusion = turn.conclude(outcome, new_id(), now());
    {
        let mut s = state.borrow_mut();
        s.conversation.push(conclusion.message().clone());
        s.save();
        // Told once: were it left pending, the next question would tell it again.
        if let Some(notice) = s.untold_notice() {
            tell(&mut turn, notice);
        }
    }
    turn.end(&conclusion).map_err(internal)?;
    events.flush(&mut turn);
    match &conclusion {
        Conclusion::Answered(response) => to_js(response).map_err(JsValue::from),
        Conclusion::Failed { error, .. } => {
            let js: JsValue = chat_error(error).into();
            if let Some(partial) = conclusion.partial() {
                let _ = js_sys::Reflect::set(&js, &"partial".into(), &partial.into());
            }
            Err(js)
        }
    }
}
