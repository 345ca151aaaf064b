//! The llms files of small sites read with the real site reader.

use super::*;
use crate::site::test_support::write_site;
use crate::site::{read_site, Overrides};
use regex::Regex;

const PROSE: &str =
    "This paragraph is long enough to stand on its own as a chunk, because it says quite a lot about the topic.";

const CONFIG: &str = "export default {\n  title: 'Robots Handbook',\n  tagline: 'How to build robots that walk.',\n  \
                      url: 'https://robots.example.com',\n  baseUrl: '/base/',\n  trailingSlash: true,\n};\n";

fn read(files: &[(&str, &str)]) -> (tempfile::TempDir, SiteReport) {
    let dir = write_site(files);
    let report = read_site(dir.path(), &Overrides { skip_node: true, ..Overrides::default() }).unwrap();
    (dir, report)
}

fn handbook() -> (tempfile::TempDir, SiteReport) {
    read(&[
        ("docusaurus.config.js", CONFIG),
        (
            "docs/intro.md",
            &format!("---\nsidebar_position: 0\n---\n\n# Introduction\n\nRobots are machines. {PROSE}\n"),
        ),
        ("docs/guides/_category_.json", r#"{"label": "Guides [basics]", "position": 1}"#),
        (
            "docs/guides/setup.md",
            &format!("---\ndescription: Set up the workshop.\n---\n\n# Setup\n\n{PROSE}\n\n## Tools\n\n{PROSE}\n"),
        ),
        ("docs/guides/walk.md", &format!("# Walking (gaits)\n\n```py\nwalk()\n```\n\nA gait is a pattern. {PROSE}\n")),
        ("docs/hidden.md", &format!("---\nunlisted: true\n---\n\n# Hidden\n\n{PROSE}\n")),
    ])
}

fn file<'a>(files: &'a [LlmsFile], path: &str) -> &'a str {
    &files.iter().find(|f| f.path == path).unwrap_or_else(|| panic!("no {path}")).text
}

/// llms.txt as https://llmstxt.org describes it: an H1 first, one blockquote right after it,
/// notes without headings, then H2 sections of `- [title](url): note` lines only.
fn assert_llms_txt_format(text: &str) {
    let link = Regex::new(r"^- \[(?:[^\]\\]|\\.)+\]\([^\s()]+\)(?:: \S.*)?$").unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("# ") && lines[0].len() > 2, "H1 first: {}", lines[0]);
    assert_eq!(lines[1], "");
    assert!(lines[2].starts_with("> "), "the blockquote follows the H1: {}", lines[2]);
    assert_eq!(lines.iter().filter(|l| l.starts_with('>')).count(), 1, "one blockquote");
    assert_eq!(lines.iter().filter(|l| l.starts_with("# ")).count(), 1, "one H1");
    let first_h2 = lines.iter().position(|l| l.starts_with("## ")).expect("H2 sections");
    assert!(lines[3..first_h2].iter().all(|l| !l.starts_with('#')), "no heading before the sections");
    for line in &lines[first_h2..] {
        assert!(line.is_empty() || line.starts_with("## ") || link.is_match(line), "not a file-list line: {line}");
    }
    assert!(!text.contains("\n\n\n") && text.ends_with('\n') && !text.ends_with("\n\n"));
}

#[test]
fn llms_txt_has_the_title_tagline_and_a_section_per_category() {
    let (_dir, report) = handbook();
    let files = llms_files(&report, &LlmsOptions::default()).unwrap();
    let text = file(&files, "llms.txt");
    assert_llms_txt_format(text);
    assert_eq!(
        text,
        "# Robots Handbook\n\n> How to build robots that walk.\n\n\
         Each link is a page as Markdown; [llms-full.txt](https://robots.example.com/base/llms-full.txt) holds the text of every page listed here.\n\n\
         ## Docs\n\n\
         - [Introduction](https://robots.example.com/base/docs/intro/index.html.md): Robots are machines.\n\n\
         ## Guides [basics]\n\n\
         - [Setup](https://robots.example.com/base/docs/guides/setup/index.html.md): Set up the workshop.\n\
         - [Walking (gaits)](https://robots.example.com/base/docs/guides/walk/index.html.md): A gait is a pattern.\n"
    );
}

#[test]
fn each_page_has_a_twin_beside_its_html_and_full_text_lists_the_pages_with_their_urls() {
    let (_dir, report) = handbook();
    let files = llms_files(&report, &LlmsOptions::default()).unwrap();
    let twins: Vec<&str> =
        files.iter().filter(|f| f.kind == LlmsFileKind::MarkdownTwin).map(|f| f.path.as_str()).collect();
    assert_eq!(
        twins,
        vec![
            "docs/intro/index.html.md",
            "docs/guides/setup/index.html.md",
            "docs/guides/walk/index.html.md",
            "docs/hidden/index.html.md"
        ]
    );
    assert_eq!(file(&files, "docs/guides/setup/index.html.md"), format!("# Setup\n\n{PROSE}\n\n## Tools\n\n{PROSE}\n"));
    let full = file(&files, "llms-full.txt");
    assert!(full.starts_with("# Robots Handbook\n\n> How to build robots that walk.\n\n# Introduction\n\n"));
    assert!(full.contains("# Setup\n\nSource: https://robots.example.com/base/docs/guides/setup/\n\n"));
    assert!(full.contains("```py\nwalk()\n```"));
    assert!(!full.contains("Hidden"), "unlisted pages are not listed");
    // Every chunk's text is in the twins, as indexed.
    let all_twins: String =
        files.iter().filter(|f| f.kind == LlmsFileKind::MarkdownTwin).map(|f| f.text.as_str()).collect();
    for chunk in &report.chunks {
        assert!(all_twins.contains(&chunk.text), "{}", chunk.chunk_id);
    }
}

#[test]
fn each_file_can_be_turned_off_and_links_go_to_pages_without_twins() {
    let (_dir, report) = handbook();
    let options = LlmsOptions { markdown_twins: false, llms_full_txt: false, ..LlmsOptions::default() };
    let files = llms_files(&report, &options).unwrap();
    assert_eq!(files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), vec!["llms.txt"]);
    let text = &files[0].text;
    assert_llms_txt_format(text);
    assert!(text.contains("- [Setup](https://robots.example.com/base/docs/guides/setup/): Set up the workshop.\n"));
    assert!(!text.contains("llms-full.txt") && !text.contains("as Markdown"));
    let none = LlmsOptions { llms_txt: false, ..options };
    assert!(llms_files(&report, &none).unwrap().is_empty());
}

fn versioned_site() -> (tempfile::TempDir, SiteReport) {
    read(&[
        (
            "docusaurus.config.js",
            "export default { title: 'Versioned', url: 'https://v.example.com', baseUrl: '/' };\n",
        ),
        ("versions.json", r#"["2.0"]"#),
        ("docs/intro.md", &format!("# Intro next\n\nThe next release. {PROSE}\n")),
        ("versioned_docs/version-2.0/intro.md", &format!("# Intro\n\nThe latest release. {PROSE}\n")),
    ])
}

#[test]
fn a_versioned_site_lists_its_last_version_unless_all_are_asked_for() {
    let (_dir, report) = versioned_site();
    let files = llms_files(&report, &LlmsOptions::default()).unwrap();
    let text = file(&files, "llms.txt");
    assert_llms_txt_format(text);
    assert!(text.starts_with("# Versioned\n\n> The documentation of Versioned.\n\nThese are the docs of version 2.0,"));
    assert!(text.contains("- [Intro](https://v.example.com/docs/intro.md): The latest release.\n"), "{text}");
    assert!(!text.contains("next"), "{text}");
    assert!(!file(&files, "llms-full.txt").contains("The next release."));
    // Twins for every version.
    assert!(file(&files, "docs/next/intro.md").contains("The next release."));
    assert!(file(&files, "docs/intro.md").contains("The latest release."));

    let all = llms_files(&report, &LlmsOptions { versions: LlmsVersions::All, ..LlmsOptions::default() }).unwrap();
    let text = file(&all, "llms.txt");
    assert_llms_txt_format(text);
    let latest = text.find("- [Intro](https://v.example.com/docs/intro.md)").unwrap();
    let next = text
        .find("## Docs (Next)\n\n- [Intro next](https://v.example.com/docs/next/intro.md): The next release.")
        .unwrap();
    assert!(latest < next, "the last version first:\n{text}");
}

#[test]
fn written_files_replace_the_folder_and_the_summary_tells_the_plugin_how_to_link_twins() {
    let (site, report) = versioned_site();
    let out = site.path().join("out/llms");
    std::fs::create_dir_all(out.join("docs")).unwrap();
    std::fs::write(out.join("docs/removed-page.md"), "old").unwrap();
    let summary = write_llms(&report, &LlmsOptions::default(), &out).unwrap();
    assert!(!out.join("docs/removed-page.md").exists(), "a twin of a page that is gone is not left behind");
    let written = std::fs::read_to_string(out.join("llms.txt")).unwrap();
    assert_eq!(summary.llms_txt_bytes, Some(written.len() as u64));
    assert!(out.join("llms-full.txt").is_file() && out.join("docs/next/intro.md").is_file());
    let twins = summary.markdown_twins.unwrap();
    assert_eq!(twins.count, 2);
    assert_eq!(twins.suffixes, TWIN_SUFFIXES);
    let versions: Vec<(&str, &str)> =
        twins.versions.iter().map(|v| (v.instance.as_str(), v.version.as_str())).collect();
    assert_eq!(versions, vec![("default", "2.0"), ("default", "current")]);
    assert!(!site.path().join("out/llms.new").exists() && !site.path().join("out/llms.old").exists());
}

#[test]
fn pages_out_of_step_with_chunks_are_an_error_not_a_wrong_file() {
    let (_dir, mut report) = handbook();
    report.chunks.pop();
    assert!(matches!(site_pages(&report), Err(LlmsError::PagesOutOfStep { .. })));
}

#[test]
fn a_json_sidebar_gives_the_sections_and_their_order() {
    let (_dir, report) = read(&[
        ("docusaurus.config.js", "export default { title: 'Sidebar', baseUrl: '/' };\n"),
        (
            "sidebars.json",
            r#"{"docs": {"Start here": ["zeta"], "Reference": ["alpha", {"type": "doc", "id": "guides/beta"}]}}"#,
        ),
        ("docs/alpha.md", &format!("# Alpha\n\nAlpha first. {PROSE}\n")),
        ("docs/zeta.md", &format!("# Zeta\n\nZeta first. {PROSE}\n")),
        ("docs/guides/beta.md", &format!("# Beta\n\nBeta first. {PROSE}\n")),
        ("docs/loose.md", &format!("# Loose\n\nNot in the sidebar. {PROSE}\n")),
    ]);
    let files = llms_files(&report, &LlmsOptions::default()).unwrap();
    let text = file(&files, "llms.txt");
    assert_llms_txt_format(text);
    let body = &text[text.find("## ").unwrap()..];
    assert_eq!(
        body,
        "## Start here\n\n- [Zeta](/docs/zeta.md): Zeta first.\n\n\
         ## Reference\n\n- [Alpha](/docs/alpha.md): Alpha first.\n- [Beta](/docs/guides/beta.md): Beta first.\n\n\
         ## Docs\n\n- [Loose](/docs/loose.md): Not in the sidebar.\n"
    );
}
