//! `lectern chunks`: what would be indexed, without embedding anything.

use super::site_args::{print_summary, SiteArgs};
use super::CommandResult;
use crate::index::ChunkEmbedder;
use lectern::embed::{ModelFiles, ModelVariant};
use lectern::heading::join_heading_path;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ChunksArgs {
    #[command(flatten)]
    site: SiteArgs,
    /// Print every chunk as a JSON line (chunk_id, url, heading_path, module, chapter_id, chars,
    /// text, and `parts`: the short sections merged into it, each with its URL, heading path
    /// and byte range in the text).
    #[arg(long)]
    json: bool,
    /// With --json, add `windows`: the texts `lectern build` embeds for the chunk (its heading
    /// path in front; several overlapping windows for a long text). Loads the model.
    #[arg(long, requires = "json")]
    windows: bool,
    /// Folder holding model-compact.lcm and tokenizer.json (for --windows).
    #[arg(long, default_value_os_t = ModelFiles::default_dir())]
    model_dir: PathBuf,
}

#[derive(serde::Serialize)]
struct ChunkLine<'a> {
    chunk_id: &'a str,
    url: &'a str,
    heading_path: &'a [String],
    module: &'a str,
    chapter_id: &'a str,
    chars: usize,
    text: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    parts: &'a [lectern::bundle::SectionPart],
    /// What the model embeds for the chunk (--windows).
    #[serde(skip_serializing_if = "Option::is_none")]
    windows: Option<Vec<String>>,
}

pub fn run(args: ChunksArgs) -> CommandResult {
    let report = args.site.read()?;
    let embedder =
        args.windows.then(|| ModelFiles::in_dir(&args.model_dir, ModelVariant::Compact).load()).transpose()?;
    let mut out = std::io::stdout().lock();
    for chunk in &report.chunks {
        if args.json {
            // The call `lectern build` makes (index::embed_chunks).
            let windows =
                embedder.as_ref().map(|e| ChunkEmbedder::windows(e, &chunk.heading_path, &chunk.text)).transpose()?;
            let line = ChunkLine {
                chunk_id: &chunk.chunk_id,
                url: &chunk.url,
                heading_path: &chunk.heading_path,
                module: &chunk.module,
                chapter_id: &chunk.chapter_id,
                chars: chunk.chars,
                text: &chunk.text,
                parts: &chunk.parts,
                windows,
            };
            serde_json::to_writer(&mut out, &line)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{:>5}  {:<60}  {}", chunk.chars, chunk.url, join_heading_path(&chunk.heading_path))?;
        }
    }
    print_summary(&report);
    Ok(())
}
