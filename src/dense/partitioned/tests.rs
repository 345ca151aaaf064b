//! The partitioned index end to end: build, open, the fetch loop, results against the exact
//! int8 scan, versions and copies, and every way a caller or a file can be wrong.

use super::*;
use crate::dense::synthetic::{clustered_unit_vectors, queries_near, recall};
use crate::dense::{DenseError, QuantizedVectors};

fn small_config() -> PartitionedConfig {
    PartitionedConfig {
        partition_size: 100,
        subspaces: 8,
        centroid_subspaces: 0,
        shard_size: 8,
        probe: 4,
        rescore: 24,
        ..Default::default()
    }
}

fn one_each(vectors: &[Vec<f32>]) -> Vec<Vec<Vec<f32>>> {
    vectors.iter().map(|v| vec![v.clone()]).collect()
}

fn build_plain(items: &[Vec<Vec<f32>>], config: &PartitionedConfig) -> (PartitionedFiles, BuildStats) {
    build(&PartitionedInput { items, first_copy: &[], version_slots: &[] }, config).unwrap()
}

/// Runs the fetch loop as the browser worker will: returns the results, the rounds taken
/// and the parts fetched.
fn answer(
    index: &mut PartitionedIndex,
    files: &PartitionedFiles,
    query: &[f32],
    k: usize,
    filter: &PartFilter<'_>,
) -> (Vec<(u32, f32)>, usize, Vec<PartId>) {
    let mut fetched = Vec::new();
    for round in 0..10 {
        match index.search(query, k, filter).unwrap() {
            PartSearch::Found(hits) => return (hits, round, fetched),
            PartSearch::NeedParts(parts) => {
                assert!(!parts.is_empty());
                assert_eq!(index.needed_parts(query, k, filter).unwrap(), parts);
                for &part in &parts {
                    assert!(!index.is_attached(part), "part {part} asked for twice");
                    index.attach(part, &files.parts[part as usize]).unwrap();
                    fetched.push(part);
                }
            }
        }
    }
    panic!("no answer after 10 rounds");
}

/// Exact int8 search over items: each item (as `pick` maps it) by its best vector.
fn exact(items: &[Vec<Vec<f32>>], query: &[f32], k: usize, pick: &dyn Fn(u32) -> Option<u32>) -> Vec<(u32, f32)> {
    let mut best: std::collections::HashMap<u32, f32> = std::collections::HashMap::new();
    for (i, vectors) in items.iter().enumerate() {
        let Some(item) = pick(i as u32) else { continue };
        if vectors.is_empty() {
            continue;
        }
        let q = QuantizedVectors::quantize(vectors).unwrap();
        for v in 0..q.len() as u32 {
            let score = q.cosine(query, v).unwrap();
            let e = best.entry(item).or_insert(f32::NEG_INFINITY);
            *e = e.max(score);
        }
    }
    let mut all: Vec<(u32, f32)> = best.into_iter().collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(k);
    all
}

#[test]
fn two_rounds_and_high_recall_against_the_exact_scan() {
    let vectors = clustered_unit_vectors(3000, 32, 40, 1.0, 1);
    let items = one_each(&vectors);
    // Synthetic clusters overlap more than real MiniLM topics: 10 of ~30 partitions.
    let (files, stats) = build_plain(&items, &PartitionedConfig { probe: 10, rescore: 40, ..small_config() });
    assert_eq!(stats.rows, 3000);
    assert!(stats.partitions >= 20, "{stats:?}");
    assert_eq!(files.parts.len(), stats.partitions + stats.shards);
    let mut index = PartitionedIndex::open(&files.head).unwrap();
    assert_eq!((index.len(), index.item_count(), index.dims()), (3000, 3000, 32));
    let queries = queries_near(&vectors, 50, 0.8, 2);
    let mut total = 0.0;
    for q in &queries {
        let (hits, rounds, fetched) = answer(&mut index, &files, q, 10, &PartFilter::default());
        assert!(rounds <= 2, "{rounds} rounds");
        assert!(fetched.iter().all(|&p| p < index.part_count()));
        let truth = exact(&items, q, 10, &Some);
        // Scores are the int8 scan's exactly.
        for (item, score) in &hits {
            let want = exact(&items[*item as usize..=*item as usize], q, 1, &Some)[0].1;
            assert!((score - want).abs() < 1e-6);
        }
        total += recall(&hits, &truth);
    }
    let mean = total / queries.len() as f64;
    assert!(mean >= 0.9, "recall@10 {mean}");
}

#[test]
fn probing_everything_gives_the_exact_answer_and_results_do_not_depend_on_the_cache() {
    let vectors = clustered_unit_vectors(800, 16, 10, 1.0, 3);
    let items = one_each(&vectors);
    let (files, stats) = build_plain(&items, &small_config());
    let mut warm = PartitionedIndex::open(&files.head).unwrap();
    warm.set_probe(stats.partitions).unwrap();
    warm.set_rescore(800).unwrap();
    for q in queries_near(&vectors, 10, 1.0, 4) {
        let (hits, _, _) = answer(&mut warm, &files, &q, 10, &PartFilter::default());
        assert_eq!(
            hits.iter().map(|h| h.0).collect::<Vec<_>>(),
            exact(&items, &q, 10, &Some).iter().map(|h| h.0).collect::<Vec<_>>()
        );
    }
    // A fresh index (cold cache) and the warm one answer a question alike.
    let mut cold = PartitionedIndex::open(&files.head).unwrap();
    let (warm_index, q) = (&mut warm, &vectors[5]);
    warm_index.set_probe(2).unwrap();
    warm_index.set_rescore(12).unwrap();
    cold.set_probe(2).unwrap();
    cold.set_rescore(12).unwrap();
    let (a, _, _) = answer(warm_index, &files, q, 5, &PartFilter::default());
    let (b, rounds, _) = answer(&mut cold, &files, q, 5, &PartFilter::default());
    assert_eq!(a, b);
    assert_eq!(rounds, 2);
    assert_eq!(a[0].0, 5);
}

#[test]
fn building_is_deterministic() {
    let items = one_each(&clustered_unit_vectors(500, 12, 6, 1.0, 5));
    let (a, _) = build_plain(&items, &small_config());
    let (b, _) = build_plain(&items, &small_config());
    assert_eq!(a.head, b.head);
    assert_eq!(a.parts, b.parts);
}

#[test]
fn windows_score_their_item_by_its_best_vector() {
    let vectors = clustered_unit_vectors(600, 16, 8, 1.0, 6);
    // Item i owns vectors 2i and 2i + 1.
    let items: Vec<Vec<Vec<f32>>> = vectors.chunks(2).map(<[Vec<f32>]>::to_vec).collect();
    let (files, stats) = build_plain(&items, &PartitionedConfig { probe: 100, rescore: 300, ..small_config() });
    assert_eq!((stats.items, stats.rows), (300, 600));
    let mut index = PartitionedIndex::open(&files.head).unwrap();
    let q = &vectors[41];
    let (hits, _, _) = answer(&mut index, &files, q, 5, &PartFilter::default());
    assert_eq!(hits[0].0, 20);
    assert_eq!(hits, exact(&items, q, 5, &Some));
    let distinct: std::collections::HashSet<u32> = hits.iter().map(|h| h.0).collect();
    assert_eq!(distinct.len(), hits.len());
}

/// Two doc versions of 300 sections: the first 200 unchanged (copies), the last 100 rewritten
/// in version 2 (slot 2); version 1 is slot 1, and 50 unversioned pages (slot 0) follow.
fn versioned_site() -> (Vec<Vec<Vec<f32>>>, Vec<u32>, Vec<u16>) {
    let v1 = clustered_unit_vectors(300, 16, 6, 1.0, 7);
    let rewritten = clustered_unit_vectors(100, 16, 6, 1.0, 8);
    let blog = clustered_unit_vectors(50, 16, 3, 1.0, 9);
    let mut items: Vec<Vec<Vec<f32>>> = Vec::new();
    let (mut first_copy, mut slots) = (Vec::new(), Vec::new());
    for (i, v) in v1.iter().enumerate() {
        items.push(vec![v.clone()]);
        first_copy.push(i as u32);
        slots.push(1);
    }
    for i in 0..300 {
        if i < 200 {
            items.push(Vec::new()); // a copy: its vectors are its first copy's
            first_copy.push(i as u32);
        } else {
            items.push(vec![rewritten[i - 200].clone()]);
            first_copy.push(300 + i as u32);
        }
        slots.push(2);
    }
    for v in &blog {
        first_copy.push(items.len() as u32);
        items.push(vec![v.clone()]);
        slots.push(0);
    }
    (items, first_copy, slots)
}

#[test]
fn copies_are_stored_once_and_a_fixed_version_probes_only_its_partitions() {
    let (items, first_copy, slots) = versioned_site();
    let config = PartitionedConfig { partition_size: 40, ..small_config() };
    let input = PartitionedInput { items: &items, first_copy: &first_copy, version_slots: &slots };
    let (files, stats) = build(&input, &config).unwrap();
    assert_eq!(stats.rows, 300 + 100 + 50, "the 200 unchanged sections are stored once");
    assert_eq!(stats.version_groups, 4, "{{1,2}}, {{1}}, {{2}}, {{none}}: {stats:?}");
    let head = format::Head::read(&files.head).unwrap();
    let serves_only = |p: usize, slot: u16| (0..3).all(|s| head.partitions[p].serves(s) == (s == slot));

    // The pick of a version: the copy of a section in that version, if it has one.
    let copies_in = |slot: u16| {
        let (first_copy, slots) = (first_copy.clone(), slots.clone());
        move |section: u32| {
            (0..first_copy.len()).find(|&i| first_copy[i] == section && slots[i] == slot).map(|i| i as u32)
        }
    };
    for slot in [1u16, 2] {
        let pick = copies_in(slot);
        let filter = PartFilter { version_slots: &[slot], pick: Some(&pick) };
        let mut index = PartitionedIndex::open(&files.head).unwrap();
        index.set_probe(100).unwrap();
        index.set_rescore(1000).unwrap();
        for q in queries_near(&items.iter().flatten().cloned().collect::<Vec<_>>(), 10, 1.0, 10 + slot as u64) {
            let (hits, _, fetched) = answer(&mut index, &files, &q, 10, &filter);
            assert_eq!(hits.len(), 10);
            assert!(hits.iter().all(|&(item, _)| slots[item as usize] == slot), "{hits:?}");
            let other = if slot == 1 { 2 } else { 1 };
            for part in fetched {
                let partition = match index.part_kind(part).unwrap() {
                    PartKind::Codes { partition } | PartKind::Rows { partition, .. } => partition as usize,
                };
                assert!(
                    !serves_only(partition, other) && !serves_only(partition, 0),
                    "fetched another version's part {part}"
                );
            }
            // Every section, probed whole: the exact answer in that version.
            assert_eq!(hits, exact(&items, &q, 10, &|i| if first_copy[i as usize] == i { pick(i) } else { None }));
        }
    }
}

#[test]
fn a_selective_filter_widens_the_probe_and_still_returns_k() {
    let vectors = clustered_unit_vectors(2000, 16, 20, 1.0, 11);
    let items = one_each(&vectors);
    let (files, _) = build_plain(&items, &small_config());
    let mut index = PartitionedIndex::open(&files.head).unwrap();
    let rare = |i: u32| (i % 97 == 5).then_some(i);
    let filter = PartFilter { version_slots: &[], pick: Some(&rare) };
    let (hits, rounds, _) = answer(&mut index, &files, &vectors[0], 10, &filter);
    assert_eq!(hits.len(), 10);
    assert!(rounds >= 2);
    assert!(hits.iter().all(|h| h.0 % 97 == 5));
    let none = |_: u32| None;
    let (hits, _, _) =
        answer(&mut index, &files, &vectors[0], 10, &PartFilter { version_slots: &[], pick: Some(&none) });
    assert!(hits.is_empty());
    // A version nothing serves: no partition is probed, nothing is fetched.
    let (hits, rounds, _) =
        answer(&mut index, &files, &vectors[0], 10, &PartFilter { version_slots: &[7], pick: None });
    assert_eq!((hits.len(), rounds), (0, 0));
}

#[test]
fn callers_mistakes_are_typed_errors() {
    let vectors = clustered_unit_vectors(400, 16, 5, 1.0, 12);
    let (files, stats) = build_plain(&one_each(&vectors), &small_config());
    let mut index = PartitionedIndex::open(&files.head).unwrap();
    let none = PartFilter::default();
    assert_eq!(index.search(&[0.0; 15], 10, &none), Err(DenseError::QueryDims { expected: 16, found: 15 }));
    let mut nan = vectors[0].clone();
    nan[3] = f32::NAN;
    assert_eq!(index.search(&nan, 10, &none), Err(DenseError::QueryNotFinite));
    assert_eq!(index.search(&vectors[0], 0, &none), Ok(PartSearch::Found(Vec::new())));
    let parts = index.part_count();
    assert_eq!(parts as usize, files.parts.len());
    assert_eq!(index.attach(parts, &files.parts[0]), Err(DenseError::UnknownPart { part: parts, parts }));
    assert_eq!(index.attach(1, &files.parts[0]), Err(DenseError::WrongPart { expected: 1, found: 0 }));
    let first_rows = stats.partitions as u32;
    assert_eq!(
        index.attach(first_rows, &files.parts[first_rows as usize]),
        Err(DenseError::PartOutOfOrder { part: first_rows, codes: 0 })
    );
    index.attach(0, &files.parts[0]).unwrap();
    index.attach(first_rows, &files.parts[first_rows as usize]).unwrap();
    assert!(index.is_attached(first_rows) && !index.is_attached(first_rows + 1));
    // A part of another build (another seed gives other centroids and another id).
    let (other, _) = build_plain(&one_each(&vectors), &PartitionedConfig { seed: 99, ..small_config() });
    assert_eq!(index.attach(1, &other.parts[1]), Err(DenseError::OtherBuild { part: 1 }));
    assert!(index.set_probe(0).is_err() && index.set_rescore(0).is_err());
}

#[test]
fn bad_build_input_is_a_typed_error() {
    let vectors = clustered_unit_vectors(10, 4, 2, 1.0, 13);
    let items = one_each(&vectors);
    let config = small_config();
    let err = |first_copy: &[u32], version_slots: &[u16]| {
        build(&PartitionedInput { items: &items, first_copy, version_slots }, &config).err().unwrap()
    };
    assert!(matches!(err(&[0; 3], &[]), DenseError::InvalidConfig(_)));
    assert!(matches!(err(&[], &[0; 3]), DenseError::InvalidConfig(_)));
    let mut later = (0..10).collect::<Vec<u32>>();
    later[2] = 5;
    assert!(matches!(err(&later, &[]), DenseError::InvalidConfig(_)));
    assert!(matches!(err(&[], &[u16::MAX; 10]), DenseError::InvalidConfig(_)));
    let none: Vec<Vec<Vec<f32>>> = Vec::new();
    assert_eq!(
        build(&PartitionedInput { items: &none, first_copy: &[], version_slots: &[] }, &config).err(),
        Some(DenseError::NoVectors)
    );
    let empty_first = vec![Vec::<Vec<f32>>::new()];
    assert!(build(&PartitionedInput { items: &empty_first, first_copy: &[], version_slots: &[] }, &config).is_err());
    let unnormalised = vec![vec![vec![2.0f32, 0.0, 0.0, 0.0]]];
    assert!(matches!(
        build(&PartitionedInput { items: &unnormalised, first_copy: &[], version_slots: &[] }, &config),
        Err(DenseError::NotNormalized { .. })
    ));
    let wide = PartitionedConfig { subspaces: 5, ..small_config() };
    assert!(matches!(
        build(&PartitionedInput { items: &items, first_copy: &[], version_slots: &[] }, &wide),
        Err(DenseError::InvalidConfig(_))
    ));
}

#[test]
fn a_single_vector_builds_a_single_partition() {
    let items = vec![vec![vec![0.6f32, 0.8]]];
    let (files, stats) = build_plain(&items, &PartitionedConfig { subspaces: 2, ..small_config() });
    assert_eq!((stats.partitions, stats.shards), (1, 1));
    let mut index = PartitionedIndex::open(&files.head).unwrap();
    let (hits, rounds, _) = answer(&mut index, &files, &[1.0, 0.0], 3, &PartFilter::default());
    assert_eq!(rounds, 2);
    assert_eq!(hits.len(), 1);
    assert!((hits[0].1 - 0.6).abs() < 0.01);
}

#[test]
fn coded_centroids_shrink_the_head_and_keep_recall() {
    let vectors = clustered_unit_vectors(3000, 32, 40, 1.0, 14);
    let items = one_each(&vectors);
    let queries = queries_near(&vectors, 40, 0.8, 15);
    let mut heads = Vec::new();
    for centroid_subspaces in [0, 16] {
        let config =
            PartitionedConfig { partition_size: 30, probe: 30, rescore: 40, centroid_subspaces, ..small_config() };
        let (files, stats) = build_plain(&items, &config);
        assert!(stats.partitions >= 80);
        let mut index = PartitionedIndex::open(&files.head).unwrap();
        let mut total = 0.0;
        for q in &queries {
            let (hits, rounds, _) = answer(&mut index, &files, q, 10, &PartFilter::default());
            assert!(rounds <= 2);
            total += recall(&hits, &exact(&items, q, 10, &Some));
        }
        let mean = total / queries.len() as f64;
        assert!(mean >= 0.9, "centroid_subspaces {centroid_subspaces}: recall@10 {mean}");
        heads.push(files.head.len());
    }
    // 36 bytes a centroid (int8) against 8 (16 slices of 4 bits), plus the codebook, and 20
    // bytes a partition either way (its codes' file).
    assert!(heads[1] * 10 < heads[0] * 7, "{heads:?}");
}

#[test]
fn the_defaults_fit_minilm_and_name_their_limits() {
    assert_eq!(PartitionedConfig::default().validate(384), Ok(()));
    // 96 slices need at least 96 dimensions: a narrower model must say so, not misbuild.
    assert!(matches!(PartitionedConfig::default().validate(64), Err(DenseError::InvalidConfig(_))));
}
