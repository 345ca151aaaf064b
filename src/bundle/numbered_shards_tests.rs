//! Chunk shards by number: each reads back as written, and a damaged, truncated, renumbered
//! or foreign file is refused with a coded error (never a panic, never its text).

use super::*;

fn meta(i: usize) -> ChunkMeta {
    ChunkMeta {
        chunk_id: format!("default/doc-{i}#s"),
        url: format!("/docs/doc-{i}#s"),
        heading_path: vec![format!("Doc {i}"), "S".into()],
        chapter_title: format!("Doc {i}"),
        section_title: "S".into(),
        module: "m".into(),
        chapter_id: format!("doc-{i}"),
        instance: "default".into(),
        version: None,
        word_count: 3,
        position: i,
        hash: format!("{i:016x}"),
        parts: Vec::new(),
        name: None,
    }
}

fn written(chunks: usize, per: usize) -> (Vec<ChunkMeta>, Vec<String>, WrittenShards) {
    let metas: Vec<ChunkMeta> = (0..chunks).map(meta).collect();
    let texts: Vec<String> = (0..chunks).map(|i| format!("the text of chunk {i}")).collect();
    let listed: Vec<(&ChunkMeta, &str)> = metas.iter().zip(&texts).map(|(m, t)| (m, t.as_str())).collect();
    let shards = NumberedShards::write(&listed, per).unwrap();
    (metas, texts, shards)
}

#[test]
fn every_shard_reads_back_as_written() {
    for (chunks, per) in [(10, 3), (1, 4), (8, 2), (17, 1), (5, 5)] {
        let (metas, texts, shards) = written(chunks, per);
        let listing = &shards.listing;
        assert_eq!(listing.shards, chunks.div_ceil(per));
        assert!(listing.holds(chunks) && !listing.holds(chunks + per));
        let mut read_metas = Vec::new();
        let mut read_texts = Vec::new();
        for (n, (name, bytes)) in shards.files.iter().enumerate() {
            assert_eq!(name, &listing.name(n));
            assert_eq!(FileKind::of(name), Some(FileKind::ChunkShard));
            let (m, t) = listing.read(n, bytes, chunks).unwrap();
            read_metas.extend(m);
            read_texts.extend(t);
        }
        assert_eq!((read_metas, read_texts), (metas, texts), "{chunks} chunks, {per} a shard");
        for index in 0..chunks {
            assert_eq!(listing.locate(index), Some((index / per, index % per)));
        }
        assert_eq!(listing.locate(listing.shards * per), None);
        assert!((0..listing.shards).all(|n| listing.names(&listing.name(n))));
        let past = listing.name(0).replacen(".0.", &format!(".{}.", listing.shards), 1);
        assert!(!listing.names(&past) && !listing.names("chunks.x.bin") && !listing.names("meta.0123456789ab.json"));
    }
}

#[test]
fn a_changed_byte_anywhere_is_refused() {
    let (_, _, shards) = written(10, 3);
    let (name, bytes) = &shards.files[2];
    assert!(bytes.starts_with(b"[\"") && bytes.ends_with(b"}]"), "one JSON array");
    serde_json::from_slice::<serde_json::Value>(bytes).expect("a JSON file, as hosts compress");
    for at in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[at] ^= 0x20;
        match shards.listing.read(2, &bad, 10) {
            // A proof digit or a content byte: the root is not reached.
            Err(BundleError::ChecksumMismatch { name: refused, .. }) => assert_eq!(&refused, name),
            // The frame around them.
            Err(BundleError::Corrupt { name: refused, .. }) => assert_eq!(&refused, name),
            other => panic!("byte {at}: {other:?}"),
        }
    }
    // The content's bytes, changed, are a checksum mismatch.
    let mut bad = bytes.clone();
    let last_text = bytes.len() - 4;
    bad[last_text] ^= 0x01;
    assert!(matches!(shards.listing.read(2, &bad, 10), Err(BundleError::ChecksumMismatch { .. })));
}

#[test]
fn a_truncated_or_padded_file_is_refused() {
    let (_, _, shards) = written(10, 3);
    let (_, bytes) = &shards.files[1];
    for len in 0..bytes.len() {
        let result = shards.listing.read(1, &bytes[..len], 10);
        assert!(
            matches!(result, Err(BundleError::ChecksumMismatch { .. } | BundleError::Corrupt { .. })),
            "{len} bytes: {result:?}"
        );
    }
    let mut padded = bytes.clone();
    padded.push(b' ');
    assert!(matches!(shards.listing.read(1, &padded, 10), Err(BundleError::Corrupt { .. })));
    let mut inside = bytes.clone();
    inside.insert(bytes.len() - 1, b' ');
    assert!(matches!(shards.listing.read(1, &inside, 10), Err(BundleError::ChecksumMismatch { .. })));
}

#[test]
fn a_shard_under_another_number_or_of_another_build_is_refused() {
    let (_, _, shards) = written(10, 3);
    let (_, one) = &shards.files[1];
    for n in [0, 2, 3] {
        assert!(matches!(shards.listing.read(n, one, 10), Err(BundleError::ChecksumMismatch { .. })), "as shard {n}");
    }
    assert!(matches!(shards.listing.read(4, one, 10), Err(BundleError::Inconsistent(_))));
    // Another build: one chunk's text changed, so every root and name differ.
    let metas: Vec<ChunkMeta> = (0..10).map(meta).collect();
    let mut texts: Vec<String> = (0..10).map(|i| format!("the text of chunk {i}")).collect();
    texts[9] = "changed".into();
    let listed: Vec<(&ChunkMeta, &str)> = metas.iter().zip(&texts).map(|(m, t)| (m, t.as_str())).collect();
    let other = NumberedShards::write(&listed, 3).unwrap();
    assert_ne!(other.listing.name(1), shards.listing.name(1));
    assert!(matches!(other.listing.read(1, one, 10), Err(BundleError::ChecksumMismatch { .. })));
}

#[test]
fn a_shard_holding_other_than_its_count_is_corrupt() {
    let (_, _, shards) = written(10, 3);
    let (_, last) = &shards.files[3];
    // The proof holds; the manifest's count does not match what the shard has.
    assert!(matches!(shards.listing.read(3, last, 11), Err(BundleError::Corrupt { .. })));
    let (_, first) = &shards.files[0];
    assert!(shards.listing.read(0, first, 10).is_ok());
}
