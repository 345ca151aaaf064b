//! `lectern inspect`: a bundle's manifest, file sizes, and whether every file is intact.

use super::CommandResult;
use lectern::bundle::{BundleReader, Catalog, FileEntry, FileKind, Shard, MANIFEST_FILE};
use std::path::{Path, PathBuf};

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

impl FileCheck {
    /// A file that names others and could not be read for them.
    fn unreadable_list(entry: &FileEntry, problem: String) -> Self {
        FileCheck { name: entry.name.clone(), bytes: 0, ok: false, problem: Some(problem) }
    }
}

pub fn run(args: InspectArgs) -> CommandResult {
    let path = args.dir.join(MANIFEST_FILE);
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let reader = BundleReader::new(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let manifest = reader.manifest().clone();
    let mut checks: Vec<FileCheck> = manifest.all_files().into_iter().map(|entry| check(&args.dir, entry).0).collect();
    // The shards, through the catalog pages that list them.
    let mut shards: Vec<FileEntry> = Vec::new();
    shards.extend(catalog_shards(&args.dir, &manifest.files.terms, &mut checks));
    shards.extend(catalog_shards(&args.dir, &manifest.files.chunks, &mut checks));
    if let Some(page) = &manifest.model.words {
        if let Some(content) = check(&args.dir, page).1 {
            match reader.word_page(&content) {
                Ok(list) => shards.extend(list),
                Err(e) => checks.push(FileCheck::unreadable_list(page, e.to_string())),
            }
        }
    }
    checks.extend(shards.iter().map(|entry| check(&args.dir, entry).0));
    checks.extend(numbered_shards(&args.dir, &reader));
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
        let kind = |c: &FileCheck| FileKind::of(&c.name);
        // Shards are many and alike: one line per kind, unless broken.
        for check in checks.iter().filter(|c| !kind(c).is_some_and(FileKind::is_shard) || !c.ok) {
            let status = check.problem.as_deref().unwrap_or("ok");
            println!("  {:>12} bytes  {:<40} {status}", check.bytes, check.name);
        }
        for shard_kind in FileKind::ALL.into_iter().filter(|k| k.is_shard()) {
            let group: Vec<&FileCheck> = checks.iter().filter(|c| kind(c) == Some(shard_kind)).collect();
            let ok = group.iter().filter(|c| c.ok).count();
            println!(
                "  {:>12} bytes  {}.* ({} shards, {ok} ok)",
                group.iter().map(|c| c.bytes).sum::<u64>(),
                shard_kind.stem(),
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

/// Checks `entry`'s file in `dir`, and returns its bytes when it could be read.
fn check(dir: &Path, entry: &FileEntry) -> (FileCheck, Option<Vec<u8>>) {
    let (problem, content) = match std::fs::read(dir.join(&entry.name)) {
        Ok(content) => (entry.verify(&content).err().map(|e| e.to_string()), Some(content)),
        Err(e) => (Some(format!("cannot read: {e}")), None),
    };
    (FileCheck { name: entry.name.clone(), bytes: entry.bytes, ok: problem.is_none(), problem }, content)
}

/// Checks the chunk shards by number (format 5) against their proofs.
fn numbered_shards(dir: &Path, reader: &BundleReader) -> Vec<FileCheck> {
    let Some(listing) = &reader.manifest().files.chunk_shards else { return Vec::new() };
    (0..listing.shards)
        .map(|n| {
            let name = listing.name(n);
            let (bytes, problem) = match std::fs::read(dir.join(&name)) {
                Ok(content) => (content.len() as u64, reader.numbered_shard(n, &content).err().map(|e| e.to_string())),
                Err(e) => (0, Some(format!("cannot read: {e}"))),
            };
            FileCheck { name, bytes, ok: problem.is_none(), problem }
        })
        .collect()
}

/// The files of every shard `catalog`'s pages list (the pages themselves are checked with
/// the manifest's files); a page that lists nothing readable is a failed check.
fn catalog_shards<S: Shard>(dir: &Path, catalog: &Catalog<S>, checks: &mut Vec<FileCheck>) -> Vec<FileEntry> {
    let mut files = Vec::new();
    for (page, entry) in catalog.pages().iter().enumerate() {
        if let Some(content) = check(dir, &entry.file).1 {
            match catalog.read_page(page, &content) {
                Ok(shards) => files.extend(shards.iter().flat_map(S::files).cloned()),
                Err(e) => checks.push(FileCheck::unreadable_list(&entry.file, e.to_string())),
            }
        }
    }
    files
}
