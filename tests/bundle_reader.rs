//! The bundle round-trips, and every kind of bad bundle is refused with the right error —
//! never a panic, including for randomly mutated files whose checksums were fixed up so
//! that the damage reaches the parsers.
#![cfg(not(target_arch = "wasm32"))]

use lectern::bundle::{
    load_dir, load_with, write_bundle, write_dir, BundleChunk, BundleError, BundleInput, BundleOutput, BundleReader,
    ChunkLayout, ChunkMeta, DenseLayout, DenseParts, FileKind, Manifest, SiteInfo, FORMAT_VERSION, MANIFEST_FILE,
    NUMBERED_SHARDS_FORMAT_VERSION, OLDEST_FORMAT_VERSION, PAGE_TABLE_FORMAT_VERSION,
};
use lectern::dense::DenseIndexConfig;
use lectern::lexical::IndexOptions;
use lectern::search::{HybridSearch, SearchMode, SearchOptions};
use proptest::prelude::*;
use std::path::Path;

const DIMS: usize = 8;
const FINGERPRINT: &str = "sha256:0123456789abcdef0123456789abcdef";

fn unit(seed: usize) -> Vec<f32> {
    let v: Vec<f32> = (0..DIMS).map(|d| ((seed * 31 + d * 7) % 13) as f32 - 6.0).collect();
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::MIN_POSITIVE);
    v.into_iter().map(|x| x / norm).collect()
}

fn chunks(n: usize) -> Vec<BundleChunk> {
    let topics = ["ROS 2 topics carry messages", "PID control of joints", "SLAM builds maps", "Safety stops"];
    (0..n)
        .map(|i| BundleChunk {
            meta: ChunkMeta {
                chunk_id: format!("default:current:doc{i}#s:0"),
                url: format!("/docs/doc{i}#s"),
                heading_path: vec![format!("Doc {i}"), "Section".into()],
                chapter_title: format!("Doc {i}"),
                section_title: "Section".into(),
                module: if i % 2 == 0 { "Even".into() } else { "Odd".into() },
                chapter_id: format!("doc{i}"),
                instance: "default".into(),
                version: None,
                word_count: 10,
                position: i,
                hash: format!("{i:016x}"),
                parts: Vec::new(),
                name: None,
            },
            text: format!("{} — chunk number {i} of the test bundle, with enough words to index.", topics[i % 4]),
            vectors: vec![unit(i)],
        })
        .collect()
}

fn bundle(n: usize) -> BundleOutput {
    bundle_laid_out(n, DenseParts::default())
}

fn bundle_laid_out(n: usize, dense_parts: DenseParts) -> BundleOutput {
    bundle_in(n, dense_parts, None)
}

fn bundle_in(n: usize, dense_parts: DenseParts, language: Option<&str>) -> BundleOutput {
    bundle_of(n, dense_parts, language, ChunkLayout::Catalog)
}

/// The bundle of `n` chunks; the tests above read the chunk shards of formats 2 to 4 (listed
/// by catalog pages), those of `numbered_` the shards by number of format 5.
fn bundle_of(n: usize, dense_parts: DenseParts, language: Option<&str>, chunk_layout: ChunkLayout) -> BundleOutput {
    let chunks = chunks(n);
    write_bundle(BundleInput {
        chunks: &chunks,
        model_fingerprint: FINGERPRINT,
        dims: DIMS,
        site: SiteInfo { base_url: "/".into(), site_url: None, language: language.map(str::to_string) },
        pages: n,
        model_files: None,
        text_shard_bytes: 300,
        term_shard_bytes: 64,
        lexical: IndexOptions::default(),
        dense: DenseIndexConfig::default(),
        dense_parts,
        chunk_layout,
    })
    .expect("writes")
}

fn written(n: usize) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("bundle");
    write_dir(&dir, &bundle(n)).expect("writes dir");
    (tmp, dir)
}

fn rewrite_manifest(dir: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = dir.join(MANIFEST_FILE);
    let mut value: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    edit(&mut value);
    std::fs::write(path, serde_json::to_vec(&value).unwrap()).unwrap();
}

#[test]
fn round_trips_and_searches() {
    let (_tmp, dir) = written(40);
    let loaded = load_dir(&dir).expect("loads");
    assert_eq!(loaded.chunks.len(), 40);
    assert_eq!(loaded.texts.len(), 40);
    assert!(loaded.manifest.files.chunks.shard_count() > 1, "chunks are sharded");
    assert!(loaded.manifest.files.terms.shard_count() > 1, "terms are sharded");
    assert_eq!(loaded.texts[5], chunks(40)[5].text);
    assert_eq!(loaded.chunks[7], chunks(40)[7].meta);
    loaded.manifest.check_model(FINGERPRINT).expect("same model");

    let mut search = HybridSearch::new(loaded.chunks, loaded.lexical).expect("consistent");
    search.attach_dense(loaded.dense.expect("a dense index")).expect("consistent");
    let query = unit(9);
    let results = search.search("PID control", Some(&query), &SearchOptions { k: 5, ..Default::default() }).unwrap();
    assert_eq!(results.mode_used, SearchMode::Hybrid);
    assert_eq!(results.hits.len(), 5);
    assert!(results.hits.iter().any(|h| h.index == 9), "the exact vector match is found");
    let odd_only = SearchOptions { modules: vec!["Odd".into()], ..Default::default() };
    let filtered = search.search("PID control", Some(&query), &odd_only).unwrap();
    assert!(filtered.hits.iter().all(|h| h.index % 2 == 1));
    let lexical = search.search("SLAM maps", None, &SearchOptions::default()).unwrap();
    assert_eq!(lexical.mode_used, SearchMode::Lexical);
    assert!(lexical.hits.iter().all(|h| h.index % 4 == 2));
}

#[test]
fn file_names_are_content_addressed() {
    let a = bundle(10);
    let b = bundle(10);
    assert_eq!(a.manifest, b.manifest, "the same input gives the same bundle");
    let c = bundle(11);
    assert_ne!(
        a.manifest.files.dense.as_ref().expect("a dense index").name,
        c.manifest.files.dense.as_ref().expect("a dense index").name
    );
}

#[test]
fn wrong_version_or_format_is_refused() {
    let (_tmp, dir) = written(5);
    rewrite_manifest(&dir, |m| m["format_version"] = 99.into());
    assert!(matches!(load_dir(&dir), Err(BundleError::WrongVersion { found: 99, expected: FORMAT_VERSION })));
    // A bundle of the previous format (one lexical file) gets the same clear error.
    rewrite_manifest(&dir, |m| m["format_version"] = 1.into());
    assert!(matches!(load_dir(&dir), Err(BundleError::WrongVersion { found: 1, expected: FORMAT_VERSION })));
    rewrite_manifest(&dir, |m| m["format"] = "something-else".into());
    assert!(matches!(load_dir(&dir), Err(BundleError::ManifestInvalid(_))));
    std::fs::write(dir.join(MANIFEST_FILE), b"{ not json").unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::ManifestInvalid(_))));
}

#[test]
fn a_dense_index_in_parts_round_trips_and_says_which_readers_can_open_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("bundle");
    let output = bundle_laid_out(40, DenseParts::Always);
    write_dir(&dir, &output).expect("writes dir");
    assert_eq!(output.manifest.format_version, DenseLayout::Parts.format_version(), "a reader of format 2 refuses it");
    assert_eq!(bundle(40).manifest.format_version, OLDEST_FORMAT_VERSION, "one file: still format 2");
    let loaded = load_dir(&dir).expect("loads");
    assert_eq!(loaded.manifest.files.dense_layout, DenseLayout::Parts);
    let mut search = HybridSearch::new(loaded.chunks, loaded.lexical).expect("consistent");
    search.attach_dense(loaded.dense.expect("a dense index")).expect("consistent");
    let results = search.search("PID control", Some(&unit(9)), &SearchOptions { k: 5, ..Default::default() }).unwrap();
    assert_eq!(results.mode_used, SearchMode::Hybrid);
    assert!(results.hits.iter().any(|h| h.index == 9), "the exact vector match is found");

    // A manifest that claims format 2 cannot have parts; a part damaged on disk is named.
    rewrite_manifest(&dir, |m| m["format_version"] = OLDEST_FORMAT_VERSION.into());
    assert!(matches!(load_dir(&dir), Err(BundleError::Inconsistent(_))));
    rewrite_manifest(&dir, |m| m["format_version"] = FORMAT_VERSION.into());
    // Format 5 lists the parts in the head, none in the manifest: one claiming format 4 (whose
    // parts dense catalog pages list) is refused, and so is a format-5 one listing pages.
    assert!(output.manifest.files.dense_parts.is_none());
    rewrite_manifest(&dir, |m| m["format_version"] = 4.into());
    assert!(matches!(load_dir(&dir), Err(BundleError::Inconsistent(_))));
    rewrite_manifest(&dir, |m| {
        m["format_version"] = FORMAT_VERSION.into();
        m["files"]["dense_parts"] = serde_json::json!([{"name": "dense-catalog.0123456789ab.json", "bytes": 1, "sha256": "00", "first_shard": 0, "shards": 1, "first_part": 0, "count": 1}]);
    });
    assert!(matches!(load_dir(&dir), Err(BundleError::Inconsistent(_))));
    rewrite_manifest(&dir, |m| {
        m["files"].as_object_mut().map(|f| f.remove("dense_parts"));
    });
    assert!(load_dir(&dir).is_ok());
    let parts: Vec<&String> =
        output.files.iter().map(|(name, _)| name).filter(|name| name.starts_with("dense-part.")).collect();
    let part = parts[0];
    let original = std::fs::read(dir.join(part)).unwrap();
    let mut bytes = original.clone();
    bytes[30] ^= 0xff;
    std::fs::write(dir.join(part), &bytes).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::ChecksumMismatch { .. })));
    std::fs::write(dir.join(part), &original[..original.len() - 1]).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::WrongSize { .. })));
    std::fs::remove_file(dir.join(part)).unwrap();
    assert!(load_dir(&dir).is_err(), "a missing part");
    std::fs::write(dir.join(part), &original).unwrap();
    // The head whose part listings were changed no longer matches the manifest.
    let head = dir.join(&output.manifest.files.dense.as_ref().expect("a head").name);
    let mut bytes = std::fs::read(&head).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&head, &bytes).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::ChecksumMismatch { .. })));
}

#[test]
fn a_bundle_in_a_language_the_model_does_not_suit_has_no_dense_index() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("bundle");
    // The chunks come with vectors; a Chinese bundle still writes none.
    let output = bundle_in(40, DenseParts::default(), Some("zh-CN"));
    assert_eq!(output.manifest.files.dense_layout, DenseLayout::None);
    assert!(output.manifest.files.dense.is_none());
    assert!(output.files.iter().all(|(name, _)| !name.starts_with("dense")), "no dense file");
    assert_eq!(output.manifest.format_version, DenseLayout::None.format_version(), "a reader of format 3 refuses it");
    let english = bundle_in(40, DenseParts::default(), Some("en"));
    let bytes = |o: &BundleOutput| o.files.iter().map(|(_, b)| b.len()).sum::<usize>();
    assert!(bytes(&output) < bytes(&english), "smaller without the vectors");
    write_dir(&dir, &output).expect("writes dir");
    let loaded = load_dir(&dir).expect("loads");
    assert!(loaded.dense.is_none());
    let search = HybridSearch::new(loaded.chunks, loaded.lexical).expect("consistent");
    let results = search.search("PID control", None, &SearchOptions { k: 3, ..Default::default() }).unwrap();
    assert_eq!(results.mode_used, SearchMode::Lexical, "searched by keywords");
    assert!(!results.hits.is_empty());
    let reader = BundleReader::with_manifest(loaded.manifest);
    assert!(matches!(reader.dense(&[]), Err(BundleError::Inconsistent(_))), "nothing to read");

    // A layout without a dense index that lists one, or the other way round, is inconsistent;
    // so is one that claims a format before version 4.
    rewrite_manifest(&dir, |m| {
        m["files"]["dense"] = serde_json::json!({"name": "dense.x.bin", "bytes": 1, "sha256": "00"})
    });
    assert!(matches!(load_dir(&dir), Err(BundleError::Inconsistent(_))));
    rewrite_manifest(&dir, |m| {
        m["files"].as_object_mut().map(|f| f.remove("dense"));
        m["format_version"] = 3.into();
    });
    assert!(matches!(load_dir(&dir), Err(BundleError::Inconsistent(_))));
    write_dir(&dir, &bundle(5)).expect("writes dir");
    rewrite_manifest(&dir, |m| {
        m["files"].as_object_mut().map(|f| f.remove("dense"));
    });
    assert!(matches!(load_dir(&dir), Err(BundleError::Inconsistent(_))), "a single layout needs its file");
}

#[test]
fn wrong_model_is_refused() {
    let (_tmp, dir) = written(5);
    let loaded = load_dir(&dir).unwrap();
    let err = loaded.manifest.check_model("sha256:ffffffffffffffffffffffffffffffff").unwrap_err();
    assert!(matches!(err, BundleError::WrongModel { .. }));
    assert!(err.to_string().contains("rebuild the index"), "{err}");
}

#[test]
fn missing_truncated_and_corrupt_files_are_refused() {
    let (_tmp, dir) = written(12);
    let manifest = Manifest::parse(&std::fs::read(dir.join(MANIFEST_FILE)).unwrap()).expect("parses");
    let dense = dir.join(&manifest.files.dense.as_ref().expect("a dense index").name);
    let original = std::fs::read(&dense).unwrap();

    std::fs::write(&dense, &original[..original.len() - 3]).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::WrongSize { .. })));

    let mut flipped = original.clone();
    flipped[original.len() / 2] ^= 0x40;
    std::fs::write(&dense, &flipped).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::ChecksumMismatch { .. })));

    std::fs::remove_file(&dense).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::MissingFile { .. })));
    std::fs::remove_file(dir.join(MANIFEST_FILE)).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::MissingFile { .. })));
}

/// The name of one shard of `kind` ("terms." or "chunks."): shards are named by catalog pages.
fn a_shard(output: &BundleOutput, prefix: &str) -> String {
    output.files.iter().map(|(n, _)| n.clone()).find(|n| n.starts_with(prefix)).expect("a shard")
}

#[test]
fn missing_and_corrupt_shards_are_refused() {
    for prefix in ["terms.", "meta.", "text.", "term-catalog.", "chunk-catalog.", "chunk-table."] {
        let (_tmp, dir) = written(40);
        let name = a_shard(&bundle(40), prefix);
        let path = dir.join(&name);
        let original = std::fs::read(&path).unwrap();
        let mut flipped = original.clone();
        flipped[original.len() / 2] ^= 0x20;
        std::fs::write(&path, &flipped).unwrap();
        assert!(matches!(load_dir(&dir), Err(BundleError::ChecksumMismatch { .. })), "{prefix}");
        std::fs::write(&path, &original[..original.len() - 1]).unwrap();
        assert!(matches!(load_dir(&dir), Err(BundleError::WrongSize { .. })), "{prefix}");
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(load_dir(&dir), Err(BundleError::MissingFile { .. })), "{prefix}");
    }
}

#[test]
fn a_large_sites_page_table_round_trips_and_bad_ones_are_refused() {
    // 300 pages: above what stays in the chunk table.
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("bundle");
    let output = bundle(300);
    write_dir(&dir, &output).expect("writes dir");
    assert_eq!(output.manifest.format_version, PAGE_TABLE_FORMAT_VERSION, "a reader of format 3 refuses it");
    let name = output.manifest.files.pages.as_ref().expect("a page table").name.clone();
    assert!(name.starts_with("page-table.") && name.ends_with(".json"), "{name}");
    let loaded = load_dir(&dir).expect("loads");
    let reader = BundleReader::new(&std::fs::read(dir.join(MANIFEST_FILE)).unwrap()).unwrap();
    let pages = reader.page_table(&std::fs::read(dir.join(&name)).unwrap()).expect("reads");
    assert_eq!(pages.len(), 300);
    // What the reader assembles ranks the page's sections as the chunks' own table does.
    let table = lectern::bundle::ChunkTable::from_metas(&loaded.chunks);
    assert_eq!(pages, table.pages);

    // A manifest of format 3 cannot have one; damaged, truncated or missing, it is named.
    rewrite_manifest(&dir, |m| m["format_version"] = 3.into());
    assert!(matches!(load_dir(&dir), Err(BundleError::Inconsistent(_))));
    rewrite_manifest(&dir, |m| m["format_version"] = FORMAT_VERSION.into());
    let path = dir.join(&name);
    let original = std::fs::read(&path).unwrap();
    let mut flipped = original.clone();
    flipped[original.len() / 2] ^= 0x20;
    std::fs::write(&path, &flipped).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::ChecksumMismatch { .. })));
    std::fs::write(&path, &original[..original.len() - 1]).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::WrongSize { .. })));
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::MissingFile { .. })));
    // A reader of a bundle without one is told so.
    let small = BundleReader::new(&bundle(12).manifest_json()).unwrap();
    assert!(matches!(small.page_table(b"[]"), Err(BundleError::Inconsistent(_))));
}

#[test]
fn inconsistent_manifests_are_refused() {
    let (_tmp, dir) = written(12);
    rewrite_manifest(&dir, |m| m["counts"]["chunks"] = 13.into());
    assert!(matches!(load_dir(&dir), Err(BundleError::Inconsistent(_))));
    let (_tmp, dir) = written(12);
    rewrite_manifest(&dir, |m| m["files"]["dense"]["name"] = "../../etc/passwd".into());
    assert!(matches!(load_dir(&dir), Err(BundleError::Inconsistent(_))));
}

#[test]
fn a_failed_write_leaves_the_old_bundle_in_place() {
    let (_tmp, dir) = written(6);
    let before = std::fs::read(dir.join(MANIFEST_FILE)).unwrap();
    let mut bad = bundle(8);
    bad.files.push(("sub/dir/not-allowed".into(), vec![1, 2, 3]));
    assert!(write_dir(&dir, &bad).is_err());
    assert_eq!(std::fs::read(dir.join(MANIFEST_FILE)).unwrap(), before);
    assert!(load_dir(&dir).is_ok());
}

#[test]
fn a_rewrite_keeps_the_other_locales_bundles_inside() {
    let (_tmp, dir) = written(6);
    write_dir(&dir.join("zh-CN"), &bundle(4)).expect("writes the locale's bundle");
    write_dir(&dir, &bundle(8)).expect("rewrites the default bundle");
    assert_eq!(load_dir(&dir).expect("default").chunks.len(), 8);
    assert_eq!(load_dir(&dir.join("zh-CN")).expect("the locale's bundle survives").chunks.len(), 4);
    // No staging or old folder is left behind, inside or beside.
    let names = |d: &Path| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect::<Vec<_>>();
    assert!(names(&dir).iter().chain(&names(dir.parent().unwrap())).all(|n| !n.to_string_lossy().contains("lectern-")));
}

/// Sets `bytes` and `sha256` of every entry named `name` anywhere in `value`.
fn fix_entries(value: &mut serde_json::Value, name: &str, bytes: &[u8]) -> bool {
    let mut changed = false;
    match value {
        serde_json::Value::Object(map) => {
            if map.get("name").and_then(|n| n.as_str()) == Some(name) {
                map.insert("bytes".into(), bytes.len().into());
                map.insert("sha256".into(), lectern::bundle::sha256_hex(bytes).into());
                changed = true;
            }
            for v in map.values_mut() {
                changed |= fix_entries(v, name, bytes);
            }
        }
        serde_json::Value::Array(items) => {
            for v in items {
                changed |= fix_entries(v, name, bytes);
            }
        }
        _ => {}
    }
    changed
}

/// Applies `mutate` to one file's bytes and fixes the size and checksum recorded for it (in
/// its catalog page, and the page's in the manifest), so the reader's parsers (not just the
/// checksum) see the damage.
fn load_mutated(output: &BundleOutput, file: usize, mutate: impl FnOnce(&mut Vec<u8>)) -> Result<(), BundleError> {
    let mut files = output.files.clone();
    let Some((name, bytes)) = files.get_mut(file) else { return Ok(()) };
    mutate(bytes);
    let (name, bytes) = (name.clone(), bytes.clone());
    let mut manifest = serde_json::to_value(&output.manifest).unwrap();
    fix_entries(&mut manifest, &name, &bytes);
    for (page_name, page) in files.iter_mut().filter(|(n, _)| n.contains("-catalog.")) {
        let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(page) else { continue };
        if fix_entries(&mut value, &name, &bytes) {
            *page = serde_json::to_vec(&value).unwrap();
            fix_entries(&mut manifest, page_name, page);
        }
    }
    let manifest = serde_json::to_vec(&manifest).unwrap();
    let loaded = load_with(|n: &str| {
        if n == MANIFEST_FILE {
            return Ok(manifest.clone());
        }
        files
            .iter()
            .find(|(f, _)| f == n)
            .map(|(_, b)| b.clone())
            .ok_or_else(|| BundleError::MissingFile { name: n.into(), reason: "absent".into() })
    })?;
    // Whatever loads must also search without panicking.
    if let Ok(mut search) = HybridSearch::new(loaded.chunks, loaded.lexical) {
        if loaded.dense.is_some_and(|dense| search.attach_dense(dense).is_ok()) {
            let _ = search.search("ros topics pid", Some(&unit(3)), &SearchOptions::default());
        }
    }
    Ok(())
}

fn numbered(n: usize) -> (tempfile::TempDir, std::path::PathBuf, BundleOutput) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("bundle");
    let output = bundle_of(n, DenseParts::default(), None, ChunkLayout::Numbered);
    write_dir(&dir, &output).expect("writes dir");
    (tmp, dir, output)
}

#[test]
fn numbered_chunk_shards_round_trip_as_format_5() {
    let (_tmp, dir, output) = numbered(40);
    assert_eq!(output.manifest.format_version, NUMBERED_SHARDS_FORMAT_VERSION);
    assert!(output.manifest.files.chunks.is_empty(), "no chunk catalog page");
    let listing = output.manifest.files.chunk_shards.as_ref().expect("chunk shards by number");
    assert!(listing.shards > 1, "{listing:?}");
    let kinds = output.files.iter().filter_map(|(name, _)| FileKind::of(name));
    assert!(kinds.clone().all(|k| !matches!(k, FileKind::MetaShard | FileKind::TextShard | FileKind::ChunkCatalog)));
    assert_eq!(kinds.filter(|k| *k == FileKind::ChunkShard).count(), listing.shards);
    let loaded = load_dir(&dir).expect("loads");
    let catalogued = load_dir(&written(40).1).expect("loads");
    assert_eq!((loaded.chunks, loaded.texts), (catalogued.chunks, catalogued.texts), "the same chunks either way");
    // The same input gives the same names; another input another root, so other names.
    assert_eq!(bundle_of(40, DenseParts::default(), None, ChunkLayout::Numbered).manifest, output.manifest);
    let other = bundle_of(41, DenseParts::default(), None, ChunkLayout::Numbered).manifest;
    assert_ne!(other.files.chunk_shards.expect("by number").name(0), listing.name(0));
}

#[test]
fn numbered_chunk_shards_damaged_truncated_or_swapped_are_refused() {
    let (_tmp, dir, output) = numbered(40);
    let listing = output.manifest.files.chunk_shards.clone().expect("by number");
    let (one, two) = (dir.join(listing.name(1)), dir.join(listing.name(2)));
    let original = std::fs::read(&one).unwrap();
    let mut flipped = original.clone();
    flipped[original.len() - 5] ^= 0x20;
    std::fs::write(&one, &flipped).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::ChecksumMismatch { .. })));
    // Cut short: its frame is broken (`]` gone), or, cut inside and closed again, its content.
    std::fs::write(&one, &original[..original.len() - 1]).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::Corrupt { .. })));
    std::fs::write(&one, [&original[..original.len() - 3], b"]"].concat()).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::ChecksumMismatch { .. })));
    std::fs::write(&one, &original[..10]).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::Corrupt { .. })), "shorter than its proof");
    // Another shard's (valid) file under this one's name: its proof leads elsewhere.
    std::fs::copy(&two, &one).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::ChecksumMismatch { .. })));
    std::fs::remove_file(&one).unwrap();
    assert!(matches!(load_dir(&dir), Err(BundleError::MissingFile { .. })));
}

#[test]
fn numbered_chunk_shards_need_format_5_and_a_consistent_listing() {
    for edit in [
        (|m: &mut serde_json::Value| m["format_version"] = PAGE_TABLE_FORMAT_VERSION.into())
            as fn(&mut serde_json::Value),
        |m| m["files"]["chunk_shards"]["shards"] = 1.into(),
        |m| m["files"]["chunk_shards"]["chunks_per_shard"] = 0.into(),
        |m| m["files"]["chunks"] = serde_json::json!([{"name": "chunk-catalog.0123456789ab.json", "bytes": 2, "sha256": "00", "first_shard": 0, "shards": 1, "first_chunk": 0, "count": 40}]),
    ] {
        let (_tmp, dir, _) = numbered(40);
        rewrite_manifest(&dir, edit);
        assert!(matches!(load_dir(&dir), Err(BundleError::Inconsistent(_))));
    }
    let (_tmp, dir, _) = numbered(40);
    rewrite_manifest(&dir, |m| m["format_version"] = (FORMAT_VERSION + 1).into());
    assert!(matches!(load_dir(&dir), Err(BundleError::WrongVersion { .. })));
    rewrite_manifest(&dir, |m| m["files"]["chunk_shards"]["root"] = "00".repeat(32).into());
    rewrite_manifest(&dir, |m| m["format_version"] = FORMAT_VERSION.into());
    assert!(matches!(load_dir(&dir), Err(BundleError::MissingFile { .. })), "another root names other files");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_files_never_panic(file in 0usize..40, at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<bool>()) {
        let output = bundle(24);
        let _ = load_mutated(&output, file, |bytes| {
            if bytes.is_empty() { return; }
            let i = at.index(bytes.len());
            if cut { bytes.truncate(i) } else { bytes[i] = byte }
        });
    }

    #[test]
    fn mutated_numbered_shards_never_panic(file in 0usize..40, at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<bool>()) {
        let output = bundle_of(24, DenseParts::default(), None, ChunkLayout::Numbered);
        let _ = load_mutated(&output, file, |bytes| {
            if bytes.is_empty() { return; }
            let i = at.index(bytes.len());
            if cut { bytes.truncate(i) } else { bytes[i] = byte }
        });
    }

    #[test]
    fn random_manifests_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = BundleReader::new(&bytes);
    }
}
