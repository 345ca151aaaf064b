//! Reading each locale of an i18n site: tests/fixtures/i18n-site, English (default) and
//! Simplified Chinese, the current docs and version 1.0, one doc left untranslated.

use super::*;
use crate::site::test_support::node_available;
use std::path::PathBuf;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/i18n-site")
}

fn read(locale: Option<&str>, skip_node: bool) -> SiteReport {
    let overrides = Overrides { locale: locale.map(str::to_string), skip_node, ..Overrides::default() };
    read_site(&fixture(), &overrides).unwrap_or_else(|e| panic!("{e}"))
}

fn page_of<'a>(report: &'a SiteReport, url: &str) -> &'a Page {
    report
        .pages
        .iter()
        .find(|p| p.url == url)
        .unwrap_or_else(|| panic!("no page {url}: {:?}", report.pages.iter().map(|p| &p.url).collect::<Vec<_>>()))
}

#[test]
fn the_default_locale_is_read_as_before() {
    let report = read(None, true);
    assert_eq!((report.locale.name.as_str(), report.locale.is_default), ("en", true));
    assert_eq!(report.locales, ["en", "zh-CN"]);
    assert_eq!(report.base_url, "/");
    assert!(page_of(&report, "/docs/setup").title == "Setting up");
    assert!(report.chunks.iter().any(|c| c.url == "/docs/next/setup#calibrating-the-funnel"));
    assert!(report.pages.iter().all(|p| !p.source.to_string_lossy().contains("i18n/zh-CN")));
}

#[test]
fn another_locale_reads_its_translations_under_its_prefix() {
    // The config's i18n is read by its text here, and by Node (when there) below.
    let mut readings = vec![read(Some("zh-CN"), true)];
    if node_available() {
        readings.push(read(Some("zh-CN"), false));
    }
    for report in readings {
        assert_eq!((report.locale.name.as_str(), report.locale.is_default), ("zh-CN", false));
        assert_eq!(report.base_url, "/zh-CN/");
        // Both versions, each from its own translation folder.
        let current = page_of(&report, "/zh-CN/docs/next/setup");
        assert_eq!(current.title, "安装");
        assert!(current.source.ends_with("i18n/zh-CN/docusaurus-plugin-content-docs/current/setup.md"));
        let last = page_of(&report, "/zh-CN/docs/setup");
        assert!(last.source.ends_with("i18n/zh-CN/docusaurus-plugin-content-docs/version-1.0/setup.md"));
        assert!(report.chunks.iter().any(|c| c.url == "/zh-CN/docs/setup#校准漏斗"));
        // An untranslated doc is the original, under the locale's URL (as Docusaurus serves it).
        let battery = page_of(&report, "/zh-CN/docs/next/battery");
        assert!(battery.source.ends_with("docs/battery.md") && battery.title == "Battery");
        assert!(report.notes.iter().any(|n| n.contains("1 docs have no translation")), "{:?}", report.notes);
        // Pages a translation does not have in the original are not published, and not read.
        assert_eq!(report.pages.len(), 5);
        let translated: Vec<_> =
            report.docs_instances.iter().flat_map(|i| &i.versions).filter_map(|v| v.translated_dir.as_ref()).collect();
        assert_eq!(translated.len(), 2, "{translated:?}");
    }
}

#[test]
fn an_unknown_locale_is_refused_with_the_site_s_locales() {
    let overrides = Overrides { locale: Some("fr".into()), skip_node: true, ..Overrides::default() };
    let error = read_site(&fixture(), &overrides).map(|_| ()).unwrap_err().to_string();
    assert!(error.contains("\"fr\"") && error.contains("en, zh-CN"), "{error}");
}

#[test]
fn the_locale_base_url_docusaurus_computed_is_taken_as_it_is() {
    // docusaurus-plugin-lectern, inside Docusaurus's zh-CN build: the site's baseUrl is then
    // already the locale's, and the prefix must not be added twice (tests/e2e/i18n.test.mjs).
    let overrides = Overrides {
        locale: Some("zh-CN".into()),
        base_url: Some("/zh-CN/".into()),
        locale_base_url: Some("/zh-CN/".into()),
        skip_node: true,
        ..Overrides::default()
    };
    let report = read_site(&fixture(), &overrides).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.base_url, "/zh-CN/");
    assert!(
        report.pages.iter().all(|p| p.url.starts_with("/zh-CN/docs/")),
        "{:?}",
        report.pages.iter().map(|p| &p.url).collect::<Vec<_>>()
    );
    // A locale served elsewhere (`i18n.localeConfigs[locale].baseUrl`).
    let overrides = Overrides { locale_base_url: Some("/chinese".into()), ..overrides };
    let report = read_site(&fixture(), &overrides).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.pages.iter().all(|p| p.url.starts_with("/chinese/docs/")));
}
