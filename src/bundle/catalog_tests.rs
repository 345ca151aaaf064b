//! The generic catalog on its two kinds of shard: how pages are written (and what their
//! manifest entries look like on the wire), found by key and by shard, checked and read.

use super::catalog::{Catalog, FetchedPages, ShardAt, CATALOG_PAGE_SHARDS};
use super::shard_entries::{DensePartEntry, DensePartRange};
use super::{ChunkShardEntry, FileEntry, FileKind, TermShardEntry};

/// Stores nothing: describes each file as the writer would, and keeps its bytes by name.
fn writer(files: &mut Vec<(String, Vec<u8>)>) -> impl FnMut(FileKind, Vec<u8>) -> FileEntry + '_ {
    |kind, bytes| {
        let entry = FileEntry::describe(kind.name_for(&bytes), &bytes);
        files.push((entry.name.clone(), bytes));
        entry
    }
}

fn term_shards(n: usize) -> Vec<TermShardEntry> {
    (0..n)
        .map(|i| TermShardEntry {
            file: FileEntry::describe(FileKind::TermShard.name_for(&[i as u8]), &[i as u8]),
            first_term: format!("t{i:03}"),
        })
        .collect()
}

fn chunk_shards(n: usize) -> Vec<ChunkShardEntry> {
    (0..n)
        .map(|i| ChunkShardEntry {
            meta: FileEntry::describe(FileKind::MetaShard.name_for(&[i as u8]), &[i as u8]),
            text: FileEntry::describe(FileKind::TextShard.name_for(&[i as u8]), &[i as u8]),
            first_chunk: 3 * i,
            count: 3,
        })
        .collect()
}

fn bytes_of<'a>(files: &'a [(String, Vec<u8>)], entry: &FileEntry) -> &'a [u8] {
    files.iter().find(|(name, _)| *name == entry.name).map(|(_, bytes)| bytes.as_slice()).unwrap_or_default()
}

#[test]
fn pages_list_32_shards_each_and_keep_their_wire_form() {
    let mut files = Vec::new();
    let catalog = Catalog::write(&term_shards(70), writer(&mut files)).unwrap();
    assert_eq!(catalog.len(), 3);
    assert_eq!(catalog.shard_count(), 70);
    let firsts: Vec<(usize, usize, &str)> =
        catalog.pages().iter().map(|p| (p.first_shard, p.shards, p.range.first_term.as_str())).collect();
    assert_eq!(firsts, [(0, CATALOG_PAGE_SHARDS, "t000"), (32, 32, "t032"), (64, 6, "t064")]);
    // The manifest's entry of a page: its file's fields, then its place, then its keys.
    let json = serde_json::to_string(&catalog.pages()[2]).unwrap();
    let file = &catalog.pages()[2].file;
    assert_eq!(
        json,
        format!(
            r#"{{"name":"{}","bytes":{},"sha256":"{}","first_shard":64,"shards":6,"first_term":"t064"}}"#,
            file.name, file.bytes, file.sha256
        )
    );
    assert!(file.name.starts_with("term-catalog.") && file.name.ends_with(".json"));
    // A page's bytes are the list of its shards, as before catalogs were generic.
    assert_eq!(bytes_of(&files, file), serde_json::to_vec(&term_shards(70)[64..]).unwrap());
    let back: Catalog<TermShardEntry> = serde_json::from_str(&serde_json::to_string(&catalog).unwrap()).unwrap();
    assert_eq!(back, catalog);

    let mut files = Vec::new();
    let chunks = Catalog::write(&chunk_shards(40), writer(&mut files)).unwrap();
    let json = serde_json::to_string(&chunks.pages()[1]).unwrap();
    assert!(json.ends_with(r#","first_shard":32,"shards":8,"first_chunk":96,"count":24}"#), "{json}");
    assert_eq!(chunks.chunk_count(), 120);
}

/// Every entry written with a flattened file is read back as it was (each kind has a reader of
/// its own, `catalog::file_fields`), and one without a field it needs is refused.
#[test]
fn flattened_entries_read_back_as_written() {
    fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T) {
        let json = serde_json::to_string(value).unwrap();
        assert_eq!(serde_json::from_str::<T>(&json).ok().as_ref(), Some(value), "{json}");
        let mut object = serde_json::to_value(value).unwrap();
        object.as_object_mut().unwrap().remove("sha256");
        assert!(serde_json::from_value::<T>(object).is_err(), "read without its sha256: {json}");
    }
    let mut files = Vec::new();
    let terms = Catalog::write(&term_shards(40), writer(&mut files)).unwrap();
    round_trip(&terms.pages()[1]);
    round_trip(&term_shards(1)[0]);
    let chunks = Catalog::write(&chunk_shards(40), writer(&mut files)).unwrap();
    round_trip(&chunks.pages()[1]);
    let part = DensePartEntry { file: FileEntry::describe(FileKind::DensePart.name_for(b"p"), b"p"), part: 7 };
    round_trip(&part);
    let parts = Catalog::write(&[part], writer(&mut files)).unwrap();
    assert_eq!(parts.pages()[0].range, DensePartRange { first_part: 7, count: 1 });
    round_trip(&parts.pages()[0]);
}

#[test]
fn keys_and_shards_find_their_page() {
    let terms = Catalog::write(&term_shards(70), writer(&mut Vec::new())).unwrap();
    // Terms before the first shard's fall in the first page; after the last, in the last.
    assert_eq!(terms.page_of("a"), Some(0));
    assert_eq!(terms.page_of("t031z"), Some(0));
    assert_eq!(terms.page_of("t032"), Some(1));
    assert_eq!(terms.page_of("zzz"), Some(2));
    assert_eq!(terms.page_of_shard(0), Some((0, 0)));
    assert_eq!(terms.page_of_shard(33), Some((1, 1)));
    assert_eq!(terms.page_of_shard(69), Some((2, 5)));
    assert_eq!(terms.page_of_shard(70), None);

    let chunks = Catalog::write(&chunk_shards(40), writer(&mut Vec::new())).unwrap();
    assert_eq!(chunks.page_of(&0), Some(0));
    assert_eq!(chunks.page_of(&95), Some(0));
    assert_eq!(chunks.page_of(&96), Some(1));
    assert_eq!(chunks.page_of(&119), Some(1));
    // Chunks stop where the last page's range ends.
    assert_eq!(chunks.page_of(&120), None);
}

#[test]
fn pages_out_of_order_are_refused() {
    let mut catalog = Catalog::write(&term_shards(70), writer(&mut Vec::new())).unwrap();
    assert!(catalog.check().is_ok());
    let mut json = serde_json::to_value(&catalog).unwrap();
    json[1]["first_term"] = "t000".into();
    catalog = serde_json::from_value(json).unwrap();
    let err = catalog.check().unwrap_err().to_string();
    assert!(err.contains("term catalog page") && err.contains("does not follow"), "{err}");

    let chunks = Catalog::write(&chunk_shards(40), writer(&mut Vec::new())).unwrap();
    let mut json = serde_json::to_value(&chunks).unwrap();
    json[1]["first_shard"] = 31.into();
    let chunks: Catalog<ChunkShardEntry> = serde_json::from_value(json).unwrap();
    assert!(chunks.check().is_err());
}

#[test]
fn a_page_is_read_only_when_it_matches_its_entry() {
    let mut files = Vec::new();
    let catalog = Catalog::write(&term_shards(70), writer(&mut files)).unwrap();
    let page = &catalog.pages()[1];
    let bytes = bytes_of(&files, &page.file).to_vec();
    assert_eq!(catalog.read_page(1, &bytes).unwrap(), term_shards(70)[32..64]);
    // Another page's bytes fail the checksum; no page 3.
    assert!(catalog.read_page(0, &bytes).is_err());
    assert!(catalog.read_page(3, &bytes).unwrap_err().to_string().contains("no term catalog page 3"));
}

#[test]
fn fetched_pages_name_the_page_then_the_shard() {
    let mut files = Vec::new();
    let catalog = Catalog::write(&term_shards(70), writer(&mut files)).unwrap();
    let mut fetched = FetchedPages::new(&catalog);
    assert_eq!(fetched.missing().collect::<Vec<_>>(), [0, 1, 2]);
    assert!(matches!(fetched.locate(&catalog, "t040"), Some(ShardAt::PageMissing(1))));
    assert!(matches!(fetched.by_id(&catalog, 40), Some(ShardAt::PageMissing(1))));
    assert!(fetched.by_id(&catalog, 70).is_none());

    fetched.attach(&catalog, 1, bytes_of(&files, &catalog.pages()[1].file)).unwrap();
    assert_eq!(fetched.missing().collect::<Vec<_>>(), [0, 2]);
    match fetched.locate(&catalog, "t040x") {
        Some(ShardAt::Found { id, shard }) => assert_eq!((id, shard.first_term.as_str()), (40, "t040")),
        _ => panic!("t040x is in shard 40"),
    }
    // A shard's range ends at the next shard's first term, or at the next page's.
    assert_eq!(fetched.end_of(&catalog, 40), Some("t041"));
    assert_eq!(fetched.end_of(&catalog, 63), Some("t064"));
    assert_eq!(fetched.end_of(&catalog, 10), None, "its page is not here");
    // A term before the first shard's falls in the first shard (where it is found unknown).
    fetched.attach(&catalog, 0, bytes_of(&files, &catalog.pages()[0].file)).unwrap();
    assert!(matches!(fetched.locate(&catalog, "a"), Some(ShardAt::Found { id: 0, .. })));
    // Attaching again keeps the page; bad bytes for a missing page are refused.
    fetched.attach(&catalog, 1, b"[]").unwrap();
    assert!(fetched.attach(&catalog, 2, b"[]").is_err());
}
