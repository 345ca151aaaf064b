//! `lectern inspect`: a bundle's manifest, file sizes, and whether every file is intact.

use super::CommandResult;
use lectern::bundle::{Manifest, MANIFEST_FILE};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct InspectArgs {
    /// The bundle folder.
    dir: PathBuf,
    /// Print the manifest and the check results as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct FileCheck {
    name: String,
    bytes: u64,
    ok: bool,
    problem: Option<String>,
}

pub fn run(args: InspectArgs) -> CommandResult {
    let path = args.dir.join(MANIFEST_FILE);
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let manifest = Manifest::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let checks: Vec<FileCheck> = manifest
        .all_files()
        .into_iter()
        .map(|entry| {
            let problem = match std::fs::read(args.dir.join(&entry.name)) {
                Ok(content) => entry.verify(&content).err().map(|e| e.to_string()),
                Err(e) => Some(format!("cannot read: {e}")),
            };
            FileCheck { name: entry.name.clone(), bytes: entry.bytes, ok: problem.is_none(), problem }
        })
        .collect();
    let broken = checks.iter().filter(|c| !c.ok).count();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "manifest": manifest, "files": checks }))?);
    } else {
        let m = &manifest;
        println!("{} v{} by {}", m.format, m.format_version, m.created_by);
        println!("model {} ({} dims)", m.model.fingerprint, m.model.dims);
        println!(
            "{} pages, {} chunks, {} characters; base URL {}",
            m.counts.pages, m.counts.chunks, m.counts.characters, m.site.base_url
        );
        for check in &checks {
            let status = check.problem.as_deref().unwrap_or("ok");
            println!("  {:>12} bytes  {:<40} {status}", check.bytes, check.name);
        }
        println!("  {:>12} bytes  total", checks.iter().map(|c| c.bytes).sum::<u64>() + bytes.len() as u64);
    }
    if broken > 0 {
        return Err(format!("{broken} file(s) of {} are missing or corrupt", args.dir.display()).into());
    }
    Ok(())
}
