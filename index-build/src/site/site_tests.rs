//! Whole-site tests: small Docusaurus trees written to a temporary folder,
//! read with `read_site`, checked for pages, URLs and chunks.

use super::*;
use crate::site::config::ConfigSource;

use crate::site::test_support::{node_available, write_site};

/// Tests that do not need Node: the config is read from its text.
fn no_node() -> Overrides {
    Overrides { skip_node: true, ..Overrides::default() }
}

const PROSE: &str =
    "This paragraph is long enough to stand on its own as a chunk, because it says quite a lot about the topic.";

fn page<'a>(report: &'a SiteReport, doc_id: &str) -> &'a Page {
    report
        .pages
        .iter()
        .find(|p| p.doc_id == doc_id)
        .unwrap_or_else(|| panic!("no page {doc_id}: {:?}", report.pages.iter().map(|p| &p.doc_id).collect::<Vec<_>>()))
}

fn urls(report: &SiteReport) -> Vec<(String, String)> {
    report.pages.iter().map(|p| (p.doc_id.clone(), p.url.clone())).collect()
}

#[test]
fn ids_and_urls_follow_docusaurus_rules() {
    let dir = write_site(&[
        ("docs/01-intro.md", &format!("# Introduction\n\n{PROSE}\n")),
        ("docs/02-guides/01-setup.md", &format!("# Setup\n\n{PROSE}\n")),
        ("docs/02-guides/index.md", &format!("# Guides\n\n{PROSE}\n")),
        ("docs/other/README.md", &format!("# Readme\n\n{PROSE}\n")),
        ("docs/02-guides/02-guides.md", &format!("# Same name\n\n{PROSE}\n")),
        ("docs/02-guides/moved.md", &format!("---\nslug: /elsewhere/page\n---\n\n# Moved\n\n{PROSE}\n")),
        ("docs/02-guides/renamed.md", &format!("---\nid: custom-id\nslug: better-name\n---\n\n# Renamed\n\n{PROSE}\n")),
        ("docs/02-guides/_partial.md", "Partial content, imported elsewhere.\n"),
        ("docs/keep-01/2023-01-01-notes.md", &format!("# Notes\n\n{PROSE}\n")),
        ("docs/raw/01-raw.md", &format!("---\nparse_number_prefixes: false\n---\n\n# Raw\n\n{PROSE}\n")),
    ]);
    let report = read_site(dir.path(), &no_node()).unwrap();
    let mut found = urls(&report);
    found.sort();
    assert_eq!(
        found,
        vec![
            ("guides/custom-id".into(), "/docs/guides/better-name".into()),
            ("guides/guides".into(), "/docs/guides/guides".into()),
            ("guides/index".into(), "/docs/guides/".into()),
            ("guides/moved".into(), "/docs/elsewhere/page".into()),
            ("guides/setup".into(), "/docs/guides/setup".into()),
            ("intro".into(), "/docs/intro".into()),
            ("keep-01/2023-01-01-notes".into(), "/docs/keep-01/2023-01-01-notes".into()),
            ("other/README".into(), "/docs/other/".into()),
            ("raw/01-raw".into(), "/docs/raw/01-raw".into()),
        ],
        "{:#?}",
        report.skipped
    );
    // `guides/index.md` and `guides/guides.md` both claim the folder URL;
    // the dir-name index was demoted to a regular slug above.
    let duplicates: Vec<_> = report.skipped.iter().filter(|s| s.kind == SkipKind::Duplicate).collect();
    assert!(duplicates.is_empty(), "{duplicates:?}");
}

#[test]
fn readme_and_index_clash_is_reported() {
    let dir = write_site(&[
        ("docs/guides/index.md", &format!("# Guides\n\n{PROSE}\n")),
        ("docs/guides/readme.md", &format!("# Readme\n\n{PROSE}\n")),
    ]);
    let report = read_site(dir.path(), &no_node()).unwrap();
    assert_eq!(report.pages.len(), 1);
    assert_eq!(report.pages[0].url, "/docs/guides/");
    assert_eq!(report.skipped.len(), 1);
    assert_eq!(report.skipped[0].kind, SkipKind::Duplicate);
}

#[test]
fn drafts_are_skipped_unlisted_kept_and_broken_pages_reported() {
    let dir = write_site(&[
        ("docs/draft.md", &format!("---\ndraft: true\n---\n\n# Draft\n\n{PROSE}\n")),
        ("docs/hidden.md", &format!("---\nunlisted: true\n---\n\n# Hidden\n\n{PROSE}\n")),
        ("docs/broken.mdx", &format!("# Broken\n\n{PROSE}\n\nThis is <5 not JSX.\n")),
        ("docs/bad-yaml.md", "---\ntitle: [unclosed\n---\n\n# Bad\n"),
        ("docs/fine.md", &format!("# Fine\n\n{PROSE}\n")),
    ]);
    let report = read_site(dir.path(), &no_node()).unwrap();
    let ids: Vec<_> = report.pages.iter().map(|p| p.doc_id.as_str()).collect();
    assert_eq!(ids, vec!["fine", "hidden"]);
    assert!(page(&report, "hidden").unlisted);
    let mut kinds: Vec<_> = report.skipped.iter().map(|s| (s.kind, s.line)).collect();
    kinds.sort_by_key(|(kind, _)| format!("{kind:?}"));
    assert_eq!(
        kinds,
        vec![(SkipKind::Draft, Some(1)), (SkipKind::InvalidFrontMatter, Some(3)), (SkipKind::InvalidMarkdown, Some(5)),]
    );
    let broken = report.skipped.iter().find(|s| s.kind == SkipKind::InvalidMarkdown).unwrap();
    assert!(broken.file.ends_with("docs/broken.mdx"));
}

#[test]
fn versioned_docs_get_version_urls_and_ids() {
    let dir = write_site(&[
        ("docusaurus.config.js", "module.exports = { baseUrl: '/', presets: [['classic', {}]] };"),
        ("versions.json", r#"["2.0", "1.0"]"#),
        ("docs/intro.md", &format!("# Intro (next)\n\n{PROSE}\n\n## Setup\n\n{PROSE}\n")),
        ("versioned_docs/version-2.0/intro.md", &format!("# Intro 2\n\n{PROSE}\n")),
        ("versioned_docs/version-1.0/intro.md", &format!("# Intro 1\n\n{PROSE}\n")),
        ("versioned_sidebars/version-2.0-sidebars.json", "{}"),
    ]);
    let report = read_site(dir.path(), &no_node()).unwrap();
    let found: Vec<_> = report.pages.iter().map(|p| (p.version.clone().unwrap_or_default(), p.url.clone())).collect();
    assert_eq!(
        found,
        vec![
            ("current".into(), "/docs/next/intro".into()),
            ("2.0".into(), "/docs/intro".into()),
            ("1.0".into(), "/docs/1.0/intro".into()),
        ]
    );
    let setup = report.chunks.iter().find(|c| c.anchor.as_deref() == Some("setup")).unwrap();
    assert_eq!(setup.url, "/docs/next/intro#setup");
    assert_eq!(setup.chunk_id, "default:current:intro#setup:0");
    assert_eq!(setup.version.as_deref(), Some("current"));
    let v1 = report.chunks.iter().find(|c| c.version.as_deref() == Some("1.0")).unwrap();
    assert_eq!(v1.chunk_id, "default:1.0:intro#:0");

    let only = Overrides { versions: Some(vec!["2.0".into()]), ..no_node() };
    let report = read_site(dir.path(), &only).unwrap();
    assert_eq!(urls(&report), vec![("intro".into(), "/docs/intro".into())]);
}

#[test]
fn base_url_and_trailing_slash_shape_every_url() {
    let files: Vec<(&str, String)> = vec![
        ("docs/guide/index.md", format!("# Guide\n\n{PROSE}\n\n## Part\n\n{PROSE}\n")),
        ("docs/guide/page.md", format!("# Page\n\n{PROSE}\n")),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, c)| (*p, c.as_str())).collect();
    let dir = write_site(&files);
    let with = |trailing_slash| Overrides {
        base_url: Some("/my-project".into()),
        trailing_slash: Some(trailing_slash),
        ..no_node()
    };

    let report = read_site(dir.path(), &with(TrailingSlash::Always)).unwrap();
    assert_eq!(
        urls(&report),
        vec![
            ("guide/index".into(), "/my-project/docs/guide/".into()),
            ("guide/page".into(), "/my-project/docs/guide/page/".into()),
        ]
    );
    let part = report.chunks.iter().find(|c| c.anchor.as_deref() == Some("part")).unwrap();
    assert_eq!(part.url, "/my-project/docs/guide/#part");

    let report = read_site(dir.path(), &with(TrailingSlash::Never)).unwrap();
    assert_eq!(
        urls(&report),
        vec![
            ("guide/index".into(), "/my-project/docs/guide".into()),
            ("guide/page".into(), "/my-project/docs/guide/page".into()),
        ]
    );

    let root = Overrides { route_base_path: Some("/".into()), ..no_node() };
    let report = read_site(dir.path(), &root).unwrap();
    assert_eq!(page(&report, "guide/page").url, "/guide/page");
}

#[test]
fn modules_come_from_categories_and_the_navbar() {
    if !node_available() {
        eprintln!("node not found; skipping");
        return;
    }
    let dir = write_site(&[
        (
            "docusaurus.config.js",
            "module.exports = { baseUrl: '/', presets: [['classic', {}]], themeConfig: { navbar: { items: [{ type: 'docSidebar', sidebarId: 's', label: 'Textbook' }] } } };",
        ),
        ("docs/intro.md", &format!("# Welcome\n\n{PROSE}\n")),
        ("docs/part-1/_category_.json", r#"{"label": "Part I: Basics"}"#),
        ("docs/part-1/ch1.md", &format!("# Chapter 1\n\n{PROSE}\n")),
        ("docs/02-advanced_topics/ch2.md", &format!("# Chapter 2\n\n{PROSE}\n")),
    ]);
    let report = read_site(dir.path(), &Overrides::default()).unwrap();
    assert!(matches!(report.config, ConfigSource::Evaluated { .. }));
    assert_eq!(page(&report, "intro").module, "Textbook");
    assert_eq!(page(&report, "part-1/ch1").module, "Part I: Basics");
    assert_eq!(page(&report, "advanced_topics/ch2").module, "Advanced Topics");
    // Site order: root doc, then folders by name (no positions given).
    let order: Vec<_> = report.pages.iter().map(|p| p.doc_id.as_str()).collect();
    assert_eq!(order, vec!["advanced_topics/ch2", "intro", "part-1/ch1"]);
    let positions: Vec<_> = report.chunks.iter().map(|c| c.position).collect();
    assert_eq!(positions, (0..report.chunks.len()).collect::<Vec<_>>());
}

#[test]
fn two_docs_instances_and_markdown_format_detect() {
    if !node_available() {
        return;
    }
    let dir = write_site(&[
        (
            "website/docusaurus.config.js",
            "module.exports = { baseUrl: '/', markdown: { format: 'detect' }, presets: [['classic', { docs: { path: '../guides', routeBasePath: '/' } }]], plugins: [['@docusaurus/plugin-content-docs', { id: 'api', path: '../api', routeBasePath: 'api' }]] };",
        ),
        ("guides/start.md", &format!("# Start\n\n<!-- comment -->\n\nRaw <b>HTML</b> in Markdown. {PROSE}\n")),
        ("api/ref.mdx", &format!("# Ref\n\n{PROSE}\n")),
    ]);
    let report = read_site(dir.path(), &Overrides::default()).unwrap();
    assert_eq!(urls(&report), vec![("start".into(), "/start".into()), ("ref".into(), "/api/ref".into())]);
    assert_eq!(report.pages[1].docs_instance, "api");
    assert_eq!(report.chunks[0].chunk_id, "default:current:start#:0");
    assert_eq!(report.chunks[1].chunk_id, "api:current:ref#:0");
    assert!(report.chunks[0].text.starts_with("Raw HTML in Markdown."));
}

#[test]
fn missing_docs_folder_is_a_clear_error() {
    let dir = write_site(&[("README.md", "# Not a site")]);
    match read_site(dir.path(), &no_node()) {
        Err(SiteError::NoDocsFolder { path, .. }) => assert!(path.ends_with("docs")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn chunks_serialize_as_json() {
    let dir = write_site(&[("docs/a.md", &format!("# A\n\n{PROSE}\n"))]);
    let report = read_site(dir.path(), &no_node()).unwrap();
    let line = serde_json::to_string(&report.chunks[0]).unwrap();
    assert!(line.contains("\"chunk_id\":\"default:current:a#:0\""));
    assert!(line.contains("\"anchor\":null"));
    assert!(serde_json::to_string(&report).is_ok());
}
