//! What can go wrong while answering, as the reader sees it: a stable code, a message, a
//! suggestion, the exact cause where known, and whether a retry may help.

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
    pub message: String,
    pub suggestion: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    pub retryable: bool,
}

impl ChatError {
    fn new(code: ChatErrorCode, message: impl Into<String>, suggestion: &str, detail: Option<String>) -> Self {
        ChatError { code, message: message.into(), suggestion: suggestion.into(), detail, retryable: code.retryable() }
    }

    /// A question or selection outside the limits, with the limit's message.
    pub fn refused(reason: Invalid) -> Self {
        ChatError::new(ChatErrorCode::Invalid(reason), reason.message(), &reason.suggestion(), None)
    }

    /// A question sooner than the rate limit allows.
    pub fn rate_limited(_: RateLimited) -> Self {
        ChatError::new(ChatErrorCode::RateLimited, RateLimited::MESSAGE, RateLimited::SUGGESTION, None)
    }

    /// A question that is not an `AskRequest` at all.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        ChatError::new(ChatErrorCode::InvalidArgument, message, "Check the arguments against the documented API.", None)
    }

    pub fn invalid_config(message: impl Into<String>) -> Self {
        ChatError::new(ChatErrorCode::InvalidConfig, message, "Fix the chat configuration of this site.", None)
    }

    pub fn retrieval(message: impl Into<String>, detail: Option<String>) -> Self {
        let suggestion = "Reload the page; if it persists, the site's search index needs rebuilding.";
        ChatError::new(ChatErrorCode::IndexUnavailable, message, suggestion, detail)
    }

    /// The request never got an HTTP response (offline, DNS, refused, CORS).
    pub fn network(reason: &str) -> Self {
        ChatError::new(
            ChatErrorCode::LlmUnavailable,
            format!("The answer service could not be reached ({reason})."),
            "Check your connection and retry; the excerpts below are quoted from the site itself.",
            Some("NETWORK".into()),
        )
    }

    /// An HTTP error status; `body_message` is the service's own error message, if any.
    pub fn http(status: u16, body_message: Option<&str>) -> Self {
        let (message, suggestion) = match status {
            429 => ("The answer service is busy right now (too many requests).", "Wait a few seconds, then retry."),
            401 | 403 => (
                "The answer service refused the request (not authorised).",
                "The site's answer service is misconfigured; retry later.",
            ),
            400..=499 => ("The answer service rejected the request.", "Retry; if it persists, shorten the question."),
            _ => ("The answer service failed to answer.", "Retry in a moment."),
        };
        let message = match body_message.map(str::trim).filter(|m| !m.is_empty()) {
            Some(detail) => format!("{message} (HTTP {status}: {})", truncate(detail, 200)),
            None => format!("{message} (HTTP {status})"),
        };
        ChatError::new(ChatErrorCode::LlmUnavailable, message, suggestion, Some(format!("HTTP_{status}")))
    }

    pub fn timeout(limit_ms: f64, first_token: bool) -> Self {
        // "30 s", "1.5 s"
        let seconds = format!("{:.1}", limit_ms / 1000.0);
        let seconds = seconds.strip_suffix(".0").unwrap_or(&seconds);
        let message = if first_token {
            format!("No answer arrived within {seconds} s.")
        } else {
            format!("The answer stopped arriving for {seconds} s.")
        };
        ChatError::new(
            ChatErrorCode::LlmTimeout,
            message,
            "The answer service is slow right now; retry.",
            Some(if first_token { "FIRST_TOKEN" } else { "STALLED" }.into()),
        )
    }

    pub fn bad_stream(detail: &str, message: impl Into<String>) -> Self {
        ChatError::new(
            ChatErrorCode::LlmBadResponse,
            message,
            "Retry; the answer was interrupted.",
            Some(detail.into()),
        )
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
    fn http_errors_name_their_status_and_carry_the_service_message() {
        let e = ChatError::http(429, Some("Rate limit reached for requests"));
        assert_eq!(e.code, ChatErrorCode::LlmUnavailable);
        assert_eq!(e.detail.as_deref(), Some("HTTP_429"));
        assert!(e.message.contains("too many requests") && e.message.contains("Rate limit reached"));
        assert!(e.retryable);
        assert_eq!(ChatError::http(500, Some("  ")).message, "The answer service failed to answer. (HTTP 500)");
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
    fn truncate_counts_characters() {
        assert_eq!(truncate("héllo", 2), "hé…");
        assert_eq!(truncate("héllo", 5), "héllo");
    }
}
