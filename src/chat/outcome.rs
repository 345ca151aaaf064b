//! How a turn ended — an answer, a refusal, excerpts, a stop, a fault — and what that becomes:
//! the stored assistant message, and the response the JS promise resolves with or the error it
//! rejects with.

use super::conversation::{AnswerKind, Message, MessageError, MessageStatus, Role};
use super::degraded::AnswerNote;
use super::error::ChatError;
use super::events::{ChatEvent, ChatResponse};
use super::plan::REFUSAL_SUGGESTION;
use super::sources::SourceReference;
use crate::query::Mode;
use crate::search::Confidence;

/// How a turn ended, before its answer is stored.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Confidence `none`: the refusal (`text`, naming the site), the LLM not called.
    Refused { text: String, confidence: Confidence, retrieved: usize },
    /// The excerpts, with no LLM configured, or with `unreachable` saying why it could not be had.
    Extracted {
        text: String,
        sources: Vec<SourceReference>,
        confidence: Confidence,
        retrieved: usize,
        unreachable: Option<ChatError>,
    },
    /// Sections were found but none could be read: their links, with why (`error`, kept on the
    /// message so a retry is offered).
    Links { text: String, sources: Vec<SourceReference>, confidence: Confidence, retrieved: usize, error: ChatError },
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

    pub(super) fn event(&self) -> ChatEvent {
        match self {
            Conclusion::Answered(response) => ChatEvent::Done { response: Box::new(response.clone()) },
            Conclusion::Failed { error, .. } => ChatEvent::error(error, self.partial()),
        }
    }
}

impl Outcome {
    /// The stored answer for this outcome of a question asked in `mode` (`id` and `timestamp`
    /// are the facade's), with the `notes` said under it, and how the promise settles.
    pub fn conclude(self, mode: Mode, id: String, timestamp: String, notes: Vec<AnswerNote>) -> Conclusion {
        let (kind, status, text, sources, confidence, retrieved, error) = match self {
            Outcome::Refused { text, confidence, retrieved } => {
                (AnswerKind::Refusal, MessageStatus::Complete, text, Vec::new(), confidence, retrieved, None)
            }
            Outcome::Extracted { text, sources, confidence, retrieved, unreachable } => {
                (AnswerKind::Extractive, MessageStatus::Complete, text, sources, confidence, retrieved, unreachable)
            }
            Outcome::Links { text, sources, confidence, retrieved, error } => {
                (AnswerKind::Links, MessageStatus::Complete, text, sources, confidence, retrieved, Some(error))
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
        message.error = error.as_ref().map(MessageError::of);
        message.notes = notes.clone();
        match error {
            Some(error) if status == MessageStatus::Error => Conclusion::Failed { message, error },
            _ => Conclusion::Answered(ChatResponse {
                answer: message.content.clone(),
                sources,
                confidence,
                mode_used: mode,
                chunks_retrieved: retrieved,
                kind,
                status,
                suggestion: (kind == AnswerKind::Refusal).then(|| REFUSAL_SUGGESTION.to_string()),
                notes,
                message,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn conclude(outcome: Outcome) -> Conclusion {
        outcome.conclude(Mode::Global, "id-2".into(), "2026-01-01T00:00:01.000Z".into(), Vec::new())
    }

    #[test]
    fn a_refusal_answers_with_the_fixed_text_its_suggestion_and_no_sources() {
        let text = "I couldn't find information about this topic in the Jest docs.";
        let conclusion = conclude(Outcome::Refused { text: text.into(), confidence: Confidence::None, retrieved: 3 });
        let Conclusion::Answered(response) = &conclusion else { panic!("{conclusion:?}") };
        let wire = serde_json::to_value(response).unwrap();
        assert_eq!((wire["kind"].as_str(), wire["answer"].as_str()), (Some("refusal"), Some(text)));
        assert_eq!(
            (wire["suggestion"].as_str(), wire["chunks_retrieved"].as_u64()),
            (Some(REFUSAL_SUGGESTION), Some(3))
        );
        assert_eq!(wire["sources"], json!([]));
        assert_eq!(wire["message"]["id"], "id-2");
        assert_eq!(conclusion.message().kind, Some(AnswerKind::Refusal));
        assert_eq!(conclusion.event().name(), "done");
    }

    #[test]
    fn a_fault_rejects_keeping_what_arrived_and_excerpts_in_place_of_the_llm_resolve() {
        let failed = conclude(Outcome::Failed {
            error: ChatError::network("x"),
            text: "Through DDS".into(),
            sources: Vec::new(),
            confidence: Confidence::High,
            retrieved: 2,
        });
        assert!(matches!(&failed, Conclusion::Failed { error, .. } if error.code.as_str() == "LLM_UNAVAILABLE"));
        assert_eq!((failed.partial(), failed.message().status), (Some("Through DDS"), Some(MessageStatus::Error)));
        assert_eq!(failed.event().name(), "error");

        let excerpts = conclude(Outcome::Extracted {
            text: "Excerpts".into(),
            sources: Vec::new(),
            confidence: Confidence::High,
            retrieved: 2,
            unreachable: Some(ChatError::network("x")),
        });
        assert!(matches!(&excerpts, Conclusion::Answered(r) if r.kind == AnswerKind::Extractive));
        // Complete, yet the error stays on the message so a retry is offered.
        assert_eq!(excerpts.message().status, Some(MessageStatus::Complete));
        assert!(excerpts.message().error.is_some() && excerpts.partial().is_none());
    }
}
