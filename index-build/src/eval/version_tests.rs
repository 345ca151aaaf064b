//! On the versioned Jest corpus (current, 30.4, 30.0 and 29.7), its labelled questions asked
//! as from a page of each version they are answered in, by keyword search (the search a
//! reader gets first): limited to that version, as the browser limits them, the first three
//! sections and the chat's context are all of that version, and each version's hit@3 is at
//! least what the same questions get unlimited. Over the shared corpora (`option_tests::corpus`);
//! skipped when absent. (`lectern eval --version-scope` measures hybrid search too: BENCHMARKS.md.)

use super::option_tests::{corpus, repo};
use super::versions::{per_version, SectionVersions, VersionRow};
use super::{questions, Evaluator};
use crate::index::{build_bundle, ShardSizes, StandInEmbedder};
use crate::site::{read_site, Overrides};
use lectern::bundle::{load_dir, LoadedBundle};
use lectern::search::{HybridSearch, SearchMode, SearchOptions};

#[test]
fn a_question_asked_on_a_versioned_jest_page_cites_that_version_only() {
    let Some(site) = corpus("jest/website") else { return };
    let report = read_site(&site, &Overrides::default()).unwrap();
    let out = std::env::temp_dir().join(format!("lectern-versions-jest-{}", std::process::id()));
    let sizes = ShardSizes { dense_graph: false, ..ShardSizes::default() };
    build_bundle(&report, &StandInEmbedder, None, &out, sizes, |_| {}).unwrap();
    let LoadedBundle { chunks, lexical, texts, .. } = load_dir(&out).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    let search = HybridSearch::new(chunks, lexical).unwrap();
    let all = questions::load(&repo().join("tests/eval/questions/jest.jsonl")).unwrap();
    let sections = SectionVersions::of(&search);
    let asked: Vec<_> = all.iter().flat_map(|q| sections.split(q)).collect();
    let mut evaluator = Evaluator::new(&search, &texts, None);
    let rows = |scoped: bool, evaluator: &mut Evaluator| -> Vec<VersionRow> {
        let mut outcomes = Vec::new();
        for (q, version) in &asked {
            let Some(version) = version else { continue };
            let versions = if scoped { vec![version.clone()] } else { Vec::new() };
            let options = SearchOptions { versions, ..SearchOptions::default() };
            outcomes.push((evaluator.run(q, SearchMode::Lexical, &options).unwrap(), version));
        }
        let outcomes: Vec<_> = outcomes.iter().map(|(o, v)| (o, *v)).collect();
        per_version(&sections, &outcomes, 3)
    };
    let scoped = rows(true, &mut evaluator);
    let unscoped = rows(false, &mut evaluator);
    let names: Vec<&str> = scoped.iter().map(|r| r.version.as_str()).collect();
    assert_eq!(names, ["default:current", "default:30.4", "default:30.0", "default:29.7"]);
    for (with, without) in scoped.iter().zip(&unscoped) {
        assert!(with.questions > 50, "{with:?}");
        assert_eq!((with.other_version_top_k, with.other_version_context), (0.0, 0.0), "{with:?}");
        assert!(with.hit_at_k >= without.hit_at_k, "{with:?} vs {without:?}");
    }
    // Unlimited, a 29.7 reader mostly gets the current docs' copy of a section.
    let old = &unscoped[3];
    assert!(old.other_version_top_k > 0.5, "{old:?}");
}
