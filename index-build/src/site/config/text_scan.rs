//! The fallback when Node cannot evaluate a config: plain `key: 'value'` settings read from
//! its text.

use super::site_config::{DocsInstanceConfig, StatedSettings, DEFAULT_DOCS_PLUGIN_ID};
use crate::site::locales::I18n;
use regex::Regex;
use std::path::Path;

/// Reads `key: 'value'` settings from the config's text (`file`'s) when Node cannot evaluate
/// it, for `reason`. Only the first docs instance and plain literals are seen.
pub fn scan_text(file: &Path, text: &str, reason: &str) -> StatedSettings {
    let string_setting = |key: &str| {
        Regex::new(&format!(r#"\b{key}\s*:\s*['"`]([^'"`\n]*)['"`]"#))
            .ok()
            .and_then(|pattern| pattern.captures(text))
            .and_then(|captures| captures.get(1))
            .map(|m| m.as_str().to_string())
    };
    let bool_setting = |key: &str| {
        Regex::new(&format!(r"\b{key}\s*:\s*(true|false)\b"))
            .ok()
            .and_then(|pattern| pattern.captures(text))
            .and_then(|captures| captures.get(1))
            .map(|m| m.as_str() == "true")
    };
    let mut instance = DocsInstanceConfig::with_defaults(DEFAULT_DOCS_PLUGIN_ID);
    if let Some(route) = string_setting("routeBasePath") {
        instance.route_base_path = route;
    }
    StatedSettings {
        site_url: string_setting("url"),
        // The first `title:` is the site's in a config written top-down (the navbar's comes later).
        title: string_setting("title"),
        tagline: string_setting("tagline"),
        base_url: string_setting("baseUrl"),
        trailing_slash: bool_setting("trailingSlash"),
        markdown_format: string_setting("format"),
        docs: vec![instance],
        navbar: Vec::new(),
        i18n: I18n::from_stated(string_setting("defaultLocale"), quoted_list(text, "locales")),
        notes: vec![format!(
            "{} could not be evaluated ({reason}); URL settings were read from its text and may be wrong: \
             check base URL, docs path and route base path, or pass them as overrides",
            file.display()
        )],
    }
}

/// The quoted strings of a plain `key: ['a', "b"]` list in `text`, if it has one.
fn quoted_list(text: &str, key: &str) -> Option<Vec<String>> {
    let list = Regex::new(&format!(r"\b{key}\s*:\s*\[([^\]]*)\]")).ok()?.captures(text)?.get(1)?.as_str().to_string();
    let item = Regex::new(r#"['"`]([^'"`\n]*)['"`]"#).ok()?;
    Some(item.captures_iter(&list).filter_map(|c| c.get(1)).map(|m| m.as_str().to_string()).collect())
}
