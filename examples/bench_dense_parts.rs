//! The partitioned dense index (`lectern::dense::partitioned`) on real MiniLM vectors and on
//! the synthetic clustered set: per size, the bytes a question fetches (brotli, as sent, cold
//! cache, the head included), round trips after the question's vector exists, search time
//! once the parts are there, recall@10 against the exact int8 scan of the same vectors, build
//! time and memory; beside them the single file of today (`DenseIndex`) and its exact scan.
//! Run by scripts/bench/dense-parts.sh, which embeds the texts once
//! (examples/real_vectors.rs) and gives the cache folder. Native only; prints figures,
//! asserts nothing about time.
//!
//! `bench_dense_parts <vectors-dir> <work-dir> [sizes] [key=value...]`
//! - sizes: comma-separated stored-vector counts (default 10000,30000,100000); `all` = every
//!   real vector.
//! - `partition_size= subspaces= shard_size= probe= rescore=` override the build config;
//!   `sweep=probe:8,16,32;rescore:16,32,64` searches each size with every pair (one build).
//! - `synthetic=false` skips the synthetic set; `real=false` the real one.
//! - `row_bits=6` rounds every stored int8 row to 6 bits before searching: what rescoring at a
//!   lower precision would cost in recall (an experiment; the bytes stay int8).
//! - Without `probe=`, each size probes what `PartitionedConfig::for_vectors` gives it (the
//!   bundle writer's choice).
//!
//! Each row is followed by where a cold question's bytes go (means): the head, round 1's codes
//! parts, round 2's row shards (and how many rows they hold for the candidates asked for).
//! These are every file a bundle of format 5 fetches for a question's vector: the head lists
//! the codes parts, the codes parts their row shards (partitioned format 2). The line also
//! gives what a bundle of format 4 fetched instead: the same without those listings, plus the
//! dense catalog pages that listed the parts (and one round trip more).

#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod bench {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};
    use std::time::Instant;

    use lectern::dense::partitioned::{
        build, PartFilter, PartKind, PartSearch, PartitionedConfig, PartitionedFiles, PartitionedIndex,
        PartitionedInput,
    };
    use lectern::dense::synthetic::{clustered_unit_vectors, queries_near};
    use lectern::dense::{DenseIndex, DenseIndexConfig, QuantizedVectors};

    pub type BoxResult<T> = Result<T, Box<dyn std::error::Error>>;
    const DIMS: usize = 384;
    const K: usize = 10;
    /// Scores closer than this are ties (int8 moves a cosine by up to ~2e-3; ann-benchmarks
    /// counts a neighbour within 1e-3 of the k-th distance as found).
    const TIE: f32 = 1e-3;
    /// The sets, in the order items are taken for the size subsets: the four labelled
    /// corpora and the sample site, SciFact, then the generated big site.
    const SETS: [&str; 7] =
        ["sample", "physical-ai-textbook", "jest", "typescript-eslint", "kcl-lang", "scifact", "big-site"];

    /// Items (sections) with their vectors, copies and version slots.
    pub struct Corpus {
        pub items: Vec<Vec<Vec<f32>>>,
        pub first_copy: Vec<u32>,
        pub slots: Vec<u16>,
        /// (set, version) of each slot above 0.
        pub versions: Vec<(String, String)>,
        pub set_of: Vec<usize>,
    }

    pub struct Queries {
        pub vectors: Vec<Vec<f32>>,
        /// The question set of each (a corpus, scifact, big-site).
        pub sets: Vec<String>,
    }

    fn read_f32(path: &Path) -> BoxResult<Vec<Vec<f32>>> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let floats: Vec<f32> = bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        Ok(floats.chunks_exact(DIMS).map(<[f32]>::to_vec).collect())
    }

    fn read_lines(path: &Path) -> BoxResult<Vec<serde_json::Value>> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(text.lines().filter(|l| !l.trim().is_empty()).map(serde_json::from_str).collect::<Result<_, _>>()?)
    }

    /// Vectors of each input line of a set, from real_vectors' `<set>.f32` + `<set>.rows.jsonl`.
    fn per_line(dir: &Path, set: &str, lines: usize) -> BoxResult<Vec<Vec<Vec<f32>>>> {
        let vectors = read_f32(&dir.join(format!("{set}.f32")))?;
        let rows = read_lines(&dir.join(format!("{set}.rows.jsonl")))?;
        let mut out = vec![Vec::new(); lines];
        for (vector, row) in vectors.into_iter().zip(rows) {
            let line = row.get(0).and_then(serde_json::Value::as_u64).ok_or("bad rows line")? as usize;
            out.get_mut(line).ok_or("row past the texts")?.push(vector);
        }
        // A set still being embedded: the lines done so far (real_vectors writes in input order).
        let done = out.iter().position(Vec::is_empty).unwrap_or(out.len());
        if done < out.len() {
            eprintln!("{set}: {done} of {} texts embedded so far; using those", out.len());
            out.truncate(done);
        }
        Ok(out)
    }

    pub fn load_corpus(dir: &Path, sets: &[&str]) -> BoxResult<Corpus> {
        let mut corpus = Corpus {
            items: Vec::new(),
            first_copy: Vec::new(),
            slots: Vec::new(),
            versions: Vec::new(),
            set_of: Vec::new(),
        };
        for (s, set) in sets.iter().enumerate() {
            let texts = read_lines(&dir.join("texts").join(format!("passages.{set}.jsonl")))?;
            let vectors = per_line(dir, set, texts.len())?;
            let texts = &texts[..vectors.len()];
            let mut first: HashMap<(String, String), u32> = HashMap::new();
            for (text, vectors) in texts.iter().zip(vectors) {
                let item = corpus.items.len() as u32;
                let key = (
                    text["heading_path"].as_str().unwrap_or("").to_string(),
                    text["text"].as_str().unwrap_or("").to_string(),
                );
                let first_copy = *first.entry(key).or_insert(item);
                let slot = match text["version"].as_str() {
                    Some(v) => {
                        let key = (set.to_string(), v.to_string());
                        let at = corpus.versions.iter().position(|x| *x == key).unwrap_or_else(|| {
                            corpus.versions.push(key);
                            corpus.versions.len() - 1
                        });
                        at as u16 + 1
                    }
                    None => 0,
                };
                corpus.items.push(if first_copy == item { vectors } else { Vec::new() });
                corpus.first_copy.push(first_copy);
                corpus.slots.push(slot);
                corpus.set_of.push(s);
            }
        }
        Ok(corpus)
    }

    pub fn load_queries(dir: &Path) -> BoxResult<Queries> {
        let texts = read_lines(&dir.join("texts").join("queries.jsonl"))?;
        let vectors: Vec<Vec<f32>> =
            per_line(dir, "queries", texts.len())?.into_iter().map(|mut v| v.remove(0)).collect();
        if vectors.len() != texts.len() {
            return Err("the questions are not all embedded yet (run scripts/bench/dense-parts.sh)".into());
        }
        let sets = texts.iter().map(|t| t["set"].as_str().unwrap_or("").to_string()).collect();
        Ok(Queries { vectors, sets })
    }

    /// The first items holding `rows` stored vectors (all if fewer).
    fn prefix(corpus: &Corpus, rows: usize) -> usize {
        let mut count = 0;
        for (i, v) in corpus.items.iter().enumerate() {
            if count >= rows {
                return i;
            }
            count += v.len();
        }
        corpus.items.len()
    }

    /// Brotli size of every file of a build (head as "head", part p as "p").
    fn brotli_sizes(files: &PartitionedFiles, work: &Path) -> BoxResult<(usize, Vec<usize>)> {
        let dir = work.join("files");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("head"), &files.head)?;
        for (p, bytes) in files.parts.iter().enumerate() {
            std::fs::write(dir.join(format!("{p}")), bytes)?;
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench/dense-parts/brotli-sizes.mjs");
        let out = std::process::Command::new("node").arg(script).arg(&dir).output()?;
        if !out.status.success() {
            return Err(format!("brotli-sizes.mjs: {}", String::from_utf8_lossy(&out.stderr)).into());
        }
        let mut head = 0;
        let mut parts = vec![0; files.parts.len()];
        for line in String::from_utf8(out.stdout)?.lines() {
            let (name, size) = line.split_once(' ').ok_or("bad brotli-sizes line")?;
            let size: usize = size.parse()?;
            match name {
                "head" => head = size,
                n => parts[n.parse::<usize>()?] = size,
            }
        }
        std::fs::remove_dir_all(&dir)?;
        Ok((head, parts))
    }

    fn brotli_of(bytes: &[u8], work: &Path) -> BoxResult<usize> {
        let files = PartitionedFiles { head: bytes.to_vec(), parts: Vec::new() };
        Ok(brotli_sizes(&files, work)?.0)
    }

    pub struct Row {
        pub label: String,
        pub n: usize,
        pub build_s: f64,
        pub partitions: usize,
        pub shards: usize,
        pub head_kb: f64,
        pub largest_part_kb: f64,
        pub kb_median: f64,
        pub kb_p95: f64,
        pub kb_max: f64,
        pub rounds_max: usize,
        pub search_median_ms: f64,
        pub search_p95_ms: f64,
        pub recall: f64,
        /// Recall@10 counting a result as found when its score is within `TIE` of the exact
        /// 10th (ann-benchmarks' definition): near-duplicate sections tie within int8's error.
        pub recall_tied: f64,
        /// Mean recall@10 of each question set, in first-seen order.
        pub recall_by_set: Vec<(String, f64)>,
        pub rescore: usize,
        pub memory_mb: f64,
        /// Where a cold question's bytes go, means over the questions.
        pub breakdown: Breakdown,
    }

    /// Means per cold question: the head, round 1's codes parts, round 2's int8 row shards,
    /// and the dense catalog pages a bundle of format 4 added (not in the KB figures above).
    #[derive(Default, Clone)]
    pub struct Breakdown {
        pub head_kb: f64,
        pub codes_files: f64,
        pub codes_kb: f64,
        /// Of the codes parts: their uncompressed bytes, and the rows they hold.
        pub codes_raw_kb: f64,
        pub codes_rows: f64,
        pub shard_files: f64,
        pub shards_kb: f64,
        pub shards_raw_kb: f64,
        /// Rows the shards hold (each rescored), against the candidates asked for.
        pub shard_rows: f64,
        /// Fixed bytes of every part (preamble and shard table), uncompressed.
        pub fixed_kb: f64,
        /// Of the bytes above, the part listings (20 bytes a part, incompressible): the head's
        /// (every partition's codes file) and the fetched codes parts' (their row shards').
        pub listings_kb: f64,
        /// Catalog pages a bundle of format 4 fetched for these parts (`CATALOG_PAGE_SHARDS` parts a page:
        /// the codes parts' pages and every shard page of a probed partition).
        pub catalog_pages: f64,
    }

    /// Parts listed per dense catalog page (`bundle::CATALOG_PAGE_SHARDS`).
    const CATALOG_PAGE_SHARDS: u32 = 32;
    /// Mean brotli bytes of one dense catalog page, measured on the 10,000-page site's bundle
    /// (382 pages of 32 entries: file name, size, sha256, part): 1,317.
    const CATALOG_PAGE_BROTLI: f64 = 1317.0;

    fn pct(mut v: Vec<f64>, q: f64) -> f64 {
        v.sort_by(f64::total_cmp);
        v.get(((v.len().saturating_sub(1)) as f64 * q).round() as usize).copied().unwrap_or(0.0)
    }

    /// Exact int8 top-K items: every stored row scanned, items as `pick` maps them.
    fn exact_items(
        all: &QuantizedVectors,
        row_item: &[u32],
        q: &[f32],
        pick: &dyn Fn(u32) -> Option<u32>,
    ) -> Vec<(u32, f32)> {
        let mut out: Vec<(u32, f32)> = Vec::new();
        let mut depth = 4 * K;
        loop {
            out.clear();
            for (row, score) in all.scan(q, depth, None).unwrap_or_default() {
                if let Some(item) = pick(row_item[row as usize]) {
                    if !out.iter().any(|o| o.0 == item) {
                        out.push((item, score));
                    }
                }
                if out.len() == K {
                    return out;
                }
            }
            if depth >= all.len() {
                return out;
            }
            depth *= 4;
        }
    }

    pub struct Run<'a> {
        pub label: &'a str,
        pub items: &'a [Vec<Vec<f32>>],
        pub first_copy: &'a [u32],
        pub slots: &'a [u16],
        pub queries: &'a [Vec<f32>],
        /// The question set of each question.
        pub query_sets: &'a [String],
        pub config: &'a PartitionedConfig,
        /// (probe, rescore) pairs to search with; empty: the config's.
        pub sweep: &'a [(usize, usize)],
        /// A version slot to filter every question to, with the pick it implies.
        pub version: Option<u16>,
        /// Writes the head, the parts the first 100 questions need and those questions here,
        /// for the search-time measurement in Chromium (tests/wasm_dense_parts_bench.rs).
        pub browser_dir: Option<&'a Path>,
        /// Below 8: every int8 row is rounded to this many bits (an experiment: what rescoring
        /// at a lower precision would cost in recall; the rows stay int8 bytes).
        pub row_bits: u32,
    }

    /// Rounds the int8 codes of every row shard to `bits`-bit levels (same scale).
    fn coarsen_rows(files: &mut PartitionedFiles, bits: u32) -> BoxResult<()> {
        let index = PartitionedIndex::open(&files.head)?;
        let levels = ((1i32 << (bits - 1)) - 1) as f32;
        for p in index.partition_count()..files.parts.len() {
            let part = &mut files.parts[p];
            let rows = u32::from_le_bytes([part[20], part[21], part[22], part[23]]) as usize;
            for byte in &mut part[24 + 4 * rows..] {
                let code = f32::from(*byte as i8);
                let coarse = (code * levels / 127.0).round() * 127.0 / levels;
                *byte = coarse.round().clamp(-127.0, 127.0) as i8 as u8;
            }
        }
        Ok(())
    }

    /// The browser bench's files: `head.bin`, `part-<id>.bin`, `queries.f32` and
    /// `settings.txt` (`probe rescore k dims questions`).
    fn write_browser_set(r: &Run<'_>, files: &PartitionedFiles, dir: &Path) -> BoxResult<()> {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join("head.bin"), &files.head)?;
        let queries = &r.queries[..r.queries.len().min(100)];
        let mut index = PartitionedIndex::open(&files.head)?;
        for q in queries {
            while let PartSearch::NeedParts(parts) = index.search(q, K, &PartFilter::default())? {
                for p in parts {
                    index.attach(p, &files.parts[p as usize])?;
                    std::fs::write(dir.join(format!("part-{p}.bin")), &files.parts[p as usize])?;
                }
            }
        }
        let floats: Vec<u8> = queries.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
        std::fs::write(dir.join("queries.f32"), floats)?;
        std::fs::write(
            dir.join("settings.txt"),
            format!("{} {} {K} {DIMS} {}\n", r.config.probe, r.config.rescore, queries.len()),
        )?;
        Ok(())
    }

    /// Builds, sizes and searches one set; one row per search setting.
    pub fn run(r: &Run<'_>, work: &Path) -> BoxResult<Vec<Row>> {
        let start = Instant::now();
        let input = PartitionedInput { items: r.items, first_copy: r.first_copy, version_slots: r.slots };
        let (mut files, stats) = build(&input, r.config)?;
        let build_s = start.elapsed().as_secs_f64();
        if r.row_bits < 8 {
            coarsen_rows(&mut files, r.row_bits)?;
        }
        let (head_br, parts_br) = brotli_sizes(&files, work)?;
        if let Some(dir) = r.browser_dir {
            write_browser_set(r, &files, dir)?;
        }

        // The exact reference: every stored row.
        let mut row_item = Vec::new();
        let mut rows: Vec<&[f32]> = Vec::new();
        for (i, vectors) in r.items.iter().enumerate() {
            for v in vectors {
                row_item.push(i as u32);
                rows.push(v);
            }
        }
        let all = QuantizedVectors::quantize(&rows)?;
        // Copies in the filtered version, found from the first copy.
        let mut copies: HashMap<u32, Vec<u32>> = HashMap::new();
        for (i, &f) in r.first_copy.iter().enumerate() {
            copies.entry(f).or_default().push(i as u32);
        }
        let version_pick = |section: u32| -> Option<u32> {
            let slot = r.version?;
            copies.get(&section).and_then(|c| c.iter().copied().find(|&i| r.slots[i as usize] == slot))
        };
        let plain_pick = |section: u32| Some(section);
        let pick: &dyn Fn(u32) -> Option<u32> = if r.version.is_some() { &version_pick } else { &plain_pick };
        let slots_filter = r.version.map(|s| vec![s]).unwrap_or_default();
        let filter =
            PartFilter { version_slots: &slots_filter, pick: if r.version.is_some() { Some(pick) } else { None } };
        let truth: Vec<Vec<(u32, f32)>> = r.queries.iter().map(|q| exact_items(&all, &row_item, q, pick)).collect();

        let settings: Vec<(usize, usize)> =
            if r.sweep.is_empty() { vec![(r.config.probe, r.config.rescore)] } else { r.sweep.to_vec() };
        let mut out = Vec::new();
        for &(probe, rescore) in &settings {
            let mut kb = Vec::new();
            let mut times = Vec::new();
            let mut rounds_max = 0;
            let mut recall_sum = 0.0;
            let mut tied_sum = 0.0;
            let mut by_set: Vec<(String, f64, usize)> = Vec::new();
            let mut parts_of = Breakdown::default();
            let mut warm = PartitionedIndex::open(&files.head)?;
            for (q, truth) in r.queries.iter().zip(&truth) {
                // Cold cache: a fresh index per question, so every part it needs is fetched.
                let mut index = PartitionedIndex::open(&files.head)?;
                index.set_probe(probe)?;
                index.set_rescore(rescore)?;
                let mut bytes = head_br;
                let mut rounds = 0;
                let mut pages = std::collections::HashSet::new();
                let hits = loop {
                    match index.search(q, K, &filter)? {
                        PartSearch::Found(hits) => break hits,
                        PartSearch::NeedParts(parts) => {
                            rounds += 1;
                            for p in parts {
                                bytes += parts_br[p as usize];
                                let raw = &files.parts[p as usize];
                                let (br, raw_kb) = (parts_br[p as usize] as f64 / 1024.0, raw.len() as f64 / 1024.0);
                                let rows = u32::from_le_bytes([raw[20], raw[21], raw[22], raw[23]]) as f64;
                                match index.part_kind(p)? {
                                    PartKind::Codes { partition } => {
                                        parts_of.codes_files += 1.0;
                                        parts_of.codes_kb += br;
                                        parts_of.codes_raw_kb += raw_kb;
                                        parts_of.codes_rows += rows;
                                        let shards = index.shard_parts(partition);
                                        parts_of.fixed_kb += (24 + 22 * shards.len()) as f64 / 1024.0;
                                        parts_of.listings_kb += (20 * shards.len()) as f64 / 1024.0;
                                        pages.insert(p / CATALOG_PAGE_SHARDS);
                                        pages.extend(shards.map(|s| s / CATALOG_PAGE_SHARDS));
                                    }
                                    PartKind::Rows { .. } => {
                                        parts_of.shard_files += 1.0;
                                        parts_of.shards_kb += br;
                                        parts_of.shards_raw_kb += raw_kb;
                                        parts_of.shard_rows += rows;
                                        parts_of.fixed_kb += 24.0 / 1024.0;
                                    }
                                }
                                index.attach(p, &files.parts[p as usize])?;
                            }
                        }
                    }
                };
                parts_of.catalog_pages += pages.len() as f64;
                // Search time once the parts are there (best of 3: the machine is shared).
                let mut best = f64::INFINITY;
                for _ in 0..3 {
                    let t = Instant::now();
                    std::hint::black_box(index.search(q, K, &filter)?);
                    best = best.min(t.elapsed().as_secs_f64() * 1e3);
                }
                times.push(best);
                kb.push(bytes as f64 / 1024.0);
                rounds_max = rounds_max.max(rounds);
                let found = truth.iter().filter(|t| hits.iter().any(|h| h.0 == t.0)).count();
                let tenth = truth.last().map_or(f32::NEG_INFINITY, |t| t.1);
                let tied = hits.iter().filter(|h| h.1 >= tenth - TIE).count().min(truth.len());
                tied_sum += if truth.is_empty() { 1.0 } else { tied as f64 / truth.len() as f64 };
                let this = if truth.is_empty() { 1.0 } else { found as f64 / truth.len() as f64 };
                recall_sum += this;
                let set = r.query_sets.get(kb.len() - 1).cloned().unwrap_or_default();
                match by_set.iter_mut().find(|s| s.0 == set) {
                    Some(entry) => {
                        entry.1 += this;
                        entry.2 += 1;
                    }
                    None => by_set.push((set, this, 1)),
                }
                // The worker's memory after all the questions: one index that keeps its parts.
                warm.set_probe(probe)?;
                warm.set_rescore(rescore)?;
                while let PartSearch::NeedParts(parts) = warm.search(q, K, &filter)? {
                    for p in parts {
                        warm.attach(p, &files.parts[p as usize])?;
                    }
                }
            }
            out.push(Row {
                label: format!("{} (probe {probe}, rescore {rescore})", r.label),
                n: stats.rows,
                build_s,
                partitions: stats.partitions,
                shards: stats.shards,
                head_kb: head_br as f64 / 1024.0,
                largest_part_kb: parts_br.iter().copied().max().unwrap_or(0).max(head_br) as f64 / 1024.0,
                kb_median: pct(kb.clone(), 0.5),
                kb_p95: pct(kb.clone(), 0.95),
                kb_max: pct(kb, 1.0),
                rounds_max,
                search_median_ms: pct(times.clone(), 0.5),
                search_p95_ms: pct(times, 0.95),
                recall: recall_sum / r.queries.len().max(1) as f64,
                recall_tied: tied_sum / r.queries.len().max(1) as f64,
                rescore,
                recall_by_set: by_set.into_iter().map(|(s, sum, n)| (s, sum / n as f64)).collect(),
                memory_mb: warm.memory_bytes() as f64 / 1e6,
                breakdown: {
                    let n = r.queries.len().max(1) as f64;
                    let b = parts_of;
                    Breakdown {
                        head_kb: head_br as f64 / 1024.0,
                        codes_files: b.codes_files / n,
                        codes_kb: b.codes_kb / n,
                        codes_raw_kb: b.codes_raw_kb / n,
                        codes_rows: b.codes_rows / n,
                        shard_files: b.shard_files / n,
                        shards_kb: b.shards_kb / n,
                        shards_raw_kb: b.shards_raw_kb / n,
                        shard_rows: b.shard_rows / n,
                        fixed_kb: b.fixed_kb / n,
                        listings_kb: b.listings_kb / n + (20 * stats.partitions) as f64 / 1024.0,
                        catalog_pages: b.catalog_pages / n,
                    }
                },
            });
        }
        Ok(out)
    }

    /// Today's single file at the same size: its brotli bytes (every question's cold cost),
    /// and the exact scan's median / p95 time.
    pub fn single_file(items: &[Vec<Vec<f32>>], queries: &[Vec<f32>], work: &Path) -> BoxResult<(f64, f64, f64)> {
        let stored: Vec<Vec<Vec<f32>>> = items.iter().filter(|v| !v.is_empty()).cloned().collect();
        let index = DenseIndex::from_item_embeddings(&stored, &DenseIndexConfig::default())?;
        let kb = brotli_of(&index.to_bytes(), work)? as f64 / 1024.0;
        let mut times = Vec::new();
        for q in queries {
            let t = Instant::now();
            std::hint::black_box(index.vectors().scan(q, K, None)?);
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        Ok((kb, pct(times.clone(), 0.5), pct(times, 0.95)))
    }

    /// One line: where a cold question's bytes go (means).
    pub fn print_breakdown(row: &Row) {
        let b = &row.breakdown;
        let total = b.head_kb + b.codes_kb + b.shards_kb;
        println!(
            "  bytes of a cold question (means): head {:.1} KB + codes {:.1} KB ({:.1} files, {:.0} rows, {:.1} KB raw, {:.1} B a row) + row shards {:.1} KB ({:.1} files, {:.0} rows for {} candidates: {:.2} rows a candidate, {:.1} KB raw) = {:.1} KB; fixed part bytes {:.1} KB raw; part listings (head and codes) {:.1} KB; format 4 instead: {:.1} KB (no listings, {:.1} dense catalog pages ~{:.0} KB, one round trip more)",
            b.head_kb,
            b.codes_kb,
            b.codes_files,
            b.codes_rows,
            b.codes_raw_kb,
            b.codes_kb * 1024.0 / b.codes_rows.max(1.0),
            b.shards_kb,
            b.shard_files,
            b.shard_rows,
            row.rescore,
            b.shard_rows / row.rescore.max(1) as f64,
            b.shards_raw_kb,
            total,
            b.fixed_kb,
            b.listings_kb,
            total - b.listings_kb + b.catalog_pages * CATALOG_PAGE_BROTLI / 1024.0,
            b.catalog_pages,
            b.catalog_pages * CATALOG_PAGE_BROTLI / 1024.0
        );
    }

    pub fn print_header() {
        println!(
            "| set | vectors | build s | partitions / shards | head KB | largest file KB | KB per question median / p95 / max | round trips | search ms median / p95 | recall@10 vs int8 scan (ties within 1e-3 count) | memory MB after all questions |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|");
    }

    pub fn print_row(row: &Row) {
        println!(
            "| {} | {} | {:.1} | {} / {} | {:.1} | {:.1} | {:.0} / {:.0} / {:.0} | {} | {:.2} / {:.2} | {:.3} ({:.3}) | {:.1} |",
            row.label,
            row.n,
            row.build_s,
            row.partitions,
            row.shards,
            row.head_kb,
            row.largest_part_kb,
            row.kb_median,
            row.kb_p95,
            row.kb_max,
            row.rounds_max,
            row.search_median_ms,
            row.search_p95_ms,
            row.recall,
            row.recall_tied,
            row.memory_mb
        );
    }

    /// `config` with the probe `PartitionedConfig::for_vectors` gives `vectors`, unless set.
    fn sized(config: &PartitionedConfig, vectors: usize, probe_set: bool) -> PartitionedConfig {
        let probe = if probe_set { config.probe } else { PartitionedConfig::for_vectors(vectors, DIMS).probe };
        PartitionedConfig { probe, ..config.clone() }
    }

    pub fn main() -> BoxResult<()> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let (Some(dir), Some(work)) = (args.first(), args.get(1)) else {
            return Err("usage: bench_dense_parts <vectors-dir> <work-dir> [sizes] [key=value...]".into());
        };
        let (dir, work) = (PathBuf::from(dir), PathBuf::from(work));
        std::fs::create_dir_all(&work)?;
        let positional: Vec<&String> = args.iter().skip(2).filter(|a| !a.contains('=')).collect();
        let sizes_arg = positional.first().map_or("10000,30000,100000", |s| s.as_str());
        let mut config = PartitionedConfig::default();
        let mut sweep: Vec<(usize, usize)> = Vec::new();
        let (mut synthetic, mut real) = (true, true);
        let mut sets_arg: Option<String> = None;
        let mut version_of: Option<String> = None;
        let mut browser_dir: Option<PathBuf> = None;
        let mut row_bits = 8u32;
        // Without `probe=`, each size probes what the bundle writer would choose for it.
        let mut probe_set = false;
        for arg in &args {
            let Some((key, value)) = arg.split_once('=') else { continue };
            match key {
                "partition_size" => config.partition_size = value.parse()?,
                "subspaces" => config.subspaces = value.parse()?,
                "centroid_subspaces" => config.centroid_subspaces = value.parse()?,
                "shard_size" => config.shard_size = value.parse()?,
                "probe" => {
                    config.probe = value.parse()?;
                    probe_set = true;
                }
                "rescore" => config.rescore = value.parse()?,
                "synthetic" => synthetic = value == "true",
                "row_bits" => row_bits = value.parse::<u32>()?.clamp(2, 8),
                "real" => real = value == "true",
                "sets" => sets_arg = Some(value.to_string()),
                // `version=jest:current`: every question filtered to that version.
                "version" => version_of = Some(value.to_string()),
                // `browser=DIR`: the files of the first size's build for tests/wasm_dense_parts_bench.rs.
                "browser" => browser_dir = Some(PathBuf::from(value)),
                "sweep" => {
                    let mut probes = vec![config.probe];
                    let mut rescores = vec![config.rescore];
                    for part in value.split(';') {
                        let (name, list) = part.split_once(':').ok_or("sweep=probe:a,b;rescore:c,d")?;
                        let list: Vec<usize> = list.split(',').map(str::parse).collect::<Result<_, _>>()?;
                        match name {
                            "probe" => probes = list,
                            "rescore" => rescores = list,
                            _ => return Err("sweep=probe:a,b;rescore:c,d".into()),
                        }
                    }
                    sweep = probes.iter().flat_map(|&p| rescores.iter().map(move |&r| (p, r))).collect();
                }
                _ => return Err(format!("unknown setting {key}").into()),
            }
        }
        println!(
            "config: partition_size {}, subspaces {} ({} bytes a code), centroid_subspaces {}, shard_size {}, probe {}, rescore {}; k = {K}\n",
            config.partition_size,
            config.subspaces,
            config.subspaces.div_ceil(2),
            config.centroid_subspaces,
            config.shard_size,
            config.probe,
            config.rescore
        );
        print_header();
        let mut singles = Vec::new();
        if real {
            let sets: Vec<&str> = match &sets_arg {
                Some(s) => s.split(',').collect(),
                None => SETS.to_vec(),
            };
            let corpus = load_corpus(&dir, &sets)?;
            let queries = load_queries(&dir)?;
            let stored: usize = corpus.items.iter().map(Vec::len).sum();
            eprintln!(
                "{} items ({} distinct sections, {stored} vectors), {} versions, {} questions",
                corpus.items.len(),
                corpus.items.iter().filter(|v| !v.is_empty()).count(),
                corpus.versions.len(),
                queries.vectors.len()
            );
            let version = match &version_of {
                Some(v) => {
                    let (set, name) = v.split_once(':').ok_or("version=SET:VERSION")?;
                    let at = corpus.versions.iter().position(|x| x.0 == set && x.1 == name).ok_or("no such version")?;
                    Some(at as u16 + 1)
                }
                None => None,
            };
            for size in sizes_arg.split(',') {
                let n = if size == "all" { usize::MAX } else { size.parse()? };
                let end = prefix(&corpus, n);
                let stored: usize = corpus.items[..end].iter().map(Vec::len).sum();
                let config = sized(&config, stored, probe_set);
                let label =
                    format!("real MiniLM, {}", if size == "all" { "all".to_string() } else { size.to_string() });
                let run_args = Run {
                    label: &label,
                    items: &corpus.items[..end],
                    first_copy: &corpus.first_copy[..end],
                    slots: &corpus.slots[..end],
                    queries: &queries.vectors,
                    query_sets: &queries.sets,
                    config: &config,
                    sweep: &sweep,
                    version,
                    row_bits,
                    browser_dir: browser_dir.as_deref().filter(|_| size == sizes_arg.split(',').next().unwrap_or("")),
                };
                for row in run(&run_args, &work)? {
                    print_row(&row);
                    let sets: Vec<String> = row.recall_by_set.iter().map(|(s, r)| format!("{s} {r:.3}")).collect();
                    eprintln!("  recall@10 by question set: {}", sets.join(", "));
                    print_breakdown(&row);
                }
                singles.push((label, single_file(&corpus.items[..end], &queries.vectors, &work)?));
            }
        }
        if synthetic {
            for size in sizes_arg.split(',').filter_map(|s| s.parse::<usize>().ok()) {
                let config = sized(&config, size, probe_set);
                let vectors = clustered_unit_vectors(size, DIMS, 200, 1.5, size as u64);
                let queries = queries_near(&vectors, 300, 1.0, size as u64 + 1);
                let items: Vec<Vec<Vec<f32>>> = vectors.into_iter().map(|v| vec![v]).collect();
                let label = format!("synthetic clustered, {size}");
                let run_args = Run {
                    label: &label,
                    items: &items,
                    first_copy: &[],
                    slots: &[],
                    queries: &queries,
                    query_sets: &[],
                    config: &config,
                    sweep: &sweep,
                    version: None,
                    browser_dir: None,
                    row_bits: 8,
                };
                for row in run(&run_args, &work)? {
                    print_row(&row);
                }
                singles.push((label, single_file(&items, &queries, &work)?));
            }
        }
        println!("\nToday's single file (DenseIndex, default config: HNSW graph from 5,000 vectors), fetched whole by the first question:\n");
        println!(
            "| set | KB (brotli) = every cold question's bytes | exact int8 scan ms median / p95 |\n|---|---|---|"
        );
        for (label, (kb, median, p95)) in singles {
            println!("| {label} | {kb:.0} | {median:.2} / {p95:.2} |");
        }
        Ok(())
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> bench::BoxResult<()> {
    bench::main()
}
