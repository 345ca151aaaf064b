//! The JSON summary of a config (config-summary.js: what Node's evaluation prints, and what
//! docusaurus-plugin-lectern hands over with `--site-config`) read into the settings it states.

use super::site_config::{
    DocsInstanceConfig, NavbarItem, NumberPrefixParsing, StatedSettings, VersionOptions, DEFAULT_DOCS_PLUGIN_ID,
};
use crate::site::locales::I18n;
use serde_json::Value;
use std::path::PathBuf;

/// The settings a config summary states, and the warnings the evaluator gave.
pub fn read_summary(json: &Value) -> (StatedSettings, Vec<String>) {
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

    let settings = StatedSettings {
        site_url: text(json, "url"),
        title: text(json, "title"),
        tagline: text(json, "tagline"),
        base_url: text(json, "baseUrl"),
        trailing_slash: json.get("trailingSlash").and_then(Value::as_bool),
        markdown_format: text(json, "markdownFormat"),
        docs,
        navbar,
        i18n: json
            .get("i18n")
            .map(|i18n| I18n::from_stated(text(i18n, "defaultLocale"), texts(i18n, "locales")))
            .unwrap_or_default(),
        notes,
    };
    (settings, warnings)
}
