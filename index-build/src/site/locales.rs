//! A site's locales, as Docusaurus' i18n builds them: the default locale is served at the
//! base URL from the docs folders; every other locale is its own site under
//! `<baseUrl><locale>/`, whose docs are the translations in
//! `i18n/<locale>/docusaurus-plugin-content-docs[-<pluginId>]/<current | version-<name>>/`,
//! a doc without a translation falling back to the original (Docusaurus lists a version's
//! docs from the original folder and reads each from the translation first).

use crate::site::config::DEFAULT_DOCS_PLUGIN_ID;
use crate::site::permalink::normalize_base_url;
use crate::site::versions::CURRENT_VERSION;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Docusaurus' default locale when a config has no `i18n`.
pub const DEFAULT_LOCALE: &str = "en";

/// The `i18n` settings: which locales the site is built in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct I18n {
    pub default_locale: String,
    /// Every locale, the default one included, in the config's order.
    pub locales: Vec<String>,
}

impl Default for I18n {
    fn default() -> Self {
        I18n { default_locale: DEFAULT_LOCALE.to_string(), locales: vec![DEFAULT_LOCALE.to_string()] }
    }
}

impl I18n {
    /// The settings a config states: a missing default is Docusaurus' `en`, and the default
    /// locale is always built even when the list leaves it out.
    pub fn from_stated(default_locale: Option<String>, locales: Option<Vec<String>>) -> Self {
        let default_locale =
            default_locale.filter(|l| is_valid_locale(l)).unwrap_or_else(|| DEFAULT_LOCALE.to_string());
        let mut all: Vec<String> = Vec::new();
        for locale in locales.unwrap_or_default().into_iter().filter(|l| is_valid_locale(l)) {
            if !all.contains(&locale) {
                all.push(locale);
            }
        }
        if !all.contains(&default_locale) {
            all.insert(0, default_locale.clone());
        }
        I18n { default_locale, locales: all }
    }

    /// The locale to read: `wanted`, or the default one.
    pub fn locale(&self, wanted: Option<&str>) -> Result<Locale, String> {
        let name = wanted.unwrap_or(&self.default_locale);
        if !self.locales.iter().any(|l| l == name) {
            return Err(format!("the site has no locale \"{name}\" (its locales: {})", self.locales.join(", ")));
        }
        Ok(Locale { name: name.to_string(), is_default: name == self.default_locale })
    }
}

/// One locale of the site, as it is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Locale {
    /// The locale's name in the config (a BCP 47 tag such as `zh-CN`): also its language.
    pub name: String,
    pub is_default: bool,
}

impl Locale {
    /// The locale's base URL: the site's, with `<locale>/` after it unless it is the default.
    pub fn base_url(&self, site_base_url: &str) -> String {
        if self.is_default {
            site_base_url.to_string()
        } else {
            normalize_base_url(&format!("{}{}", site_base_url, self.name))
        }
    }

    /// Where the locale's bundle goes when a build writes the site's into `out`: the default
    /// locale's in `out`, every other one's in `out/<locale>/`.
    pub fn bundle_dir(&self, out: &Path) -> PathBuf {
        if self.is_default {
            out.to_path_buf()
        } else {
            out.join(&self.name)
        }
    }

    /// Where the translations of one docs version are (`None` for the default locale, whose
    /// docs are the originals).
    pub fn translated_docs_dir(&self, site_dir: &Path, docs_instance: &str, version: &str) -> Option<PathBuf> {
        if self.is_default {
            return None;
        }
        let plugin_dir = if docs_instance == DEFAULT_DOCS_PLUGIN_ID {
            "docusaurus-plugin-content-docs".to_string()
        } else {
            format!("docusaurus-plugin-content-docs-{docs_instance}")
        };
        let version_dir = if version == CURRENT_VERSION { version.to_string() } else { format!("version-{version}") };
        Some(site_dir.join("i18n").join(&self.name).join(plugin_dir).join(version_dir))
    }
}

/// A locale name that can be a URL path segment and a folder name.
fn is_valid_locale(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i18n(default: &str, locales: &[&str]) -> I18n {
        I18n::from_stated(Some(default.into()), Some(locales.iter().map(|l| l.to_string()).collect()))
    }

    #[test]
    fn no_i18n_is_english_only() {
        let i18n = I18n::from_stated(None, None);
        assert_eq!(i18n, I18n::default());
        assert_eq!(i18n.locale(None), Ok(Locale { name: "en".into(), is_default: true }));
    }

    #[test]
    fn the_default_locale_is_always_built() {
        assert_eq!(i18n("fr", &["zh-CN"]).locales, ["fr", "zh-CN"]);
        assert_eq!(i18n("en", &["en", "zh-CN", "en"]).locales, ["en", "zh-CN"]);
    }

    #[test]
    fn an_unknown_or_unsafe_locale_is_refused() {
        let site = i18n("en", &["en", "zh-CN", "../x"]);
        assert_eq!(site.locales, ["en", "zh-CN"]);
        assert!(site.locale(Some("ja")).is_err_and(|e| e.contains("en, zh-CN")));
    }

    #[test]
    fn other_locales_live_under_their_prefix() {
        let site = i18n("en", &["en", "zh-CN"]);
        let en = site.locale(None).unwrap_or_else(|e| panic!("{e}"));
        let zh = site.locale(Some("zh-CN")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(en.base_url("/docs-site/"), "/docs-site/");
        assert_eq!(zh.base_url("/docs-site/"), "/docs-site/zh-CN/");
        assert_eq!(zh.base_url("/"), "/zh-CN/");
        assert_eq!(en.translated_docs_dir(Path::new("s"), "default", "current"), None);
        assert_eq!(
            zh.translated_docs_dir(Path::new("s"), "default", "current"),
            Some(PathBuf::from("s/i18n/zh-CN/docusaurus-plugin-content-docs/current"))
        );
        assert_eq!(
            zh.translated_docs_dir(Path::new("s"), "api", "0.12"),
            Some(PathBuf::from("s/i18n/zh-CN/docusaurus-plugin-content-docs-api/version-0.12"))
        );
    }
}
