//! The conversation of one tab (docs/DESIGN.md §2.4): messages with ids and times, at most
//! [`MAX_MESSAGES`] (the oldest go first), each at most [`MAX_CONTENT_CHARS`], and the
//! versioned envelope it is stored in.

use super::degraded::AnswerNote;
use super::error::{truncate, ChatError};
use super::sources::SourceReference;
use crate::advice::Action;
use crate::query::Mode;
use crate::search::Confidence;
use serde::{Deserialize, Serialize};

pub const MAX_MESSAGES: usize = 50;
pub const MAX_CONTENT_CHARS: usize = 4000;
/// At most this many earlier messages go to the LLM as history.
pub const HISTORY_FOR_LLM: usize = 10;
/// Bumped when the stored shape changes; an older envelope is not read.
pub const STORAGE_FORMAT_VERSION: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum Role {
    User,
    Assistant,
}

/// How an assistant message was produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum AnswerKind {
    Llm,
    /// Sentences of the best sections, with no LLM (none configured or unreachable).
    Extractive,
    /// Confidence `none`: the refusal (docs/DESIGN.md, refusal rule), the LLM not called.
    Refusal,
    /// The sections found, as links: none of their texts could be loaded (the LLM not called).
    Links,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum MessageStatus {
    Complete,
    /// The reader stopped the stream; the partial answer is the content.
    Stopped,
    Error,
}

/// What failed, on an assistant message whose answer did not complete.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct MessageError {
    #[cfg_attr(feature = "typescript", ts(as = "super::error::ChatErrorCode"))]
    pub code: String,
    pub message: String,
    pub suggestion: String,
    /// The one action that helps (absent in answers stored before it existed: retry).
    #[serde(default)]
    pub action: Action,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// For the site owner: the panel's "Details", never the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technical: Option<String>,
}

/// A message of the conversation, with what the UI needs to redraw it after a reload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Message {
    /// A UUID v4.
    pub id: String,
    pub role: Role,
    /// At most 4000 characters (a longer answer is cut, ending in "…").
    pub content: String,
    /// ISO 8601.
    pub timestamp: String,
    /// A question's mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// A question's selection, in selected mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<String>,
    /// A question's persona.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<super::persona::Persona>"))]
    pub persona: Option<String>,
    /// The page a question was asked from (a shared link to the question opens it there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub page: Option<super::page::PageContext>,
    /// An answer's sources (and below, its confidence, kind and status).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<SourceReference>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<AnswerKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<MessageStatus>,
    /// What failed, on an answer that did not complete (the partial answer is the content), or
    /// on excerpts given in place of an unreachable LLM, or links in place of unreadable texts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<MessageError>,
    /// Said under an answer that rests on part of what retrieval should have given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<AnswerNote>>", optional))]
    pub notes: Vec<AnswerNote>,
}

impl Message {
    /// A message with only the fields of docs/DESIGN.md §2.4 set; content is cut to the limit.
    pub fn new(id: String, role: Role, content: &str, timestamp: String) -> Message {
        Message {
            id,
            role,
            content: truncate(content, MAX_CONTENT_CHARS - 1),
            timestamp,
            mode: None,
            selection: None,
            persona: None,
            page: None,
            sources: None,
            confidence: None,
            kind: None,
            status: None,
            error: None,
            notes: Vec::new(),
        }
    }

    pub fn is_failed(&self) -> bool {
        self.status == Some(MessageStatus::Error)
    }
}

impl MessageError {
    /// The error as the message keeps it.
    pub fn of(error: &ChatError) -> MessageError {
        MessageError {
            code: error.code.as_str().into(),
            message: error.message.clone(),
            suggestion: error.suggestion.clone(),
            action: error.action,
            detail: error.detail.clone(),
            technical: error.technical.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Conversation {
    /// A UUID v4.
    pub id: String,
    /// At most 50; the oldest go first.
    pub messages: Vec<Message>,
    pub created_at: String,
    pub last_activity_at: String,
}

impl Conversation {
    pub fn new(id: String, now: String) -> Conversation {
        Conversation { id, messages: Vec::new(), created_at: now.clone(), last_activity_at: now }
    }

    /// Appends `message`, dropping the oldest beyond [`MAX_MESSAGES`].
    pub fn push(&mut self, mut message: Message) {
        message.content = truncate(&message.content, MAX_CONTENT_CHARS - 1);
        self.last_activity_at = message.timestamp.clone();
        self.messages.push(message);
        let excess = self.messages.len().saturating_sub(MAX_MESSAGES);
        self.messages.drain(..excess);
    }

    /// The messages the LLM sees as history before the latest question: the last
    /// [`HISTORY_FOR_LLM`] completed exchanges' messages (failed answers and the latest
    /// user message excluded).
    pub fn history_for_llm(&self) -> Vec<&Message> {
        let before_latest = match self.messages.last() {
            Some(last) if last.role == Role::User => &self.messages[..self.messages.len() - 1],
            _ => &self.messages[..],
        };
        let usable: Vec<&Message> =
            before_latest.iter().filter(|m| !m.is_failed() && !m.content.trim().is_empty()).collect();
        usable[usable.len().saturating_sub(HISTORY_FOR_LLM)..].to_vec()
    }

    /// The question of the last exchange if it did not complete (an error, a stop, excerpts
    /// given in place of an unreachable LLM, or an answer resting on part of what retrieval
    /// should have given), and the index where that exchange starts.
    fn unfinished(&self) -> Option<(usize, &Message)> {
        let last = self.messages.last()?;
        // An answer with an error attached is unfinished too (the excerpts given when the
        // endpoint was unreachable, the links given when no text could be loaded), and so is
        // one with notes (part of the index could not be loaded): asked again, it may be whole.
        let unfinished = last.role == Role::User
            || last.error.is_some()
            || !last.notes.is_empty()
            || matches!(last.status, Some(MessageStatus::Error) | Some(MessageStatus::Stopped));
        if !unfinished {
            return None;
        }
        let question = self.messages.len() - if last.role == Role::Assistant { 2 } else { 1 };
        self.messages.get(question).filter(|m| m.role == Role::User).map(|m| (question, m))
    }

    /// The question a retry would ask again, if the last exchange did not complete.
    pub fn unfinished_question(&self) -> Option<&Message> {
        self.unfinished().map(|(_, question)| question)
    }

    /// Removes the last exchange if it did not complete, returning its question, so a retry
    /// asks it again without a duplicate in the history.
    pub fn take_unfinished_question(&mut self) -> Option<Message> {
        let (start, _) = self.unfinished()?;
        self.messages.drain(start..).next()
    }
}

/// What is kept in sessionStorage: a version and the conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredConversation {
    pub version: u32,
    pub conversation: Conversation,
}

impl StoredConversation {
    pub fn new(conversation: Conversation) -> StoredConversation {
        StoredConversation { version: STORAGE_FORMAT_VERSION, conversation }
    }

    /// The stored conversation if it is this version and within the limits (docs/DESIGN.md §2.4) (a copy
    /// written by hand or by another version is not trusted).
    pub fn into_valid(self) -> Option<Conversation> {
        let c = self.conversation;
        let within_limits = c.messages.len() <= MAX_MESSAGES
            && c.messages.iter().all(|m| m.content.chars().count() <= MAX_CONTENT_CHARS && !m.id.is_empty());
        (self.version == STORAGE_FORMAT_VERSION && !c.id.is_empty() && within_limits).then_some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(i: usize, role: Role) -> Message {
        Message::new(format!("m{i}"), role, &format!("content {i}"), format!("t{i}"))
    }

    #[test]
    fn keeps_the_latest_fifty_and_cuts_long_content() {
        let mut c = Conversation::new("c".into(), "t0".into());
        for i in 0..60 {
            c.push(message(i, if i % 2 == 0 { Role::User } else { Role::Assistant }));
        }
        assert_eq!(c.messages.len(), MAX_MESSAGES);
        assert_eq!(c.messages[0].id, "m10");
        assert_eq!(c.last_activity_at, "t59");
        c.push(Message::new("long".into(), Role::Assistant, &"x".repeat(5000), "t".into()));
        let content = &c.messages[MAX_MESSAGES - 1].content;
        assert_eq!(content.chars().count(), MAX_CONTENT_CHARS);
        assert!(content.ends_with('…'));
    }

    #[test]
    fn history_is_the_last_ten_usable_messages_before_the_question() {
        let mut c = Conversation::new("c".into(), "t0".into());
        for i in 0..14 {
            c.push(message(i, if i % 2 == 0 { Role::User } else { Role::Assistant }));
        }
        let mut failed = message(14, Role::Assistant);
        failed.status = Some(MessageStatus::Error);
        c.push(failed);
        c.push(message(15, Role::User));
        let ids: Vec<&str> = c.history_for_llm().iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids, ["m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11", "m12", "m13"]);
    }

    #[test]
    fn retry_takes_back_an_unfinished_exchange_only() {
        let mut c = Conversation::new("c".into(), "t0".into());
        c.push(message(0, Role::User));
        c.push(message(1, Role::Assistant));
        assert_eq!(c.take_unfinished_question(), None);
        c.push(message(2, Role::User));
        let mut stopped = message(3, Role::Assistant);
        stopped.status = Some(MessageStatus::Stopped);
        c.push(stopped);
        assert_eq!(c.unfinished_question().map(|m| m.id.as_str()), Some("m2"));
        assert_eq!(c.take_unfinished_question().map(|m| m.id), Some("m2".into()));
        assert_eq!(c.messages.len(), 2);
        c.push(message(4, Role::User));
        let mut excerpts = message(5, Role::Assistant);
        excerpts.status = Some(MessageStatus::Complete);
        excerpts.error = Some(MessageError::of(&ChatError::network("unreachable")));
        c.push(excerpts);
        assert_eq!(c.take_unfinished_question().map(|m| m.id), Some("m4".into()));
        c.push(message(6, Role::User));
        let mut partial = message(7, Role::Assistant);
        partial.status = Some(MessageStatus::Complete);
        partial.notes = vec![super::super::degraded::NoteCode::PartialSearch.note()];
        c.push(partial);
        assert_eq!(c.unfinished_question().map(|m| m.id.as_str()), Some("m6"), "an answer from part of the index");
    }

    #[test]
    fn stored_copy_round_trips_and_bad_copies_are_refused() {
        let mut c = Conversation::new("c".into(), "t0".into());
        c.push(message(0, Role::User));
        let json = serde_json::to_string(&StoredConversation::new(c.clone())).unwrap_or_default();
        assert!(json.contains("\"createdAt\"") && json.contains("\"lastActivityAt\""));
        let back: Option<StoredConversation> = serde_json::from_str(&json).ok();
        assert_eq!(back.and_then(StoredConversation::into_valid), Some(c.clone()));
        let mut other_version = StoredConversation::new(c.clone());
        other_version.version = 0;
        assert_eq!(other_version.into_valid(), None);
        let mut too_long = c;
        too_long.messages[0].content = "x".repeat(MAX_CONTENT_CHARS + 1);
        assert_eq!(StoredConversation::new(too_long).into_valid(), None);
    }
}
