//! What one turn tells the page, as `onEvent` receives it and `ask()` settles with: the
//! chat's contract with JS (the generated TypeScript declarations are read from these types).
//! The order the events come in is the turn's (`turn.rs`).

use super::conversation::{AnswerKind, Message, MessageStatus};
use super::degraded::AnswerNote;
use super::error::{ChatError, ChatErrorCode};
use super::sources::SourceReference;
use crate::advice::Action;
use crate::query::Mode;
use crate::search::Confidence;
use serde::Serialize;

/// An event of one `ask()`, as `onEvent` receives it (`{"type": "token", "content": "…"}`),
/// told apart by `type` (and a status by `state`). In order: status "retrieving" → sources
/// and status "generating" (either order, each at most once) → status "slow" (at most once,
/// before the first token) → token* → exactly one `done` or `error`, after which nothing;
/// notices may come at any point before the end. A refused question's only event is its
/// `error`. The order is the core's (`Turn`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
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
        /// What the reader is told, in plain words.
        message: String,
        suggestion: String,
        /// The one action that helps.
        action: Action,
        /// `null` when unknown: the event has always carried the key.
        detail: Option<String>,
        /// For the site owner (console, "Details"); `null` when there is nothing more to say.
        technical: Option<String>,
        retryable: bool,
        /// The answer's text that arrived before the fault (kept in the conversation), or null.
        partial: Option<String>,
    },
}

/// The `state` of a status event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ChatStatus"))]
pub enum Status {
    /// The question was admitted and goes to retrieval: the first event of its turn.
    Retrieving,
    /// The LLM was asked.
    Generating,
    /// No first token yet after `slowAfterMs`; `message` is the fixed text that says so.
    Slow { message: String },
}

/// What a `notice` event tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ChatNoticeCode"))]
pub enum NoticeCode {
    /// Storage is disabled or full: the conversation lives in memory only (told once).
    HistoryNotKept,
    /// The stored conversation was unreadable and a new one started.
    HistoryReset,
    /// The endpoint could not be reached: the answer is the excerpts.
    LlmUnavailable,
}

/// An answer: what `ask()` resolves with and the `done` event carries.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct ChatResponse {
    pub answer: String,
    pub sources: Vec<SourceReference>,
    pub confidence: Confidence,
    pub mode_used: Mode,
    pub chunks_retrieved: usize,
    pub kind: AnswerKind,
    pub status: MessageStatus,
    /// A refusal's suggestion: what the reader can try instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub suggestion: Option<String>,
    /// Said under the answer: it rests on part of what retrieval should have given.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<AnswerNote>>", optional))]
    pub notes: Vec<AnswerNote>,
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
            action: error.action,
            detail: error.detail.clone(),
            technical: error.technical.clone(),
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

    pub(super) fn is_final(&self) -> bool {
        matches!(self, ChatEvent::Done { .. } | ChatEvent::Error { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::super::plan::SLOW_MESSAGE;
    use super::*;
    use serde_json::json;

    fn value(event: &ChatEvent) -> serde_json::Value {
        serde_json::to_value(event).unwrap()
    }

    fn source(n: usize) -> SourceReference {
        SourceReference {
            title: "Chapter › Section".into(),
            n,
            chapter_title: "Chapter".into(),
            section_title: "Section".into(),
            module: "m".into(),
            url: "/a#x".into(),
            score: 0.5,
            heading_path: vec!["Chapter".into(), "Section".into()],
            unread: false,
            passage: Vec::new(),
            link: String::new(),
        }
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
                "n": 1, "title": "Chapter › Section", "chapter_title": "Chapter", "section_title": "Section", "module": "m",
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
                "suggestion": "The answer service is slow right now; try again.", "action": "retry",
                "detail": "FIRST_TOKEN", "technical": null, "retryable": true, "partial": "DDS",
            })
        );
        // Unknown detail and no partial answer: the keys stay, as null.
        let error = ChatError::invalid_config("bad");
        assert_eq!(
            value(&ChatEvent::error(&error, None)),
            json!({
                "type": "error", "code": "INVALID_CONFIG",
                "message": "This site's assistant is misconfigured, so questions cannot be answered.",
                "suggestion": "Let the site's maintainers know.", "action": "contact_site", "detail": null,
                "technical": "bad", "retryable": false, "partial": null,
            })
        );
    }
}
