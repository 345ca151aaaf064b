//! The chat's client configuration, as a site passes it to the page. It names an endpoint
//! (the site's keyless proxy) and never a secret: a configuration that carries an API key,
//! a token or credentials is refused, and the error says why.

use super::error::ChatError;
use serde::Deserialize;
use std::collections::BTreeMap;

pub const DEFAULT_SLOW_AFTER_MS: f64 = 5_000.0;
pub const DEFAULT_TIMEOUT_MS: f64 = 30_000.0;
pub const DEFAULT_STORAGE_KEY: &str = "lectern:conversation:v1";

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ChatConfig {
    /// An OpenAI-compatible chat-completions URL; `None`: extractive answers only.
    pub endpoint: Option<String>,
    /// Extra, non-secret request headers.
    pub headers: BTreeMap<String, String>,
    pub model: Option<String>,
    pub max_tokens: Option<u32>,
    pub temperature: Option<f32>,
    pub slow_after_ms: f64,
    pub timeout_ms: f64,
    pub selection_only: bool,
    pub storage_key: String,
    /// Origins whose URLs may be cited, besides site-relative paths.
    pub site_origins: Vec<String>,
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
            selection_only: false,
            storage_key: DEFAULT_STORAGE_KEY.into(),
            site_origins: Vec::new(),
        }
    }
}

/// The options, as JS names them.
const OPTIONS: [&str; 10] = [
    "endpoint",
    "headers",
    "model",
    "maxTokens",
    "temperature",
    "slowAfterMs",
    "timeoutMs",
    "selectionOnly",
    "storageKey",
    "siteOrigins",
];

/// Words that mark an unknown option or a header as a secret.
const SECRET_WORDS: [&str; 7] = ["key", "token", "secret", "password", "auth", "bearer", "credential"];

fn looks_secret(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    SECRET_WORDS.iter().any(|w| name.contains(w))
}

/// Values shaped like provider keys (`sk-…`, `Bearer …`), whatever their header is called.
fn value_looks_secret(value: &str) -> bool {
    let v = value.trim();
    let lower = v.to_ascii_lowercase();
    lower.starts_with("bearer ") || lower.starts_with("basic ") || (v.starts_with("sk-") && v.len() > 20)
}

impl ChatConfig {
    /// Parses and checks the configuration (a JSON object, camelCase keys).
    pub fn from_json(json: &str) -> Result<ChatConfig, ChatError> {
        let raw: serde_json::Value = serde_json::from_str(json)
            .map_err(|e| ChatError::invalid_config(format!("unreadable chat options: {e}")))?;
        let object = raw.as_object().ok_or_else(|| ChatError::invalid_config("chat options must be an object"))?;
        if let Some(name) = object.keys().find(|k| !OPTIONS.contains(&k.as_str())) {
            if looks_secret(name) {
                return Err(secret_refused(&format!("the option `{name}`")));
            }
            return Err(ChatError::invalid_config(format!(
                "unknown chat option `{name}` (known: {})",
                OPTIONS.join(", ")
            )));
        }
        let config: ChatConfig = serde_json::from_value(raw.clone())
            .map_err(|e| ChatError::invalid_config(format!("invalid chat options: {e}")))?;
        config.check()?;
        Ok(config)
    }

    fn check(&self) -> Result<(), ChatError> {
        if let Some(endpoint) = &self.endpoint {
            check_endpoint(endpoint)?;
        }
        for (name, value) in &self.headers {
            if looks_secret(name) || value_looks_secret(value) {
                return Err(secret_refused(&format!("the header `{name}`")));
            }
        }
        let positive = |v: f64| v.is_finite() && v > 0.0;
        if !positive(self.slow_after_ms) || !positive(self.timeout_ms) {
            return Err(ChatError::invalid_config(
                "slowAfterMs and timeoutMs must be positive numbers of milliseconds",
            ));
        }
        if let Some(t) = self.temperature.filter(|t| !(0.0..=2.0).contains(t)) {
            return Err(ChatError::invalid_config(format!("temperature must be 0–2, not {t}")));
        }
        if self.max_tokens == Some(0) {
            return Err(ChatError::invalid_config("maxTokens must be at least 1"));
        }
        if self.storage_key.trim().is_empty() {
            return Err(ChatError::invalid_config("storageKey must not be empty"));
        }
        Ok(())
    }
}

fn check_endpoint(endpoint: &str) -> Result<(), ChatError> {
    let lower = endpoint.trim().to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://")) else {
        return Err(ChatError::invalid_config(format!("endpoint must be an http(s) URL, not `{endpoint}`")));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Err(secret_refused("the endpoint URL's user:password part"));
    }
    let query = rest.split_once('?').map(|(_, q)| q).unwrap_or_default();
    if let Some(param) = query.split('&').filter_map(|pair| pair.split('=').next()).find(|name| looks_secret(name)) {
        return Err(secret_refused(&format!("the endpoint URL's `{param}` parameter")));
    }
    Ok(())
}

fn secret_refused(what: &str) -> ChatError {
    ChatError::invalid_config(format!(
        "{what} looks like a secret, and anything in the page is public: point `endpoint` at a proxy that holds \
         the API key (see proxy/cloudflare-worker) and remove the secret from the page"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_camel_case_options() {
        let c = ChatConfig::from_json(r#"{"endpoint":"http://127.0.0.1:8080/v1/chat/completions","timeoutMs":1000}"#);
        let c = c.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.timeout_ms, 1000.0);
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
            let message = err.map(|e| e.message).unwrap_or_default();
            assert!(message.contains("looks like a secret") && message.contains("proxy"), "{json}: {message}");
        }
        let ok = ChatConfig::from_json(r#"{"headers":{"X-Site":"textbook"},"storageKey":"mine","maxTokens":300}"#);
        assert!(ok.is_ok());
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
