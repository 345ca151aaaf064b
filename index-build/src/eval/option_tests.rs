//! An API reference answers a search for an option by its own name with that option's own
//! section: every option heading of Jest's Configuration and CLI pages (current docs) and of
//! typescript-eslint's rule pages (tests/eval/options/, written by
//! scripts/eval/option_questions.py) is found under its own URL in the top 5 by keyword search
//! — the search a reader gets first, and the one a search box runs. Over the shared corpora in
//! ../shared/corpora (or `$LECTERN_CORPORA`); skipped when absent. (`lectern eval` on the same
//! files measures hybrid search too: BENCHMARKS.md.)

use super::{questions, Evaluator};
use crate::index::{build_bundle, ShardSizes, StandInEmbedder};
use crate::site::{read_site, Overrides};
use lectern::bundle::{load_dir, LoadedBundle};
use lectern::search::{HybridSearch, SearchMode, SearchOptions};
use std::path::{Path, PathBuf};

pub(super) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub(super) fn corpus(path: &str) -> Option<PathBuf> {
    let corpora = std::env::var_os("LECTERN_CORPORA").map_or_else(|| repo().join("../shared/corpora"), PathBuf::from);
    let root = corpora.join(path);
    let node = std::process::Command::new("node").arg("--version").output();
    if !root.is_dir() || !node.is_ok_and(|o| o.status.success()) {
        eprintln!("{} absent (or no node); skipping", root.display());
        return None;
    }
    Some(root)
}

/// (found in the top 5, asked, the misses) for the option questions of `name` on `site`.
fn find_options(site: &Path, name: &str) -> (usize, usize, Vec<String>) {
    let report = read_site(site, &Overrides::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = std::env::temp_dir().join(format!("lectern-options-{name}-{}", std::process::id()));
    let sizes = ShardSizes { dense_graph: false, ..ShardSizes::default() };
    build_bundle(&report, &StandInEmbedder, None, &out, sizes, |_| {}).unwrap();
    let LoadedBundle { chunks, lexical, texts, .. } = load_dir(&out).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    let search = HybridSearch::new(chunks, lexical).unwrap();
    let asked = questions::load(&repo().join(format!("tests/eval/options/{name}.jsonl"))).unwrap();
    let mut evaluator = Evaluator::new(&search, &texts, None);
    assert!(evaluator.unknown_urls(&asked).is_empty(), "{:?}", evaluator.unknown_urls(&asked));
    let mut misses = Vec::new();
    for q in &asked {
        let outcome = evaluator.run(q, SearchMode::Lexical, &SearchOptions::default()).unwrap();
        if !outcome.hit(5) {
            misses.push(format!(
                "{} → {} (got {:?})",
                q.question,
                q.expected[0],
                &outcome.top[..outcome.top.len().min(5)]
            ));
        }
    }
    (asked.len() - misses.len(), asked.len(), misses)
}

#[test]
fn every_jest_option_is_found_by_its_name() {
    let Some(site) = corpus("jest/website") else { return };
    let (found, asked, misses) = find_options(&site, "jest");
    assert_eq!(asked, 148, "the Configuration and CLI pages' option headings");
    assert!(misses.is_empty(), "{found}/{asked} found; missed:\n{}", misses.join("\n"));
}

#[test]
fn every_typescript_eslint_rule_option_is_found_by_its_name() {
    let Some(site) = corpus("typescript-eslint/packages/website") else { return };
    let (found, asked, misses) = find_options(&site, "typescript-eslint");
    assert!(misses.is_empty(), "{found}/{asked} found; missed:\n{}", misses.join("\n"));
}
