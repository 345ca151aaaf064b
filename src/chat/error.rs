//! What can go wrong while answering, as the reader sees it: a stable code, a message, a
//! suggestion, the exact cause where known, and whether a retry may help.

use crate::advice::{advice, Action, Advice};
use crate::query::{Invalid, RateLimited};
use serde::Serialize;

/// Serialised as its stable code (`"LLM_TIMEOUT"`, `"EMPTY_QUESTION"`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum ChatErrorCode {
    /// More than one question per two seconds (`crate::query::RateLimiter`).
    RateLimited,
    /// The question is not an `AskRequest` (a field of the wrong type).
    InvalidArgument,
    /// Retrieval failed (the worker's error, e.g. the index could not be loaded).
    IndexUnavailable,
    /// The endpoint could not be reached or answered with an HTTP error.
    LlmUnavailable,
    /// No first token (or no further token) within the configured limit.
    LlmTimeout,
    /// The stream broke its contract: a malformed event, an error event, or an end without `[DONE]`.
    LlmBadResponse,
    /// The client configuration is refused (e.g. it carries an API key), or the question names
    /// an unknown persona.
    InvalidConfig,
    /// Never raised by the core: a bug in the facade, or the chat module failed to load
    /// (www/lectern-js/chat.js).
    Internal,
    /// The question or its selection is outside the limits (`crate::query`): its own code.
    #[serde(untagged)]
    Invalid(Invalid),
}

impl ChatErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ChatErrorCode::Invalid(reason) => reason.code(),
            ChatErrorCode::RateLimited => RateLimited::CODE,
            ChatErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ChatErrorCode::IndexUnavailable => "INDEX_UNAVAILABLE",
            ChatErrorCode::LlmUnavailable => "LLM_UNAVAILABLE",
            ChatErrorCode::LlmTimeout => "LLM_TIMEOUT",
            ChatErrorCode::LlmBadResponse => "LLM_BAD_RESPONSE",
            ChatErrorCode::InvalidConfig => "INVALID_CONFIG",
            ChatErrorCode::Internal => "INTERNAL",
        }
    }

    /// Whether asking again may help: not for a question or a configuration that must change.
    fn retryable(self) -> bool {
        !matches!(
            self,
            ChatErrorCode::Invalid(_)
                | ChatErrorCode::RateLimited
                | ChatErrorCode::InvalidArgument
                | ChatErrorCode::InvalidConfig
        )
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChatError {
    pub code: ChatErrorCode,
    /// What the reader is told, in plain words (`crate::advice`).
    pub message: String,
    pub suggestion: String,
    /// The one action that helps.
    pub action: Action,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    pub retryable: bool,
    /// What a site owner needs to fix it (the service's own message, the configuration's
    /// mistake, the browser's reason): for the console and the panel's "Details", never the
    /// reader's message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub technical: Option<String>,
    /// How long until asking again may work, in milliseconds, when that is known: the
    /// 1-question-per-2-seconds rule's wait (the panel queues the question with a countdown)
    /// or the proxy's `Retry-After`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<f64>,
}

impl ChatError {
    /// The error for `code` and `detail`, told as the advice table says.
    fn new(code: ChatErrorCode, detail: Option<String>, technical: Option<String>) -> Self {
        let advice = advice(code.as_str(), detail.as_deref());
        ChatError {
            code,
            message: advice.message.into_owned(),
            suggestion: advice.suggestion.into_owned(),
            action: advice.action,
            detail,
            retryable: code.retryable(),
            technical,
            retry_after_ms: None,
        }
    }

    /// A question or selection outside the limits, with the limit's message.
    pub fn refused(reason: Invalid) -> Self {
        ChatError::new(ChatErrorCode::Invalid(reason), None, None)
    }

    /// A question sooner than the rate limit allows, with how long until it would be admitted.
    pub fn rate_limited(limited: RateLimited) -> Self {
        ChatError {
            retry_after_ms: Some(limited.wait_ms.max(0.0)),
            ..ChatError::new(ChatErrorCode::RateLimited, None, None)
        }
    }

    /// A question that is not an `AskRequest` at all; `technical` says why.
    pub fn invalid_argument(technical: impl Into<String>) -> Self {
        ChatError::new(ChatErrorCode::InvalidArgument, None, Some(technical.into()))
    }

    /// A configuration the core refuses; `technical` is what the site owner must change (the
    /// site build prints it).
    pub fn invalid_config(technical: impl Into<String>) -> Self {
        ChatError::new(ChatErrorCode::InvalidConfig, None, Some(technical.into()))
    }

    /// Retrieval failed: the retrieval API's error (`detail`: its code or its exact cause),
    /// told as the retrieval API told it (`told`: its message, suggestion and action) or, if it
    /// did not, as the table says.
    pub fn retrieval(told: Option<Advice>, detail: Option<String>, technical: Option<String>) -> Self {
        let mut error = ChatError::new(ChatErrorCode::IndexUnavailable, detail, technical);
        if let Some(told) = told.filter(|t| !t.message.is_empty()) {
            (error.message, error.suggestion, error.action) =
                (told.message.into_owned(), told.suggestion.into_owned(), told.action);
        }
        error
    }

    /// Part of the keyword index could not be loaded and what arrived gives no answer: not a
    /// refusal (the rest of the index might hold one), a fault to retry.
    pub fn partial_search() -> Self {
        ChatError::new(ChatErrorCode::IndexUnavailable, Some("PARTIAL".into()), None)
    }

    /// Retrieval found sections, but none of them could be read (their metadata or their text
    /// failed to load).
    pub fn sections_unavailable() -> Self {
        ChatError::new(ChatErrorCode::IndexUnavailable, Some("TEXT_UNAVAILABLE".into()), None)
    }

    /// The request never got an HTTP response (offline, DNS, refused, CORS); `reason` is the
    /// browser's.
    pub fn network(reason: &str) -> Self {
        ChatError::new(ChatErrorCode::LlmUnavailable, Some("NETWORK".into()), Some(reason.into()))
    }

    /// An HTTP error status; `body_message` is the service's own error message, if any.
    pub fn http(status: u16, body_message: Option<&str>) -> Self {
        let technical = match body_message.map(str::trim).filter(|m| !m.is_empty()) {
            Some(detail) => format!("HTTP {status}: {}", truncate(detail, 200)),
            None => format!("HTTP {status}"),
        };
        ChatError::new(ChatErrorCode::LlmUnavailable, Some(format!("HTTP_{status}")), Some(technical))
    }

    /// An HTTP error from the endpoint, as its JSON body names it: one of the reference
    /// proxy's refusals ([`PROXY_REFUSALS`], `code`) is told in that refusal's own words (the
    /// advice table's `LLM_UNAVAILABLE` row for it), with `retry_after_s` (the `Retry-After`
    /// header) as when to come back; any other error is [`ChatError::http`]'s.
    pub fn service(status: u16, body_message: Option<&str>, code: Option<&str>, retry_after_s: Option<f64>) -> Self {
        let Some(code) = code.filter(|c| PROXY_REFUSALS.contains(c)) else {
            return ChatError::http(status, body_message);
        };
        let mut error = ChatError::http(status, body_message);
        let advice = advice(ChatErrorCode::LlmUnavailable.as_str(), Some(code));
        (error.message, error.suggestion, error.action) =
            (advice.message.into_owned(), advice.suggestion.into_owned(), advice.action);
        error.detail = Some(code.into());
        error.retry_after_ms = retry_after_s.filter(|s| s.is_finite() && *s > 0.0).map(|s| s * 1000.0);
        if let Some(ms) = error.retry_after_ms {
            // The table says when with no Retry-After; the proxy's own wait is more exact.
            for (usual, fits) in [(COME_BACK_TOMORROW, ms > 60_000.0), (TRY_IN_A_MINUTE, true)] {
                if fits && error.message.ends_with(usual) {
                    let kept = error.message.len() - usual.len();
                    error.message = format!("{}{}.", &error.message[..kept], come_back_in(ms));
                }
            }
        }
        error
    }

    /// Whether the reference proxy refused the question (a limit, the robot check): the LLM
    /// was not asked, so the answer is the excerpts, with this error as its note.
    pub fn refused_by_proxy(&self) -> bool {
        self.code == ChatErrorCode::LlmUnavailable
            && self.detail.as_deref().is_some_and(|d| PROXY_REFUSALS.contains(&d))
    }

    pub fn timeout(limit_ms: f64, first_token: bool) -> Self {
        // "30 s", "1.5 s"
        let seconds = format!("{:.1}", limit_ms / 1000.0);
        let seconds = seconds.strip_suffix(".0").unwrap_or(&seconds);
        let mut error = ChatError::new(
            ChatErrorCode::LlmTimeout,
            Some(if first_token { "FIRST_TOKEN" } else { "STALLED" }.into()),
            None,
        );
        error.message = if first_token {
            format!("No answer arrived within {seconds} s.")
        } else {
            format!("The answer stopped arriving for {seconds} s.")
        };
        error
    }

    /// The stream broke its contract (`detail`: CUT, MALFORMED_EVENT, ERROR_EVENT);
    /// `technical` says how.
    pub fn bad_stream(detail: &str, technical: impl Into<String>) -> Self {
        ChatError::new(ChatErrorCode::LlmBadResponse, Some(detail.into()), Some(technical.into()))
    }
}

impl std::fmt::Display for ChatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ChatError {}

/// The codes of the reference proxy's refusals (proxy/cloudflare-worker: its per-minute rate
/// limit, its Turnstile check, the per-client daily quota and the site's daily token budget),
/// as its error bodies carry them (`{"error": {"code": …}}`). The advice table has a row for
/// each, under `LLM_UNAVAILABLE` with the code as the detail; the proxy takes the codes from
/// its generated proxy/cloudflare-worker/src/core-contract.mjs (src/wasm/typescript.rs).
pub const PROXY_REFUSALS: [&str; 6] = [
    "RATE_LIMITED",
    "TURNSTILE_REQUIRED",
    "TURNSTILE_FAILED",
    "TURNSTILE_UNAVAILABLE",
    "DAILY_QUOTA",
    "SITE_BUDGET_EXHAUSTED",
];

/// How the advice table's daily-limit messages end, when the proxy did not say when.
pub const COME_BACK_TOMORROW: &str = "come back tomorrow.";
/// How the advice table's per-minute-limit message ends, when the proxy did not say when.
pub const TRY_IN_A_MINUTE: &str = "try again in a minute.";

/// "come back in about 5 hours", "… in about 40 minutes", "… in 30 seconds" (rounded up).
fn come_back_in(ms: f64) -> String {
    let seconds = (ms / 1000.0).ceil() as u64;
    let verb = if seconds > 60 { "come back" } else { "try again" };
    let when = match seconds {
        0..=60 => format!("in {seconds} second{}", if seconds == 1 { "" } else { "s" }),
        61..=5_399 => format!("in about {} minutes", seconds.div_ceil(60)),
        _ => format!("in about {} hours", (seconds as f64 / 3600.0).round() as u64),
    };
    format!("{verb} {when}")
}

/// At most `max` characters of `text`, with "…" when cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_errors_name_their_status_and_carry_the_service_message_apart() {
        let e = ChatError::http(429, Some("Rate limit reached for requests"));
        assert_eq!(e.code, ChatErrorCode::LlmUnavailable);
        assert_eq!(e.detail.as_deref(), Some("HTTP_429"));
        assert!(e.message.contains("too many requests"), "{}", e.message);
        // The service's own words are for the site owner, not the reader.
        assert_eq!(e.technical.as_deref(), Some("HTTP 429: Rate limit reached for requests"));
        assert!(e.retryable);
        let e = ChatError::http(500, Some("  "));
        assert_eq!(
            (e.message.as_str(), e.technical.as_deref()),
            ("The answer service failed to answer.", Some("HTTP 500"))
        );
        assert_eq!(ChatError::http(403, None).action, Action::ContactSite);
        assert!(!ChatError::invalid_config("x").retryable);
        assert!(
            !ChatError::rate_limited(RateLimited { wait_ms: 500.0 }).retryable
                && !ChatError::invalid_argument("x").retryable
        );
        assert_eq!(ChatError::timeout(30_000.0, true).message, "No answer arrived within 30 s.");
        assert_eq!(ChatError::timeout(1_500.0, false).message, "The answer stopped arriving for 1.5 s.");
    }

    #[test]
    fn codes_are_serialised_as_the_page_reads_them() {
        let wire = |code: ChatErrorCode| serde_json::to_value(code).unwrap();
        let mut all = vec![
            ChatErrorCode::RateLimited,
            ChatErrorCode::InvalidArgument,
            ChatErrorCode::IndexUnavailable,
            ChatErrorCode::LlmUnavailable,
            ChatErrorCode::LlmTimeout,
            ChatErrorCode::LlmBadResponse,
            ChatErrorCode::InvalidConfig,
            ChatErrorCode::Internal,
        ];
        all.extend(Invalid::ALL.map(ChatErrorCode::Invalid));
        for code in all {
            // A new code fails to compile here until it is in the list above.
            match code {
                ChatErrorCode::RateLimited
                | ChatErrorCode::InvalidArgument
                | ChatErrorCode::IndexUnavailable
                | ChatErrorCode::LlmUnavailable
                | ChatErrorCode::LlmTimeout
                | ChatErrorCode::LlmBadResponse
                | ChatErrorCode::InvalidConfig
                | ChatErrorCode::Internal
                | ChatErrorCode::Invalid(_) => {}
            }
            // What the page reads (and the generated TypeScript union) is what Rust names it.
            assert_eq!(wire(code), code.as_str(), "{code:?}");
        }
        // A refused question's code is the query's own.
        for reason in Invalid::ALL {
            let error = ChatError::refused(reason);
            assert_eq!((error.message, error.suggestion), (reason.message(), reason.suggestion()));
        }
        let limited = ChatError::rate_limited(RateLimited { wait_ms: 500.0 });
        assert_eq!((limited.code.as_str(), limited.message.as_str()), ("RATE_LIMITED", RateLimited::MESSAGE));
    }

    #[test]
    fn every_error_a_reader_can_meet_is_written_for_a_reader() {
        let mut errors = vec![
            ChatError::rate_limited(RateLimited { wait_ms: 500.0 }),
            ChatError::invalid_argument(
                "not a question: invalid type: integer `5`, expected a string at line 1 column 14",
            ),
            ChatError::invalid_config("\"slowAfterMs\" must be an integer from 1 to 600000; got 0"),
            ChatError::retrieval(
                None,
                Some("HTTP_404".into()),
                Some("Could not download http://x/manifest.json".into()),
            ),
            ChatError::partial_search(),
            ChatError::sections_unavailable(),
            ChatError::network("Failed to fetch https://proxy.example/v1/chat/completions"),
            ChatError::timeout(30_000.0, true),
            ChatError::timeout(1_500.0, false),
            ChatError::bad_stream("CUT", "The answer stream ended before it was complete."),
            ChatError::bad_stream("ERROR_EVENT", "The answer service reported an error: see https://status.example"),
        ];
        errors.extend(
            [200, 400, 401, 403, 404, 413, 429, 500, 502, 503].map(|s| ChatError::http(s, Some("see https://x/"))),
        );
        errors.extend(Invalid::ALL.map(ChatError::refused));
        for error in errors {
            for text in [&error.message, &error.suggestion] {
                assert_eq!(crate::advice::technical_in(text), None, "{error:?}");
            }
            assert!(!error.message.is_empty() && !error.suggestion.is_empty(), "{error:?}");
        }
    }

    #[test]
    fn the_proxys_refusals_are_told_in_their_own_words_with_when_to_come_back() {
        let body = Some("This site's assistant has reached its limit for today. It resets at midnight UTC.");
        let budget = ChatError::service(429, body, Some("SITE_BUDGET_EXHAUSTED"), Some(5.0 * 3600.0 - 100.0));
        assert_eq!(budget.code, ChatErrorCode::LlmUnavailable);
        assert_eq!(budget.detail.as_deref(), Some("SITE_BUDGET_EXHAUSTED"));
        assert_eq!(
            budget.message,
            "This site's assistant has reached its limit for today; come back in about 5 hours."
        );
        assert_eq!(budget.retry_after_ms, Some((5.0 * 3600.0 - 100.0) * 1000.0));
        assert!(budget.refused_by_proxy() && budget.technical.as_deref().is_some_and(|t| t.contains("midnight")));
        // No Retry-After: the table's words.
        let quota = ChatError::service(429, None, Some("DAILY_QUOTA"), None);
        assert!(quota.message.ends_with(COME_BACK_TOMORROW), "{}", quota.message);
        assert_eq!(
            ChatError::service(429, None, Some("DAILY_QUOTA"), Some(2400.0)).message.split("; ").nth(1),
            Some("come back in about 40 minutes.")
        );
        let minute = ChatError::service(429, None, Some("RATE_LIMITED"), Some(30.0));
        assert!(minute.message.ends_with("try again in 30 seconds."), "{}", minute.message);
        assert_eq!(minute.action, Action::Wait);
        for code in ["TURNSTILE_REQUIRED", "TURNSTILE_FAILED"] {
            let e = ChatError::service(403, None, Some(code), None);
            assert_eq!((e.detail.as_deref(), e.action), (Some(code), Action::Reload));
            assert!(e.message.contains("robot"), "{}", e.message);
        }
        // Any other code is an HTTP error like any other.
        let other = ChatError::service(429, Some("slow down"), Some("rate_limit_exceeded"), Some(20.0));
        assert_eq!((other.detail.as_deref(), other.refused_by_proxy()), (Some("HTTP_429"), false));
        for code in PROXY_REFUSALS {
            for retry in [None, Some(30.0), Some(40_000.0)] {
                let e = ChatError::service(429, None, Some(code), retry);
                assert_eq!(crate::advice::technical_in(&e.message), None, "{e:?}");
                assert!(
                    !e.message.is_empty()
                        && !e.suggestion.is_empty()
                        && e.message != ChatError::http(429, None).message,
                    "{e:?}"
                );
            }
        }
    }

    #[test]
    fn truncate_counts_characters() {
        assert_eq!(truncate("héllo", 2), "hé…");
        assert_eq!(truncate("héllo", 5), "héllo");
    }
}
