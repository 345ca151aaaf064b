//! Docs versions and where each is served, as `plugin-content-docs` decides:
//! `versions.json` lists the versions (newest first), the current docs folder
//! is version `current`, the last version is served at the route base path,
//! `current` under `/next/` and every other version under `/<name>/`.

use crate::site::config::{DocsInstanceConfig, SiteConfig, DEFAULT_DOCS_PLUGIN_ID};
use crate::site::error::SiteError;
use crate::site::permalink::normalize_url;
use std::path::{Path, PathBuf};

pub const CURRENT_VERSION: &str = "current";

/// One version of one docs instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocsVersion {
    /// `current` or a name from `versions.json`.
    pub name: String,
    /// Where the version's docs are.
    pub content_dir: PathBuf,
    /// URL path of the version's root (base URL and route base path included).
    pub path: String,
    /// Whether the instance has versions at all; unversioned docs carry no
    /// version in their chunks.
    pub versioned: bool,
    /// The last version (`lastVersion`), served at the route base path.
    pub last: bool,
}

/// The versions Docusaurus builds for a docs instance, in `versions.json`
/// order with `current` first.
pub fn resolve_versions(site: &SiteConfig, instance: &DocsInstanceConfig) -> Result<Vec<DocsVersion>, SiteError> {
    let is_default = instance.id == DEFAULT_DOCS_PLUGIN_ID;
    let prefix = if is_default { String::new() } else { format!("{}_", instance.id) };
    let versions_file = site.site_dir.join(format!("{prefix}versions.json"));
    let listed = read_versions_file(&versions_file)?;
    let invalid = |message: String| SiteError::InvalidDocsOptions { instance: instance.id.clone(), message };

    if listed.is_none() && instance.disable_versioning {
        return Err(invalid("disableVersioning is set but the site has no versions file".to_string()));
    }
    let mut names = if instance.disable_versioning { Vec::new() } else { listed.unwrap_or_default() };
    if instance.include_current_version && !names.iter().any(|n| n == CURRENT_VERSION) {
        names.insert(0, CURRENT_VERSION.to_string());
    }
    if let Some(only) = &instance.only_include_versions {
        if let Some(unknown) = only.iter().find(|name| !names.contains(name)) {
            return Err(invalid(format!("onlyIncludeVersions names unknown version \"{unknown}\"")));
        }
        names.retain(|name| only.contains(name));
    }
    if names.is_empty() {
        return Err(invalid("no docs version is included".to_string()));
    }
    let last_version = match &instance.last_version {
        Some(last) if names.contains(last) => last.clone(),
        Some(last) => return Err(invalid(format!("lastVersion \"{last}\" is not an included version"))),
        None => {
            names.iter().find(|name| *name != CURRENT_VERSION).cloned().unwrap_or_else(|| CURRENT_VERSION.to_string())
        }
    };
    let versioned = names.iter().any(|name| name != CURRENT_VERSION);

    let versions = names
        .iter()
        .map(|name| {
            let default_part = if *name == last_version {
                ""
            } else if name == CURRENT_VERSION {
                "next"
            } else {
                name.as_str()
            };
            let path_part =
                instance.versions.get(name).and_then(|options| options.path.as_deref()).unwrap_or(default_part);
            let content_dir = if name == CURRENT_VERSION {
                site.site_dir.join(&instance.path)
            } else {
                site.site_dir.join(format!("{prefix}versioned_docs")).join(format!("version-{name}"))
            };
            DocsVersion {
                name: name.clone(),
                content_dir,
                path: normalize_url(&[&site.base_url, &instance.route_base_path, path_part]),
                versioned,
                last: *name == last_version,
            }
        })
        .collect::<Vec<_>>();

    for version in &versions {
        if !version.content_dir.is_dir() {
            return Err(SiteError::NoDocsFolder {
                instance: instance.id.clone(),
                version: version.name.clone(),
                path: version.content_dir.clone(),
            });
        }
    }
    Ok(versions)
}

fn read_versions_file(path: &Path) -> Result<Option<Vec<String>>, SiteError> {
    if !path.is_file() {
        return Ok(None);
    }
    let invalid = |message: String| SiteError::VersionsFileInvalid { path: path.to_path_buf(), message };
    let text = std::fs::read_to_string(path).map_err(|error| invalid(error.to_string()))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|error| invalid(error.to_string()))?;
    let items = value.as_array().ok_or_else(|| invalid("expected an array of version names".to_string()))?;
    items
        .iter()
        .map(|item| match item.as_str() {
            Some(name) if !name.trim().is_empty() => Ok(name.to_string()),
            _ => Err(invalid(format!("invalid version name {item}"))),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::config::site_config::{ConfigSource, SiteMarkdownFormat, VersionOptions};
    use crate::site::permalink::TrailingSlash;
    use std::fs;

    fn site_with(dirs: &[&str], versions_json: Option<&str>) -> (tempfile::TempDir, SiteConfig) {
        let dir = tempfile::tempdir().unwrap();
        for d in dirs {
            fs::create_dir_all(dir.path().join(d)).unwrap();
        }
        if let Some(json) = versions_json {
            fs::write(dir.path().join("versions.json"), json).unwrap();
        }
        let config = SiteConfig {
            site_dir: dir.path().to_path_buf(),
            source: ConfigSource::Defaults,
            site_url: None,
            title: None,
            tagline: None,
            base_url: "/base/".into(),
            trailing_slash: TrailingSlash::AsWritten,
            markdown_format: SiteMarkdownFormat::Mdx,
            docs: Vec::new(),
            navbar: Vec::new(),
            i18n: crate::site::locales::I18n::default(),
            notes: Vec::new(),
        };
        (dir, config)
    }

    fn paths(versions: &[DocsVersion]) -> Vec<(String, String)> {
        versions.iter().map(|v| (v.name.clone(), v.path.clone())).collect()
    }

    #[test]
    fn unversioned_docs_are_served_at_the_route_base_path() {
        let (_dir, site) = site_with(&["docs"], None);
        let versions = resolve_versions(&site, &DocsInstanceConfig::with_defaults("default")).unwrap();
        assert_eq!(paths(&versions), vec![("current".into(), "/base/docs".into())]);
        assert!(!versions[0].versioned);
    }

    #[test]
    fn latest_listed_version_is_served_at_the_base_and_current_under_next() {
        let (_dir, site) =
            site_with(&["docs", "versioned_docs/version-2.0", "versioned_docs/version-1.0"], Some(r#"["2.0", "1.0"]"#));
        let versions = resolve_versions(&site, &DocsInstanceConfig::with_defaults("default")).unwrap();
        assert_eq!(
            paths(&versions),
            vec![
                ("current".into(), "/base/docs/next".into()),
                ("2.0".into(), "/base/docs".into()),
                ("1.0".into(), "/base/docs/1.0".into()),
            ]
        );
        assert!(versions[1].content_dir.ends_with("versioned_docs/version-2.0"));
        assert!(versions.iter().all(|v| v.versioned));
    }

    #[test]
    fn version_options_are_honoured() {
        let (_dir, site) =
            site_with(&["docs", "versioned_docs/version-2.0", "versioned_docs/version-1.0"], Some(r#"["2.0", "1.0"]"#));
        let mut instance = DocsInstanceConfig::with_defaults("default");
        instance.last_version = Some("current".into());
        instance.versions.insert("2.0".into(), VersionOptions { path: Some("stable".into()), label: None });
        instance.only_include_versions = Some(vec!["current".into(), "2.0".into()]);
        let versions = resolve_versions(&site, &instance).unwrap();
        assert_eq!(
            paths(&versions),
            vec![("current".into(), "/base/docs".into()), ("2.0".into(), "/base/docs/stable".into())]
        );
        instance.include_current_version = false;
        instance.last_version = None;
        instance.only_include_versions = None;
        let versions = resolve_versions(&site, &instance).unwrap();
        assert_eq!(versions[0].name, "2.0");
        assert_eq!(versions[0].path, "/base/docs/stable");
    }

    #[test]
    fn non_default_instances_use_prefixed_version_files() {
        let (dir, site) = site_with(&["community", "community_versioned_docs/version-1.0"], None);
        fs::write(dir.path().join("community_versions.json"), r#"["1.0"]"#).unwrap();
        let mut instance = DocsInstanceConfig::with_defaults("community");
        instance.path = PathBuf::from("community");
        instance.route_base_path = "community".into();
        let versions = resolve_versions(&site, &instance).unwrap();
        assert_eq!(
            paths(&versions),
            vec![("current".into(), "/base/community/next".into()), ("1.0".into(), "/base/community".into())]
        );
    }

    #[test]
    fn missing_folders_and_bad_files_are_errors() {
        let (_dir, site) = site_with(&[], None);
        assert!(matches!(
            resolve_versions(&site, &DocsInstanceConfig::with_defaults("default")),
            Err(SiteError::NoDocsFolder { .. })
        ));
        let (_dir, site) = site_with(&["docs"], Some("{\"not\": \"a list\"}"));
        assert!(matches!(
            resolve_versions(&site, &DocsInstanceConfig::with_defaults("default")),
            Err(SiteError::VersionsFileInvalid { .. })
        ));
    }
}
