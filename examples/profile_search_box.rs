//! Where a search box's keystroke spends its time on a bundle in parts, natively: the
//! queries typed a character at a time, as `scripts/bench/search-box/measure.mjs` types them
//! in the browser, each keystroke's steps timed apart — naming the files, reading them from
//! disk, attaching (verify + parse + merge) term shards, the search itself, attaching the
//! results' chunk shards — with the bytes each keystroke had to fetch. Run by hand:
//!
//!   cargo run --release --example profile_search_box -- BUNDLE_DIR QUERY...

use std::path::{Path, PathBuf};
use std::time::Instant;

use lectern::search::{NeededFile, Part, SearchMode, SearchOptions, ShardedSearch};

struct Times {
    name: f64,
    read: f64,
    attach_terms: f64,
    search: f64,
    attach_chunks: f64,
    term_bytes: u64,
    chunk_bytes: u64,
}

fn read(dir: &Path, file: &NeededFile) -> Vec<u8> {
    std::fs::read(dir.join(&file.name)).unwrap_or_else(|e| panic!("{}: {e}", file.name))
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

fn keystroke(dir: &Path, sharded: &mut ShardedSearch, query: &str, options: &SearchOptions) -> Times {
    let mut t = Times {
        name: 0.0,
        read: 0.0,
        attach_terms: 0.0,
        search: 0.0,
        attach_chunks: 0.0,
        term_bytes: 0,
        chunk_bytes: 0,
    };
    loop {
        let start = Instant::now();
        let files = sharded.files_for_query(query, true);
        t.name += ms(start);
        if files.is_empty() {
            break;
        }
        for file in files {
            let start = Instant::now();
            let bytes = read(dir, &file);
            t.read += ms(start);
            t.term_bytes += bytes.len() as u64;
            let start = Instant::now();
            sharded.attach(file.part, file.id, &bytes).expect("attach");
            t.attach_terms += ms(start);
        }
    }
    let start = Instant::now();
    let found = sharded.search(query, None, options).expect("search");
    t.search += ms(start);
    let indices: Vec<u32> = found.hits.iter().map(|h| h.index).collect();
    loop {
        let files = sharded.files_for_chunks(&indices);
        if files.is_empty() {
            break;
        }
        for file in files {
            let bytes = read(dir, &file);
            if file.part != Part::ChunkPage {
                t.chunk_bytes += bytes.len() as u64;
            }
            let start = Instant::now();
            sharded.attach(file.part, file.id, &bytes).expect("attach");
            t.attach_chunks += ms(start);
        }
    }
    t
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("usage: profile_search_box BUNDLE_DIR QUERY..."));
    let queries: Vec<String> = args.collect();
    let manifest = std::fs::read(dir.join("manifest.json")).expect("manifest.json");
    let mut sharded = ShardedSearch::new(&manifest).expect("manifest");
    let table = sharded.manifest().files.chunk_table.clone();
    sharded.attach_chunk_table(&std::fs::read(dir.join(&table.name)).expect("chunk table")).expect("chunk table");
    for file in sharded.files_at_open() {
        let bytes = read(&dir, &file);
        sharded.attach(file.part, file.id, &bytes).expect("attach");
    }
    let options = SearchOptions { k: 8, mode: SearchMode::Lexical, expand_words: true, ..SearchOptions::default() };
    println!("keystroke\tname_ms\tread_ms\tattach_terms_ms\tsearch_ms\tattach_chunks_ms\tterm_KB\tchunk_KB");
    let mut totals = Vec::new();
    for query in &queries {
        for end in query.char_indices().map(|(i, c)| i + c.len_utf8()) {
            let typed = &query[..end];
            if typed.ends_with(' ') {
                continue;
            }
            let t = keystroke(&dir, &mut sharded, typed, &options);
            println!(
                "{typed:?}\t{:.2}\t{:.2}\t{:.2}\t{:.2}\t{:.2}\t{:.1}\t{:.1}",
                t.name,
                t.read,
                t.attach_terms,
                t.search,
                t.attach_chunks,
                t.term_bytes as f64 / 1000.0,
                t.chunk_bytes as f64 / 1000.0
            );
            totals.push(t.name + t.attach_terms + t.search + t.attach_chunks);
        }
    }
    totals.sort_by(f64::total_cmp);
    let at = |q: f64| totals[((totals.len() as f64 - 1.0) * q).round() as usize];
    println!("CPU per keystroke (no reading): median {:.2} ms, p95 {:.2} ms, max {:.2} ms", at(0.5), at(0.95), at(1.0));
}
