//! Site discovery: find the Docusaurus config, read the values that decide URLs (from the
//! summary docusaurus-plugin-lectern hands over, else by evaluating the config with Node
//! ([`node`]), else by a scan of its text ([`text_scan`])), and apply the command line's
//! overrides.

mod node;
pub mod site_config;
mod summary;
mod text_scan;

pub use site_config::{
    ConfigSource, DocsInstanceConfig, DocsInstanceSummary, NumberPrefixParsing, SiteConfig, StatedSettings,
    VersionSummary, DEFAULT_DOCS_PLUGIN_ID,
};

use crate::site::error::SiteError;
use crate::site::overrides::Overrides;
use crate::site::permalink::normalize_base_url;
use serde_json::Value;
use std::path::{Path, PathBuf};

const CONFIG_FILE_NAMES: &[&str] = &[
    "docusaurus.config.js",
    "docusaurus.config.mjs",
    "docusaurus.config.cjs",
    "docusaurus.config.ts",
    "docusaurus.config.mts",
    "docusaurus.config.cts",
];

/// Finds the site's config under `root` (the root itself, `website/`, or a
/// folder up to three levels down) and reads it.
pub fn discover(root: &Path, overrides: &Overrides) -> Result<SiteConfig, SiteError> {
    if !root.is_dir() {
        return Err(SiteError::SiteRootNotFound { path: root.to_path_buf() });
    }
    // A config named on the command line (`--config`, as `docusaurus build SITE --config
    // FILE`) may live outside the site: its paths are the site's, relative to `root`. One
    // found in the site is in the site's folder (the root or `website/`).
    let config_file = match &overrides.config_file {
        Some(file) if file.is_file() => Some((file.clone(), root.to_path_buf())),
        Some(file) => return Err(SiteError::ConfigNotFound { path: file.clone() }),
        None => find_config_file(root).map(|file| {
            let site_dir = file.parent().map_or_else(|| root.to_path_buf(), Path::to_path_buf);
            (file, site_dir)
        }),
    };
    let mut config = match config_file {
        Some((file, site_dir)) => read_config_file(&file, site_dir, overrides)?,
        None => SiteConfig::from_settings(
            root.to_path_buf(),
            ConfigSource::Defaults,
            StatedSettings {
                docs: vec![DocsInstanceConfig::with_defaults(DEFAULT_DOCS_PLUGIN_ID)],
                notes: vec!["no docusaurus.config.* found; using Docusaurus' defaults".to_string()],
                ..StatedSettings::default()
            },
        ),
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

fn read_config_file(file: &Path, site_dir: PathBuf, overrides: &Overrides) -> Result<SiteConfig, SiteError> {
    let text = std::fs::read_to_string(file)
        .map_err(|source| SiteError::ConfigUnreadable { path: file.to_path_buf(), source })?;
    if let Some(summary) = &overrides.site_config {
        let read = std::fs::read_to_string(summary).map_err(|e| e.to_string());
        let json = read.and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string()));
        let json = json.map_err(|reason| SiteError::SiteConfigUnreadable { path: summary.clone(), reason })?;
        let source = ConfigSource::Loaded { file: file.to_path_buf(), summary: summary.clone() };
        return Ok(SiteConfig::from_settings(site_dir, source, summary::read_summary(&json).0));
    }
    let evaluated = if overrides.skip_node {
        Err("Node evaluation was turned off".to_string())
    } else {
        let node = overrides.node_binary.clone().unwrap_or_else(|| PathBuf::from("node"));
        node::evaluate_with_node(file, &site_dir, &node)
    };
    Ok(match evaluated {
        Ok(json) => {
            let (settings, warnings) = summary::read_summary(&json);
            SiteConfig::from_settings(
                site_dir,
                ConfigSource::Evaluated { file: file.to_path_buf(), warnings },
                settings,
            )
        }
        Err(reason) => {
            let settings = text_scan::scan_text(file, &text, &reason);
            SiteConfig::from_settings(site_dir, ConfigSource::TextScan { file: file.to_path_buf(), reason }, settings)
        }
    })
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

    use crate::site::config::site_config::SiteMarkdownFormat;
    use crate::site::permalink::TrailingSlash;
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
    fn a_config_named_from_outside_the_site_reads_the_sites_folders() {
        // `docusaurus build SITE --config ../elsewhere/docusaurus.config.js`: the docs are
        // SITE's (tests/e2e builds the i18n fixture so).
        let dir = site(&[
            ("site/docs/intro.md", "# Intro\n"),
            ("elsewhere/docusaurus.config.js", "module.exports = { baseUrl: '/' };"),
        ]);
        let overrides = Overrides {
            config_file: Some(dir.path().join("elsewhere/docusaurus.config.js")),
            skip_node: true,
            ..Overrides::default()
        };
        let config = discover(&dir.path().join("site"), &overrides).unwrap();
        assert_eq!(config.site_dir, dir.path().join("site"));
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
