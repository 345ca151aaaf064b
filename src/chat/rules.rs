//! The chat's rules as data, for a UI and a site build that must not define them again: the
//! personas a reader can pick, the length limits on a question and a selection, the fixed
//! texts, and every option's default. The wasm facade hands them to JS as they are.

use super::config::ChatConfig;
use super::passage::{MAX_PASSAGE_CHARS, PASSAGE_LINK_JOINER, PASSAGE_LINK_SEPARATOR, PASSAGE_PARAM};
use super::persona::Persona;
use super::plan::{EMPTY_ANSWER_MESSAGE, REFUSAL_SUGGESTION, SLOW_MESSAGE};
use crate::advice::{Action, OFFLINE};
use crate::query::{QUESTION_MAX_CHARS, SELECTION_MAX_CHARS, SELECTION_MIN_CHARS};
use serde::Serialize;

/// What `chatRules()` returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct ChatRules {
    /// `general` first, then the others in the order a picker shows them.
    pub personas: Vec<PersonaInfo>,
    pub limits: Limits,
    pub messages: Messages,
    #[serde(rename = "passageLink")]
    pub passage_link: PassageLink,
    /// Every option's default.
    pub defaults: ChatConfig,
}

/// A persona a reader can pick.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "Persona"))]
pub struct PersonaInfo {
    pub id: Persona,
    pub name: &'static str,
    /// Added to the system prompt; null for `general`.
    pub modifier: Option<&'static str>,
}

/// The length limits, in characters after trimming.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ChatLimits"))]
pub struct Limits {
    pub question_max_chars: usize,
    pub selection_min_chars: usize,
    pub selection_max_chars: usize,
}

/// The texts that do not depend on the site. (The refusal names the site: it comes with the
/// answer.)
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ChatMessages"))]
pub struct Messages {
    /// Said under a refusal: what the reader can try instead.
    pub refusal_suggestion: &'static str,
    /// The answer when the LLM sent nothing.
    pub empty_answer: &'static str,
    /// Told when no first token came within `slowAfterMs`.
    pub slow: &'static str,
    /// Said while the browser is offline (the advice table's `OFFLINE`)…
    pub offline: &'static str,
    /// …and in place of an action that needs the network: the panel does it once back online.
    pub offline_pending: &'static str,
    /// The actions that need the network ([`Action::needs_network`]): offline they wait.
    pub network_actions: Vec<Action>,
    /// The actions with which an answer offers Retry ([`Action::offers_retry`]).
    pub retry_actions: Vec<Action>,
}

/// How a citation's link names its passage (`passage_link`), for the page that reads it:
/// the query parameter, what separates the passage's start from its end and what joins the
/// words (a value with any other character names nothing), and how far apart the start and
/// the end may be found (letters and digits), beyond which the link names nothing there.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct PassageLink {
    pub param: &'static str,
    #[cfg_attr(feature = "typescript", ts(as = "String"))]
    pub separator: char,
    #[cfg_attr(feature = "typescript", ts(as = "String"))]
    pub joiner: char,
    pub max_chars: usize,
}

/// The rules, as the core applies them.
pub fn rules() -> ChatRules {
    ChatRules {
        personas: Persona::ALL
            .into_iter()
            .map(|p| PersonaInfo { id: p, name: p.name(), modifier: p.modifier() })
            .collect(),
        limits: Limits {
            question_max_chars: QUESTION_MAX_CHARS,
            selection_min_chars: SELECTION_MIN_CHARS,
            selection_max_chars: SELECTION_MAX_CHARS,
        },
        messages: Messages {
            refusal_suggestion: REFUSAL_SUGGESTION,
            empty_answer: EMPTY_ANSWER_MESSAGE,
            slow: SLOW_MESSAGE,
            offline: OFFLINE.message,
            offline_pending: OFFLINE.suggestion,
            network_actions: Action::ALL.into_iter().filter(|a| a.needs_network()).collect(),
            retry_actions: Action::ALL.into_iter().filter(|a| a.offers_retry()).collect(),
        },
        passage_link: PassageLink {
            param: PASSAGE_PARAM,
            separator: PASSAGE_LINK_SEPARATOR,
            joiner: PASSAGE_LINK_JOINER,
            max_chars: MAX_PASSAGE_CHARS,
        },
        defaults: ChatConfig::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_as_js_reads_them() {
        let rules = serde_json::to_value(rules()).unwrap();
        assert_eq!(rules["personas"][0], serde_json::json!({"id": "general", "name": "General", "modifier": null}));
        assert_eq!(rules["personas"].as_array().map(Vec::len), Some(Persona::ALL.len()));
        assert_eq!(rules["limits"]["questionMaxChars"], QUESTION_MAX_CHARS);
        assert_eq!(rules["messages"]["slow"], SLOW_MESSAGE);
        assert_eq!(rules["messages"]["offlinePending"], OFFLINE.suggestion);
        assert_eq!(rules["messages"]["networkActions"], serde_json::json!(["retry", "reload"]));
        assert!(!rules["messages"]["retryActions"].as_array().is_some_and(|a| a.contains(&"come_back_later".into())));
        assert_eq!(rules["messages"]["retryActions"][0], "retry");
        assert_eq!(
            rules["passageLink"],
            serde_json::json!({"param": "passage", "separator": "~", "joiner": "-", "maxChars": 600})
        );
        assert_eq!(rules["defaults"]["storageKey"], "lectern:conversation:v1");
    }
}
