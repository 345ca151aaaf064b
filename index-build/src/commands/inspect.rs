//! `lectern inspect`: a bundle's manifest, file sizes, and whether every file is intact.

use super::CommandResult;
use lectern::bundle::{BundleReader, FileEntry, MANIFEST_FILE};
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
    let reader = BundleReader::new(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let manifest = reader.manifest().clone();
    let check = |entry: &FileEntry| -> (FileCheck, Option<Vec<u8>>) {
        let (problem, content) = match std::fs::read(args.dir.join(&entry.name)) {
            Ok(content) => (entry.verify(&content).err().map(|e| e.to_string()), Some(content)),
            Err(e) => (Some(format!("cannot read: {e}")), None),
        };
        (FileCheck { name: entry.name.clone(), bytes: entry.bytes, ok: problem.is_none(), problem }, content)
    };
    let mut checks: Vec<FileCheck> = manifest.all_files().into_iter().map(|entry| check(entry).0).collect();
    // The shards, through the catalog pages that list them.
    let mut shards: Vec<FileEntry> = Vec::new();
    for (page, entry) in manifest.files.terms.iter().enumerate() {
        if let Some(content) = check(&entry.file).1 {
            match reader.term_page(page, &content) {
                Ok(list) => shards.extend(list.into_iter().map(|s| s.file)),
                Err(e) => checks.push(FileCheck {
                    name: entry.file.name.clone(),
                    bytes: 0,
                    ok: false,
                    problem: Some(e.to_string()),
                }),
            }
        }
    }
    for (page, entry) in manifest.files.chunks.iter().enumerate() {
        if let Some(content) = check(&entry.file).1 {
            match reader.chunk_page(page, &content) {
                Ok(list) => shards.extend(list.into_iter().flat_map(|s| [s.meta, s.text])),
                Err(e) => checks.push(FileCheck {
                    name: entry.file.name.clone(),
                    bytes: 0,
                    ok: false,
                    problem: Some(e.to_string()),
                }),
            }
        }
    }
    if let Some(page) = &manifest.model.words {
        if let Some(content) = check(page).1 {
            match reader.word_page(&content) {
                Ok(list) => shards.extend(list),
                Err(e) => checks.push(FileCheck {
                    name: page.name.clone(),
                    bytes: 0,
                    ok: false,
                    problem: Some(e.to_string()),
                }),
            }
        }
    }
    checks.extend(shards.iter().map(|entry| check(entry).0));
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
        let is_shard = |c: &&FileCheck| ["terms.", "meta.", "text.", "words."].iter().any(|p| c.name.starts_with(p));
        for check in checks.iter().filter(|c| !is_shard(c) || !c.ok) {
            let status = check.problem.as_deref().unwrap_or("ok");
            println!("  {:>12} bytes  {:<40} {status}", check.bytes, check.name);
        }
        for prefix in ["terms.", "meta.", "text.", "words."] {
            let group: Vec<&FileCheck> = checks.iter().filter(|c| c.name.starts_with(prefix)).collect();
            let ok = group.iter().filter(|c| c.ok).count();
            println!(
                "  {:>12} bytes  {prefix}* ({} shards, {ok} ok)",
                group.iter().map(|c| c.bytes).sum::<u64>(),
                group.len()
            );
        }
        println!("  {:>12} bytes  total", checks.iter().map(|c| c.bytes).sum::<u64>() + bytes.len() as u64);
    }
    if broken > 0 {
        return Err(format!("{broken} file(s) of {} are missing or corrupt", args.dir.display()).into());
    }
    Ok(())
}
