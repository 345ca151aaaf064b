//! `lectern chunks`: what would be indexed, without embedding anything.

use super::site_args::{print_summary, SiteArgs};
use super::CommandResult;
use std::io::Write;

#[derive(clap::Args)]
pub struct ChunksArgs {
    #[command(flatten)]
    site: SiteArgs,
    /// Print every chunk as a JSON line (chunk_id, url, heading_path, module, chapter_id, chars, text, embed_text).
    #[arg(long)]
    json: bool,
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
    /// What the model embeds: the heading path, then the text.
    embed_text: &'a str,
}

pub fn run(args: ChunksArgs) -> CommandResult {
    let report = args.site.read()?;
    let mut out = std::io::stdout().lock();
    for chunk in &report.chunks {
        if args.json {
            let line = ChunkLine {
                chunk_id: &chunk.chunk_id,
                url: &chunk.url,
                heading_path: &chunk.heading_path,
                module: &chunk.module,
                chapter_id: &chunk.chapter_id,
                chars: chunk.chars,
                text: &chunk.text,
                embed_text: &chunk.embed_text,
            };
            serde_json::to_writer(&mut out, &line)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{:>5}  {:<60}  {}", chunk.chars, chunk.url, chunk.heading_path.join(" › "))?;
        }
    }
    print_summary(&report);
    Ok(())
}
