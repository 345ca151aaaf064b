//! Incremental builds, proven by counting what the embedder is asked to embed.

use super::{build_bundle, BuildSummary, ChunkEmbedder, EmbedJournal, ShardSizes};
use crate::site::{read_site, Overrides};
use lectern::bundle::load_dir;
use lectern::embed::EmbedError;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A deterministic stand-in model (unit vectors from the text's bytes) that counts texts.
struct CountingEmbedder {
    fingerprint: &'static str,
    texts: AtomicUsize,
}

impl CountingEmbedder {
    fn new(fingerprint: &'static str) -> Self {
        CountingEmbedder { fingerprint, texts: AtomicUsize::new(0) }
    }
}

impl ChunkEmbedder for CountingEmbedder {
    fn fingerprint(&self) -> &str {
        self.fingerprint
    }
    fn dims(&self) -> usize {
        8
    }
    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.texts.fetch_add(texts.len(), Ordering::Relaxed);
        Ok(texts
            .iter()
            .map(|t| {
                let mut v = vec![0.1f32; 8];
                t.bytes().enumerate().for_each(|(i, b)| v[i % 8] += f32::from(b) / 255.0);
                lectern::embed::normalize(&mut v);
                v
            })
            .collect())
    }
    fn token_count(&self, text: &str) -> Result<usize, EmbedError> {
        Ok(text.split_whitespace().count() + 2)
    }
}

const PAGE: &str =
    "# Robots\n\nIntro text about robots and what this page covers in some detail, long enough to stand \
as a chunk of its own in the index.\n\n\
## Sensors\n\nCameras and lidars give the robot a view of the world around it, every few milliseconds, and \
the drivers publish what they see as messages.\n\n\
## Actuators\n\nMotors and gears move the joints; their torque limits decide what the robot can lift, and \
the controllers keep every joint inside them.\n";

fn write_site(dir: &Path, page: &str) {
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(dir.join("docusaurus.config.js"), "module.exports = { url: 'http://x', baseUrl: '/' };\n").unwrap();
    std::fs::write(dir.join("docs/robots.md"), page).unwrap();
    std::fs::write(dir.join("docs/other.md"), "# Other\n\nA second page that never changes between the builds here.\n")
        .unwrap();
}

fn build(site: &Path, out: &Path, embedder: &CountingEmbedder) -> BuildSummary {
    let overrides = Overrides { skip_node: true, ..Overrides::default() };
    let report = read_site(site, &overrides).unwrap();
    build_bundle(&report, embedder, None, out, ShardSizes::default(), |_| {}).unwrap()
}

#[test]
fn rebuilds_embed_only_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let (site, out) = (dir.path().join("site"), dir.path().join("bundle"));
    write_site(&site, PAGE);
    let embedder = CountingEmbedder::new("sha256:model-a");

    let first = build(&site, &out, &embedder);
    let chunks = first.chunks;
    assert!(chunks >= 3, "{chunks} chunks");
    assert_eq!(
        (first.embedding.embedded, first.embedding.reused, embedder.texts.load(Ordering::Relaxed)),
        (chunks, 0, chunks)
    );

    let second = build(&site, &out, &embedder);
    assert_eq!((second.embedding.embedded, second.embedding.reused), (0, chunks));
    assert_eq!(embedder.texts.load(Ordering::Relaxed), chunks, "an unchanged site embeds nothing");

    write_site(&site, &PAGE.replace("inside them.", "inside them, always."));
    let third = build(&site, &out, &embedder);
    assert_eq!((third.embedding.embedded, third.embedding.reused), (1, chunks - 1));
    assert_eq!(embedder.texts.load(Ordering::Relaxed), chunks + 1, "one edited section, one chunk embedded");

    // Reused vectors are the stored int8 ones; the bundle still loads and verifies.
    let bundle = load_dir(&out).unwrap();
    assert_eq!(bundle.chunks.len(), chunks);

    let other_model = CountingEmbedder::new("sha256:model-b");
    let fourth = build(&site, &out, &other_model);
    assert_eq!((fourth.embedding.embedded, fourth.embedding.reused), (chunks, 0));
    assert!(fourth.full_rebuild_reason.unwrap_or_default().contains("model changed"));
}

#[test]
fn every_locale_gets_its_bundle_and_a_chinese_question_finds_its_section() {
    use lectern::search::{HybridSearch, SearchMode, SearchOptions};
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/i18n-site");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bundle");
    let embedder = CountingEmbedder::new("sha256:model-a");
    let read = |locale: &str| {
        let overrides = Overrides { locale: Some(locale.into()), skip_node: true, ..Overrides::default() };
        read_site(&site, &overrides).unwrap()
    };
    let (en, zh) = (read("en"), read("zh-CN"));
    assert_eq!((en.locale.bundle_dir(&out), zh.locale.bundle_dir(&out)), (out.clone(), out.join("zh-CN")));
    let built = build_bundle(&zh, &embedder, None, &zh.locale.bundle_dir(&out), ShardSizes::default(), |_| {}).unwrap();
    // Chinese is searched by keywords only: nothing is embedded for it.
    assert_eq!((built.embedding.embedded, built.embedding.vectors), (0, 0));
    assert!(built.files.iter().all(|f| !f.name.starts_with("dense")), "no dense index");
    // The default locale's bundle is written around the other's, which stays.
    let zh_manifest = std::fs::read(out.join("zh-CN").join(lectern::bundle::MANIFEST_FILE)).unwrap();
    let english = build_bundle(&en, &embedder, None, &out, ShardSizes::default(), |_| {}).unwrap();
    assert!(english.embedding.embedded > 0, "English is embedded");
    let kept = std::fs::read(out.join("zh-CN").join(lectern::bundle::MANIFEST_FILE)).unwrap();
    assert_eq!(kept, zh_manifest, "the Chinese bundle survived the English rewrite");

    let english = load_dir(&out).unwrap();
    assert_eq!(english.manifest.site.language.as_deref(), Some("en"));
    assert!(english.manifest.semantic_search_fits());
    let chinese = load_dir(&out.join("zh-CN")).unwrap();
    assert_eq!(chinese.manifest.site.language.as_deref(), Some("zh-CN"));
    assert_eq!(chinese.manifest.site.base_url, "/zh-CN/");
    assert!(!chinese.manifest.semantic_search_fits(), "the model is English: Chinese is searched by keywords");
    assert!(chinese.dense.is_none() && english.dense.is_some());
    assert!(chinese.chunks.iter().all(|c| c.url.starts_with("/zh-CN/docs/")));

    // "The bucket is stuck: which screw do I turn?", in the reader's words, not the heading's.
    let search = HybridSearch::new(chinese.chunks, chinese.lexical).unwrap();
    let options = SearchOptions { k: 3, mode: SearchMode::Lexical, ..SearchOptions::default() };
    let found = search.search("翻斗卡住了要拧哪个螺丝？", None, &options).unwrap();
    let urls: Vec<&str> = found.hits.iter().filter_map(|h| search.chunk(h.index).map(|c| c.url.as_str())).collect();
    assert!(urls.first().is_some_and(|u| u.ends_with("/setup#校准漏斗")), "{urls:?}");
    // A question mixing English and Chinese finds it too.
    let found = search.search("battery 电池 AA", None, &options).unwrap();
    let first = found.hits.first().and_then(|h| search.chunk(h.index)).map(|c| c.url.as_str());
    assert!(first.is_some_and(|u| u.ends_with("/battery")), "{first:?}");
}

#[test]
fn a_stopped_builds_journal_spares_its_chunks_and_goes_with_the_finished_build() {
    let dir = tempfile::tempdir().unwrap();
    let (site, out) = (dir.path().join("site"), dir.path().join("bundle"));
    write_site(&site, PAGE);
    let embedder = CountingEmbedder::new("sha256:model-a");
    // What a build stopped after its first chunk leaves: no bundle, a journal with that chunk.
    let report = read_site(&site, &Overrides { skip_node: true, ..Overrides::default() }).unwrap();
    let first = &report.chunks[0];
    let text = lectern::embed::embed_text(&first.heading_path, &first.text);
    let hash = lectern::bundle::chunk_content_hash("sha256:model-a", &text);
    let vector = embedder.embed_batch(&[&text]).unwrap().remove(0);
    let (mut journal, _) = EmbedJournal::open(&out, "sha256:model-a", 8);
    journal.record(&hash, &[&vector]);
    drop(journal);
    let texts_before = embedder.texts.load(Ordering::Relaxed);

    let summary = build(&site, &out, &embedder);
    assert_eq!((summary.resumed, summary.embedding.reused), (1, 1));
    assert_eq!(summary.embedding.embedded, summary.chunks - 1);
    assert_eq!(embedder.texts.load(Ordering::Relaxed) - texts_before, summary.chunks - 1);
    assert!(!out.join(super::journal::JOURNAL_FILE).exists(), "the finished bundle holds every vector");
    assert_eq!(load_dir(&out).unwrap().chunks.len(), summary.chunks);
}
