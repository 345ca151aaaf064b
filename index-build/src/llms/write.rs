//! Writing the llms files into their folder: a fresh folder swapped in for the old one, so
//! a page removed from the site leaves no twin behind and a failed write leaves the last good
//! folder.

use super::{llms_files, LlmsError, LlmsFileKind, LlmsOptions, TwinSuffixes, TWIN_SUFFIXES};
use crate::site::SiteReport;
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What was written, for the build's summary (the plugin reads it).
#[derive(Debug, Clone, Serialize)]
pub struct LlmsSummary {
    pub dir: PathBuf,
    /// Bytes of llms.txt, when written.
    pub llms_txt_bytes: Option<u64>,
    /// Bytes of llms-full.txt, when written.
    pub llms_full_txt_bytes: Option<u64>,
    /// The Markdown twins, when written.
    pub markdown_twins: Option<TwinsSummary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TwinsSummary {
    pub count: usize,
    pub bytes: u64,
    /// How a page's URL becomes its twin's (`twin::twin_url`): the plugin links each docs
    /// page's twin with these, so the rule is not written twice.
    pub suffixes: TwinSuffixes,
    /// The docs instances and versions whose pages have twins.
    pub versions: Vec<TwinnedVersion>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct TwinnedVersion {
    pub instance: String,
    pub version: String,
}

/// Writes the files `options` asks for into `dir` (replacing what it held) and says what.
pub fn write_llms(report: &SiteReport, options: &LlmsOptions, dir: &Path) -> Result<LlmsSummary, LlmsError> {
    let files = llms_files(report, options)?;
    let failed = |path: &Path| {
        let path = path.to_path_buf();
        move |source| LlmsError::Write { path, source }
    };
    let fresh = sibling(dir, "new");
    let old = sibling(dir, "old");
    for leftover in [&fresh, &old] {
        if leftover.exists() {
            std::fs::remove_dir_all(leftover).map_err(failed(leftover))?;
        }
    }
    for file in &files {
        let path = fresh.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(failed(parent))?;
        }
        std::fs::write(&path, &file.text).map_err(failed(&path))?;
    }
    std::fs::create_dir_all(&fresh).map_err(failed(&fresh))?;
    if dir.exists() {
        std::fs::rename(dir, &old).map_err(failed(dir))?;
    }
    std::fs::rename(&fresh, dir).map_err(failed(dir))?;
    if old.exists() {
        std::fs::remove_dir_all(&old).map_err(failed(&old))?;
    }

    let bytes_of = |kind: LlmsFileKind| files.iter().find(|f| f.kind == kind).map(|f| f.text.len() as u64);
    let twins: Vec<_> = files.iter().filter(|f| f.kind == LlmsFileKind::MarkdownTwin).collect();
    let versions: BTreeSet<TwinnedVersion> = report
        .pages
        .iter()
        .map(|p| TwinnedVersion {
            instance: p.docs_instance.clone(),
            version: p.version.clone().unwrap_or_else(|| crate::site::versions::CURRENT_VERSION.to_string()),
        })
        .collect();
    Ok(LlmsSummary {
        dir: std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()),
        llms_txt_bytes: bytes_of(LlmsFileKind::LlmsTxt),
        llms_full_txt_bytes: bytes_of(LlmsFileKind::LlmsFullTxt),
        markdown_twins: options.markdown_twins.then(|| TwinsSummary {
            count: twins.len(),
            bytes: twins.iter().map(|f| f.text.len() as u64).sum(),
            suffixes: TWIN_SUFFIXES,
            versions: versions.into_iter().collect(),
        }),
    })
}

/// `<dir>.<what>` beside `dir`.
fn sibling(dir: &Path, what: &str) -> PathBuf {
    let mut name = dir.file_name().map(|n| n.to_os_string()).unwrap_or_else(|| "llms".into());
    name.push(format!(".{what}"));
    dir.with_file_name(name)
}
