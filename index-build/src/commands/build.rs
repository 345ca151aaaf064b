//! `lectern build`: reads the site and writes its index into a folder.
//!
//! For now the folder holds the chunks as JSON Lines plus the pages and a report; the
//! compact, embedded bundle replaces this format next.

use super::site_args::{print_summary, SiteArgs};
use super::CommandResult;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct BuildArgs {
    #[command(flatten)]
    site: SiteArgs,
    /// Where to write the index folder.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: BuildArgs) -> CommandResult {
    let report = args.site.read()?;
    // Write next to the destination, then swap, so a failed build never leaves a
    // half-written folder where the old one was.
    let staging = sibling(&args.out, ".lectern-staging")?;
    let old = sibling(&args.out, ".lectern-old")?;
    for dir in [&staging, &old] {
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
        }
    }
    std::fs::create_dir_all(&staging).map_err(|e| format!("cannot create {}: {e}", staging.display()))?;
    write_json_lines(&staging.join("chunks.jsonl"), &report.chunks)?;
    write_json_lines(&staging.join("pages.jsonl"), &report.pages)?;
    let summary = serde_json::json!({
        "site_dir": report.site_dir,
        "base_url": report.base_url,
        "pages": report.pages.len(),
        "chunks": report.chunks.len(),
        "characters": report.chunks.iter().map(|c| c.chars).sum::<usize>(),
        "skipped": report.skipped,
        "notes": report.notes,
    });
    std::fs::write(staging.join("report.json"), serde_json::to_vec_pretty(&summary)?)?;
    if args.out.exists() {
        std::fs::rename(&args.out, &old).map_err(|e| format!("cannot move {} aside: {e}", args.out.display()))?;
    }
    std::fs::rename(&staging, &args.out).map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    if old.exists() {
        std::fs::remove_dir_all(&old)?;
    }
    print_summary(&report);
    eprintln!("wrote {}", args.out.display());
    Ok(())
}

/// `<out>` with `suffix` appended to its file name, in the same folder (same file system).
fn sibling(out: &Path, suffix: &str) -> Result<PathBuf, String> {
    let name = out.file_name().ok_or_else(|| format!("--out {} has no folder name", out.display()))?;
    Ok(out.with_file_name(format!("{}{suffix}", name.to_string_lossy())))
}

fn write_json_lines<T: serde::Serialize>(path: &Path, items: &[T]) -> CommandResult {
    let file = std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    for item in items {
        serde_json::to_writer(&mut out, item)?;
        writeln!(out)?;
    }
    out.flush()?;
    Ok(())
}
