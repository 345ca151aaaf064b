//! The index on the project's sample textbook (`www/example/docs`), cut into section-sized
//! chunks roughly as the chunker does: size figures and a few questions a reader would ask.

use std::path::Path;

use super::{Document, IndexOptions, LexicalIndex};

struct Chunk {
    title: String,
    body: String,
}

fn markdown_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md" || e == "mdx") {
            out.push(path);
        }
    }
}

/// Sections split at headings, then at paragraphs past 2000 characters; title = page › heading.
fn chunks() -> Vec<Chunk> {
    let mut files = Vec::new();
    markdown_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("www/example/docs"), &mut files);
    let mut chunks = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let text = match text.strip_prefix("---\n").and_then(|rest| rest.split_once("\n---\n")) {
            Some((_, body)) => body.to_owned(),
            None => text,
        };
        let mut page = String::new();
        let mut heading = String::new();
        let mut body = String::new();
        let mut flush = |heading: &str, page: &str, body: &mut String| {
            for part in split_long(body) {
                if part.trim().len() >= 20 {
                    chunks.push(Chunk { title: format!("{page} › {heading}"), body: part });
                }
            }
            body.clear();
        };
        let mut in_code = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
            }
            if let Some(h) = line.strip_prefix('#').filter(|_| !in_code) {
                flush(&heading, &page, &mut body);
                heading = h.trim_start_matches('#').trim().to_owned();
                if page.is_empty() {
                    page = heading.clone();
                }
            } else {
                body.push_str(line);
                body.push('\n');
            }
        }
        flush(&heading, &page, &mut body);
    }
    chunks
}

fn split_long(text: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    for paragraph in text.split("\n\n") {
        let current = parts.last_mut().unwrap();
        if !current.is_empty() && current.len() + paragraph.len() > 2000 {
            parts.push(String::new());
        }
        let current = parts.last_mut().unwrap();
        current.push_str(paragraph);
        current.push_str("\n\n");
    }
    parts
}

#[test]
fn sample_textbook_size_and_answers() {
    let chunks = chunks();
    assert!(chunks.len() > 50, "only {} chunks", chunks.len());
    let docs: Vec<Document> = chunks.iter().map(|c| Document::new(&c.title, &c.body)).collect();
    let index = LexicalIndex::build(&docs, IndexOptions::default()).unwrap();
    let bytes = index.to_bytes();
    let text_bytes: usize = chunks.iter().map(|c| c.title.len() + c.body.len()).sum();
    eprintln!(
        "sample textbook: {} chunks, {} KB text, {} terms, {} postings → {} bytes \
         ({:.0} B/chunk, {:.2} B/posting incl. vocabulary, {:.1}% of the text)",
        chunks.len(),
        text_bytes / 1024,
        index.term_count(),
        index.posting_count(),
        bytes.len(),
        bytes.len() as f64 / chunks.len() as f64,
        bytes.len() as f64 / index.posting_count() as f64,
        100.0 * bytes.len() as f64 / text_bytes as f64
    );
    let loaded = LexicalIndex::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, index);

    let top = |query: &str| {
        let hits = loaded.search(query, 3, None);
        for &(doc, score) in &loaded.search(query, 6, None) {
            let c = &chunks[doc as usize];
            eprintln!("  {query} → {score:.3} {} [{}…]", c.title, c.body.chars().take(60).collect::<String>());
        }
        assert!(!hits.is_empty(), "{query}: no hits");
        hits.iter().map(|&(doc, _)| &chunks[doc as usize]).collect::<Vec<_>>()
    };
    let echo = top("How do I echo messages on /cmd_vel?");
    assert!(echo.iter().any(|c| c.body.contains("ros2 topic echo")), "{}", echo[0].body);
    let qos = top("what does best effort reliability mean");
    assert!(qos.iter().any(|c| c.body.contains("BEST_EFFORT")), "{}", qos[0].title);
    let standard = top("ISO/TS 15066");
    assert!(standard.iter().any(|c| c.body.contains("15066")), "{}", standard[0].title);
}
