//! `lectern embed`: the embedding contract scripts and tests rely on.

use super::CommandResult;
use lectern::embed::{ModelFiles, ModelVariant};
use std::io::{BufRead, Write};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct EmbedArgs {
    /// The text to embed.
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    text: Option<String>,
    /// Embed every line of FILE instead; each line is a JSON string. Prints one result per line.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Print `{"model", "dims", "vector"}` as JSON.
    #[arg(long)]
    json: bool,
    /// Folder holding model-compact.lcm / model-f32.onnx and tokenizer.json.
    #[arg(long, default_value_os_t = ModelFiles::default_dir())]
    model_dir: PathBuf,
    /// Use the f32 reference model instead of the compact one indexes are built with.
    #[arg(long)]
    f32: bool,
}

#[derive(serde::Serialize)]
struct Embedding<'a> {
    model: &'a str,
    dims: usize,
    vector: &'a [f32],
}

pub fn run(args: EmbedArgs) -> CommandResult {
    let variant = if args.f32 { ModelVariant::F32 } else { ModelVariant::Compact };
    let embedder = ModelFiles::in_dir(&args.model_dir, variant).load()?;
    let texts = match (&args.text, &args.file) {
        (Some(text), _) => vec![text.clone()],
        (None, Some(file)) => read_json_lines(file)?,
        (None, None) => return Err("give a text or --file".into()),
    };
    let mut out = std::io::stdout().lock();
    for text in &texts {
        let vector = embedder.embed(text)?;
        if args.json {
            let record = Embedding { model: embedder.fingerprint().as_str(), dims: vector.len(), vector: &vector };
            serde_json::to_writer(&mut out, &record)?;
            writeln!(out)?;
        } else {
            let head: Vec<String> = vector.iter().take(4).map(|v| format!("{v:.4}")).collect();
            writeln!(out, "{} dims={} [{}, …]", embedder.fingerprint(), vector.len(), head.join(", "))?;
        }
    }
    Ok(())
}

fn read_json_lines(path: &PathBuf) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut texts = Vec::new();
    for (number, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let text: String = serde_json::from_str(&line)
            .map_err(|e| format!("{}:{}: expected a JSON string: {e}", path.display(), number + 1))?;
        texts.push(text);
    }
    Ok(texts)
}
