//! A bundle folder on disk (native): loading everything, and writing atomically.

use super::reader::BundleReader;
use super::{BundleError, BundleOutput, ChunkMeta, Manifest, MANIFEST_FILE};
use crate::dense::AnyDenseIndex;
use crate::lexical::LexicalIndex;
use std::path::{Path, PathBuf};

/// Everything in a bundle folder, verified and parsed.
pub struct LoadedBundle {
    pub manifest: Manifest,
    pub chunks: Vec<ChunkMeta>,
    pub lexical: LexicalIndex,
    /// Whole, or in parts with every part attached; none in an index whose language the
    /// model does not suit (searched by keywords only).
    pub dense: Option<AnyDenseIndex>,
    /// Chunk texts, in chunk order.
    pub texts: Vec<String>,
}

/// Reads and verifies every file of the bundle in `dir`: all shards, assembled into the
/// whole lexical index and every chunk's metadata and text, and every dense part.
pub fn load_dir(dir: &Path) -> Result<LoadedBundle, BundleError> {
    load_with(|name: &str| {
        std::fs::read(dir.join(name))
            .map_err(|e| BundleError::MissingFile { name: dir.join(name).display().to_string(), reason: e.to_string() })
    })
}

/// As [`load_dir`], reading each file (by its name in the bundle) with `read`.
pub fn load_with(read: impl Fn(&str) -> Result<Vec<u8>, BundleError>) -> Result<LoadedBundle, BundleError> {
    let reader = BundleReader::new(&read(MANIFEST_FILE)?)?;
    let files = &reader.manifest().files;
    reader.chunk_table(&read(&files.chunk_table.name)?)?;
    if let Some(pages) = &files.pages {
        reader.page_table(&read(&pages.name)?)?;
    }
    let mut lexical = reader.empty_lexical()?;
    let mut term_shards = Vec::new();
    for (page, entry) in files.terms.pages().iter().enumerate() {
        term_shards.extend(files.terms.read_page(page, &read(&entry.file.name)?)?.into_iter().map(|s| (page, s)));
    }
    for (i, (page, shard)) in term_shards.iter().enumerate() {
        let next = term_shards.get(i + 1).map(|(_, s)| s.first_term.as_str());
        let terms = reader.term_shard(shard, next, &read(&shard.file.name)?, *page)?;
        lexical
            .attach_terms(terms)
            .map_err(|e| BundleError::Corrupt { name: shard.file.name.clone(), reason: e.to_string() })?;
    }
    let stats = lexical.stats();
    if stats != files.lexical || lexical.known_length_total() != stats.total_length {
        return Err(BundleError::Inconsistent(format!(
            "the term shards hold {} terms and {} postings, the manifest says {} and {}",
            stats.term_count, stats.posting_count, files.lexical.term_count, files.lexical.posting_count
        )));
    }
    let mut chunks = Vec::with_capacity(reader.manifest().counts.chunks);
    let mut texts = Vec::with_capacity(chunks.capacity());
    for (page, entry) in files.chunks.pages().iter().enumerate() {
        for shard in files.chunks.read_page(page, &read(&entry.file.name)?)? {
            chunks.extend(reader.meta_shard(&shard, &read(&shard.meta.name)?, page)?);
            texts.extend(reader.text_shard(&shard, &read(&shard.text.name)?, page)?);
        }
    }
    if let Some(numbered) = &files.chunk_shards {
        for n in 0..numbered.shards {
            let (metas, shard_texts) = reader.numbered_shard(n, &read(&numbered.name(n))?)?;
            chunks.extend(metas);
            texts.extend(shard_texts);
        }
    }
    let mut dense = match &files.dense {
        Some(entry) => Some(reader.dense(&read(&entry.name)?)?),
        None => None,
    };
    if let Some(index) = dense.as_mut().and_then(AnyDenseIndex::parts_mut) {
        // Part order attaches each partition's codes before its rows (the rows follow them).
        match &files.dense_parts {
            Some(catalog) => {
                for (page, entry) in catalog.pages().iter().enumerate() {
                    for part in catalog.read_page(page, &read(&entry.file.name)?)? {
                        reader.attach_dense_part(index, &part, &read(&part.file.name)?, page)?;
                    }
                }
            }
            None => {
                for part in 0..index.part_count() {
                    let file = reader.dense_part_file(index, part)?;
                    reader.attach_listed_dense_part(index, part, &read(&file.name)?)?;
                }
            }
        }
    }
    Ok(LoadedBundle { manifest: reader.manifest().clone(), chunks, lexical, dense, texts })
}

/// Writes `output` as the folder `dir`: first into a sibling staging folder, then swapped
/// in, so a failed build never leaves a half-written bundle where the old one was. Folders
/// inside `dir` (the bundles of the site's other locales) are kept.
pub fn write_dir(dir: &Path, output: &BundleOutput) -> std::io::Result<()> {
    let staging = sibling(dir, "staging")?;
    let old = sibling(dir, "old")?;
    for stale in [&staging, &old] {
        if stale.exists() {
            std::fs::remove_dir_all(stale)?;
        }
    }
    std::fs::create_dir_all(&staging)?;
    let written = output
        .files
        .iter()
        .try_for_each(|(name, bytes)| std::fs::write(staging.join(name), bytes))
        .and_then(|()| std::fs::write(staging.join(MANIFEST_FILE), output.manifest_json()));
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(e);
    }
    if dir.exists() {
        // The bundles of a site's other locales live in folders inside its default locale's
        // (`lectern build`): they are not this bundle's to replace, and survive its rewrite.
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if entry.file_type()?.is_dir() && !hidden {
                std::fs::rename(entry.path(), staging.join(entry.file_name()))?;
            }
        }
        std::fs::rename(dir, &old)?;
    }
    std::fs::rename(&staging, dir)?;
    if old.exists() {
        std::fs::remove_dir_all(&old)?;
    }
    Ok(())
}

fn sibling(dir: &Path, what: &str) -> std::io::Result<PathBuf> {
    let name = dir.file_name().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{} has no folder name", dir.display()))
    })?;
    Ok(dir.with_file_name(format!(".{}.lectern-{what}", name.to_string_lossy())))
}
