//! Questions asked as from a page of a given docs version (`lectern eval --version-scope`):
//! each question once per (docs instance, version) among its expected sections, answered by
//! that version's sections only, with the search limited to that version (`own`, as the
//! browser limits a reader on such a page) or not (`none`). Reported per version: hit@k, and
//! the share of the first k sections and of the chat's context that come from another
//! version — what a reader of that version would be misled by.

use super::metrics::Outcome;
use super::questions::Question;
use lectern::bundle::ChunkMeta;
use lectern::search::{DocsVersion, HybridSearch};
use serde::Serialize;
use std::collections::HashMap;

/// Whether the search is limited to the version the question is asked from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VersionScope {
    /// The version of the page asked from (and its docs instance), as the browser does.
    Own,
    /// Every version (the reader widened the scope, or before scoping).
    None,
}

/// The (instance, version) of every section URL of the bundle that has a version.
pub struct SectionVersions(HashMap<String, DocsVersion>);

impl SectionVersions {
    pub fn of(search: &HybridSearch) -> Self {
        let mut map = HashMap::new();
        for chunk in search.chunks() {
            let Some(version) = docs_version(chunk) else { continue };
            for url in std::iter::once(&chunk.url).chain(chunk.parts.iter().map(|p| &p.url)) {
                map.entry(url.clone()).or_insert_with(|| version.clone());
            }
        }
        SectionVersions(map)
    }

    fn get(&self, url: &str) -> Option<&DocsVersion> {
        self.0.get(url)
    }

    /// `q` once per version among its expected sections, expecting that version's sections
    /// only, with that version; a question none of whose sections is versioned (an
    /// unversioned site, an unanswerable question) is asked once, as it is, without one.
    pub fn split(&self, q: &Question) -> Vec<(Question, Option<DocsVersion>)> {
        let mut versions: Vec<&DocsVersion> = Vec::new();
        for url in &q.expected {
            if let Some(v) = self.get(url).filter(|v| !versions.contains(v)) {
                versions.push(v);
            }
        }
        if versions.is_empty() {
            return vec![(q.clone(), None)];
        }
        (versions.into_iter())
            .map(|v| {
                let mut asked = q.clone();
                asked.expected.retain(|u| self.get(u) == Some(v));
                asked.id = format!("{}@{v}", q.id);
                (asked, Some(v.clone()))
            })
            .collect()
    }

    /// Of `urls`, how many are sections of a version other than `own` (unversioned sections
    /// are nobody's other version).
    fn other_version(&self, urls: &[String], own: &DocsVersion) -> usize {
        urls.iter().filter(|u| self.get(u).is_some_and(|v| v != own)).count()
    }
}

/// A chunk's (instance, version); `None` for an unversioned instance.
fn docs_version(chunk: &ChunkMeta) -> Option<DocsVersion> {
    chunk.version.as_deref().map(|v| DocsVersion::new(&chunk.instance, v))
}

/// One version's figures.
#[derive(Clone, Debug, Serialize)]
pub struct VersionRow {
    /// `instance:version`.
    pub version: String,
    /// Answerable questions asked from it.
    pub questions: usize,
    pub hit_at_1: f64,
    pub hit_at_k: f64,
    /// Share of the first k sections (over all its questions) from another version.
    pub other_version_top_k: f64,
    /// Share of the sections of the chat's context from another version.
    pub other_version_context: f64,
}

/// Per version, in order of first appearance, over the answerable questions of `outcomes`
/// (each with the version it was asked from).
pub fn per_version(sections: &SectionVersions, outcomes: &[(&Outcome, &DocsVersion)], k: usize) -> Vec<VersionRow> {
    let mut order: Vec<&DocsVersion> = Vec::new();
    for (_, v) in outcomes {
        if !order.contains(v) {
            order.push(v);
        }
    }
    let share = |part: usize, whole: usize| if whole == 0 { 0.0 } else { part as f64 / whole as f64 };
    (order.into_iter())
        .map(|version| {
            let these: Vec<&Outcome> =
                outcomes.iter().filter(|(o, v)| *v == version && !o.unanswerable).map(|(o, _)| *o).collect();
            let n = these.len();
            let (mut top, mut top_other, mut context, mut context_other) = (0, 0, 0, 0);
            for o in &these {
                let first = &o.top[..o.top.len().min(k)];
                top += first.len();
                top_other += sections.other_version(first, version);
                context += o.context.len();
                context_other += sections.other_version(&o.context, version);
            }
            VersionRow {
                version: version.to_string(),
                questions: n,
                hit_at_1: share(these.iter().filter(|o| o.hit(1)).count(), n),
                hit_at_k: share(these.iter().filter(|o| o.hit(k)).count(), n),
                other_version_top_k: share(top_other, top),
                other_version_context: share(context_other, context),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::questions::Split;
    use lectern::lexical::{Document, IndexOptions, LexicalIndex};

    fn meta(instance: &str, version: Option<&str>, url: &str) -> ChunkMeta {
        ChunkMeta {
            chunk_id: format!("{instance}:{}:{url}", version.unwrap_or("current")),
            url: url.into(),
            heading_path: vec![],
            chapter_title: String::new(),
            section_title: String::new(),
            module: "Docs".into(),
            chapter_id: url.into(),
            instance: instance.into(),
            version: version.map(str::to_string),
            word_count: 1,
            position: 0,
            hash: String::new(),
            parts: Vec::new(),
            name: None,
        }
    }

    fn search(metas: Vec<ChunkMeta>) -> HybridSearch {
        let lexical = {
            let docs: Vec<Document> = metas.iter().map(|m| Document::new(&m.chapter_id, "text")).collect();
            LexicalIndex::build(&docs, IndexOptions::default()).unwrap()
        };
        HybridSearch::new(metas, lexical).unwrap()
    }

    fn question(expected: &[&str]) -> Question {
        Question {
            id: "q".into(),
            split: Split::Dev,
            kind: String::new(),
            question: "q?".into(),
            expected: expected.iter().map(|u| u.to_string()).collect(),
            unanswerable: false,
            selection: None,
            previous: Vec::new(),
        }
    }

    #[test]
    fn a_question_is_asked_from_each_version_it_is_answered_in() {
        let s = search(vec![
            meta("default", Some("current"), "/docs/next/a"),
            meta("default", Some("1.0"), "/docs/a"),
            meta("rules", Some("1.0"), "/rules/a"),
        ]);
        let sections = SectionVersions::of(&s);
        let asked = sections.split(&question(&["/docs/next/a", "/docs/a", "/rules/a"]));
        let got: Vec<(String, Vec<String>)> =
            asked.iter().map(|(q, v)| (v.as_ref().unwrap().to_string(), q.expected.clone())).collect();
        assert_eq!(
            got,
            [
                ("default:current".to_string(), vec!["/docs/next/a".to_string()]),
                ("default:1.0".to_string(), vec!["/docs/a".to_string()]),
                ("rules:1.0".to_string(), vec!["/rules/a".to_string()]),
            ]
        );
        let own = DocsVersion::new("default", "1.0");
        let urls = ["/docs/a", "/rules/a", "/docs/next/a", "/elsewhere"].map(String::from);
        assert_eq!(sections.other_version(&urls, &own), 2, "the rules' 1.0 is another version");
    }

    #[test]
    fn unversioned_questions_are_asked_once_as_they_are() {
        let s = search(vec![meta("default", None, "/docs/a"), meta("rules", None, "/rules/a")]);
        let q = question(&["/docs/a", "/rules/a"]);
        let asked = SectionVersions::of(&s).split(&q);
        assert_eq!(asked.len(), 1);
        assert_eq!((asked[0].0.expected.clone(), asked[0].1.clone()), (q.expected, None));
    }
}
