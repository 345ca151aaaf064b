//! Usage events: what the widget tells a site owner happened — a question asked, answered
//! (with its confidence and sources) or refused, a fault's code, a reader's feedback, a
//! citation or search result followed. A static site has no server of ours: the events go
//! where the site sends them (window events `lectern:<kind>`, its analytics, its proxy), and
//! an export of them as JSON Lines, one event per line, is what `lectern report` reads.
//!
//! One struct per kind, told apart by `kind` (`{"kind": "answer", "messageId": …}`); fields
//! are camelCase as the widget's events are. Unknown fields are ignored, so an export written
//! by a newer widget still reads. The question's text is optional everywhere: the widget sends
//! it only when the site opts in.

use crate::chat::{AnswerKind, Persona};
use crate::query::Mode;
use crate::search::Confidence;
use serde::{Deserialize, Serialize};

/// The most events one request to a proxy's `POST /v1/events` carries: the reference proxy
/// refuses more (proxy/cloudflare-worker/src/events.mjs), the widget sends its batches within
/// it (LecternWidget/usage.js). Both read it from the generated contract (src/wasm/typescript.rs).
pub const EVENTS_PER_REQUEST: usize = 20;
/// The largest body of such a request, in bytes (the same contract).
pub const EVENTS_REQUEST_BYTES: usize = 16_384;

/// One event: a line of an exported events file, the `detail` of a `lectern:<kind>` window event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum UsageEvent {
    /// A reader asked a question (it passed validation).
    Question(QuestionEvent),
    /// An answer was given: generated, or excerpts of the best sections.
    Answer(AnswerEvent),
    /// The index had nothing on the question (confidence `none`): the refusal, no LLM call.
    Refusal(RefusalEvent),
    /// A question or a search ended in a coded fault (`LLM_TIMEOUT`, `INDEX_UNAVAILABLE`, …).
    Error(ErrorEvent),
    /// The reader rated an answer.
    Feedback(FeedbackEvent),
    /// The reader followed a citation of an answer.
    CitationClick(CitationClickEvent),
    /// The search box ran a query.
    Search(SearchEvent),
    /// The reader followed a search result.
    SearchClick(SearchClickEvent),
}

impl UsageEvent {
    /// Every kind, as `kind` spells it.
    pub const KINDS: [&'static str; 8] =
        ["question", "answer", "refusal", "error", "feedback", "citation_click", "search", "search_click"];

    /// The event's `kind` (its window event is `lectern:<kind>`).
    pub fn kind(&self) -> &'static str {
        let index = match self {
            UsageEvent::Question(_) => 0,
            UsageEvent::Answer(_) => 1,
            UsageEvent::Refusal(_) => 2,
            UsageEvent::Error(_) => 3,
            UsageEvent::Feedback(_) => 4,
            UsageEvent::CitationClick(_) => 5,
            UsageEvent::Search(_) => 6,
            UsageEvent::SearchClick(_) => 7,
        };
        Self::KINDS[index]
    }

    /// Where and when it happened.
    pub fn context(&self) -> &EventContext {
        match self {
            UsageEvent::Question(e) => &e.context,
            UsageEvent::Answer(e) => &e.context,
            UsageEvent::Refusal(e) => &e.context,
            UsageEvent::Error(e) => &e.context,
            UsageEvent::Feedback(e) => &e.context,
            UsageEvent::CitationClick(e) => &e.context,
            UsageEvent::Search(e) => &e.context,
            UsageEvent::SearchClick(e) => &e.context,
        }
    }
}

/// What every event may say of where and when it happened.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct EventContext {
    /// When, as ISO 8601 (`2026-11-27T09:14:03.120Z`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// The path of the page the reader was on (`/docs/intro`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// The conversation (its id, a UUID), for a chat event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct QuestionEvent {
    #[serde(flatten)]
    pub context: EventContext,
    /// The question's message id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// The question, when the site records question texts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// `global` (the whole site) or `selected` (about a passage the reader selected).
    #[serde(default)]
    pub mode: Mode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persona: Option<Persona>,
}

/// A cited section, as an answer's event names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "UsageEventSource"))]
pub struct EventSource {
    /// The section's URL (page and anchor).
    pub url: String,
    /// "Page › Section".
    #[serde(default)]
    pub title: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct AnswerEvent {
    #[serde(flatten)]
    pub context: EventContext,
    /// The answer's message id (what feedback and citation clicks refer to).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    pub confidence: Confidence,
    /// `llm` or `extractive` (a refusal is a `refusal` event).
    pub answer_kind: AnswerKind,
    /// The numbered sources, in order.
    #[serde(default)]
    pub sources: Vec<EventSource>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct RefusalEvent {
    #[serde(flatten)]
    pub context: EventContext,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct ErrorEvent {
    #[serde(flatten)]
    pub context: EventContext,
    /// The error's stable code (`LLM_TIMEOUT`, `RATE_LIMITED`, …).
    pub code: String,
    /// The exact cause, where known (`HTTP_404`, `CHECKSUM_MISMATCH`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
}

/// A reader's rating of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum Rating {
    Helpful,
    NotHelpful,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct FeedbackEvent {
    #[serde(flatten)]
    pub context: EventContext,
    /// The rated answer's message id: a later rating of the same answer replaces this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// `null`: the reader withdrew their rating.
    pub rating: Option<Rating>,
    /// Why, in the reader's words or a reason they picked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct CitationClickEvent {
    #[serde(flatten)]
    pub context: EventContext,
    /// The answer whose citation it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// The cited section's URL.
    pub url: String,
    /// The citation's number (`[2]` is 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SearchEvent {
    #[serde(flatten)]
    pub context: EventContext,
    /// The query, when the site records query texts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// How many results were shown.
    pub results: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SearchClickEvent {
    #[serde(flatten)]
    pub context: EventContext,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// The result's URL.
    pub url: String,
    /// Its place in the list, from 1.
    pub rank: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> UsageEvent {
        serde_json::from_str(line).unwrap()
    }

    #[test]
    fn each_kind_reads_from_its_json_line_and_writes_back_the_same() {
        let lines = [
            r#"{"kind":"question","time":"2026-11-27T09:14:03Z","page":"/docs/intro","messageId":"q1","question":"How?","mode":"selected","persona":"beginner"}"#,
            r#"{"kind":"answer","conversationId":"c1","messageId":"a1","question":"How?","confidence":"medium","answerKind":"llm","sources":[{"url":"/docs/a#b","title":"A › B"}]}"#,
            r#"{"kind":"refusal","messageId":"a2","question":"Pizza?"}"#,
            r#"{"kind":"error","code":"LLM_TIMEOUT","detail":"HTTP_504"}"#,
            r#"{"kind":"feedback","messageId":"a1","rating":"not_helpful","reason":"outdated"}"#,
            r#"{"kind":"citation_click","messageId":"a1","url":"/docs/a#b","n":1}"#,
            r#"{"kind":"search","query":"cmd_vel","results":4}"#,
            r#"{"kind":"search_click","query":"cmd_vel","url":"/docs/a#b","rank":2}"#,
        ];
        for (line, kind) in lines.iter().zip(UsageEvent::KINDS) {
            let event = parse(line);
            assert_eq!(event.kind(), kind);
            let written = serde_json::to_value(&event).unwrap();
            assert_eq!(written, serde_json::from_str::<serde_json::Value>(line).unwrap(), "{kind}");
            assert_eq!(written["kind"], kind, "kind() spells the kind as serde does");
        }
    }

    #[test]
    fn optional_fields_may_be_absent_and_unknown_ones_are_ignored() {
        let event = parse(r#"{"kind":"question","future":"field"}"#);
        assert_eq!(
            event,
            UsageEvent::Question(QuestionEvent {
                context: EventContext::default(),
                message_id: None,
                question: None,
                mode: Mode::Global,
                persona: None
            })
        );
        let withdrawn = parse(r#"{"kind":"feedback","messageId":"a1","rating":null,"page":"/docs/x"}"#);
        let UsageEvent::Feedback(feedback) = &withdrawn else { panic!("{withdrawn:?}") };
        assert_eq!((feedback.rating, withdrawn.context().page.as_deref()), (None, Some("/docs/x")));
    }

    #[test]
    fn an_event_missing_what_it_is_about_is_refused() {
        for line in [
            r#"{"kind":"answer","messageId":"a1"}"#,
            r#"{"kind":"error"}"#,
            r#"{"kind":"teleport"}"#,
            r#"{"question":"no kind"}"#,
            r#"{"kind":"feedback","rating":"meh"}"#,
        ] {
            assert!(serde_json::from_str::<UsageEvent>(line).is_err(), "{line}");
        }
    }
}
