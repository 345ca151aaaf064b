//! What a site's config decides, as Lectern reads it: where the settings came from, the
//! site's URL settings, its docs instances with Docusaurus' defaults filled in, and the
//! summaries of instances and versions the report shows.

use crate::site::locales::I18n;
use crate::site::parse::MarkdownFormat;
use crate::site::permalink::{normalize_base_url, TrailingSlash};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Docusaurus' default `exclude` for docs.
pub const DEFAULT_EXCLUDE: &[&str] =
    &["**/_*.{js,jsx,ts,tsx,md,mdx}", "**/_*/**", "**/*.test.{js,jsx,ts,tsx}", "**/__tests__/**"];
pub const DEFAULT_INCLUDE: &[&str] = &["**/*.{md,mdx}"];
pub const DEFAULT_DOCS_PLUGIN_ID: &str = "default";

/// Where the site's URL settings came from.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConfigSource {
    /// The config was evaluated with Node.
    Evaluated { file: PathBuf, warnings: Vec<String> },
    /// The config Docusaurus loaded, summarised by docusaurus-plugin-lectern
    /// (`--site-config`): no evaluation here.
    Loaded { file: PathBuf, summary: PathBuf },
    /// Node could not evaluate the config; simple `key: 'value'` settings
    /// were read from its text, everything else is Docusaurus' default.
    TextScan { file: PathBuf, reason: String },
    /// No config file was found; Docusaurus' defaults apply.
    Defaults,
}

/// How `.md` files are compiled (`markdown.format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SiteMarkdownFormat {
    /// Every file is MDX (the default).
    Mdx,
    /// `.md` is CommonMark, `.mdx` is MDX.
    Detect,
    /// Every file is CommonMark.
    Md,
}

impl SiteMarkdownFormat {
    /// `markdown.format` as a config writes it (Docusaurus' `mdx` when unset or unknown).
    pub fn from_option(format: Option<&str>) -> Self {
        match format {
            Some("detect") => Self::Detect,
            Some("md") => Self::Md,
            _ => Self::Mdx,
        }
    }

    pub fn for_file(self, path: &Path) -> MarkdownFormat {
        let is_mdx = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("mdx"));
        match self {
            Self::Mdx => MarkdownFormat::Mdx,
            Self::Detect if is_mdx => MarkdownFormat::Mdx,
            Self::Detect | Self::Md => MarkdownFormat::CommonMark,
        }
    }
}

/// How file and folder number prefixes are parsed (`numberPrefixParser`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NumberPrefixParsing {
    Default,
    Disabled,
    /// A custom function: Lectern applies the default rules and says so.
    Custom,
}

/// Per-version options (`versions: {name: {path, label}}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct VersionOptions {
    pub path: Option<String>,
    pub label: Option<String>,
}

/// One `@docusaurus/plugin-content-docs` instance, with Docusaurus' defaults filled in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocsInstanceConfig {
    pub id: String,
    /// The current version's docs folder, as configured (relative to the site folder).
    pub path: PathBuf,
    pub route_base_path: String,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub last_version: Option<String>,
    pub versions: BTreeMap<String, VersionOptions>,
    pub only_include_versions: Option<Vec<String>>,
    pub include_current_version: bool,
    pub disable_versioning: bool,
    pub number_prefixes: NumberPrefixParsing,
}

impl DocsInstanceConfig {
    pub fn with_defaults(id: &str) -> Self {
        Self {
            id: id.to_string(),
            path: PathBuf::from("docs"),
            route_base_path: "docs".to_string(),
            include: DEFAULT_INCLUDE.iter().map(|s| s.to_string()).collect(),
            exclude: DEFAULT_EXCLUDE.iter().map(|s| s.to_string()).collect(),
            last_version: None,
            versions: BTreeMap::new(),
            only_include_versions: None,
            include_current_version: true,
            disable_versioning: false,
            number_prefixes: NumberPrefixParsing::Default,
        }
    }
}

/// A navbar item that may name a docs instance's label ("Docs", "Textbook").
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NavbarItem {
    pub item_type: Option<String>,
    pub label: Option<String>,
    pub docs_plugin_id: Option<String>,
    pub to: Option<String>,
}

/// What decides the site's URLs.
#[derive(Debug, Clone)]
pub struct SiteConfig {
    pub site_dir: PathBuf,
    pub source: ConfigSource,
    pub site_url: Option<String>,
    /// The site's `title` and `tagline` (what llms.txt opens with).
    pub title: Option<String>,
    pub tagline: Option<String>,
    /// Always starts and ends with `/`.
    pub base_url: String,
    pub trailing_slash: TrailingSlash,
    pub markdown_format: SiteMarkdownFormat,
    pub docs: Vec<DocsInstanceConfig>,
    pub navbar: Vec<NavbarItem>,
    /// The locales the site is built in.
    pub i18n: I18n,
    pub notes: Vec<String>,
}

/// The URL-deciding settings a config states (read from its summary, or from its text),
/// before Docusaurus' defaults fill in what it leaves out.
#[derive(Debug, Clone, Default)]
pub struct StatedSettings {
    pub site_url: Option<String>,
    pub title: Option<String>,
    pub tagline: Option<String>,
    pub base_url: Option<String>,
    pub trailing_slash: Option<bool>,
    pub markdown_format: Option<String>,
    pub docs: Vec<DocsInstanceConfig>,
    pub navbar: Vec<NavbarItem>,
    pub i18n: I18n,
    pub notes: Vec<String>,
}

impl SiteConfig {
    /// The site in `site_dir` as `settings` state it, with Docusaurus' defaults for the rest.
    pub fn from_settings(site_dir: PathBuf, source: ConfigSource, settings: StatedSettings) -> Self {
        SiteConfig {
            site_dir,
            source,
            site_url: settings.site_url,
            title: settings.title.filter(|t| !t.trim().is_empty()),
            tagline: settings.tagline.filter(|t| !t.trim().is_empty()),
            base_url: normalize_base_url(settings.base_url.as_deref().unwrap_or("/")),
            trailing_slash: TrailingSlash::from_option(settings.trailing_slash),
            markdown_format: SiteMarkdownFormat::from_option(settings.markdown_format.as_deref()),
            docs: settings.docs,
            navbar: settings.navbar,
            i18n: settings.i18n,
            notes: settings.notes,
        }
    }

    /// The label the navbar gives a docs instance, if any: a doc/sidebar item
    /// for that plugin id, or a link to the instance's route.
    pub fn docs_label(&self, instance: &DocsInstanceConfig) -> Option<String> {
        let doc_item = self.navbar.iter().find(|item| {
            matches!(item.item_type.as_deref(), Some("docSidebar" | "doc" | "docsVersion"))
                && item.docs_plugin_id.as_deref().unwrap_or(DEFAULT_DOCS_PLUGIN_ID) == instance.id
        });
        let route = instance.route_base_path.trim_matches('/');
        let link_item = || {
            (!route.is_empty())
                .then(|| {
                    self.navbar.iter().find(|item| {
                        item.to.as_deref().is_some_and(|to| {
                            let to = to.trim_start_matches(self.base_url.as_str()).trim_matches('/');
                            to == route || to.starts_with(&format!("{route}/"))
                        })
                    })
                })
                .flatten()
        };
        doc_item.or_else(link_item).and_then(|item| item.label.clone()).filter(|l| !l.is_empty())
    }
}

/// A summary of one docs instance for the report.
#[derive(Debug, Clone, Serialize)]
pub struct DocsInstanceSummary {
    pub id: String,
    pub route_base_path: String,
    pub versions: Vec<VersionSummary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct VersionSummary {
    pub name: String,
    /// URL path of the version's docs root.
    pub path: String,
    /// The instance's last version (`lastVersion`): the one served at its route base path.
    pub last: bool,
    pub content_dir: PathBuf,
    /// The locale's translations of the version's docs, when the locale read is not the
    /// default one and has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub translated_dir: Option<PathBuf>,
    pub pages: usize,
}
