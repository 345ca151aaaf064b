//! A keyword search on a bundle of many term and chunk shards fetches only the shards its
//! question needs (the term shards of its terms, the chunk shards of its results, through
//! their catalog pages), never the whole index — and ranks exactly as the whole index does.
#![cfg(not(target_arch = "wasm32"))]

use lectern::bundle::DenseLayout;
use lectern::bundle::{
    load_with, write_bundle, BundleChunk, BundleError, BundleInput, BundleOutput, ChunkLayout, ChunkMeta, DenseParts,
    SiteInfo,
};
use lectern::dense::DenseIndexConfig;
use lectern::lexical::{query_terms, IndexOptions};
use lectern::search::Confidence;
use lectern::search::{
    FollowUpOptions, HybridSearch, Part, SearchMode, SearchOptions, ShardedError, ShardedSearch, PAGES_AT_OPEN,
};
use std::collections::HashSet;

const DIMS: usize = 8;

fn unit(seed: usize) -> Vec<f32> {
    let v: Vec<f32> = (0..DIMS).map(|d| ((seed * 31 + d * 7) % 13) as f32 - 6.0).collect();
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::MIN_POSITIVE);
    v.into_iter().map(|x| x / norm).collect()
}

/// 400 chunks in 4 modules and 2 versions (the second repeats most sections unchanged), with
/// a vocabulary large enough for hundreds of term shards.
fn site() -> Vec<BundleChunk> {
    let words = [
        "robot",
        "joint",
        "torque",
        "sensor",
        "lidar",
        "camera",
        "topic",
        "node",
        "launch",
        "servo",
        "gripper",
        "kinematics",
        "planner",
        "odometry",
        "battery",
        "firmware",
        "controller",
        "wheel",
        "arm",
        "safety",
    ];
    let mut out = Vec::new();
    for version in ["2.0", "1.0"] {
        for i in 0..200usize {
            let changed = version == "1.0" && i % 3 == 0;
            let mut text = String::new();
            for j in 0..12 {
                text.push_str(words[(i * 7 + j * 3) % words.len()]);
                text.push(' ');
                text.push_str(&format!("term{} ", (i * 13 + j) % 500));
            }
            if changed {
                text.push_str("legacy calibration");
            }
            let hash = if changed { format!("old{i}") } else { format!("h{i}") };
            out.push(BundleChunk {
                meta: ChunkMeta {
                    chunk_id: format!("default:{version}:doc{i}#s:0"),
                    url: format!("/docs/{version}/doc{i}#s"),
                    heading_path: vec![format!("Doc {i}"), words[i % words.len()].into()],
                    chapter_title: format!("Doc {i}"),
                    section_title: "Section".into(),
                    module: format!("Module {}", i / 50),
                    chapter_id: format!("doc{i}"),
                    instance: "default".into(),
                    version: Some(version.into()),
                    word_count: 24,
                    position: out.len(),
                    hash,
                    parts: Vec::new(),
                    name: None,
                },
                text,
                vectors: vec![unit(i)],
            });
        }
    }
    out
}

/// `output` loaded whole, as `lectern search` loads a bundle folder.
fn load_whole(output: &BundleOutput) -> lectern::bundle::LoadedBundle {
    load_with(|name: &str| {
        if name == lectern::bundle::MANIFEST_FILE {
            return Ok(output.manifest_json());
        }
        output
            .files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.clone())
            .ok_or_else(|| BundleError::MissingFile { name: name.into(), reason: "absent".into() })
    })
    .expect("loads")
}

fn bundle() -> BundleOutput {
    bundle_with(400, 48)
}

/// The same site in shards of these target sizes (small: many shards and catalog pages).
fn bundle_with(text_shard_bytes: usize, term_shard_bytes: usize) -> BundleOutput {
    bundle_laid_out(text_shard_bytes, term_shard_bytes, DenseParts::default())
}

fn bundle_laid_out(text_shard_bytes: usize, term_shard_bytes: usize, dense_parts: DenseParts) -> BundleOutput {
    bundle_of(text_shard_bytes, term_shard_bytes, dense_parts, ChunkLayout::Catalog)
}

/// The site's bundle; the tests read the chunk shards of formats 2 to 4 (listed by catalog
/// pages) unless they say `ChunkLayout::Numbered` (format 5).
fn bundle_of(
    text_shard_bytes: usize,
    term_shard_bytes: usize,
    dense_parts: DenseParts,
    chunk_layout: ChunkLayout,
) -> BundleOutput {
    let chunks = site();
    write_bundle(BundleInput {
        chunks: &chunks,
        model_fingerprint: "sha256:test",
        dims: DIMS,
        site: SiteInfo { base_url: "/".into(), site_url: None, language: None },
        pages: 400,
        model_files: None,
        text_shard_bytes,
        term_shard_bytes,
        lexical: IndexOptions::default(),
        dense: DenseIndexConfig::default(),
        dense_parts,
        chunk_layout,
    })
    .expect("writes")
}

/// A server that counts what is fetched.
struct Served {
    output: BundleOutput,
    fetched: std::cell::RefCell<Vec<String>>,
}

impl Served {
    fn get(&self, name: &str) -> Vec<u8> {
        self.fetched.borrow_mut().push(name.to_string());
        self.output.files.iter().find(|(n, _)| n == name).map(|(_, b)| b.clone()).expect("served")
    }

    fn fetched(&self, prefix: &str) -> usize {
        self.fetched.borrow().iter().filter(|n| n.starts_with(prefix)).count()
    }
}

/// What the worker does: attach what `need` names until it names nothing.
fn fetch_all(
    served: &Served,
    sharded: &mut ShardedSearch,
    need: impl Fn(&ShardedSearch) -> Vec<lectern::search::NeededFile>,
) {
    for _ in 0..3 {
        let files = need(sharded);
        if files.is_empty() {
            return;
        }
        for file in files {
            sharded.attach(file.part, file.id, &served.get(&file.name)).expect("attaches");
        }
    }
    assert!(need(sharded).is_empty(), "two rounds (pages, then shards) are enough");
}

#[test]
fn a_keyword_search_fetches_only_its_shards_and_ranks_as_the_whole_index() {
    let output = bundle();
    let manifest = output.manifest.clone();
    let term_shards = manifest.files.terms.shard_count();
    let chunk_shards = manifest.files.chunks.shard_count();
    assert!(term_shards > 100 && manifest.files.terms.len() > 2, "{term_shards} term shards");
    assert!(chunk_shards > 40 && manifest.files.chunks.len() > 1, "{chunk_shards} chunk shards");

    let whole = load_whole(&output);
    let mut full = HybridSearch::new(whole.chunks.clone(), whole.lexical).expect("consistent");
    full.attach_dense(whole.dense.expect("a dense index")).expect("dense");

    let options = [
        SearchOptions { k: 5, mode: SearchMode::Lexical, ..Default::default() },
        SearchOptions { k: 3, modules: vec!["Module 2".into()], ..Default::default() },
        SearchOptions { k: 5, versions: vec!["1.0".parse().expect("a version name")], ..Default::default() },
    ];
    for question in
        ["How is joint torque measured by the sensor?", "legacy calibration of the lidar", "term42 term7 unknownword"]
    {
        for options in &options {
            let served = Served { output: bundle(), fetched: Default::default() };
            let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
            sharded.attach_chunk_table(&served.get(&manifest.files.chunk_table.name)).expect("table");
            assert!(matches!(
                sharded.search(question, None, options),
                Err(lectern::search::ShardedError::NotLoaded(_))
            ));
            fetch_all(&served, &mut sharded, |s| s.files_for_query(question, false));

            let terms = query_terms(question).len();
            let fetched_terms = served.fetched("terms.");
            assert!(
                fetched_terms <= terms && fetched_terms < term_shards / 10,
                "{fetched_terms} term shards for {terms} terms"
            );
            assert!(served.fetched("term-catalog.") <= terms);

            let got = sharded.search(question, None, options).expect("searches");
            let want = full.search(question, None, options).expect("searches");
            assert_eq!(got, want, "{question} {options:?}");

            let hits: Vec<u32> = got.hits.iter().map(|h| h.index).collect();
            fetch_all(&served, &mut sharded, |s| s.files_for_chunks(&hits));
            assert!(served.fetched("meta.") <= hits.len() && served.fetched("text.") <= hits.len());
            for &hit in &hits {
                assert_eq!(sharded.chunk(hit), Some(&whole.chunks[hit as usize]));
                assert_eq!(sharded.text(hit), Some(whole.texts[hit as usize].as_str()));
            }
            let fetched = served.fetched.borrow();
            let unique: HashSet<&String> = fetched.iter().collect();
            assert_eq!(unique.len(), fetched.len(), "nothing is fetched twice");
            drop(fetched);
            assert!(
                served.fetched(&manifest.files.dense.as_ref().expect("a dense index").name) == 0,
                "keyword search never needs the vectors"
            );
        }
    }
}

#[test]
fn results_fetch_their_numbered_chunk_shards_in_one_round_with_no_catalog_page() {
    let output = bundle_of(400, 48, DenseParts::default(), ChunkLayout::Numbered);
    let listing = output.manifest.files.chunk_shards.clone().expect("chunk shards by number");
    assert!(listing.shards > 40, "{listing:?}");
    let whole = load_whole(&output);
    let served = Served {
        output: bundle_of(400, 48, DenseParts::default(), ChunkLayout::Numbered),
        fetched: Default::default(),
    };
    let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
    sharded.attach_chunk_table(&served.get(&output.manifest.files.chunk_table.name)).expect("table");
    let question = "How is joint torque measured by the sensor?";
    fetch_all(&served, &mut sharded, |s| s.files_for_query(question, false));
    let options = SearchOptions { k: 8, mode: SearchMode::Lexical, ..Default::default() };
    let hits: Vec<u32> =
        (sharded.search(question, None, &options).expect("searches").hits.iter()).map(|h| h.index).collect();
    assert_eq!(hits.len(), 8);
    // Named from the chunk indices alone: one file per shard, all in the first round.
    let needed = sharded.files_for_chunks(&hits);
    let shards: HashSet<usize> = hits.iter().map(|&h| h as usize / listing.chunks_per_shard).collect();
    assert_eq!(needed.len(), shards.len(), "{needed:?}");
    assert!(needed.iter().all(|f| f.part == Part::Chunks && f.name == listing.name(f.id)), "{needed:?}");
    assert_eq!(sharded.files_for_chunk_metas(&hits), needed, "metadata comes with the text");
    for file in &needed {
        sharded.attach(file.part, file.id, &served.get(&file.name)).expect("attaches");
    }
    assert!(sharded.files_for_chunks(&hits).is_empty(), "one round is enough");
    for &hit in &hits {
        assert_eq!(sharded.chunk(hit), Some(&whole.chunks[hit as usize]));
        assert_eq!(sharded.text(hit), Some(whole.texts[hit as usize].as_str()));
        assert_eq!(sharded.chunk_shard_of(hit), Some(hit as usize / listing.chunks_per_shard));
    }
    // A shard under another number, a damaged one, or one past the last is refused.
    let fresh = || {
        let mut s = ShardedSearch::new(&output.manifest_json()).expect("manifest");
        s.attach_chunk_table(&served.get(&output.manifest.files.chunk_table.name)).expect("table");
        s
    };
    let mut sharded = fresh();
    let zero = served.get(&listing.name(0));
    assert!(sharded.attach(Part::Chunks, 1, &zero).is_err());
    let mut damaged = zero.clone();
    damaged[zero.len() / 2] ^= 1;
    assert!(sharded.attach(Part::Chunks, 0, &damaged).is_err());
    assert!(sharded.attach(Part::Chunks, listing.shards, &zero).is_err());
    assert!(sharded.attach(Part::Meta, 0, b"[]").is_err() && sharded.attach(Part::ChunkPage, 0, b"[]").is_err());
    assert_eq!(sharded.chunk(0), None);
    sharded.attach(Part::Chunks, 0, &zero).expect("the right file still attaches");
    assert_eq!(sharded.chunk(0), Some(&whole.chunks[0]));
}

#[test]
fn hybrid_search_over_shards_equals_the_whole_bundle() {
    let output = bundle();
    let served = Served { output: bundle(), fetched: Default::default() };
    let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
    let files = &output.manifest.files;
    sharded.attach_chunk_table(&served.get(&files.chunk_table.name)).expect("table");
    let dense = sharded.read_dense(&served.get(&files.dense.as_ref().expect("a dense index").name)).expect("dense");
    sharded.search_mut().expect("ready").attach_dense(dense).expect("attaches");

    let whole = load_whole(&output);
    let mut full = HybridSearch::new(whole.chunks, whole.lexical).expect("consistent");
    full.attach_dense(whole.dense.expect("a dense index")).expect("dense");
    let question = "gripper servo firmware";
    fetch_all(&served, &mut sharded, |s| s.files_for_query(question, false));
    let options = SearchOptions { k: 5, ..Default::default() };
    let got = sharded.search(question, Some(&unit(17)), &options).expect("searches");
    assert_eq!(got.mode_used, SearchMode::Hybrid);
    assert_eq!(got, full.search(question, Some(&unit(17)), &options).expect("searches"));
}

#[test]
fn a_follow_up_fetches_the_earlier_questions_shards_and_ranks_as_the_whole_index() {
    let output = bundle();
    let whole = load_whole(&output);
    let full = HybridSearch::new(whole.chunks, whole.lexical).expect("consistent");
    let served = Served { output: bundle(), fetched: Default::default() };
    let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
    sharded.attach_chunk_table(&served.get(&output.manifest.files.chunk_table.name)).expect("table");

    let (question, earlier) = ("how is it calibrated?", ["What does the lidar odometry term42 do?"]);
    let follow = FollowUpOptions::default();
    let options = SearchOptions { k: 5, mode: SearchMode::Lexical, ..Default::default() };
    fetch_all(&served, &mut sharded, |s| s.files_for_query(question, false));
    assert!(
        matches!(
            sharded.search_follow_up(question, None, None, &earlier, &options, &follow),
            Err(ShardedError::NotLoaded(_))
        ),
        "the earlier question's terms are needed too"
    );
    fetch_all(&served, &mut sharded, |s| s.files_for_follow_up(question, &earlier, &follow, false));
    let got = sharded.search_follow_up(question, None, None, &earlier, &options, &follow).expect("searches");
    let want = full.search_follow_up(question, None, None, &earlier, &options, &follow).expect("searches");
    assert_eq!(got, want);
    assert_ne!(got, full.search(question, None, &options).expect("searches"), "the conversation changes the results");
}

#[test]
fn a_small_sites_catalog_pages_come_with_the_chunk_table_and_a_large_sites_do_not() {
    // Large: more catalog pages than PAGES_AT_OPEN; a question fetches its own pages.
    let large = ShardedSearch::new(&bundle().manifest_json()).expect("manifest");
    assert!(large.files_at_open().is_empty());

    // Small (shards of the default sizes): one term page and one chunk page, named at open.
    let output = bundle_with(16 * 1024, 4 * 1024);
    let served = Served { output, fetched: Default::default() };
    let manifest = served.output.manifest.clone();
    assert!(manifest.files.terms.len() + manifest.files.chunks.len() <= PAGES_AT_OPEN);
    let mut sharded = ShardedSearch::new(&served.output.manifest_json()).expect("manifest");
    let at_open = sharded.files_at_open();
    let parts: Vec<Part> = at_open.iter().map(|f| f.part).collect();
    assert_eq!(parts.len(), manifest.files.terms.len() + manifest.files.chunks.len());
    assert!(parts.contains(&Part::TermPage) && parts.contains(&Part::ChunkPage));
    sharded.attach_chunk_table(&served.get(&manifest.files.chunk_table.name)).expect("table");
    for file in &at_open {
        sharded.attach(file.part, file.id, &served.get(&file.name)).expect("attaches");
    }
    assert!(sharded.files_at_open().is_empty(), "attached pages are not named again");
    // A question now names its term shards at once, and its results their shards: one round
    // trip each, no catalog page.
    let question = "How is joint torque measured by the sensor?";
    let needed = sharded.files_for_query(question, false);
    assert!(!needed.is_empty() && needed.iter().all(|f| f.part == Part::Terms), "{needed:?}");
    fetch_all(&served, &mut sharded, |s| s.files_for_query(question, false));
    let hits: Vec<u32> = (sharded.search(question, None, &SearchOptions::default()).expect("searches").hits)
        .iter()
        .map(|h| h.index)
        .collect();
    let needed = sharded.files_for_chunks(&hits);
    assert!(!needed.is_empty() && needed.iter().all(|f| matches!(f.part, Part::Meta | Part::Text)), "{needed:?}");
}

#[test]
fn bad_parts_are_refused_not_panicked_on() {
    let output = bundle();
    let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
    let table = output.files.iter().find(|(n, _)| n.starts_with("chunk-table.")).map(|(_, b)| b.clone()).unwrap();
    sharded.attach_chunk_table(&table).expect("table");
    // A shard before its catalog page, an unknown id, damaged bytes.
    assert!(sharded.attach(Part::Terms, 0, b"LXSH").is_err());
    assert!(sharded.attach(Part::Meta, 0, b"[]").is_err());
    assert!(sharded.attach(Part::Text, 0, b"[]").is_err());
    assert!(sharded.attach(Part::TermPage, 10_000, b"[]").is_err(), "no such page");
    let files = sharded.files_for_query("robot", false);
    let page = &files[0];
    assert_eq!(page.part, Part::TermPage);
    let mut bytes = output.files.iter().find(|(n, _)| *n == page.name).map(|(_, b)| b.clone()).unwrap();
    bytes[3] ^= 1;
    assert!(sharded.attach(page.part, page.id, &bytes).is_err());
    bytes[3] ^= 1;
    sharded.attach(page.part, page.id, &bytes).expect("the intact page");
    let shard = &sharded.files_for_query("robot", false)[0];
    assert_eq!(shard.part, Part::Terms);
    assert!(sharded.attach(shard.part, shard.id, b"not a shard").is_err());
    assert!(!sharded.files_for_query("robot", false).is_empty(), "a refused shard is still needed");
}

#[test]
fn a_term_shard_that_failed_is_searched_without_and_says_so() {
    let output = bundle();
    let served = Served { output: bundle(), fetched: Default::default() };
    let manifest = output.manifest.clone();
    let whole = |question: &str| {
        let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
        sharded.attach_chunk_table(&served.get(&manifest.files.chunk_table.name)).expect("table");
        fetch_all(&served, &mut sharded, |s| s.files_for_query(question, false));
        sharded.search(question, None, &SearchOptions::default()).expect("searches")
    };
    let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
    sharded.attach_chunk_table(&served.get(&manifest.files.chunk_table.name)).expect("table");
    // Long enough not to be a search-box query, whose words would also be looked up as names
    // (`lexical::names`) in shards of their own.
    let question = "what is the joint torque";
    // The pages arrive; of the shards, "joint"'s fails (its checksum, say) and is marked.
    fetch_all(&served, &mut sharded, |s| {
        s.files_for_query(question, false).into_iter().filter(|f| f.part == Part::TermPage).collect()
    });
    let shards = sharded.files_for_query(question, false);
    assert_eq!(shards.len(), 2, "{shards:?}");
    let failed = shards
        .iter()
        .find(|f| query_terms("what is the joint").iter().all(|t| shard_holds(&sharded, f, t)))
        .unwrap()
        .clone();
    for file in shards.iter().filter(|f| **f != failed) {
        sharded.attach(file.part, file.id, &served.get(&file.name)).expect("attaches");
    }
    assert!(sharded.search(question, None, &SearchOptions::default()).is_err(), "not until it is marked");
    // Damaged bytes are refused, naming the catalog page whose checksum they were held to.
    let mut damaged = served.get(&failed.name);
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x5a;
    let refused = sharded.attach(failed.part, failed.id, &damaged).unwrap_err().to_string();
    assert!(refused.contains("does not match term catalog page"), "{refused}");
    sharded.mark_unavailable(failed.part, failed.id).expect("marks");
    assert_eq!(sharded.unavailable_for(question, false), std::slice::from_ref(&failed));
    assert_eq!(sharded.unavailable_for("robot", false), [], "another question goes without nothing");
    // Scored from "torque" alone, exactly as the whole index scores "torque"; at most low.
    let partial = sharded.search(question, None, &SearchOptions::default()).expect("searches");
    let torque = whole("what is the torque");
    assert_eq!(partial.hits, torque.hits);
    assert_eq!(partial.confidence, torque.confidence.at_most_low());
    // A follow-up goes without it alike (the chat searches every question as one).
    let earlier = [question];
    let follow_up = FollowUpOptions::default();
    assert_eq!(sharded.unavailable_for_follow_up(question, &earlier, &follow_up, false), std::slice::from_ref(&failed));
    // The page table (the conversation's page gets a vote) comes with a follow-up's terms.
    let needed = sharded.files_for_follow_up(question, &earlier, &follow_up, false);
    for file in needed.iter().filter(|f| f.part == Part::Pages) {
        sharded.attach(file.part, file.id, &served.get(&file.name)).expect("attaches");
    }
    let followed = sharded
        .search_follow_up(question, None, None, &earlier, &SearchOptions::default(), &follow_up)
        .expect("a follow-up searches without it too");
    assert_eq!(followed.confidence, followed.confidence.at_most_low(), "at most low");
    // The shard arrives after all: the search is whole again.
    sharded.attach(failed.part, failed.id, &served.get(&failed.name)).expect("attaches");
    assert_eq!(sharded.unavailable_for(question, false), []);
    assert_eq!(sharded.search(question, None, &SearchOptions::default()).expect("searches"), whole(question));

    // A catalog page that failed: its terms are left out alike.
    let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
    sharded.attach_chunk_table(&served.get(&manifest.files.chunk_table.name)).expect("table");
    let pages = sharded.files_for_query(question, false);
    for page in &pages {
        sharded.mark_unavailable(page.part, page.id).expect("marks");
    }
    let nothing = sharded.search(question, None, &SearchOptions::default()).expect("searches");
    assert!(nothing.hits.is_empty() && sharded.unavailable_for(question, false).len() == pages.len());
}

/// Whether `term` falls in the range of the term shard `file` (its page attached).
fn shard_holds(sharded: &ShardedSearch, file: &lectern::search::NeededFile, term: &str) -> bool {
    let files = sharded.files_for_query(term, false);
    files.iter().any(|f| f == file)
}

#[test]
fn a_search_box_query_fetches_the_shards_of_its_expansions_and_ranks_as_the_whole_index() {
    let output = bundle();
    let manifest = output.manifest.clone();
    let term_shards = manifest.files.terms.shard_count();
    let whole = load_whole(&output);
    let full = HybridSearch::new(whole.chunks.clone(), whole.lexical).expect("consistent");
    let options = SearchOptions { k: 8, mode: SearchMode::Lexical, expand_words: true, ..Default::default() };
    // A word being typed ("kinem", "cal"), misspelt
    // words ("odomtery", "grpiper": two letters swapped; "calibraton": one dropped), both.
    for question in ["kinem", "torque cal", "odomtery", "grpiper wheel", "legacy calibraton", "batery contr"] {
        let served = Served { output: bundle(), fetched: Default::default() };
        let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
        sharded.attach_chunk_table(&served.get(&manifest.files.chunk_table.name)).expect("table");
        for _ in 0..5 {
            let files = sharded.files_for_query(question, true);
            for file in files {
                sharded.attach(file.part, file.id, &served.get(&file.name)).expect("attaches");
            }
        }
        assert!(sharded.files_for_query(question, true).is_empty(), "{question}: five rounds are enough");
        let fetched = served.fetched("terms.");
        assert!(fetched < term_shards / 4, "{question}: {fetched} of {term_shards} term shards");
        let got = sharded.search(question, None, &options).expect("searches");
        let want = full.search(question, None, &options).expect("searches");
        assert!(!want.hits.is_empty(), "{question} finds something");
        assert_eq!(got, want, "{question}");
        let plain = full.search(question, None, &SearchOptions { expand_words: false, ..options.clone() }).unwrap();
        assert_ne!(plain.hits, want.hits, "{question}: the expansion found more");
    }
}

/// The site with its dense index in parts, opened as the browser opens it (manifest, chunk
/// table, the dense index's head), and the same site's whole bundle loaded natively.
fn opened_in_parts() -> (Served, ShardedSearch, HybridSearch) {
    let output = bundle_laid_out(400, 48, DenseParts::Always);
    assert_eq!(output.manifest.files.dense_layout, DenseLayout::Parts);
    let served = Served { output, fetched: Default::default() };
    let files = served.output.manifest.files.clone();
    let mut sharded = ShardedSearch::new(&served.output.manifest_json()).expect("manifest");
    sharded.attach_chunk_table(&served.get(&files.chunk_table.name)).expect("table");
    let head = sharded.read_dense(&served.get(&files.dense.as_ref().expect("a dense index").name)).expect("head");
    sharded.search_mut().expect("ready").attach_dense(head).expect("attaches");

    let whole_output = bundle_laid_out(400, 48, DenseParts::Never);
    assert_eq!(whole_output.manifest.files.dense_layout, DenseLayout::Single);
    let whole = load_whole(&whole_output);
    let mut full = HybridSearch::new(whole.chunks, whole.lexical).expect("consistent");
    full.attach_dense(whole.dense.expect("a dense index")).expect("dense");
    (served, sharded, full)
}

#[test]
fn a_dense_index_in_parts_is_fetched_per_vector_in_two_rounds_and_ranks_as_the_whole_one() {
    let (served, mut sharded, full) = opened_in_parts();
    let options = SearchOptions { k: 5, mode: SearchMode::Dense, ..Default::default() };
    let question = "gripper servo firmware";
    fetch_all(&served, &mut sharded, |s| s.files_for_query(question, false));
    for seed in [3, 17, 40] {
        let vector = unit(seed);
        assert!(sharded.search(question, Some(&vector), &options).is_err(), "waits for its parts");
        // Round 1: partitions' codes (the head lists them); round 2: int8 rows (their codes
        // list them). No catalog page: the manifest lists none.
        let mut rounds = Vec::new();
        loop {
            let files = sharded.files_for_vector(&vector, &options).expect("names parts");
            if files.is_empty() {
                break;
            }
            assert!(rounds.len() < 2, "at most two rounds: {rounds:?}");
            rounds.push(files.iter().map(|f| f.part).collect::<HashSet<_>>());
            for file in files {
                sharded.attach(file.part, file.id, &served.get(&file.name)).expect("attaches");
            }
        }
        if seed == 3 {
            assert_eq!(rounds.len(), 2, "a cold vector: codes, rows");
            assert!(rounds.iter().all(|parts| *parts == HashSet::from([Part::Dense])), "{rounds:?}");
        }
        let got = sharded.search(question, Some(&vector), &options).expect("searches");
        let want = full.search(question, Some(&vector), &options).expect("searches");
        assert_eq!(got.mode_used, SearchMode::Dense);
        // Many vectors of this site are equal: compare the cosines, not the order of ties.
        let cosines =
            |r: &lectern::search::SearchResults| r.hits.iter().map(|h| h.dense.unwrap_or(-2.0)).collect::<Vec<_>>();
        for (a, b) in cosines(&got).iter().zip(cosines(&want)) {
            assert!((a - b).abs() < 1e-5, "{:?} against {:?}", cosines(&got), cosines(&want));
        }
        let hybrid = SearchOptions { mode: SearchMode::Hybrid, ..options.clone() };
        assert_eq!(sharded.search(question, Some(&vector), &hybrid).expect("hybrid").mode_used, SearchMode::Hybrid);
    }
    let fetched = served.fetched.borrow();
    let unique: HashSet<&String> = fetched.iter().collect();
    assert_eq!(unique.len(), fetched.len(), "nothing is fetched twice");
    assert!(served.output.manifest.files.dense_parts.is_none(), "the manifest lists no dense part");
    let parts = served.output.files.iter().filter(|(name, _)| name.starts_with("dense-part.")).count();
    assert!(served.fetched("dense-part.") < parts);
    assert_eq!(served.fetched("dense-catalog."), 0);
    // What the cache's housekeeping keeps besides the listed files: every part, nothing else.
    for (name, _) in &served.output.files {
        assert_eq!(sharded.names_dense_part(name), name.starts_with("dense-part."), "{name}");
    }
    assert!(!sharded.names_dense_part("dense-part..bin") && !sharded.names_dense_part("dense-part.x.json"));
}

#[test]
fn a_fixed_version_finds_its_sections_in_parts() {
    let (served, mut sharded, full) = opened_in_parts();
    let options = SearchOptions {
        k: 5,
        mode: SearchMode::Dense,
        versions: vec!["1.0".parse().expect("a version name")],
        ..Default::default()
    };
    let vector = unit(11);
    fetch_all(&served, &mut sharded, |s| s.files_for_query("servo", false));
    fetch_all(&served, &mut sharded, |s| s.files_for_vector(&vector, &options).expect("names parts"));
    let got = sharded.search("servo", Some(&vector), &options).expect("searches");
    let want = full.search("servo", Some(&vector), &options).expect("searches");
    assert_eq!(got.hits.len(), 5);
    let table = full.chunks();
    for hit in &got.hits {
        assert_eq!(table[hit.index as usize].version.as_deref(), Some("1.0"), "{hit:?}");
    }
    let cosines =
        |r: &lectern::search::SearchResults| r.hits.iter().map(|h| h.dense.unwrap_or(-2.0)).collect::<Vec<_>>();
    for (a, b) in cosines(&got).iter().zip(cosines(&want)) {
        assert!((a - b).abs() < 1e-5, "{:?} against {:?}", cosines(&got), cosines(&want));
    }
}

#[test]
fn dense_parts_that_failed_leave_a_keyword_answer_that_says_so() {
    let (served, mut sharded, _) = opened_in_parts();
    let options = SearchOptions { k: 5, ..Default::default() };
    let question = "gripper servo firmware";
    fetch_all(&served, &mut sharded, |s| s.files_for_query(question, false));
    let vector = unit(5);
    let pages = sharded.files_for_vector(&vector, &options).expect("names parts");
    // A corrupt or truncated part is refused with a coded error, never attached.
    let page = &pages[0];
    let mut bytes = served.get(&page.name);
    bytes.truncate(bytes.len() / 2);
    assert!(matches!(
        sharded.attach(page.part, page.id, &bytes),
        Err(ShardedError::Bundle(BundleError::WrongSize { .. }))
    ));
    let mut bytes = served.get(&page.name);
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x20;
    assert!(matches!(
        sharded.attach(page.part, page.id, &bytes),
        Err(ShardedError::Bundle(BundleError::ChecksumMismatch { .. }))
    ));
    // Another part's bytes under this part's id: refused by its listing.
    let other = pages.iter().find(|f| f.name != page.name).expect("two parts");
    assert!(sharded.attach(page.part, page.id, &served.get(&other.name)).is_err());
    // An id beyond the index's parts names no part.
    assert!(matches!(sharded.attach(Part::Dense, 1 << 30, &bytes), Err(ShardedError::NoSuchPart(_))));
    for file in &pages {
        sharded.mark_unavailable(file.part, file.id).expect("marks");
    }
    let got = sharded.search(question, Some(&vector), &options).expect("answers by keywords");
    assert_eq!(got.mode_used, SearchMode::Lexical);
    assert!(matches!(got.confidence, Confidence::Low | Confidence::None), "{:?}", got.confidence);
    assert!(!got.hits.is_empty());
    // Once the parts arrive, the answer is semantic again.
    fetch_all(&served, &mut sharded, |s| s.files_for_vector(&vector, &options).expect("names parts"));
    assert_eq!(sharded.search(question, Some(&vector), &options).expect("searches").mode_used, SearchMode::Hybrid);
}

#[test]
fn a_large_sites_page_table_is_fetched_only_by_a_search_asked_from_a_page() {
    // 400 pages: more than stay in the chunk table, so the bundle has a page table (format 4).
    let output = bundle();
    let manifest = &output.manifest;
    let pages = manifest.files.pages.as_ref().expect("a page table");
    assert_eq!(manifest.format_version, lectern::bundle::PAGE_TABLE_FORMAT_VERSION);
    let table = output.files.iter().find(|(n, _)| *n == manifest.files.chunk_table.name).expect("table");
    assert!(!String::from_utf8_lossy(&table.1).contains("\"pages\""), "the chunk table leaves the pages out");

    let whole = load_whole(&output);
    let full = HybridSearch::new(whole.chunks, whole.lexical).expect("consistent");
    let question = "joint torque sensor";
    let on_page =
        SearchOptions { k: 5, mode: SearchMode::Lexical, page: Some("/docs/1.0/doc9".into()), ..Default::default() };
    let only_page = SearchOptions { page_only: true, ..on_page.clone() };
    let served = Served { output: bundle(), fetched: Default::default() };
    let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
    sharded.attach_chunk_table(&served.get(&manifest.files.chunk_table.name)).expect("table");
    fetch_all(&served, &mut sharded, |s| s.files_for_query(question, false));

    // Not asked from a page: never named, never needed.
    let plain = SearchOptions { k: 5, mode: SearchMode::Lexical, ..Default::default() };
    assert_eq!(sharded.files_for_page(&plain), None);
    assert_eq!(sharded.search(question, None, &plain).expect("searches"), full.search(question, None, &plain).unwrap());
    assert_eq!(served.fetched("page-table."), 0);

    // Asked from a page: the search waits for the table, then ranks as the whole bundle does.
    let needed = sharded.files_for_page(&on_page).expect("the page table is named");
    assert_eq!((needed.part, needed.id, &needed.name), (Part::Pages, 0, &pages.name));
    assert!(matches!(sharded.search(question, None, &on_page), Err(ShardedError::NotLoaded(_))));
    // Damaged or truncated bytes are refused with a coded error, and change nothing.
    let bytes = served.get(&pages.name);
    let mut flipped = bytes.clone();
    flipped[3] ^= 0x20;
    let refused = [&bytes[..bytes.len() - 1], &flipped[..], b"[[0,1,2]]"];
    for bad in refused {
        assert!(matches!(
            sharded.attach(Part::Pages, 0, bad),
            Err(ShardedError::Bundle(BundleError::WrongSize { .. } | BundleError::ChecksumMismatch { .. }))
        ));
    }
    assert!(sharded.attach(Part::Pages, 1, &bytes).is_err(), "no such part");
    assert!(sharded.files_for_page(&on_page).is_some());
    sharded.attach(Part::Pages, 0, &bytes).expect("attaches");
    assert_eq!(sharded.files_for_page(&on_page), None);
    for options in [&on_page, &only_page] {
        let got = sharded.search(question, None, options).expect("searches");
        assert_eq!(got, full.search(question, None, options).expect("searches"), "{options:?}");
    }
    let only = sharded.search(question, None, &only_page).expect("searches");
    assert!(!only.hits.is_empty() && only.hits.iter().all(|h| h.index == 209), "{only:?}");
    sharded.attach(Part::Pages, 0, &bytes).expect("attaching twice is a no-op");

    // A table that could not be had: the search goes on without the page (a search confined
    // to the page too), at most low.
    let mut without = ShardedSearch::new(&output.manifest_json()).expect("manifest");
    without.attach_chunk_table(&served.get(&manifest.files.chunk_table.name)).expect("table");
    fetch_all(&served, &mut without, |s| s.files_for_query(question, false));
    without.mark_unavailable(Part::Pages, 0).expect("marks");
    assert_eq!(without.unavailable_page(&on_page).map(|f| f.part), Some(Part::Pages));
    assert_eq!(without.unavailable_page(&plain), None);
    let got = without.search(question, None, &only_page).expect("searches without the page");
    let mut want = full.search(question, None, &plain).expect("searches");
    want.confidence = want.confidence.at_most_low();
    assert_eq!(got, want);
}

#[test]
fn a_small_sites_pages_stay_in_the_chunk_table() {
    // 40 chunks on 40 pages: no page table, the bundle a reader of format 2 opens.
    let chunks: Vec<BundleChunk> = site().into_iter().take(40).collect();
    let output = write_bundle(BundleInput {
        chunks: &chunks,
        model_fingerprint: "sha256:test",
        dims: DIMS,
        site: SiteInfo { base_url: "/".into(), site_url: None, language: None },
        pages: 40,
        model_files: None,
        text_shard_bytes: 400,
        term_shard_bytes: 48,
        lexical: IndexOptions::default(),
        dense: DenseIndexConfig::default(),
        dense_parts: DenseParts::default(),
        chunk_layout: ChunkLayout::Catalog,
    })
    .expect("writes");
    assert_eq!(output.manifest.files.pages, None);
    assert_eq!(output.manifest.format_version, lectern::bundle::OLDEST_FORMAT_VERSION);
    let mut sharded = ShardedSearch::new(&output.manifest_json()).expect("manifest");
    let on_page = SearchOptions { page: Some("/docs/2.0/doc7".into()), ..Default::default() };
    assert_eq!(sharded.files_for_page(&on_page), None, "the pages came with the chunk table");
    assert!(sharded.mark_unavailable(Part::Pages, 0).is_err(), "no page table to miss");
}
