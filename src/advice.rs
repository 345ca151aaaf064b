//! What a reader is told when something fails: for each error code (and, where it changes
//! what helps, for its cause), a message in plain words and the one action that helps —
//! retry, reload, contact the site, rephrase or wait. The one table: the facade's errors
//! (`wasm::codes`), the chat's (`chat::ChatError`) and the JS runtime's own (pkg/error-codes.js
//! is generated from [`TABLE`]) all take their reader texts from here. What a site owner
//! needs — the file, the URL, the parser's position, the command that rebuilds the index —
//! travels apart, as an error's `technical`, for the console and the panel's "Details".
//! Compiled on every target (the generator reads it natively).

use crate::query::{Invalid, RateLimited};
use serde::Serialize;
use std::borrow::Cow;

/// The one thing a reader can do about a failure; the panel draws it (a Retry or Reload
/// button, or nothing to press).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ReaderAction"))]
pub enum Action {
    /// Ask again (or load again): it may work now.
    #[default]
    Retry,
    /// Reload the page: the page's own state is broken.
    Reload,
    /// Nothing the reader can do but tell the site: the site is broken or misconfigured.
    ContactSite,
    /// Change the question or the selection.
    Rephrase,
    /// Wait a moment, then send again.
    Wait,
    /// Come back later (tomorrow): a daily limit refuses the question until it resets, so
    /// there is nothing to press — asking again now is refused the same way.
    ComeBackLater,
    /// Nothing to do (the reader replaced the question).
    None,
}

impl Action {
    /// Every action (the rules list those that need the network from it).
    pub const ALL: [Action; 7] = [
        Action::Retry,
        Action::Reload,
        Action::ContactSite,
        Action::Rephrase,
        Action::Wait,
        Action::ComeBackLater,
        Action::None,
    ];

    /// Whether the action needs the network: offline, the panel says it will be done when
    /// the browser is back online instead ([`OFFLINE`]).
    pub fn needs_network(self) -> bool {
        matches!(self, Action::Retry | Action::Reload)
    }

    /// Whether an answer that carries this action offers to ask its question again (the
    /// panel's Retry): not while a daily limit stands, which would refuse it again.
    pub fn offers_retry(self) -> bool {
        self != Action::ComeBackLater
    }
}

/// What the reader is told: a message, a suggestion, and the action behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ReaderAdvice"))]
pub struct Advice {
    pub message: Cow<'static, str>,
    pub suggestion: Cow<'static, str>,
    pub action: Action,
}

/// One row of [`TABLE`]: the advice for `code` when the error's detail is `detail` (`None`:
/// any detail; a trailing `*` matches every detail that starts with what precedes it).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Row {
    pub code: &'static str,
    pub detail: Option<&'static str>,
    pub message: &'static str,
    pub suggestion: &'static str,
    pub action: Action,
}

impl Row {
    fn matches(&self, code: &str, detail: Option<&str>) -> bool {
        self.code == code
            && match (self.detail, detail) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(want), Some(detail)) => match want.strip_suffix('*') {
                    Some(prefix) => detail.starts_with(prefix),
                    None => want == detail,
                },
            }
    }

    fn advice(&self) -> Advice {
        Advice { message: self.message.into(), suggestion: self.suggestion.into(), action: self.action }
    }
}

const fn row(
    code: &'static str,
    detail: Option<&'static str>,
    message: &'static str,
    suggestion: &'static str,
    action: Action,
) -> Row {
    Row { code, detail, message, suggestion, action }
}

const INDEX_DAMAGED: &str = "The site's search index is damaged, so questions cannot be answered right now.";
const TELL_SITE: &str = "Let the site's maintainers know.";
const LIMIT_MEANWHILE: &str = "Meanwhile, answers quote the site itself.";
const MISCONFIGURED: &str = "This site's assistant is misconfigured, so questions cannot be answered.";

/// The table, first match wins: a code's rows for particular details come before its row for
/// any detail. Every code the retrieval API and the chat raise has a row (tested below);
/// a refused question's codes (`EMPTY_QUESTION`, …) take their texts from `query::Invalid`.
pub const TABLE: &[Row] = &[
    // The index. Damaged or of another version: trying again does not help, the site must.
    row("INDEX_UNAVAILABLE", Some("MANIFEST_INVALID"), INDEX_DAMAGED, TELL_SITE, Action::ContactSite),
    row("INDEX_UNAVAILABLE", Some("WRONG_VERSION"), INDEX_DAMAGED, TELL_SITE, Action::ContactSite),
    row("INDEX_UNAVAILABLE", Some("INCONSISTENT"), INDEX_DAMAGED, TELL_SITE, Action::ContactSite),
    row("INDEX_UNAVAILABLE", Some("CORRUPT"), INDEX_DAMAGED, TELL_SITE, Action::ContactSite),
    row("INDEX_UNAVAILABLE", Some("CHECKSUM_MISMATCH"), INDEX_DAMAGED, TELL_SITE, Action::ContactSite),
    row("INDEX_UNAVAILABLE", Some("WRONG_SIZE"), INDEX_DAMAGED, TELL_SITE, Action::ContactSite),
    row("INDEX_UNAVAILABLE", Some("MISSING_FILE"), INDEX_DAMAGED, TELL_SITE, Action::ContactSite),
    row("INDEX_UNAVAILABLE", Some("HTTP_404"), INDEX_DAMAGED, TELL_SITE, Action::ContactSite),
    row(
        "INDEX_UNAVAILABLE",
        Some("RUNTIME"),
        "The site's search could not be started, so questions cannot be answered right now.",
        TELL_SITE,
        Action::ContactSite,
    ),
    row(
        "INDEX_UNAVAILABLE",
        Some("TEXT_UNAVAILABLE"),
        "The sections that match your question could not be loaded.",
        "Try again in a moment.",
        Action::Retry,
    ),
    row(
        "INDEX_UNAVAILABLE",
        Some("PARTIAL"),
        "Part of the site's search index could not be loaded, so this question could not be fully searched.",
        "Try again in a moment.",
        Action::Retry,
    ),
    row(
        "INDEX_UNAVAILABLE",
        None,
        "The site's search index could not be loaded.",
        "Check your connection, then try again.",
        Action::Retry,
    ),
    row(
        "MODEL_UNAVAILABLE",
        None,
        "Search by meaning is unavailable, so answers use keyword search.",
        "Answers still work. Try again to load the language model.",
        Action::Retry,
    ),
    row(
        "MODEL_MISMATCH",
        None,
        "Search by meaning is unavailable on this site, so answers use keyword search.",
        "Answers still work; let the site's maintainers know.",
        Action::ContactSite,
    ),
    row(
        "TEXT_UNAVAILABLE",
        None,
        "The sections that match your question could not be loaded.",
        "Try again in a moment.",
        Action::Retry,
    ),
    row("ABORTED", None, "A newer question replaced this one.", "", Action::None),
    row(
        "WORKER_CRASHED",
        Some("TOO_MANY_RESTARTS"),
        "The site's search keeps stopping.",
        "Reload the page.",
        Action::Reload,
    ),
    row("WORKER_CRASHED", None, "The site's search stopped unexpectedly.", "Try again.", Action::Retry),
    row("INTERNAL", None, "Something went wrong.", "Reload the page.", Action::Reload),
    row("INVALID_OPTIONS", None, MISCONFIGURED, TELL_SITE, Action::ContactSite),
    row("INVALID_ARGUMENT", None, MISCONFIGURED, TELL_SITE, Action::ContactSite),
    row("INVALID_CONFIG", None, MISCONFIGURED, TELL_SITE, Action::ContactSite),
    row("RATE_LIMITED", None, RateLimited::MESSAGE, RateLimited::SUGGESTION, Action::Wait),
    // The site's proxy refused the question (chat::error::PROXY_REFUSALS): the LLM was not
    // asked, the answer is the excerpts. The daily limits' and the per-minute limit's
    // messages end as chat::error::COME_BACK_TOMORROW and TRY_IN_A_MINUTE say, which the
    // proxy's Retry-After replaces with the exact wait.
    row(
        "LLM_UNAVAILABLE",
        Some("SITE_BUDGET_EXHAUSTED"),
        "This site's assistant has reached its limit for today; come back tomorrow.",
        LIMIT_MEANWHILE,
        Action::ComeBackLater,
    ),
    row(
        "LLM_UNAVAILABLE",
        Some("DAILY_QUOTA"),
        "You have reached today's limit of questions to this site's assistant; come back tomorrow.",
        LIMIT_MEANWHILE,
        Action::ComeBackLater,
    ),
    row(
        "LLM_UNAVAILABLE",
        Some("RATE_LIMITED"),
        "You have asked this site's assistant many questions in the last minute; try again in a minute.",
        LIMIT_MEANWHILE,
        Action::Wait,
    ),
    row(
        "LLM_UNAVAILABLE",
        Some("TURNSTILE_REQUIRED"),
        "This site's assistant could not check that you are not a robot.",
        "Reload the page, then ask again; meanwhile, answers quote the site itself.",
        Action::Reload,
    ),
    row(
        "LLM_UNAVAILABLE",
        Some("TURNSTILE_FAILED"),
        "The check that you are not a robot did not pass.",
        "Reload the page, then ask again; meanwhile, answers quote the site itself.",
        Action::Reload,
    ),
    row(
        "LLM_UNAVAILABLE",
        Some("TURNSTILE_UNAVAILABLE"),
        "The check that you are not a robot could not be completed right now.",
        "Try again in a moment; meanwhile, answers quote the site itself.",
        Action::Retry,
    ),
    // The answer service (the LLM behind the site's proxy).
    row(
        "LLM_UNAVAILABLE",
        Some("HTTP_429"),
        "The answer service is busy right now (too many requests).",
        "Wait a few seconds, then try again.",
        Action::Retry,
    ),
    row(
        "LLM_UNAVAILABLE",
        Some("HTTP_401"),
        "The answer service refused the request (not authorised).",
        TELL_SITE,
        Action::ContactSite,
    ),
    row(
        "LLM_UNAVAILABLE",
        Some("HTTP_403"),
        "The answer service refused the request (not authorised).",
        TELL_SITE,
        Action::ContactSite,
    ),
    row(
        "LLM_UNAVAILABLE",
        Some("HTTP_4*"),
        "The answer service rejected the request.",
        "Try again; if it keeps failing, shorten the question.",
        Action::Retry,
    ),
    row(
        "LLM_UNAVAILABLE",
        Some("HTTP_*"),
        "The answer service failed to answer.",
        "Try again in a moment.",
        Action::Retry,
    ),
    row(
        "LLM_UNAVAILABLE",
        None,
        "The answer service could not be reached.",
        "Check your connection, then try again; the excerpts quote the site itself.",
        Action::Retry,
    ),
    row(
        "LLM_TIMEOUT",
        None,
        "No answer arrived in time.",
        "The answer service is slow right now; try again.",
        Action::Retry,
    ),
    row("LLM_BAD_RESPONSE", None, "The answer was interrupted.", "Try again.", Action::Retry),
];

/// What the panel says while the browser is offline, in place of an action that needs the
/// network ([`Action::needs_network`]); the panel does it itself once back online.
pub const OFFLINE: Row = row(
    "OFFLINE",
    None,
    "You are offline; answers use what this page has already downloaded.",
    "This will be tried again when you are back online.",
    Action::Wait,
);

/// The advice for an error with `code` and `detail`; an unknown code is told as `INTERNAL`.
pub fn advice(code: &str, detail: Option<&str>) -> Advice {
    if let Some(reason) = Invalid::ALL.into_iter().find(|r| r.code() == code) {
        return Advice {
            message: reason.message().into(),
            suggestion: reason.suggestion().into(),
            action: Action::Rephrase,
        };
    }
    let found = TABLE.iter().find(|r| r.matches(code, detail));
    found.or_else(|| TABLE.iter().find(|r| r.matches("INTERNAL", None))).map_or_else(internal, Row::advice)
}

fn internal() -> Advice {
    Advice { message: "Something went wrong.".into(), suggestion: "Reload the page.".into(), action: Action::Reload }
}

/// Why `text` may not be shown to a reader (a URL, a file name, a parser's position, a
/// command, a programming value), if it may not. Every reader text of the core is held to it
/// (the tests of this file and of `chat::error`), and tests/e2e/faults.test.mjs holds the
/// panel to the same.
pub fn technical_in(text: &str) -> Option<&'static str> {
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower.split(|c: char| c.is_whitespace() || "()[]{}<>,;:'\"".contains(c)).collect();
    if lower.contains("://") || lower.contains("www.") {
        return Some("a URL");
    }
    const EXTENSIONS: [&str; 9] = [".json", ".bin", ".lcm", ".wasm", ".js", ".mjs", ".onnx", ".html", ".rs"];
    if words.iter().any(|w| EXTENSIONS.iter().any(|e| w.trim_end_matches('.').ends_with(e) && w.len() > e.len())) {
        return Some("a file name");
    }
    let positions = ["line", "column", "col", "position", "offset", "byte"];
    if words
        .windows(2)
        .any(|w| positions.contains(&w[0]) && w[1].chars().all(|c| c.is_ascii_digit()) && !w[1].is_empty())
    {
        return Some("a parser position");
    }
    if lower.contains('`')
        || lower.contains("lectern build")
        || words.iter().any(|w| *w == "npm" || *w == "npx" || w.starts_with("--"))
    {
        return Some("a command");
    }
    if words.iter().any(|w| ["undefined", "null", "nan", "[object"].contains(w)) {
        return Some("a programming value");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_written_for_a_reader() {
        for row in TABLE.iter().chain([&OFFLINE]) {
            for text in [row.message, row.suggestion] {
                assert_eq!(technical_in(text), None, "{row:?}");
            }
            assert!(!row.message.is_empty(), "{row:?}");
            assert!(row.action == Action::None || !row.suggestion.is_empty(), "{row:?}: an action needs its words");
        }
        for reason in Invalid::ALL {
            let advice = advice(reason.code(), None);
            assert_eq!((advice.message.as_ref(), advice.action), (reason.message().as_str(), Action::Rephrase));
            assert_eq!(technical_in(&advice.suggestion), None);
        }
    }

    #[test]
    fn the_detail_picks_the_action_where_it_changes_what_helps() {
        let action = |code: &str, detail: Option<&str>| advice(code, detail).action;
        assert_eq!(action("INDEX_UNAVAILABLE", Some("NETWORK")), Action::Retry);
        assert_eq!(action("INDEX_UNAVAILABLE", None), Action::Retry);
        assert_eq!(action("INDEX_UNAVAILABLE", Some("WRONG_VERSION")), Action::ContactSite);
        assert_eq!(action("INDEX_UNAVAILABLE", Some("HTTP_404")), Action::ContactSite);
        assert_eq!(action("LLM_UNAVAILABLE", Some("HTTP_403")), Action::ContactSite);
        assert_eq!(advice("LLM_UNAVAILABLE", Some("HTTP_413")).message, "The answer service rejected the request.");
        assert_eq!(advice("LLM_UNAVAILABLE", Some("HTTP_502")).message, "The answer service failed to answer.");
        assert_eq!(advice("LLM_UNAVAILABLE", Some("NETWORK")).message, "The answer service could not be reached.");
        assert_eq!(action("WORKER_CRASHED", Some("TOO_MANY_RESTARTS")), Action::Reload);
        // The chat's fault when every result's sections failed to load says so.
        assert_eq!(
            advice("INDEX_UNAVAILABLE", Some("TEXT_UNAVAILABLE")).message,
            advice("TEXT_UNAVAILABLE", None).message
        );
        assert_eq!(advice("NO_SUCH_CODE", None), advice("INTERNAL", None));
        // Offline, only what needs the network gives way.
        assert!(Action::Retry.needs_network() && Action::Reload.needs_network());
        assert!(!Action::ContactSite.needs_network() && !Action::Rephrase.needs_network());
        // A daily limit offers no Retry; the per-minute limit and the rest do.
        assert_eq!(action("LLM_UNAVAILABLE", Some("DAILY_QUOTA")), Action::ComeBackLater);
        assert_eq!(action("LLM_UNAVAILABLE", Some("SITE_BUDGET_EXHAUSTED")), Action::ComeBackLater);
        assert!(!Action::ComeBackLater.offers_retry());
        assert!(Action::ALL.into_iter().filter(|a| !a.offers_retry()).eq([Action::ComeBackLater]));
        assert!(action("LLM_UNAVAILABLE", Some("RATE_LIMITED")).offers_retry());
    }

    #[test]
    fn the_guard_catches_what_a_reader_must_not_see() {
        for (text, what) in [
            ("Could not download http://127.0.0.1:3000/lectern/bundle/terms.1.bin", "a URL"),
            ("index file terms.22725bb71a86.bin is corrupt", "a file name"),
            ("key must be a string at line 1 column 29", "a parser position"),
            ("rebuild the index with `lectern build`", "a command"),
            ("run npx lectern build", "a command"),
            ("The value was undefined", "a programming value"),
        ] {
            assert_eq!(technical_in(text), Some(what), "{text}");
        }
        for fine in [
            "The site's search index could not be loaded.",
            "Select at most 5000 characters of text.",
            "No answer arrived within 1.5 s.",
        ] {
            assert_eq!(technical_in(fine), None, "{fine}");
        }
    }
}
