//! The docs versions a search is limited to, and the rule of which chunks they let through.
//! A scope names versions per docs instance, as Docusaurus's contextual search tags do
//! (`docs-<plugin id>-<version>`, what DocSearch's adapter filters by): for the instance of
//! the page the reader is on, that page's version; for the others, the reader's preferred
//! version or the latest. The browser passes those (plugin id, version name) pairs as
//! Docusaurus gives them; which chunks they admit is decided here, so the search box, the
//! chat, `lectern search` and `lectern eval` agree:
//!
//! - a chunk of an unversioned instance is always in scope (its instance has one version);
//! - a versioned chunk is in scope when an entry for its instance (or an entry naming no
//!   instance) names its version, or when no entry concerns its instance at all (a scope
//!   says nothing of an instance it does not name);
//! - in a bundle that does not record instances, every entry concerns every chunk (the
//!   version by name, as before instances were recorded).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One docs version of one docs instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct DocsVersion {
    /// The docs plugin instance (Docusaurus's plugin id, `default` without an `id` option);
    /// absent: this version name in any instance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// The version's name (`current` for the unreleased docs, else as in versions.json).
    pub version: String,
}

impl DocsVersion {
    pub fn new(instance: &str, version: &str) -> Self {
        DocsVersion { instance: Some(instance.to_string()), version: version.to_string() }
    }

    /// Whether this entry says something about chunks of `instance` (`None`: not recorded).
    fn concerns(&self, instance: Option<&str>) -> bool {
        match (&self.instance, instance) {
            (Some(mine), Some(theirs)) => mine == theirs,
            _ => true,
        }
    }
}

/// Whether a chunk of `instance` (`None`: the bundle does not record it) in `version`
/// (`None`: an unversioned instance) is in `scope` (empty: everything is).
pub fn in_scope(scope: &[DocsVersion], instance: Option<&str>, version: Option<&str>) -> bool {
    let Some(version) = version else { return true };
    let mut concerned = scope.iter().filter(|entry| entry.concerns(instance)).peekable();
    concerned.peek().is_none() || concerned.any(|entry| entry.version == version)
}

/// `[INSTANCE:]VERSION`, as `lectern search --version` and `lectern eval` write it: `29.7`
/// (any instance), `rules:1.0`. A Docusaurus plugin id is letters, digits, `-` and `_`, so
/// the text before the first `:` is an instance only when it is one.
impl FromStr for DocsVersion {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let is_plugin_id =
            |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        let (instance, version) = match text.split_once(':') {
            Some((instance, version)) if is_plugin_id(instance) => (Some(instance.to_string()), version),
            _ => (None, text),
        };
        if version.trim().is_empty() {
            return Err(format!("{text:?} names no version (expected [INSTANCE:]VERSION, e.g. 29.7 or rules:1.0)"));
        }
        Ok(DocsVersion { instance, version: version.to_string() })
    }
}

impl fmt::Display for DocsVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.instance {
            Some(instance) => write!(f, "{instance}:{}", self.version),
            None => f.write_str(&self.version),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(entries: &[&str]) -> Vec<DocsVersion> {
        entries.iter().map(|e| e.parse().unwrap()).collect()
    }

    #[test]
    fn an_empty_scope_admits_everything() {
        assert!(in_scope(&[], Some("default"), Some("29.7")));
        assert!(in_scope(&[], None, None));
    }

    #[test]
    fn an_instance_keeps_the_version_it_names_only() {
        let s = scope(&["default:29.7"]);
        assert!(in_scope(&s, Some("default"), Some("29.7")));
        assert!(!in_scope(&s, Some("default"), Some("current")));
        assert!(!in_scope(&s, Some("default"), Some("30.0")));
    }

    #[test]
    fn two_instances_with_one_version_name_do_not_mix() {
        // The reader is on a current page of the docs; the rules instance is at its 1.0.
        let s = scope(&["default:current", "rules:1.0"]);
        assert!(in_scope(&s, Some("default"), Some("current")));
        assert!(!in_scope(&s, Some("default"), Some("1.0")), "the docs' own 1.0 is another version");
        assert!(in_scope(&s, Some("rules"), Some("1.0")));
        assert!(!in_scope(&s, Some("rules"), Some("current")));
    }

    #[test]
    fn unversioned_and_unnamed_instances_are_not_limited() {
        let s = scope(&["default:29.7"]);
        assert!(in_scope(&s, Some("default"), None), "an unversioned chunk");
        assert!(in_scope(&s, Some("community"), Some("2.0")), "an instance the scope does not name");
    }

    #[test]
    fn a_version_without_instance_names_it_everywhere() {
        let s = scope(&["1.0"]);
        assert!(in_scope(&s, Some("default"), Some("1.0")));
        assert!(in_scope(&s, Some("rules"), Some("1.0")));
        assert!(!in_scope(&s, Some("rules"), Some("current")));
        // A bundle without instances: by name.
        let s = scope(&["default:1.0"]);
        assert!(in_scope(&s, None, Some("1.0")));
        assert!(!in_scope(&s, None, Some("current")));
    }

    #[test]
    fn parses_and_prints_instance_and_version() {
        assert_eq!("29.7".parse::<DocsVersion>().unwrap(), DocsVersion { instance: None, version: "29.7".into() });
        assert_eq!("rules:1.0".parse::<DocsVersion>().unwrap(), DocsVersion::new("rules", "1.0"));
        assert_eq!(DocsVersion::new("rules", "1.0").to_string(), "rules:1.0");
        // Not a plugin id before the colon: all of it is the version's name.
        assert_eq!("v 2:1".parse::<DocsVersion>().unwrap().instance, None);
        assert!("rules:".parse::<DocsVersion>().is_err());
        assert!("".parse::<DocsVersion>().is_err());
    }
}
