//! `lectern compact-model`: writes the compact model file the browser downloads and indexes
//! are built with, from the ONNX export (scripts/model/compact.sh runs it; deterministic
//! output). With `--compare`, measures candidate schemes instead (scripts/bench/compact-model.sh).

use super::CommandResult;
use lectern::embed::compact::{self, Scheme, DEFAULT_SCHEME};
use lectern::embed::{cosine, embed_text, EmbedError, Embedder, ModelFiles, ModelVariant};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct CompactModelArgs {
    /// The ONNX encoder to convert (default: model-f32.onnx in the model folder).
    #[arg(long)]
    from: Option<PathBuf>,
    /// Where to write the compact file (default: model-compact.lcm in the model folder); with
    /// --compare, the folder that receives one model folder per candidate.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Precision per class of weights, `words=…,positions=…,layers=…`, each f32 | q<bits> |
    /// q<bits>g<group> (one f16 scale per group of values). Repeatable with --compare.
    #[arg(long, default_values_t = [DEFAULT_SCHEME.to_string()])]
    scheme: Vec<String>,
    /// Folder of the model files.
    #[arg(long, default_value_os_t = ModelFiles::default_dir())]
    model_dir: PathBuf,
    /// Measure each --scheme, and the int8 ONNX, instead of writing one file: size and
    /// parity (min/mean cosine) with sentence-transformers on the parity fixture and with the
    /// f32 model on real sections.
    #[arg(long, requires = "sections")]
    compare: bool,
    /// `lectern chunks --json` output: its sections (heading path and text, embedded as the
    /// index embeds a section that fits the model) are the real texts (--compare).
    #[arg(long)]
    sections: Option<PathBuf>,
    /// How many sections, spread evenly over the file (--compare).
    #[arg(long, default_value_t = 400)]
    limit: usize,
    /// The parity fixture (--compare).
    #[arg(long, default_value = "tests/fixtures/embeddings/reference.json")]
    reference: PathBuf,
}

pub fn run(args: CompactModelArgs) -> CommandResult {
    if args.compare {
        return compare(&args);
    }
    let [scheme] = args.scheme.as_slice() else { return Err("give one --scheme (several only with --compare)".into()) };
    let scheme: Scheme = scheme.parse()?;
    let from = args.from.clone().unwrap_or_else(|| args.model_dir.join(ModelVariant::F32.file_name()));
    let out = args.out.clone().unwrap_or_else(|| args.model_dir.join(ModelVariant::Compact.file_name()));
    let bytes = compact::convert(&read(&from)?, &scheme)?;
    // Written beside and renamed, so a reader never sees half a file.
    let tmp = out.with_extension("lcm.tmp");
    std::fs::write(&tmp, &bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("wrote {} ({} bytes, {scheme}, format version {})", out.display(), bytes.len(), compact::VERSION);
    Ok(())
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// A line of `lectern chunks --json`, as far as --compare reads it.
#[derive(serde::Deserialize)]
struct Section {
    heading_path: Vec<String>,
    text: String,
}

fn compare(args: &CompactModelArgs) -> CommandResult {
    let out = args.out.clone().ok_or("--compare needs --out DIR")?;
    let sections_file = args.sections.clone().ok_or("--compare needs --sections FILE")?;
    let lines: Vec<String> = String::from_utf8(read(&sections_file)?)?.lines().map(str::to_string).collect();
    let step = (lines.len() / args.limit.max(1)).max(1);
    let mut sections = Vec::new();
    for line in lines.iter().step_by(step).take(args.limit) {
        let section: Section = serde_json::from_str(line)?;
        let text = embed_text(&section.heading_path, &section.text);
        if !text.trim().is_empty() {
            sections.push(text);
        }
    }
    let sections: Vec<&str> = sections.iter().map(String::as_str).collect();
    let reference: serde_json::Value = serde_json::from_slice(&read(&args.reference)?)?;
    let fixture: Vec<(String, Vec<f32>)> = reference["entries"]
        .as_array()
        .ok_or("the reference file has no `entries`")?
        .iter()
        .filter_map(|e| {
            let vector = e["vector"].as_array()?.iter().map(|v| v.as_f64().map(|v| v as f32)).collect::<Option<_>>()?;
            Some((e["text"].as_str()?.to_string(), vector))
        })
        .collect();

    let tokenizer = read(&args.model_dir.join("tokenizer.json"))?;
    let f32_onnx = read(&args.from.clone().unwrap_or_else(|| args.model_dir.join(ModelVariant::F32.file_name())))?;
    let embed_all =
        |e: &Embedder| -> Result<Vec<Vec<f32>>, EmbedError> { sections.iter().map(|s| e.embed(s)).collect() };
    let truth = embed_all(&Embedder::from_bytes(&f32_onnx, &tokenizer)?)?;
    let stats = |c: &[f32]| (c.iter().copied().fold(f32::INFINITY, f32::min), c.iter().sum::<f32>() / c.len() as f32);
    println!("{} fixture texts; {} sections of {}", fixture.len(), sections.len(), sections_file.display());
    println!("| candidate | bytes | fixture min | fixture mean | sections min | sections mean |");
    println!("|---|---|---|---|---|---|");
    let mut candidates = vec![("int8-onnx".to_string(), read(&args.model_dir.join(ModelVariant::Int8.file_name()))?)];
    for scheme in &args.scheme {
        let parsed: Scheme = scheme.parse()?;
        candidates.push((parsed.to_string(), compact::convert(&f32_onnx, &parsed)?));
    }
    for (name, bytes) in candidates {
        let embedder = Embedder::from_bytes(&bytes, &tokenizer)?;
        let fixture_cos: Vec<f32> =
            fixture.iter().map(|(t, v)| embedder.embed(t).map(|e| cosine(&e, v))).collect::<Result<_, _>>()?;
        let section_cos: Vec<f32> = embed_all(&embedder)?.iter().zip(&truth).map(|(a, b)| cosine(a, b)).collect();
        let ((fmin, fmean), (smin, smean)) = (stats(&fixture_cos), stats(&section_cos));
        println!("| {name} | {} | {fmin:.5} | {fmean:.5} | {smin:.5} | {smean:.5} |", bytes.len());
        // The int8 ONNX too goes under the compact file's name: the embedder tells the two
        // apart by content, so `lectern eval --model-dir` measures today's model the same way.
        let folder = out.join(name.replace([',', '='], "_"));
        std::fs::create_dir_all(&folder)?;
        std::fs::write(folder.join(ModelVariant::Compact.file_name()), &bytes)?;
        std::fs::write(folder.join("tokenizer.json"), &tokenizer)?;
    }
    Ok(())
}
