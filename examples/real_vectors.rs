//! Embeds the texts of a benchmark once with the project's own embedder (the compact model the
//! bundle is built with) and caches the vectors on disk, so the dense benchmarks run on real
//! MiniLM vectors without re-embedding. Resumable: a killed run continues where it stopped.
//!
//! `cargo run --release --example real_vectors -- <texts.jsonl> <out-prefix> [--threads N]`
//!
//! Each input line is `{"heading_path": "Page › Section" | null, "text": "…", "query": false}`.
//! A passage is embedded as the bundle embeds a section (`Embedder::windows`: the heading path,
//! a blank line, the text; overlapping windows when it is longer than the model's 256 word
//! pieces); a query (`"query": true`) as the browser embeds a question (`Embedder::embed`).
//!
//! Writes `<out-prefix>.f32` (raw little-endian f32, 384 per vector, in input order) and
//! `<out-prefix>.rows.jsonl` (one `[input line, window, windows of that line]` per vector),
//! and `<out-prefix>.meta.json` (model fingerprint and input hash: a change starts over).

#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
type BoxResult<T> = Result<T, Box<dyn std::error::Error>>;

/// Input lines embedded between two writes to the cache (what a killed run loses at most).
#[cfg(not(target_arch = "wasm32"))]
const BLOCK: usize = 256;

#[cfg(not(target_arch = "wasm32"))]
#[derive(serde::Deserialize)]
struct Line {
    heading_path: Option<String>,
    text: String,
    #[serde(default)]
    query: bool,
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> BoxResult<()> {
    use lectern::embed::{ModelFiles, ModelVariant, DIMS};
    use std::io::Write;
    use std::time::Instant;

    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), Some(prefix)) = (args.first(), args.get(1)) else {
        return Err("usage: real_vectors <texts.jsonl> <out-prefix> [--threads N]".into());
    };
    let threads = match args.iter().position(|a| a == "--threads") {
        Some(at) => args.get(at + 1).and_then(|n| n.parse().ok()).ok_or("--threads N")?,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let input_bytes = std::fs::read(input)?;
    let lines: Vec<Line> = input_bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .enumerate()
        .map(|(n, l)| serde_json::from_slice(l).map_err(|e| format!("{input}:{}: {e}", n + 1)))
        .collect::<Result<_, _>>()?;

    let embedder = ModelFiles::in_dir(&ModelFiles::default_dir(), ModelVariant::Compact).load()?;
    let meta = serde_json::json!({
        "model": embedder.fingerprint().as_str(),
        "input": &lectern::bundle::sha256_hex(&input_bytes)[..16],
        "lines": lines.len(),
    });
    let (vectors_path, rows_path, meta_path) =
        (format!("{prefix}.f32"), format!("{prefix}.rows.jsonl"), format!("{prefix}.meta.json"));
    let same_input = std::fs::read(&meta_path).ok().and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        == Some(meta.clone());
    if !same_input {
        std::fs::write(&vectors_path, [])?;
        std::fs::write(&rows_path, [])?;
        std::fs::write(&meta_path, serde_json::to_vec(&meta)?)?;
    }

    // Resume: the rows of whole input lines that made it to disk, and as many vectors.
    let rows_text = std::fs::read_to_string(&rows_path)?;
    let mut rows: Vec<[usize; 3]> = Vec::new();
    for line in rows_text.split_inclusive('\n').filter(|l| l.ends_with('\n')) {
        match serde_json::from_str::<[usize; 3]>(line.trim()) {
            Ok(row) => rows.push(row),
            Err(_) => break,
        }
    }
    while rows.last().is_some_and(|&[_, window, windows]| window + 1 != windows) {
        rows.pop();
    }
    let vector_bytes = std::fs::metadata(&vectors_path)?.len();
    let keep = (rows.len() * DIMS * 4) as u64;
    if vector_bytes < keep {
        return Err(format!("{vectors_path} is shorter than its rows say: delete {prefix}.* and start over").into());
    }
    let first_line = rows.last().map_or(0, |r| r[0] + 1);
    std::fs::OpenOptions::new().write(true).open(&vectors_path)?.set_len(keep)?;
    let mut rows_out = String::new();
    rows.iter().for_each(|r| rows_out.push_str(&format!("[{},{},{}]\n", r[0], r[1], r[2])));
    std::fs::write(&rows_path, rows_out)?;
    eprintln!("{prefix}: {} input lines, {first_line} done ({} vectors), {threads} threads", lines.len(), rows.len());

    let mut vectors_file = std::fs::OpenOptions::new().append(true).open(&vectors_path)?;
    let mut rows_file = std::fs::OpenOptions::new().append(true).open(&rows_path)?;
    let start = Instant::now();
    let mut embedded = 0usize;
    let mut done_lines = first_line;
    for block_start in (first_line..lines.len()).step_by(BLOCK) {
        let block = &lines[block_start..(block_start + BLOCK).min(lines.len())];
        let texts: Vec<Vec<String>> = block
            .iter()
            .map(|l| {
                if l.query {
                    Ok(vec![l.text.clone()])
                } else {
                    // The input keeps the path joined (texts.py), as the cached inputs were written.
                    let path: Vec<String> = l
                        .heading_path
                        .as_deref()
                        .map(|p| p.split(lectern::heading::HEADING_JOINER).map(str::to_owned).collect())
                        .unwrap_or_default();
                    embedder.windows(&path, &l.text)
                }
            })
            .collect::<Result<_, _>>()?;
        let flat: Vec<&str> = texts.iter().flatten().map(String::as_str).collect();
        let vectors = embed_parallel(&embedder, &flat, threads)?;
        let mut bytes = Vec::with_capacity(vectors.len() * DIMS * 4);
        let mut rows_text = String::new();
        let mut next = vectors.iter();
        for (offset, windows) in texts.iter().enumerate() {
            for window in 0..windows.len() {
                let vector = next.next().ok_or("a text was not embedded")?;
                if vector.len() != DIMS {
                    return Err(format!("the model gave {} dimensions, not {DIMS}", vector.len()).into());
                }
                bytes.extend(vector.iter().flat_map(|x| x.to_le_bytes()));
                rows_text.push_str(&format!("[{},{window},{}]\n", block_start + offset, windows.len()));
            }
        }
        vectors_file.write_all(&bytes)?;
        vectors_file.sync_data()?;
        rows_file.write_all(rows_text.as_bytes())?;
        rows_file.sync_data()?;
        embedded += flat.len();
        done_lines += block.len();
        let seconds = start.elapsed().as_secs_f64();
        let rate = (done_lines - first_line) as f64 / seconds;
        eprintln!(
            "{prefix}: {done_lines}/{} lines, {embedded} texts embedded in {seconds:.0} s ({:.1} texts/s), ~{:.0} min left",
            lines.len(),
            embedded as f64 / seconds,
            (lines.len() - done_lines) as f64 / rate.max(1e-9) / 60.0
        );
    }
    eprintln!("{prefix}: complete");
    Ok(())
}

/// Embeds `texts` one per model run (faster than padded batches here, see BENCHMARKS.md), on
/// `threads` workers each taking the next text; identical texts are embedded once.
#[cfg(not(target_arch = "wasm32"))]
fn embed_parallel(embedder: &lectern::embed::Embedder, texts: &[&str], threads: usize) -> BoxResult<Vec<Vec<f32>>> {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let mut unique: HashMap<&str, usize> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    let slots: Vec<usize> = texts
        .iter()
        .map(|t| {
            *unique.entry(t).or_insert_with(|| {
                order.push(t);
                order.len() - 1
            })
        })
        .collect();
    let results: Mutex<Vec<Option<Vec<f32>>>> = Mutex::new(vec![None; order.len()]);
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                while let Some(text) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    match embedder.embed(text) {
                        Ok(v) => {
                            if let Ok(mut r) = results.lock() {
                                r[unique[text]] = Some(v);
                            }
                        }
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                *f = Some(e.to_string());
                            }
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(error) = failure.into_inner().map_err(|_| "a worker panicked")? {
        return Err(error.into());
    }
    let results = results.into_inner().map_err(|_| "a worker panicked")?;
    slots.into_iter().map(|s| results[s].clone().ok_or_else(|| "a text was not embedded".into())).collect()
}
