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
        }
    }

    /// A question or selection outside the limits, with the limit's message.
    pub fn refused(reason: Invalid) -> Self {
        ChatError::new(ChatErrorCode::Invalid(reason), None, None)
    }

    /// A question sooner than the rate limit allows.
    pub fn rate_limited(_: RateLimited) -> Self {
        ChatError::new(ChatErrorCode::RateLimited, None, None)
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
        assert!(!ChatError::rate_limited(RateLimited).retryable && !ChatError::invalid_argument("x").retryable);
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
        let limited = ChatError::rate_limited(RateLimited);
        assert_eq!((limited.code.as_str(), limited.message.as_str()), ("RATE_LIMITED", RateLimited::MESSAGE));
    }

    #[test]
    fn every_error_a_reader_can_meet_is_written_for_a_reader() {
        let mut errors = vec![
            ChatError::rate_limited(RateLimited),
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
    fn truncate_counts_characters() {
        assert_eq!(truncate("héllo", 2), "hé…");
        assert_eq!(truncate("héllo", 5), "héllo");
    }
}
