//! Site discovery: find the Docusaurus config, read the values that decide
//! URLs (evaluating the config with Node, falling back to a text scan), and
//! apply the command line's overrides.

use crate::site::error::SiteError;
use crate::site::parse::MarkdownFormat;
use crate::site::permalink::{normalize_base_url, TrailingSlash};
use crate::site::Overrides;
use regex::Regex;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The JavaScript that evaluates a config in Node: the summary (shared with the Docusaurus
/// plugin, which passes the config it has loaded) and the evaluator; see their headers.
const NODE_EVALUATOR: &str = concat!(
    include_str!("../../../www/docusaurus-plugin-lectern/src/config-summary.js"),
    "\n",
    include_str!("node_config.js")
);
const RESULT_MARKER: &str = "__LECTERN_CONFIG__";
const CONFIG_FILE_NAMES: &[&str] = &[
    "docusaurus.config.js",
    "docusaurus.config.mjs",
    "docusaurus.config.cjs",
    "docusaurus.config.ts",
    "docusaurus.config.mts",
    "docusaurus.config.cts",
];
/// How long a config may take to evaluate before Lectern gives up on Node.
const NODE_TIMEOUT: Duration = Duration::from_secs(60);

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
    /// Always starts and ends with `/`.
    pub base_url: String,
    pub trailing_slash: TrailingSlash,
    pub markdown_format: SiteMarkdownFormat,
    pub docs: Vec<DocsInstanceConfig>,
    pub navbar: Vec<NavbarItem>,
    pub notes: Vec<String>,
}

impl SiteConfig {
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
    pub content_dir: PathBuf,
    pub pages: usize,
}

/// Finds the site's config under `root` (the root itself, `website/`, or a
/// folder up to three levels down) and reads it.
pub fn discover(root: &Path, overrides: &Overrides) -> Result<SiteConfig, SiteError> {
    if !root.is_dir() {
        return Err(SiteError::SiteRootNotFound { path: root.to_path_buf() });
    }
    let config_file = match &overrides.config_file {
        Some(file) if file.is_file() => Some(file.clone()),
        Some(file) => return Err(SiteError::ConfigNotFound { path: file.clone() }),
        None => find_config_file(root),
    };
    let mut config = match config_file {
        Some(file) => read_config_file(&file, overrides)?,
        None => SiteConfig {
            site_dir: root.to_path_buf(),
            source: ConfigSource::Defaults,
            site_url: None,
            base_url: "/".to_string(),
            trailing_slash: TrailingSlash::AsWritten,
            markdown_format: SiteMarkdownFormat::Mdx,
            docs: vec![DocsInstanceConfig::with_defaults(DEFAULT_DOCS_PLUGIN_ID)],
            navbar: Vec::new(),
            notes: vec!["no docusaurus.config.* found; using Docusaurus' defaults".to_string()],
        },
    };
    apply_overrides(&mut config, overrides);
    Ok(config)
}

fn find_config_file(root: &Path) -> Option<PathBuf> {
    let in_dir = |dir: &Path| CONFIG_FILE_NAMES.iter().map(|name| dir.join(name)).find(|candidate| candidate.is_file());
    if let Some(found) = in_dir(root).or_else(|| in_dir(&root.join("website"))) {
        return Some(found);
    }
    // Breadth-first, so the shallowest config wins; dependency and hidden
    // folders are not sites.
    let mut level = vec![root.to_path_buf()];
    for _ in 0..3 {
        let mut next = Vec::new();
        for dir in &level {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut subdirs: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
                .filter(|entry| {
                    let name = entry.file_name();
                    let name = name.to_string_lossy();
                    !name.starts_with('.') && name != "node_modules" && name != "build" && name != "target"
                })
                .map(|entry| entry.path())
                .collect();
            subdirs.sort();
            if let Some(found) = subdirs.iter().find_map(|dir| in_dir(dir)) {
                return Some(found);
            }
            next.extend(subdirs);
        }
        level = next;
    }
    None
}

fn read_config_file(file: &Path, overrides: &Overrides) -> Result<SiteConfig, SiteError> {
    let text = std::fs::read_to_string(file)
        .map_err(|source| SiteError::ConfigUnreadable { path: file.to_path_buf(), source })?;
    let site_dir = file.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    if let Some(summary) = &overrides.site_config {
        let read = std::fs::read_to_string(summary).map_err(|e| e.to_string());
        let json = read.and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string()));
        let json = json.map_err(|reason| SiteError::SiteConfigUnreadable { path: summary.clone(), reason })?;
        let mut config = config_from_json(file, site_dir, &json);
        config.source = ConfigSource::Loaded { file: file.to_path_buf(), summary: summary.clone() };
        return Ok(config);
    }
    let evaluated = if overrides.skip_node {
        Err("Node evaluation was turned off".to_string())
    } else {
        let node = overrides.node_binary.clone().unwrap_or_else(|| PathBuf::from("node"));
        evaluate_with_node(file, &site_dir, &node)
    };
    match evaluated {
        Ok(json) => Ok(config_from_json(file, site_dir, &json)),
        Err(reason) => Ok(config_from_text(file, site_dir, &text, reason)),
    }
}

/// Runs the evaluator and returns its JSON, or why it could not.
fn evaluate_with_node(file: &Path, site_dir: &Path, node: &Path) -> Result<Value, String> {
    let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let mut child = Command::new(node)
        .arg("-e")
        .arg(NODE_EVALUATOR)
        .env("LECTERN_CONFIG_FILE", &absolute)
        .current_dir(site_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("could not run {}: {error}", node.display()))?;

    // Read both pipes on threads so a chatty config cannot block on a full pipe.
    let stdout = child.stdout.take().map(read_in_background);
    let stderr = child.stderr.take().map(read_in_background);
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > NODE_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("evaluating the config took more than {} s", NODE_TIMEOUT.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(error) => return Err(format!("waiting for node failed: {error}")),
        }
    };
    let stdout = stdout.and_then(|handle| handle.join().ok()).unwrap_or_default();
    let stderr = stderr.and_then(|handle| handle.join().ok()).unwrap_or_default();
    let Some(json) = stdout.lines().rev().find_map(|line| line.strip_prefix(RESULT_MARKER)) else {
        let detail = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no output");
        return Err(format!("node exited with {status}: {detail}"));
    };
    let value: Value = serde_json::from_str(json).map_err(|error| format!("unreadable evaluator output: {error}"))?;
    if value.get("ok").and_then(Value::as_bool) == Some(true) {
        Ok(value)
    } else {
        let error = value.get("error").and_then(Value::as_str).unwrap_or("unknown error");
        Err(format!("the config threw: {error}"))
    }
}

fn read_in_background<R: Read + Send + 'static>(mut pipe: R) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn config_from_json(file: &Path, site_dir: PathBuf, json: &Value) -> SiteConfig {
    let text = |value: &Value, key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
    let texts = |value: &Value, key: &str| {
        value
            .get(key)
            .and_then(Value::as_array)
            .map(|items| items.iter().filter_map(Value::as_str).map(str::to_string).collect::<Vec<_>>())
    };
    let warnings: Vec<String> = texts(json, "warnings").unwrap_or_default();
    let mut notes = Vec::new();

    let mut docs = Vec::new();
    for entry in json.get("docs").and_then(Value::as_array).into_iter().flatten() {
        let id = text(entry, "id").unwrap_or_else(|| DEFAULT_DOCS_PLUGIN_ID.to_string());
        let mut instance = DocsInstanceConfig::with_defaults(&id);
        if let Some(path) = text(entry, "path") {
            instance.path = PathBuf::from(path);
        }
        if let Some(route) = text(entry, "routeBasePath") {
            instance.route_base_path = route;
        }
        if let Some(include) = texts(entry, "include") {
            instance.include = include;
        }
        if let Some(exclude) = texts(entry, "exclude") {
            instance.exclude = exclude;
        }
        instance.last_version = text(entry, "lastVersion");
        instance.only_include_versions = texts(entry, "onlyIncludeVersions");
        if let Some(include_current) = entry.get("includeCurrentVersion").and_then(Value::as_bool) {
            instance.include_current_version = include_current;
        }
        if let Some(disable) = entry.get("disableVersioning").and_then(Value::as_bool) {
            instance.disable_versioning = disable;
        }
        if let Some(versions) = entry.get("versions").and_then(Value::as_object) {
            for (name, options) in versions {
                instance.versions.insert(
                    name.clone(),
                    VersionOptions { path: text(options, "path"), label: text(options, "label") },
                );
            }
        }
        instance.number_prefixes = match entry.get("numberPrefixParser").and_then(Value::as_str) {
            Some("disabled") => NumberPrefixParsing::Disabled,
            Some("custom") => {
                notes.push(format!(
                    "docs instance \"{id}\" has a custom numberPrefixParser; Lectern applies Docusaurus' default one"
                ));
                NumberPrefixParsing::Custom
            }
            _ => NumberPrefixParsing::Default,
        };
        if entry.get("remarkPlugins").and_then(Value::as_u64).unwrap_or(0) > 0 {
            notes.push(format!(
                "docs instance \"{id}\" uses remark plugins; text they add or change at build time is not in the index"
            ));
        }
        docs.push(instance);
    }

    let navbar = json
        .get("navbar")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|item| NavbarItem {
            item_type: text(item, "type"),
            label: text(item, "label"),
            docs_plugin_id: text(item, "docsPluginId"),
            to: text(item, "to"),
        })
        .collect();

    let markdown_format = match text(json, "markdownFormat").as_deref() {
        Some("detect") => SiteMarkdownFormat::Detect,
        Some("md") => SiteMarkdownFormat::Md,
        _ => SiteMarkdownFormat::Mdx,
    };

    SiteConfig {
        site_dir,
        source: ConfigSource::Evaluated { file: file.to_path_buf(), warnings },
        site_url: text(json, "url"),
        base_url: normalize_base_url(&text(json, "baseUrl").unwrap_or_else(|| "/".to_string())),
        trailing_slash: TrailingSlash::from_option(json.get("trailingSlash").and_then(Value::as_bool)),
        markdown_format,
        docs,
        navbar,
        notes,
    }
}

/// Reads `key: 'value'` settings from the config's text when Node cannot
/// evaluate it. Only the first docs instance and plain literals are seen.
fn config_from_text(file: &Path, site_dir: PathBuf, text: &str, reason: String) -> SiteConfig {
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
    let markdown_format = match string_setting("format").as_deref() {
        Some("detect") => SiteMarkdownFormat::Detect,
        Some("md") => SiteMarkdownFormat::Md,
        _ => SiteMarkdownFormat::Mdx,
    };
    SiteConfig {
        site_dir,
        notes: vec![format!(
            "{} could not be evaluated ({reason}); URL settings were read from its text and may be wrong: \
             check base URL, docs path and route base path, or pass them as overrides",
            file.display()
        )],
        source: ConfigSource::TextScan { file: file.to_path_buf(), reason },
        site_url: string_setting("url"),
        base_url: normalize_base_url(&string_setting("baseUrl").unwrap_or_else(|| "/".to_string())),
        trailing_slash: TrailingSlash::from_option(bool_setting("trailingSlash")),
        markdown_format,
        docs: vec![instance],
        navbar: Vec::new(),
    }
}

/// Command-line values win over the config. Docs path and route base path
/// apply to the `default` docs instance (or the first one).
fn apply_overrides(config: &mut SiteConfig, overrides: &Overrides) {
    if let Some(base_url) = &overrides.base_url {
        config.base_url = normalize_base_url(base_url);
    }
    if let Some(trailing_slash) = overrides.trailing_slash {
        config.trailing_slash = trailing_slash;
    }
    if overrides.docs_path.is_none() && overrides.route_base_path.is_none() {
        return;
    }
    if config.docs.is_empty() {
        config.docs.push(DocsInstanceConfig::with_defaults(DEFAULT_DOCS_PLUGIN_ID));
    }
    let index = config.docs.iter().position(|d| d.id == DEFAULT_DOCS_PLUGIN_ID).unwrap_or(0);
    if let Some(instance) = config.docs.get_mut(index) {
        if let Some(path) = &overrides.docs_path {
            instance.path = path.clone();
        }
        if let Some(route) = &overrides.route_base_path {
            instance.route_base_path = route.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::site::test_support::{node_available, write_site as site};

    const TS_CONFIG: &str = r#"
import type { Config } from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import { themes as prismThemes } from 'prism-react-renderer';
import remarkMath from 'remark-math';

const docsOptions: Preset.Options['docs'] = {
  path: 'content',
  routeBasePath: '/guide',
  exclude: ['**/drafts/**'],
  lastVersion: 'current',
  versions: { current: { label: 'Next', path: 'dev' } },
};

const config: Config = {
  title: 'My Site',
  url: 'https://example.com',
  baseUrl: '/my-site/',
  trailingSlash: false,
  markdown: { format: 'detect' },
  presets: [['classic', { docs: docsOptions, theme: { customCss: require.resolve('./src/custom.css') } } satisfies Preset.Options]],
  plugins: [
    ['@docusaurus/plugin-content-docs', { id: 'api', path: 'api', routeBasePath: 'api', remarkPlugins: [remarkMath] }],
  ],
  themeConfig: {
    navbar: { items: [{ type: 'docSidebar', sidebarId: 's', label: 'Guide' }, { label: 'API', to: '/api/intro' }] },
    prism: { theme: prismThemes.github },
  },
};

export default config;
"#;

    #[test]
    fn evaluates_a_typescript_config_without_node_modules() {
        if !node_available() {
            eprintln!("node not found; skipping");
            return;
        }
        let dir = site(&[("docusaurus.config.ts", TS_CONFIG)]);
        let config = discover(dir.path(), &Overrides::default()).unwrap();
        assert!(matches!(config.source, ConfigSource::Evaluated { .. }), "{:?}", config.source);
        assert_eq!(config.base_url, "/my-site/");
        assert_eq!(config.trailing_slash, TrailingSlash::Never);
        assert_eq!(config.markdown_format, SiteMarkdownFormat::Detect);
        assert_eq!(config.site_url.as_deref(), Some("https://example.com"));
        assert_eq!(config.docs.len(), 2);
        let main = &config.docs[0];
        assert_eq!(main.id, "default");
        assert_eq!(main.path, PathBuf::from("content"));
        assert_eq!(main.route_base_path, "/guide");
        assert_eq!(main.exclude, vec!["**/drafts/**"]);
        assert_eq!(main.last_version.as_deref(), Some("current"));
        assert_eq!(main.versions.get("current").and_then(|v| v.path.as_deref()), Some("dev"));
        assert_eq!(config.docs[1].id, "api");
        assert_eq!(config.docs_label(main).as_deref(), Some("Guide"));
        assert_eq!(config.docs_label(&config.docs[1]).as_deref(), Some("API"));
        assert!(config.notes.iter().any(|n| n.contains("remark plugins")));
    }

    #[test]
    fn evaluates_an_async_esm_config_in_a_website_folder() {
        if !node_available() {
            return;
        }
        let dir = site(&[
            (
                "website/docusaurus.config.mjs",
                "import fs from 'node:fs';\nimport yaml from 'js-yaml';\nconst extra = yaml.load(fs.readFileSync('../missing.yml', 'utf8'));\n\
                 export default async function createConfig() {\n  return { baseUrl: '/docs-site', presets: [['@docusaurus/preset-classic', { docs: { path: '../docs' } }]], extra: Object.entries(extra.languages) };\n}\n",
            ),
        ]);
        let config = discover(dir.path(), &Overrides::default()).unwrap();
        assert!(matches!(config.source, ConfigSource::Evaluated { .. }), "{:?}", config.source);
        assert_eq!(config.base_url, "/docs-site/");
        assert_eq!(config.docs[0].path, PathBuf::from("../docs"));
        assert!(config.site_dir.ends_with("website"));
    }

    #[test]
    fn classic_preset_without_docs_options_uses_defaults_and_docs_false_disables() {
        if !node_available() {
            return;
        }
        let dir = site(&[("docusaurus.config.js", "module.exports = { presets: ['classic'] };")]);
        let config = discover(dir.path(), &Overrides::default()).unwrap();
        assert_eq!(config.docs, vec![DocsInstanceConfig::with_defaults("default")]);
        let dir = site(&[("docusaurus.config.js", "module.exports = { presets: [['classic', { docs: false }]] };")]);
        assert!(discover(dir.path(), &Overrides::default()).unwrap().docs.is_empty());
    }

    #[test]
    fn falls_back_to_a_text_scan_when_node_cannot_run() {
        let dir = site(&[(
            "docusaurus.config.js",
            "module.exports = { baseUrl: '/base/', trailingSlash: true, presets: [['classic', { docs: { routeBasePath: '/' } }]] };",
        )]);
        let overrides = Overrides { node_binary: Some(PathBuf::from("/nonexistent/node")), ..Overrides::default() };
        let config = discover(dir.path(), &overrides).unwrap();
        assert!(matches!(config.source, ConfigSource::TextScan { .. }));
        assert_eq!(config.base_url, "/base/");
        assert_eq!(config.trailing_slash, TrailingSlash::Always);
        assert_eq!(config.docs[0].route_base_path, "/");
        assert!(!config.notes.is_empty());
    }

    #[test]
    fn a_config_that_throws_falls_back_with_the_reason() {
        if !node_available() {
            return;
        }
        let dir = site(&[("docusaurus.config.js", "throw new Error('boom');\nmodule.exports = { baseUrl: '/x/' };")]);
        let config = discover(dir.path(), &Overrides::default()).unwrap();
        match &config.source {
            ConfigSource::TextScan { reason, .. } => assert!(reason.contains("boom"), "{reason}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(config.base_url, "/x/");
    }

    #[test]
    fn a_summary_from_the_plugin_is_read_instead_of_evaluating_the_config() {
        let dir = tempfile::tempdir().unwrap();
        // A config Node could not even parse: with --site-config it is never evaluated.
        std::fs::write(dir.path().join("docusaurus.config.js"), "this is not JavaScript").unwrap();
        let summary = dir.path().join("site-config.json");
        let json = r#"{"ok":true,"baseUrl":"/book/","url":"https://x.example","docs":[{"path":"guide","routeBasePath":"/"}],"navbar":[{"type":"docSidebar","label":"Guide"}],"warnings":[]}"#;
        std::fs::write(&summary, json).unwrap();
        let overrides = Overrides { site_config: Some(summary.clone()), ..Overrides::default() };
        let config = discover(dir.path(), &overrides).unwrap();
        assert!(
            matches!(&config.source, ConfigSource::Loaded { summary: s, .. } if *s == summary),
            "{:?}",
            config.source
        );
        assert_eq!(config.base_url, "/book/");
        assert_eq!(config.docs[0].path, PathBuf::from("guide"));
        assert_eq!(config.docs[0].route_base_path, "/");
        std::fs::write(&summary, "{").unwrap();
        let err = discover(dir.path(), &overrides).unwrap_err().to_string();
        assert!(err.contains("site config summary") && err.contains("--site-config"), "{err}");
    }

    #[test]
    fn overrides_win() {
        let dir = site(&[("docs/intro.md", "# Hi")]);
        let overrides = Overrides {
            base_url: Some("/b".into()),
            trailing_slash: Some(TrailingSlash::Always),
            docs_path: Some(PathBuf::from("content")),
            route_base_path: Some("/".into()),
            ..Overrides::default()
        };
        let config = discover(dir.path(), &overrides).unwrap();
        assert_eq!(config.source, ConfigSource::Defaults);
        assert_eq!(config.base_url, "/b/");
        assert_eq!(config.trailing_slash, TrailingSlash::Always);
        assert_eq!(config.docs[0].path, PathBuf::from("content"));
        assert_eq!(config.docs[0].route_base_path, "/");
    }

    #[test]
    fn missing_root_and_missing_config_file_are_errors() {
        assert!(matches!(
            discover(Path::new("/nonexistent/site"), &Overrides::default()),
            Err(SiteError::SiteRootNotFound { .. })
        ));
        let dir = site(&[]);
        let overrides = Overrides { config_file: Some(dir.path().join("nope.config.js")), ..Overrides::default() };
        assert!(matches!(discover(dir.path(), &overrides), Err(SiteError::ConfigNotFound { .. })));
    }
}
