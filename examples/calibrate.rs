//! Calibrates the confidence cut-offs on labelled questions (tests/fixtures/calibration):
//! for dense (hybrid) and lexical-only search, it finds the refusal cut-off that best
//! separates answerable from off-topic questions, and reports retrieval accuracy.
//! Run through `scripts/calibrate.sh`, which builds the sample textbook's bundle first.
//!
//! usage: calibrate <bundle-dir>

#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

#[cfg(target_arch = "wasm32")]
fn main() {}

#[path = "../tests/fixtures/calibration/questions.rs"]
mod questions;

/// Top score of each question, and whether the expected page was among the results.
struct Run {
    answerable: Vec<(f32, bool)>,
    off_topic: Vec<f32>,
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use lectern::bundle::load_dir;
    use lectern::embed::{ModelFiles, ModelVariant};
    use lectern::search::{HybridSearch, SearchMode, SearchOptions};

    let dir = std::env::args().nth(1).ok_or("usage: calibrate <bundle-dir>")?;
    let questions = questions::load()?;
    let bundle = load_dir(std::path::Path::new(&dir))?;
    let embedder = ModelFiles::in_dir(&ModelFiles::default_dir(), ModelVariant::Int8).load()?;
    bundle.manifest.check_model(embedder.fingerprint().as_str())?;
    let mut search = HybridSearch::new(bundle.chunks, bundle.lexical)?;
    search.attach_dense(bundle.dense)?;

    for mode in [SearchMode::Hybrid, SearchMode::Lexical] {
        let options = SearchOptions { mode, ..SearchOptions::default() };
        let run_one = |q: &str| -> Result<(f32, Vec<String>), Box<dyn std::error::Error>> {
            let vector = if mode == SearchMode::Lexical { None } else { Some(embedder.embed(q)?) };
            let results = search.search(q, vector.as_deref(), &options)?;
            let top = results.hits.iter().map(|h| h.score).fold(0.0, f32::max);
            let pages = results.hits.iter().filter_map(|h| search.chunk(h.index)).map(|c| c.chapter_id.clone());
            Ok((top, pages.collect()))
        };
        let mut run = Run { answerable: Vec::new(), off_topic: Vec::new() };
        for q in &questions.answerable {
            let (top, pages) = run_one(&q.question)?;
            run.answerable.push((top, pages.contains(&q.chapter_id)));
        }
        for q in &questions.off_topic {
            run.off_topic.push(run_one(q)?.0);
        }
        report(mode, &run);
    }
    Ok(())
}

fn report(mode: lectern::search::SearchMode, run: &Run) {
    let hits = run.answerable.iter().filter(|a| a.1).count();
    println!("## {mode:?} search");
    println!(
        "expected page in the top 3: {hits}/{} ({:.0}%)",
        run.answerable.len(),
        100.0 * hits as f32 / run.answerable.len() as f32
    );
    let mut answerable: Vec<f32> = run.answerable.iter().map(|a| a.0).collect();
    answerable.sort_by(f32::total_cmp);
    let mut off: Vec<f32> = run.off_topic.clone();
    off.sort_by(f32::total_cmp);
    let describe = |v: &[f32]| {
        let at = |q: f32| v[((v.len() - 1) as f32 * q).round() as usize];
        format!("min {:.3}, p10 {:.3}, median {:.3}, p90 {:.3}, max {:.3}", at(0.0), at(0.1), at(0.5), at(0.9), at(1.0))
    };
    println!("top score, answerable: {}", describe(&answerable));
    println!("top score, off-topic:  {}", describe(&off));
    // Refusal cut-off: maximise correct decisions; on ties prefer the lower cut-off, since
    // refusing an answerable question is the worse mistake.
    let mut best = (0usize, 0.0f32);
    for step in 0..=100 {
        let cut = step as f32 / 100.0;
        let correct = answerable.iter().filter(|&&s| s >= cut).count() + off.iter().filter(|&&s| s < cut).count();
        if correct > best.0 {
            best = (correct, cut);
        }
    }
    let cut = best.1;
    let refused = answerable.iter().filter(|&&s| s < cut).count();
    let admitted = off.iter().filter(|&&s| s >= cut).count();
    println!(
        "best refusal cut-off (low): {cut:.2} — answerable refused {refused}/{}, off-topic answered {admitted}/{}",
        answerable.len(),
        off.len()
    );
    let median = answerable[answerable.len() / 2];
    let p75 = answerable[answerable.len() * 3 / 4];
    println!("suggested medium (answerable median) {median:.2}, high (answerable p75) {p75:.2}\n");
}
