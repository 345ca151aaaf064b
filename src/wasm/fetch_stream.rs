//! `POST` to an OpenAI-compatible endpoint and read its streamed body as it arrives
//! (fetch + `ReadableStream` reader), under two clocks: a "slow" notice when no first token
//! has come after a while, and a limit on waiting (for the first token, then between
//! pieces) after which the request is aborted. Parsing is the core's (`CompletionStream`).

use crate::chat::{ChatError, CompletionStream, StreamStep, RETRY_AFTER_HEADER};
use js_sys::{Promise, Reflect, Uint8Array};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, Headers, ReadableStreamDefaultReader, RequestInit, Response};

#[wasm_bindgen]
extern "C" {
    // The global functions, so this works on a page and in a worker alike.
    #[wasm_bindgen(js_name = fetch)]
    fn fetch_with_init(url: &str, init: &RequestInit) -> Promise;
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(callback: &js_sys::Function, ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
}

pub struct Request<'a> {
    pub endpoint: &'a str,
    pub headers: &'a BTreeMap<String, String>,
    pub body: &'a str,
    pub slow_after_ms: f64,
    pub timeout_ms: f64,
}

/// How a stream ended.
pub enum StreamEnd {
    Done,
    /// The LLM answered with the refusal marker: the context does not hold the answer.
    Refused,
    /// The reader stopped it (the abort came from `stop`).
    Stopped,
    /// No HTTP response at all: the endpoint is unreachable.
    Unreachable(ChatError),
    Failed(ChatError),
}

/// What the caller hears while the answer streams.
pub trait Listener {
    fn slow(&mut self);
    fn token(&mut self, text: &str);
    /// Whether the reader asked to stop (checked when an abort surfaces).
    fn stop_requested(&self) -> bool;
}

pub async fn stream_completion(
    request: &Request<'_>,
    controller: &AbortController,
    listener: &mut dyn Listener,
) -> StreamEnd {
    let mut clock = Clock::new(request.slow_after_ms, request.timeout_ms);
    let response = match clock.wait(fetch(request, controller), controller, listener).await {
        Waited::Value(value) => value.unchecked_into::<Response>(),
        Waited::TimedOut(error) => return StreamEnd::Failed(error),
        Waited::Rejected(_) if listener.stop_requested() => return StreamEnd::Stopped,
        Waited::Rejected(reason) => return StreamEnd::Unreachable(ChatError::network(&reason_text(&reason))),
    };
    if !response.ok() {
        // The proxy exposes Retry-After to the page (its CORS headers, by this same name).
        // Whole seconds (the form the proxy sends; an HTTP date is not read): an integer
        // parse, since a float's would add its parser to the module.
        let retry_after = response
            .headers()
            .get(RETRY_AFTER_HEADER)
            .ok()
            .flatten()
            .and_then(|v| v.trim().parse::<u32>().ok())
            .map(f64::from);
        let (message, code) = match response.text() {
            Ok(text) => match clock.wait(text, controller, listener).await {
                Waited::Value(text) => text.as_string().map(|t| service_error(&t)).unwrap_or_default(),
                _ => (None, None),
            },
            Err(_) => (None, None),
        };
        let error = ChatError::service(response.status(), message.as_deref(), code.as_deref(), retry_after);
        // A refusal by the site's proxy: the LLM was not asked, the answer is the excerpts.
        return if error.refused_by_proxy() { StreamEnd::Unreachable(error) } else { StreamEnd::Failed(error) };
    }
    let mut parser = CompletionStream::new();
    let Some(body) = response.body() else {
        return finish(&mut parser, listener);
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    loop {
        let chunk = match clock.wait(reader.read(), controller, listener).await {
            Waited::Value(chunk) => chunk,
            Waited::TimedOut(error) => return StreamEnd::Failed(error),
            Waited::Rejected(_) if listener.stop_requested() => return StreamEnd::Stopped,
            Waited::Rejected(_) => {
                return StreamEnd::Failed(ChatError::bad_stream(
                    "CUT",
                    "The connection broke before the answer was complete.",
                ))
            }
        };
        if Reflect::get(&chunk, &"done".into()).ok().is_some_and(|d| d.is_truthy()) {
            return finish(&mut parser, listener);
        }
        let Some(bytes) = Reflect::get(&chunk, &"value".into()).ok().and_then(|v| v.dyn_into::<Uint8Array>().ok())
        else {
            continue;
        };
        match deliver(parser.feed(&bytes.to_vec()), &mut clock, listener) {
            Some(end) => {
                // Complete or broken: whatever follows is not read.
                let _ = reader.cancel();
                controller.abort();
                return end;
            }
            None => continue,
        }
    }
}

fn finish(parser: &mut CompletionStream, listener: &mut dyn Listener) -> StreamEnd {
    let mut clock = Clock::new(f64::INFINITY, f64::INFINITY);
    deliver(parser.finish(), &mut clock, listener).unwrap_or(StreamEnd::Done)
}

/// Passes tokens on; how the stream ended once it has (done or failed), else None.
fn deliver(steps: Vec<StreamStep>, clock: &mut Clock, listener: &mut dyn Listener) -> Option<StreamEnd> {
    let mut end = None;
    for step in steps {
        match step {
            StreamStep::Token(text) => {
                clock.token_arrived();
                listener.token(&text);
            }
            StreamStep::Done => end = Some(StreamEnd::Done),
            StreamStep::Refused => end = Some(StreamEnd::Refused),
            StreamStep::Failed(error) => end = Some(StreamEnd::Failed(error)),
        }
    }
    end
}

fn fetch(request: &Request<'_>, controller: &AbortController) -> Promise {
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(request.body));
    init.set_signal(Some(&controller.signal()));
    if let Ok(headers) = Headers::new() {
        let _ = headers.set("content-type", "application/json");
        let _ = headers.set("accept", "text/event-stream");
        for (name, value) in request.headers {
            // A header name or value the browser refuses is left out rather than failing the ask.
            let _ = headers.set(name, value);
        }
        init.set_headers(&headers);
    }
    fetch_with_init(request.endpoint, &init)
}

/// The `error.message` of an OpenAI-style error body, or a short plain-text body, and the
/// body's `error.code` (the proxy's refusals are told by it).
fn service_error(body: &str) -> (Option<String>, Option<String>) {
    match serde_json::from_str::<serde_json::Value>(body) {
        Ok(json) => (
            json.pointer("/error/message")
                .or_else(|| json.get("error"))
                .or_else(|| json.get("message"))
                .and_then(|m| m.as_str())
                .map(str::to_string),
            json.pointer("/error/code").and_then(|c| c.as_str()).map(str::to_string),
        ),
        Err(_) => (Some(body.trim().chars().take(200).collect()).filter(|s: &String| !s.is_empty()), None),
    }
}

fn reason_text(reason: &JsValue) -> String {
    Reflect::get(reason, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| reason.as_string())
        .unwrap_or_else(|| "network error".into())
}

enum Waited {
    Value(JsValue),
    Rejected(JsValue),
    TimedOut(ChatError),
}

/// The slow notice and the waiting limit, measured with `Date.now()`.
struct Clock {
    slow_at: f64,
    timeout_ms: f64,
    deadline: f64,
    slow_told: bool,
    first_token: bool,
}

impl Clock {
    fn new(slow_after_ms: f64, timeout_ms: f64) -> Clock {
        let now = js_sys::Date::now();
        Clock {
            slow_at: now + slow_after_ms,
            timeout_ms,
            deadline: now + timeout_ms,
            slow_told: false,
            first_token: false,
        }
    }

    fn token_arrived(&mut self) {
        self.first_token = true;
        self.deadline = js_sys::Date::now() + self.timeout_ms;
    }

    /// Waits for `promise`, telling the listener once when it is slow and aborting the
    /// request at the deadline.
    async fn wait(&mut self, promise: Promise, controller: &AbortController, listener: &mut dyn Listener) -> Waited {
        loop {
            let now = js_sys::Date::now();
            let slow_pending = !self.first_token && !self.slow_told;
            let until = if slow_pending { self.slow_at.min(self.deadline) } else { self.deadline };
            let (timer, id) = timer(until - now);
            let raced = Promise::race(&js_sys::Array::of2(&promise, &timer));
            let result = JsFuture::from(raced).await;
            if let Some(id) = id {
                clear_timeout(&id);
            }
            match result {
                Ok(value) if !value.is_undefined() => return Waited::Value(value),
                Ok(_) => {
                    let now = js_sys::Date::now();
                    if now >= self.deadline {
                        controller.abort();
                        return Waited::TimedOut(ChatError::timeout(self.timeout_ms, !self.first_token));
                    }
                    if slow_pending && now >= self.slow_at {
                        self.slow_told = true;
                        listener.slow();
                    }
                }
                Err(reason) => return Waited::Rejected(reason),
            }
        }
    }
}

/// A promise resolving to `undefined` after `ms`, and its timer id (None: never resolves).
fn timer(ms: f64) -> (Promise, Option<JsValue>) {
    if !ms.is_finite() {
        return (Promise::new(&mut |_, _| {}), None);
    }
    let mut id = None;
    let promise = Promise::new(&mut |resolve, _| {
        id = Some(set_timeout(&resolve, ms.max(0.0)));
    });
    (promise, id)
}
