//! Reads the real Docusaurus trees in ../shared/corpora beside the repository
//! (or `$LECTERN_CORPORA`; skipped when absent): no panic, a sane number of
//! chunks, every chunk within bounds.

use super::*;
use std::path::PathBuf;

fn corpora_dir() -> PathBuf {
    std::env::var_os("LECTERN_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpora"))
}

fn read_corpus(name: &str) -> Option<SiteReport> {
    let root = corpora_dir().join(name);
    if !root.is_dir() {
        eprintln!("{} absent; skipping", root.display());
        return None;
    }
    // The corpora's configs need Node to be read (e.g. jest's docs path).
    let node = std::process::Command::new("node").arg("--version").output();
    if !node.is_ok_and(|output| output.status.success()) {
        eprintln!("node not found; skipping {name}");
        return None;
    }
    let report = read_site(&root, &Overrides::default()).unwrap_or_else(|error| panic!("{name}: {error}"));
    print_summary(name, &report);
    Some(report)
}

fn print_summary(name: &str, report: &SiteReport) {
    let sizes: Vec<usize> = report.chunks.iter().map(|c| c.chars).collect();
    let min = sizes.iter().min().copied().unwrap_or(0);
    let max = sizes.iter().max().copied().unwrap_or(0);
    let under = sizes.iter().filter(|&&s| s < 100).count();
    eprintln!(
        "{name}: config {:?}; {} pages, {} chunks (chars {min}..{max}, {under} under 100), {} skipped",
        std::mem::discriminant(&report.config),
        report.pages.len(),
        report.chunks.len(),
        report.skipped.len()
    );
    let mut kinds: HashMap<String, usize> = HashMap::new();
    for skip in &report.skipped {
        *kinds.entry(format!("{:?}", skip.kind)).or_default() += 1;
    }
    eprintln!("  skipped by kind: {kinds:?}");
    for skip in report.skipped.iter().filter(|s| s.kind != SkipKind::EmptySection) {
        eprintln!("  skipped {:?} {}:{:?} {}", skip.kind, skip.file.display(), skip.line, skip.reason);
    }
    for note in &report.notes {
        eprintln!("  note: {note}");
    }
}

/// Every chunk within 2000 chars; under 100 only when the whole page is that short.
fn assert_sizes(report: &SiteReport) {
    for chunk in &report.chunks {
        assert!(chunk.chars <= 2000, "{} has {} chars", chunk.chunk_id, chunk.chars);
        if chunk.chars < 100 {
            let page_chunks =
                report.chunks.iter().filter(|c| c.chapter_id == chunk.chapter_id && c.version == chunk.version).count();
            assert_eq!(
                page_chunks, 1,
                "{} is short ({} chars) but its page has other chunks",
                chunk.chunk_id, chunk.chars
            );
        }
        assert!(!chunk.text.trim().is_empty());
        assert!(chunk.url.starts_with(&report.base_url));
    }
    let ids: HashSet<_> = report.chunks.iter().map(|c| &c.chunk_id).collect();
    assert_eq!(ids.len(), report.chunks.len(), "chunk ids are unique");
}

#[test]
fn physical_ai_textbook() {
    let Some(report) = read_corpus("physical-ai-textbook") else {
        return;
    };
    assert!(report.pages.len() >= 40, "{}", report.pages.len());
    assert!(report.chunks.len() > report.pages.len() * 5);
    assert_sizes(&report);
    let intro = report.pages.iter().find(|p| p.doc_id == "intro").unwrap();
    assert_eq!(intro.url, "/docs/intro");
    assert_eq!(intro.module, "Textbook");
    let ch3 = report.pages.iter().find(|p| p.url == "/docs/part-01-foundations/ch03-math-fundamentals").unwrap();
    assert_eq!(ch3.module, "Part I: Foundations");
    // A transcript prop and a code component's code made it into the text.
    assert!(report.chunks.iter().any(|c| c.text.contains("Zero Moment Point (ZMP) tracking")));
    assert!(report.chunks.iter().any(|c| c.text.contains("sudo apt install ros-humble-desktop")));
}

#[test]
fn jest_versioned_docs() {
    let Some(report) = read_corpus("jest") else {
        return;
    };
    assert_sizes(&report);
    let versions: HashSet<_> = report.pages.iter().filter_map(|p| p.version.clone()).collect();
    assert_eq!(versions, ["current", "30.4", "30.0", "29.7"].iter().map(|s| s.to_string()).collect());
    let latest =
        report.pages.iter().find(|p| p.version.as_deref() == Some("30.4") && p.doc_id == "getting-started").unwrap();
    assert_eq!(latest.url, "/docs/getting-started");
    let next =
        report.pages.iter().find(|p| p.version.as_deref() == Some("current") && p.doc_id == "getting-started").unwrap();
    assert_eq!(next.url, "/docs/next/getting-started");
    let old =
        report.pages.iter().find(|p| p.version.as_deref() == Some("29.7") && p.doc_id == "getting-started").unwrap();
    assert_eq!(old.url, "/docs/29.7/getting-started");
    assert!(!report.pages.iter().any(|p| p.doc_id.starts_with('_')), "partials are not pages");
}

#[test]
fn typescript_eslint_two_instances() {
    let Some(report) = read_corpus("typescript-eslint") else {
        return;
    };
    assert_sizes(&report);
    let instances: HashSet<_> = report.pages.iter().map(|p| p.docs_instance.as_str()).collect();
    assert_eq!(instances, ["rules-docs", "base-docs"].into_iter().collect());
    assert!(report.pages.iter().any(|p| p.docs_instance == "rules-docs" && p.url.starts_with("/rules/")));
    assert!(!report.pages.iter().any(|p| p.doc_id == "TEMPLATE"));
}
