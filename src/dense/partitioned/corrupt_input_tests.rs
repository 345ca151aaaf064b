//! Property tests: truncated, mutated, random and wrong-version bytes thrown at the head and
//! at every kind of part. Nothing may panic; every refusal is a typed error; whatever is
//! accepted must be searchable.

use std::sync::OnceLock;

use proptest::prelude::*;

use super::format::{CodesPart, Head, PARTITIONED_FORMAT_VERSION};
use super::*;
use crate::dense::synthetic::clustered_unit_vectors;
use crate::dense::DenseError;

/// A small versioned index with windows: every section of the format is present.
fn fixture() -> &'static PartitionedFiles {
    &fixtures()[0]
}

/// The same with 4-bit coded centroids.
fn fixture_coded() -> &'static PartitionedFiles {
    &fixtures()[1]
}

fn fixtures() -> &'static [PartitionedFiles] {
    static FILES: OnceLock<Vec<PartitionedFiles>> = OnceLock::new();
    FILES.get_or_init(|| {
        let vectors = clustered_unit_vectors(240, 6, 6, 1.0, 1);
        let mut items: Vec<Vec<Vec<f32>>> = vectors.chunks(2).map(<[Vec<f32>]>::to_vec).collect();
        let n = items.len();
        // A second version: copies of the first 60 sections.
        items.extend((0..60).map(|_| Vec::new()));
        let first_copy: Vec<u32> = (0..n as u32).chain(0..60).collect();
        let slots: Vec<u16> = (0..n).map(|i| if i < 100 { 1 } else { 0 }).chain((0..60).map(|_| 2)).collect();
        let config = PartitionedConfig {
            partition_size: 30,
            subspaces: 3,
            shard_size: 5,
            probe: 3,
            rescore: 8,
            centroid_subspaces: 0,
            ..Default::default()
        };
        let input = PartitionedInput { items: &items, first_copy: &first_copy, version_slots: &slots };
        let coded = PartitionedConfig { centroid_subspaces: 4, ..config.clone() };
        vec![build(&input, &config).unwrap().0, build(&input, &coded).unwrap().0]
    })
}

fn query(seed: &[f32], dims: usize) -> Vec<f32> {
    (0..dims).map(|i| seed.get(i % seed.len().max(1)).copied().unwrap_or(0.5)).collect()
}

/// Searches every way the API allows with the fixture's parts; only panics fail.
fn search_all_ways(index: &mut PartitionedIndex, q: &[f32], k: usize) {
    let files = fixture();
    let odd = |i: u32| (i % 3 != 1).then_some(i);
    for filter in [
        PartFilter::default(),
        PartFilter { version_slots: &[2], pick: None },
        PartFilter { version_slots: &[0, 1], pick: Some(&odd) },
    ] {
        for _ in 0..6 {
            match index.search(q, k, &filter) {
                Ok(PartSearch::Found(hits)) => {
                    assert!(hits.len() <= k);
                    assert!(hits.iter().all(|(i, s)| (*i as usize) < index.item_count() && s.is_finite()));
                    break;
                }
                Ok(PartSearch::NeedParts(parts)) => {
                    for part in parts {
                        // The fixture's parts may not match a mutated head: any error is fine.
                        if let Some(bytes) = files.parts.get(part as usize) {
                            if index.attach(part, bytes).is_err() {
                                return;
                            }
                        } else {
                            return;
                        }
                    }
                }
                Err(_) => return,
            }
        }
    }
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: usize, mask: u8 },
    SetU32 { at: usize, value: u32 },
    Truncate { at: usize },
    Insert { at: usize, bytes: Vec<u8> },
    Remove { at: usize, len: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        4 => (at, 1u8..).prop_map(|(at, mask)| Mutation::Flip { at, mask }),
        2 => (at, prop_oneof![Just(0u32), Just(1), Just(u32::MAX), Just(65535), any::<u32>()])
            .prop_map(|(at, value)| Mutation::SetU32 { at, value }),
        1 => at.prop_map(|at| Mutation::Truncate { at }),
        1 => (at, prop::collection::vec(any::<u8>(), 1..8)).prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        1 => (at, 1usize..32).prop_map(|(at, len)| Mutation::Remove { at, len }),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let n = bytes.len().max(1);
    match mutation {
        Mutation::Flip { at, mask } => {
            if let Some(b) = bytes.get_mut(at % n) {
                *b ^= mask;
            }
        }
        Mutation::SetU32 { at, value } => {
            let at = at % n;
            for (i, v) in value.to_le_bytes().into_iter().enumerate() {
                if let Some(b) = bytes.get_mut(at + i) {
                    *b = v;
                }
            }
        }
        Mutation::Truncate { at } => bytes.truncate(at % n),
        Mutation::Insert { at, bytes: new } => {
            let at = at % (bytes.len() + 1);
            bytes.splice(at..at, new.iter().copied());
        }
        Mutation::Remove { at, len } => {
            let at = at % n;
            let end = (at + len).min(bytes.len());
            if at < end {
                bytes.drain(at..end);
            }
        }
    }
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(2000);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_bytes_never_open_or_attach(bytes in prop::collection::vec(any::<u8>(), 0..400), part in 0u32..80) {
        prop_assert!(PartitionedIndex::open(&bytes).is_err());
        let mut index = PartitionedIndex::open(&fixture().head).unwrap();
        prop_assert!(index.attach(part, &bytes).is_err());
    }

    #[test]
    fn mutated_heads_never_panic(coded: bool, mutations in prop::collection::vec(mutation(), 1..5), q in prop::collection::vec(-1.0f32..1.0, 1..8), k in 0usize..20) {
        let mut bytes = if coded { fixture_coded() } else { fixture() }.head.clone();
        mutations.iter().for_each(|m| apply(&mut bytes, m));
        if let Ok(mut index) = PartitionedIndex::open(&bytes) {
            let q = query(&q, index.dims());
            search_all_ways(&mut index, &q, k);
        }
    }

    #[test]
    fn mutated_parts_never_panic(
        which in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..5),
        q in prop::collection::vec(-1.0f32..1.0, 1..8),
        k in 0usize..20,
    ) {
        let files = fixture();
        let mut index = PartitionedIndex::open(&files.head).unwrap();
        let part = which.index(files.parts.len()) as u32;
        // A shard's codes first, so the mutated shard is checked as a shard.
        if let Ok(PartKind::Rows { partition, .. }) = index.part_kind(part) {
            index.attach(partition, &files.parts[partition as usize]).unwrap();
        }
        let mut bytes = files.parts[part as usize].clone();
        mutations.iter().for_each(|m| apply(&mut bytes, m));
        let _ = index.attach(part, &bytes);
        let q = query(&q, index.dims());
        search_all_ways(&mut index, &q, k);
    }
}

#[test]
fn every_truncation_of_every_file_is_refused() {
    let files = fixture();
    for head in [&files.head, &fixture_coded().head] {
        for len in 0..head.len() {
            assert!(PartitionedIndex::open(&head[..len]).is_err(), "head cut at {len}");
        }
        let mut longer = head.clone();
        longer.push(0);
        assert_eq!(PartitionedIndex::open(&longer).err(), Some(DenseError::TrailingBytes { extra: 1 }));
    }
    let mut index = PartitionedIndex::open(&files.head).unwrap();
    for (part, bytes) in files.parts.iter().enumerate() {
        let part = part as u32;
        if let Ok(PartKind::Rows { partition, .. }) = index.part_kind(part) {
            index.attach(partition, &files.parts[partition as usize]).unwrap();
        }
        for len in 0..bytes.len() {
            assert!(index.attach(part, &bytes[..len]).is_err(), "part {part} cut at {len}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(index.attach(part, &longer), Err(DenseError::TrailingBytes { extra: 1 }));
        index.attach(part, bytes).unwrap();
    }
}

#[test]
fn wrong_magic_version_and_flags_are_named() {
    let files = fixture();
    let mut index = PartitionedIndex::open(&files.head).unwrap();
    let (codes, rows) = (files.parts[0].clone(), files.parts[index.partition_count()].clone());
    let newer = (PARTITIONED_FORMAT_VERSION + 1).to_le_bytes();
    for (name, bytes) in [("head", files.head.clone()), ("codes", codes.clone()), ("rows", rows.clone())] {
        let check = |bytes: &[u8], index: &mut PartitionedIndex| match name {
            "head" => PartitionedIndex::open(bytes).map(|_| ()),
            "codes" => index.attach(0, bytes),
            _ => index.attach(index.partition_count() as u32, bytes),
        };
        let mut b = bytes.clone();
        b[4..6].copy_from_slice(&newer);
        assert_eq!(
            check(&b, &mut index),
            Err(DenseError::UnsupportedVersion {
                found: PARTITIONED_FORMAT_VERSION + 1,
                supported: PARTITIONED_FORMAT_VERSION
            }),
            "{name}"
        );
        let mut b = bytes.clone();
        b[0] = b'X';
        assert_eq!(check(&b, &mut index), Err(DenseError::BadMagic), "{name}");
        let mut b = bytes.clone();
        b[6] = 1;
        assert_eq!(check(&b, &mut index), Err(DenseError::UnknownFlags { flags: 1 }), "{name}");
        index.attach(0, &codes).unwrap();
    }
    // A codes part offered as a shard, and the single-file format offered as a head.
    let shard = index.partition_count() as u32;
    assert_eq!(index.attach(shard, &codes), Err(DenseError::BadMagic));
    let single =
        crate::dense::DenseIndex::from_embeddings(&clustered_unit_vectors(5, 6, 1, 1.0, 2), &Default::default())
            .unwrap()
            .to_bytes();
    assert_eq!(PartitionedIndex::open(&single).err(), Some(DenseError::BadMagic));
}

#[test]
fn corrupt_fields_inside_valid_looking_files_are_typed_errors() {
    let files = fixture();
    let head = &files.head;
    let err = |bytes: &[u8]| PartitionedIndex::open(bytes).err().unwrap();
    let set = |at: usize, value: &[u8]| {
        let mut b = head.clone();
        b[at..at + value.len()].copy_from_slice(value);
        b
    };
    // dims 0, items 0, rows 0, partitions 0 or above rows, subspaces 0, probe 0.
    for (at, value) in [(16, 0u32), (20, 0), (24, 0), (28, 0), (28, 1_000_000)] {
        assert!(
            matches!(err(&set(at, &value.to_le_bytes())), DenseError::InvalidHeader(_) | DenseError::Truncated { .. }),
            "{at}"
        );
    }
    for at in [32, 34, 36, 38] {
        assert!(matches!(err(&set(at, &[0, 0])), DenseError::InvalidHeader(_)), "{at}");
    }
    assert!(matches!(err(&set(40, &[0xFF, 0xFF])), DenseError::InvalidHeader(_)), "centroid slices > dims");
    assert!(matches!(err(&set(42, &[1, 0])), DenseError::InvalidHeader(_)), "reserved");
    // A partition count that the bytes cannot hold fails before allocating.
    assert!(matches!(err(&set(24, &u32::MAX.to_le_bytes())), DenseError::InvalidHeader(_)));
    let mut index = PartitionedIndex::open(head).unwrap();
    // A codes part naming an item the head does not have: the first two rows' items (one
    // byte each) become one 2-byte difference of +8191, beyond the 180 items.
    let shard_count = (0..)
        .take_while(|&n| {
            index.part_kind(index.partition_count() as u32 + n) == Ok(PartKind::Rows { partition: 0, shard: n })
        })
        .count();
    // After the shards' row counts (2 bytes each) and files (20 bytes each).
    let items_at = 24 + 22 * shard_count;
    let mut codes = files.parts[0].clone();
    assert!(codes[items_at] < 0x80 && codes[items_at + 1] < 0x80, "one-byte differences");
    codes[items_at..items_at + 2].copy_from_slice(&[0xFE, 0x7F]);
    let item_error = index.attach(0, &codes);
    assert!(matches!(item_error, Err(DenseError::InvalidPart { part: 0, .. })), "{item_error:?}");
    // A shard size of 0.
    let mut codes = files.parts[0].clone();
    codes[24..26].copy_from_slice(&0u16.to_le_bytes());
    assert!(matches!(index.attach(0, &codes), Err(DenseError::InvalidPart { part: 0, .. })));
    // A row scale out of range.
    index.attach(0, &files.parts[0]).unwrap();
    let shard = index.partition_count() as u32;
    let mut rows = files.parts[shard as usize].clone();
    rows[24..28].copy_from_slice(&f32::NAN.to_le_bytes());
    assert!(matches!(index.attach(shard, &rows), Err(DenseError::InvalidPart { .. })));
}

#[test]
fn the_head_and_the_codes_list_every_part_as_written() {
    let files = fixture();
    let mut index = PartitionedIndex::open(&files.head).unwrap();
    assert!(index.lists_part_files());
    let first_shard = index.partition_count() as u32;
    assert_eq!(index.part_file(first_shard), Err(DenseError::PartOutOfOrder { part: first_shard, codes: 0 }));
    assert!(matches!(index.part_file(index.part_count()), Err(DenseError::UnknownPart { .. })));
    for (part, bytes) in files.parts.iter().enumerate() {
        let part = part as u32;
        if let Ok(PartKind::Rows { partition, .. }) = index.part_kind(part) {
            index.attach(partition, &files.parts[partition as usize]).unwrap();
        }
        assert_eq!(index.part_file(part), Ok(Some(PartFile::of(bytes))), "part {part}");
    }
    // A listing smaller than a part's fixed fields is refused.
    let mut head = files.head.clone();
    let at = head.len() - 20;
    head[at..at + 4].copy_from_slice(&3u32.to_le_bytes());
    assert!(matches!(PartitionedIndex::open(&head).err(), Some(DenseError::InvalidHeader(_))));
}

/// The fixture as format 1 wrote it: no part listings (a bundle's catalog pages listed them).
fn format_1(files: &PartitionedFiles) -> PartitionedFiles {
    let head = Head::read(&files.head).unwrap();
    let partitions = head.partitions.len();
    let old = Head { version: 1, files: Vec::new(), ..head.clone() };
    let mut parts = Vec::new();
    for (p, bytes) in files.parts.iter().enumerate() {
        if p < partitions {
            let codes = CodesPart::read(bytes, &head, p as u32).unwrap();
            let mut out = Vec::new();
            codes.write(1, head.build_id, p as u32, &mut out);
            parts.push(out);
        } else {
            let mut out = bytes.clone();
            out[4..6].copy_from_slice(&1u16.to_le_bytes());
            parts.push(out);
        }
    }
    PartitionedFiles { head: old.write(), parts }
}

#[test]
fn format_1_is_still_read_and_searched_alike() {
    let (new, old) = (fixture(), format_1(fixture()));
    assert!(old.head.len() < new.head.len() && old.parts[0].len() < new.parts[0].len());
    let mut a = PartitionedIndex::open(&new.head).unwrap();
    let mut b = PartitionedIndex::open(&old.head).unwrap();
    assert!(!b.lists_part_files());
    assert_eq!(b.part_file(0), Ok(None));
    let q = query(&[0.3, -0.2, 0.5, 0.1], a.dims());
    let run = |index: &mut PartitionedIndex, files: &PartitionedFiles| loop {
        match index.search(&q, 5, &PartFilter::default()).unwrap() {
            PartSearch::Found(hits) => break hits,
            PartSearch::NeedParts(parts) => {
                parts.into_iter().for_each(|p| index.attach(p, &files.parts[p as usize]).unwrap());
            }
        }
    };
    assert_eq!(run(&mut a, new), run(&mut b, &old));
    // A part of the other version is another build's.
    let mut c = PartitionedIndex::open(&new.head).unwrap();
    assert_eq!(c.attach(0, &old.parts[0]), Err(DenseError::OtherBuild { part: 0 }));
    let mut d = PartitionedIndex::open(&old.head).unwrap();
    assert_eq!(d.attach(0, &new.parts[0]), Err(DenseError::OtherBuild { part: 0 }));
    // Every truncation of a format-1 file is refused too.
    for len in 0..old.head.len() {
        assert!(PartitionedIndex::open(&old.head[..len]).is_err(), "head cut at {len}");
    }
}
