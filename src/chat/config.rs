//! The chat's client configuration, as a site passes it to the page. It names an endpoint
//! (the site's keyless proxy) and never a secret: a configuration that carries an API key,
//! a token or credentials is refused, and the error says why.

use super::context::{CONTEXT_TOKENS_RANGE, DEFAULT_CONTEXT_TOKENS};
use super::error::{truncate, ChatError};
use super::site_name::SiteName;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

pub const DEFAULT_SLOW_AFTER_MS: f64 = 5_000.0;
pub const DEFAULT_TIMEOUT_MS: f64 = 30_000.0;
pub const DEFAULT_STORAGE_KEY: &str = "lectern:conversation:v1";
/// Candidates the context is packed from. On the four corpora's dev questions (`lectern eval`,
/// hybrid, 2500 tokens) the answering section was in the packed context for about 164 of 168
/// with 15 candidates and 165 with 20 (the rest are not among the first 20 at all).
pub const DEFAULT_K: u32 = 20;
/// Bounds of the numeric options, inclusive.
pub const SLOW_AFTER_MS_RANGE: (u32, u32) = (1, 600_000);
pub const TIMEOUT_MS_RANGE: (u32, u32) = (1_000, 600_000);
pub const MAX_TOKENS_RANGE: (u32, u32) = (1, 32_768);
pub const TEMPERATURE_RANGE: (f32, f32) = (0.0, 2.0);
pub const K_RANGE: (u32, u32) = (1, 20);
/// The texts and the prompt take at most this much of a site title (it is the site's own
/// option, often filled from its config: a longer one is cut rather than refused).
pub const SITE_TITLE_MAX_CHARS: usize = 100;

/// The chat options, every one with its default filled in: the one definition the browser
/// runs and the site build checks (the Docusaurus plugin calls `validateConfig` of the same
/// wasm module at startup).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct ChatConfig {
    /// URL of an OpenAI-compatible `POST /v1/chat/completions` endpoint that streams: your
    /// keyless proxy. An absolute http(s) URL, or a path starting with "/" on this site. null
    /// (the default): answers are extractive excerpts of the best sections, no LLM. A URL that
    /// carries a user name, password or key-like query parameter is refused.
    pub endpoint: Option<String>,
    /// Extra, non-secret request headers. A header whose name or value looks like a secret
    /// (Authorization, api-key, X-Auth-…, `Bearer …`, `sk-…`) is refused. Default {}.
    pub headers: BTreeMap<String, String>,
    /// The `model` field sent to the endpoint. Default: none (the proxy chooses).
    pub model: Option<String>,
    /// `max_tokens` sent to the endpoint, 1–32768. Default: none.
    pub max_tokens: Option<u32>,
    /// `temperature` sent to the endpoint, 0–2. Default: none.
    pub temperature: Option<f32>,
    /// "Response is taking longer than expected…" after this many ms without a first token,
    /// 1–600000. Default 5000.
    pub slow_after_ms: f64,
    /// Give up (LLM_TIMEOUT, with a retry) after this many ms without a first token,
    /// 1000–600000 and not less than `slowAfterMs`. Default 30000.
    pub timeout_ms: f64,
    /// Sections retrieved per question, 1–20: the LLM reads their passages that best match the
    /// question, as many as `contextTokens` holds. Default 20.
    pub k: u32,
    /// The LLM's context budget in tokens (about 4.2 characters each), 500–5000: the best
    /// passages of the `k` sections retrieved, each numbered and cited by its section's link.
    /// Default 2500.
    pub context_tokens: u32,
    /// Questions about a selection use only the selection as context (nothing retrieved).
    /// Default false.
    pub selection_only: bool,
    /// The sessionStorage key of the conversation. Default "lectern:conversation:v1".
    pub storage_key: String,
    /// Origins whose URLs may be cited, e.g. ["https://docs.example.com"], besides the site's
    /// own paths. Default: the page's origin.
    pub site_origins: Vec<String>,
    /// The site's name in the answers' texts and the prompt ("… in the Jest docs"); its first
    /// 100 characters are used. Default: none, "this site" (the Docusaurus plugin sets the
    /// site's title).
    pub site_title: Option<String>,
}

impl Default for ChatConfig {
    fn default() -> Self {
        ChatConfig {
            endpoint: None,
            headers: BTreeMap::new(),
            model: None,
            max_tokens: None,
            temperature: None,
            slow_after_ms: DEFAULT_SLOW_AFTER_MS,
            timeout_ms: DEFAULT_TIMEOUT_MS,
            k: DEFAULT_K,
            context_tokens: DEFAULT_CONTEXT_TOKENS,
            selection_only: false,
            storage_key: DEFAULT_STORAGE_KEY.into(),
            site_origins: Vec::new(),
            site_title: None,
        }
    }
}

/// The request header that carries a Cloudflare Turnstile token to the site's proxy, when
/// the page has one (the Docusaurus widget's `turnstile` option): a name without a secret's
/// words, so a CORS preflight allows it. The reference proxy reads it from its generated
/// proxy/cloudflare-worker/src/core-contract.mjs (src/wasm/typescript.rs).
pub const TURNSTILE_HEADER: &str = "x-lectern-turnstile";
/// The response header whose whole seconds say how long a refused question must wait; the
/// reference proxy sends it with its refusals and exposes it to the page (CORS) by this
/// name, from the same generated module.
pub const RETRY_AFTER_HEADER: &str = "retry-after";

/// The options, as JS names them.
pub const OPTIONS: [&str; 13] = [
    "endpoint",
    "headers",
    "model",
    "maxTokens",
    "temperature",
    "slowAfterMs",
    "timeoutMs",
    "k",
    "contextTokens",
    "selectionOnly",
    "storageKey",
    "siteOrigins",
    "siteTitle",
];

/// Words that mark an unknown option, a header or a URL parameter as a secret.
const SECRET_WORDS: [&str; 8] = ["key", "token", "secret", "password", "auth", "bearer", "credential", "cookie"];
/// URL parameters that carry credentials without one of those words in their name.
const SECRET_PARAMS: [&str; 3] = ["sig", "signature", "code"];

fn looks_secret(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    SECRET_WORDS.iter().any(|w| name.contains(w))
}

/// Values shaped like a credential, whatever they are called: `Bearer …`/`Basic …`, and the
/// key formats of OpenAI (`sk-`), Groq (`gsk_`), Hugging Face (`hf_`), Google (`AIza`),
/// Slack (`xoxb-`…) and JWTs (`eyJ….….`).
fn value_looks_secret(value: &str) -> bool {
    let v = value.trim();
    let lower = v.to_ascii_lowercase();
    if lower.starts_with("bearer ") || lower.starts_with("basic ") {
        return true;
    }
    let keyish = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    v.split(|c: char| !(keyish(c) || c == '.')).any(|word| {
        let tail = |prefix: &str, min: usize| word.strip_prefix(prefix).is_some_and(|t| t.len() >= min);
        tail("sk-", 8)
            || tail("gsk_", 8)
            || tail("hf_", 8)
            || tail("AIza", 20)
            || ["xoxa-", "xoxb-", "xoxp-"].iter().any(|p| tail(p, 8))
            || (word.starts_with("eyJ") && word.split('.').filter(|part| part.len() >= 10).count() >= 2)
    })
}

/// A JSON value, shortened, for messages.
fn show(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(77).collect::<String>())
    } else {
        text
    }
}

fn invalid(message: String) -> ChatError {
    ChatError::invalid_config(message)
}

/// "Did you mean": the candidate closest to a misspelt `word` (edit distance, ignoring case),
/// if one is close — at most 2 edits, or a third of the candidate's length for longer ones;
/// the first of equally close ones. The chat's options use it, and the Docusaurus plugin for
/// its own through the wasm module's `didYouMean`.
pub fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let word: Vec<char> = word.to_lowercase().chars().collect();
    let distance = |known: &[char]| {
        let mut row: Vec<usize> = (0..=known.len()).collect();
        for i in 1..=word.len() {
            let mut previous = row[0];
            row[0] = i;
            for j in 1..=known.len() {
                let here = row[j];
                row[j] = (row[j] + 1).min(row[j - 1] + 1).min(previous + usize::from(word[i - 1] != known[j - 1]));
                previous = here;
            }
        }
        row[known.len()]
    };
    candidates
        .iter()
        .filter_map(|known| {
            let chars: Vec<char> = known.to_lowercase().chars().collect();
            let d = distance(&chars);
            (d <= 2.max(chars.len() / 3)).then_some((d, *known))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, known)| known)
}

impl ChatConfig {
    /// How the texts and the prompt name the site.
    pub fn site_name(&self) -> SiteName {
        SiteName::new(self.site_title.as_deref())
    }

    /// Parses and checks the configuration (a JSON object, camelCase keys); `null` values
    /// mean the default. The first problem is the error, naming the option, what was given
    /// and what is expected.
    pub fn from_json(json: &str) -> Result<ChatConfig, ChatError> {
        let raw: Value = serde_json::from_str(json).map_err(|e| invalid(format!("unreadable chat options: {e}")))?;
        let object =
            raw.as_object().ok_or_else(|| invalid(format!("chat options must be an object; got {}", show(&raw))))?;
        Self::from_object(object)
    }

    fn from_object(object: &Map<String, Value>) -> Result<ChatConfig, ChatError> {
        if let Some(name) = object.keys().find(|k| !OPTIONS.contains(&k.as_str())) {
            if looks_secret(name) {
                return Err(secret_refused(&format!("the option \"{name}\"")));
            }
            let hint = did_you_mean(name, &OPTIONS).map(|s| format!(" Did you mean \"{s}\"?")).unwrap_or_default();
            return Err(invalid(format!("unknown chat option \"{name}\".{hint} Known: {}.", OPTIONS.join(", "))));
        }
        let get = |name: &str| object.get(name).filter(|v| !v.is_null());
        let mut config = ChatConfig::default();
        if let Some(v) = get("endpoint") {
            config.endpoint = Some(check_endpoint(v)?);
        }
        if let Some(v) = get("headers") {
            config.headers = check_headers(v)?;
        }
        if let Some(v) = get("model") {
            config.model = Some(non_empty("model", v)?);
        }
        if let Some(v) = get("maxTokens") {
            config.max_tokens = Some(integer("maxTokens", v, MAX_TOKENS_RANGE)?);
        }
        if let Some(v) = get("temperature") {
            let (min, max) = TEMPERATURE_RANGE;
            let t = v.as_f64().filter(|t| t.is_finite() && (f64::from(min)..=f64::from(max)).contains(t));
            config.temperature = Some(t.ok_or_else(|| {
                invalid(format!("\"temperature\" must be a number from {min} to {max}; got {}", show(v)))
            })? as f32);
        }
        if let Some(v) = get("slowAfterMs") {
            config.slow_after_ms = f64::from(integer("slowAfterMs", v, SLOW_AFTER_MS_RANGE)?);
        }
        if let Some(v) = get("timeoutMs") {
            config.timeout_ms = f64::from(integer("timeoutMs", v, TIMEOUT_MS_RANGE)?);
        }
        if config.timeout_ms < config.slow_after_ms {
            return Err(invalid(format!(
                "\"timeoutMs\" ({}) must not be shorter than \"slowAfterMs\" ({})",
                config.timeout_ms, config.slow_after_ms
            )));
        }
        if let Some(v) = get("k") {
            config.k = integer("k", v, K_RANGE)?;
        }
        if let Some(v) = get("contextTokens") {
            config.context_tokens = integer("contextTokens", v, CONTEXT_TOKENS_RANGE)?;
        }
        if let Some(v) = get("selectionOnly") {
            config.selection_only = v
                .as_bool()
                .ok_or_else(|| invalid(format!("\"selectionOnly\" must be true or false; got {}", show(v))))?;
        }
        if let Some(v) = get("storageKey") {
            config.storage_key = non_empty("storageKey", v)?;
        }
        if let Some(v) = get("siteOrigins") {
            config.site_origins = check_origins(v)?;
        }
        if let Some(v) = get("siteTitle") {
            config.site_title = Some(check_site_title(v)?);
        }
        Ok(config)
    }
}

fn integer(name: &str, value: &Value, (min, max): (u32, u32)) -> Result<u32, ChatError> {
    value
        .as_f64()
        .filter(|n| n.fract() == 0.0 && (f64::from(min)..=f64::from(max)).contains(n))
        .map(|n| n as u32)
        .ok_or_else(|| invalid(format!("\"{name}\" must be an integer from {min} to {max}; got {}", show(value))))
}

fn non_empty(name: &str, value: &Value) -> Result<String, ChatError> {
    value
        .as_str()
        .filter(|s| !s.trim().is_empty())
        .map(str::to_string)
        .ok_or_else(|| invalid(format!("\"{name}\" must be a non-empty string; got {}", show(value))))
}

fn check_endpoint(value: &Value) -> Result<String, ChatError> {
    let expected = "the URL of your OpenAI-compatible chat-completions proxy (an http(s) URL, or a path starting \
                    with \"/\" on this site), or null for extractive answers";
    let endpoint = value.as_str().map(str::trim).filter(|s| !s.is_empty());
    let endpoint = endpoint.ok_or_else(|| invalid(format!("\"endpoint\" must be {expected}; got {}", show(value))))?;
    let lower = endpoint.to_ascii_lowercase();
    let rest = match lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://")) {
        Some(rest) => {
            let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
            if authority.is_empty() {
                return Err(invalid(format!("\"endpoint\" has no host: \"{endpoint}\"")));
            }
            if authority.contains('@') {
                return Err(secret_refused("\"endpoint\" carries a user name or password, which"));
            }
            &endpoint[endpoint.len() - rest.len()..]
        }
        None if endpoint.starts_with('/') && !endpoint.starts_with("//") => endpoint,
        None => return Err(invalid(format!("\"endpoint\" must be {expected}; got {}", show(value)))),
    };
    let query = rest.split_once('?').map(|(_, q)| q.split('#').next().unwrap_or_default()).unwrap_or_default();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if looks_secret(name)
            || SECRET_PARAMS.contains(&name.to_ascii_lowercase().as_str())
            || value_looks_secret(value)
        {
            return Err(secret_refused(&format!("the endpoint URL's \"{name}\" parameter")));
        }
    }
    if value_looks_secret(rest.split(['?', '#']).next().unwrap_or_default()) {
        return Err(secret_refused("the endpoint URL's path"));
    }
    Ok(endpoint.to_string())
}

/// RFC 9110 token characters: what a header name may be made of.
fn is_header_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

fn check_headers(value: &Value) -> Result<BTreeMap<String, String>, ChatError> {
    let object = value.as_object().ok_or_else(|| {
        invalid(format!("\"headers\" must be an object of header names to string values; got {}", show(value)))
    })?;
    let mut headers = BTreeMap::new();
    for (name, value) in object {
        if !is_header_name(name) {
            return Err(invalid(format!("\"headers\" has an invalid header name \"{name}\"")));
        }
        let text = value
            .as_str()
            .ok_or_else(|| invalid(format!("\"headers.{name}\" must be a string; got {}", show(value))))?;
        if looks_secret(name) || value_looks_secret(text) {
            return Err(secret_refused(&format!("the header \"{name}\"")));
        }
        headers.insert(name.clone(), text.to_string());
    }
    Ok(headers)
}

fn check_origins(value: &Value) -> Result<Vec<String>, ChatError> {
    let bad = |v: &Value| {
        invalid(format!("\"siteOrigins\" must be a list of origins like \"https://docs.example.com\"; got {}", show(v)))
    };
    let list = value.as_array().ok_or_else(|| bad(value))?;
    list.iter()
        .map(|item| {
            let origin = item.as_str().map(|s| s.trim().trim_end_matches('/')).ok_or_else(|| bad(item))?;
            let lower = origin.to_ascii_lowercase();
            let host =
                lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://")).ok_or_else(|| bad(item))?;
            if host.is_empty() || host.contains(['/', '?', '#', '@']) {
                return Err(bad(item));
            }
            Ok(origin.to_string())
        })
        .collect()
}

/// The title on one line (it goes into the prompt), cut to [`SITE_TITLE_MAX_CHARS`].
fn check_site_title(value: &Value) -> Result<String, ChatError> {
    let title = non_empty("siteTitle", value)?;
    Ok(truncate(&title.split_whitespace().collect::<Vec<_>>().join(" "), SITE_TITLE_MAX_CHARS))
}

fn secret_refused(what: &str) -> ChatError {
    invalid(format!(
        "{what} looks like a secret, and anything in the page is public: keep the API key in a proxy that \
         forwards to your LLM (see the Lectern chat proxy, proxy/cloudflare-worker) and set \"endpoint\" to the \
         proxy's URL"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_camel_case_options() {
        let c = ChatConfig::from_json(r#"{"endpoint":"http://127.0.0.1:8080/v1/chat/completions","timeoutMs":10000}"#);
        let c = c.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.timeout_ms, 10000.0);
        assert_eq!(c.slow_after_ms, DEFAULT_SLOW_AFTER_MS);
        assert_eq!(c.storage_key, DEFAULT_STORAGE_KEY);
        assert_eq!(ChatConfig::from_json("{}").map(|c| c.endpoint), Ok(None));
    }

    #[test]
    fn secrets_are_refused_with_the_reason() {
        for json in [
            r#"{"apiKey":"sk-abc"}"#,
            r#"{"endpoint":"https://x.example/v1","api_key":"x"}"#,
            r#"{"headers":{"Authorization":"Bearer sk-123"}}"#,
            r#"{"headers":{"X-Api-Key":"abc"}}"#,
            r#"{"headers":{"X-Custom":"Bearer abcdef"}}"#,
            r#"{"headers":{"X-Custom":"sk-proj-0123456789abcdefghij"}}"#,
            r#"{"endpoint":"https://user:pw@x.example/v1/chat/completions"}"#,
            r#"{"endpoint":"https://x.example/v1/chat/completions?api_key=1"}"#,
        ] {
            let err = ChatConfig::from_json(json).err();
            let message = err.and_then(|e| e.technical).unwrap_or_default();
            assert!(message.contains("looks like a secret") && message.contains("proxy"), "{json}: {message}");
        }
        let ok = ChatConfig::from_json(r#"{"headers":{"X-Site":"textbook"},"storageKey":"mine","maxTokens":300}"#);
        assert!(ok.is_ok());
    }

    #[test]
    fn one_rule_for_every_option() {
        let ok = |json: &str| ChatConfig::from_json(json).unwrap_or_else(|e| panic!("{json}: {:?}", e.technical));
        let refused = |json: &str| ChatConfig::from_json(json).err().and_then(|e| e.technical).unwrap_or_default();
        assert_eq!(ok(r#"{"endpoint":"/api/chat"}"#).endpoint.as_deref(), Some("/api/chat"));
        assert_eq!(ok(r#"{"endpoint":null,"model":null,"k":null}"#), ChatConfig::default());
        assert_eq!(ok(r#"{"k":10,"slowAfterMs":1,"timeoutMs":1000}"#).k, 10);
        assert_eq!(ok(r#"{"siteOrigins":["https://docs.example.com/"]}"#).site_origins, ["https://docs.example.com"]);
        assert!(refused(r#"{"slowAfterMs":0}"#).contains("\"slowAfterMs\" must be an integer from 1 to 600000; got 0"));
        assert!(refused(r#"{"slowAfterMs":9000,"timeoutMs":5000}"#).contains("must not be shorter"));
        assert!(refused(r#"{"k":21}"#).contains("\"k\" must be an integer from 1 to 20"));
        assert_eq!(ok(r#"{"contextTokens":4000}"#).context_tokens, 4000);
        assert_eq!(ok("{}").context_tokens, 2500);
        assert!(refused(r#"{"contextTokens":100}"#)
            .contains("\"contextTokens\" must be an integer from 500 to 5000; got 100"));
        assert!(refused(r#"{"contextTokens":2500.5}"#).contains("\"contextTokens\" must be an integer"));
        assert!(
            refused(r#"{"headers":{"X-Auth-Site":"docs"}}"#).contains("the header \"X-Auth-Site\" looks like a secret")
        );
        assert!(refused(r#"{"headers":{"Bad Name":"x"}}"#).contains("invalid header name"));
        assert!(refused(r#"{"timeoutMS":1000}"#).contains("Did you mean \"timeoutMs\"?"));
        assert!(refused(r#"{"endpoint":"//cdn.example/v1"}"#).contains("must be the URL"));
        assert!(refused(r#"{"siteOrigins":["https://x.example/docs"]}"#).contains("siteOrigins"));
        for key in [
            "gsk_0123456789abc",
            "hf_abcdefghijkl",
            "AIzaSyA0123456789abcdefghij",
            "xoxb-12345678-abc",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.sig",
        ] {
            assert!(
                refused(&format!(r#"{{"headers":{{"X-Custom":"{key}"}}}}"#)).contains("looks like a secret"),
                "{key}"
            );
        }
        assert!(refused(r#"{"endpoint":"https://x.example/v1?sig=abc"}"#).contains("\"sig\" parameter"));
        assert_eq!(ok(r#"{"siteTitle":"  Jest\n Docs "}"#).site_title.as_deref(), Some("Jest Docs"));
        assert!(refused(r#"{"siteTitle":" "}"#).contains("\"siteTitle\" must be a non-empty string"));
        assert!(refused(r#"{"siteTitle":7}"#).contains("\"siteTitle\" must be a non-empty string; got 7"));
        let long = ok(&format!(r#"{{"siteTitle":"{}"}}"#, "x".repeat(150))).site_title.unwrap_or_default();
        assert_eq!((long.chars().count(), long.ends_with('…')), (SITE_TITLE_MAX_CHARS + 1, true));
    }

    #[test]
    fn did_you_mean_names_the_closest_candidate_if_one_is_close() {
        assert_eq!(did_you_mean("endpont", &OPTIONS), Some("endpoint"));
        assert_eq!(did_you_mean("TIMEOUTMS", &OPTIONS), Some("timeoutMs"), "case is ignored");
        assert_eq!(did_you_mean("colour", &OPTIONS), None, "nothing close");
        // A third of a long candidate's length: 4 edits from "starterQuestions" (16 characters).
        let plugin = ["personas", "defaultPersona", "starterQuestions", "welcome"];
        assert_eq!(did_you_mean("starterQuestion", &plugin), Some("starterQuestions"));
        assert_eq!(did_you_mean("startQuestin", &plugin), Some("starterQuestions"));
        assert_eq!(did_you_mean("persona", &plugin), Some("personas"));
        // The first of equally close candidates; characters, not bytes.
        assert_eq!(did_you_mean("ab", &["ac", "ab_", "xb"]), Some("ac"));
        assert_eq!(did_you_mean("é", &["e"]), Some("e"));
        assert_eq!(did_you_mean("anything", &[]), None);
    }

    #[test]
    fn bad_values_are_refused() {
        for json in [
            r#"{"endpoint":"ftp://x"}"#,
            r#"{"timeoutMs":0}"#,
            r#"{"temperature":3}"#,
            r#"{"maxTokens":0}"#,
            r#"{"endpoint":5}"#,
            r#"{"endpiont":"https://x.example"}"#,
            "[1]",
            "{",
        ] {
            assert!(ChatConfig::from_json(json).is_err(), "{json}");
        }
    }
}
