//! The doc files of one version: everything under its folder that matches the
//! instance's `include` globs and none of its `exclude` globs (Docusaurus'
//! defaults leave out `_partials`, `_folders/`, tests), hidden entries skipped
//! as globby does.

use crate::site::error::SiteError;
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// Folders nested deeper than this are not followed (a guard against
/// symlink loops that canonicalisation cannot see).
const MAX_DEPTH: usize = 64;

/// Doc files under `content_dir` as `/`-separated relative paths, sorted, and
/// notes about glob patterns that could not be used.
pub fn list_doc_files(
    content_dir: &Path,
    include: &[String],
    exclude: &[String],
) -> Result<(Vec<String>, Vec<String>), SiteError> {
    let mut notes = Vec::new();
    let include_set = glob_set(include, &mut notes);
    let exclude_set = glob_set(exclude, &mut notes);
    let mut files = Vec::new();
    let mut visited = HashSet::new();
    walk(content_dir, "", 0, &mut visited, &mut |relative| {
        if include_set.is_match(relative) && !exclude_set.is_match(relative) {
            files.push(relative.to_string());
        }
    })
    .map_err(|source| SiteError::DocsFolderUnreadable { path: content_dir.to_path_buf(), source })?;
    files.sort();
    Ok((files, notes))
}

fn glob_set(patterns: &[String], notes: &mut Vec<String>) -> GlobSet {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        match GlobBuilder::new(pattern).literal_separator(true).build() {
            Ok(glob) => {
                builder.add(glob);
            }
            Err(error) => notes.push(format!("glob pattern \"{pattern}\" is not supported ({error}); ignored")),
        }
    }
    builder.build().unwrap_or_else(|error| {
        notes.push(format!("glob patterns could not be combined ({error}); none applied"));
        GlobSet::empty()
    })
}

fn walk(
    dir: &Path,
    relative: &str,
    depth: usize,
    visited: &mut HashSet<PathBuf>,
    found: &mut dyn FnMut(&str),
) -> std::io::Result<()> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    if let Ok(canonical) = dir.canonicalize() {
        if !visited.insert(canonical) {
            return Ok(());
        }
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(Result::ok).collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        let child_relative = if relative.is_empty() { name.to_string() } else { format!("{relative}/{name}") };
        // `metadata` follows symlinks, as globby does.
        let Ok(metadata) = std::fs::metadata(entry.path()) else {
            continue;
        };
        if metadata.is_dir() {
            // An unreadable subfolder is skipped rather than failing the site.
            let _ = walk(&entry.path(), &child_relative, depth + 1, visited, found);
        } else if metadata.is_file() {
            found(&child_relative);
        }
    }
    Ok(())
}

/// `a/b/../c` → `a/c`, without touching the file system.
pub fn lexical_normalize(path: &Path) -> PathBuf {
    let mut normalized = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                let can_pop = matches!(normalized.components().next_back(), Some(Component::Normal(_)));
                if can_pop {
                    normalized.pop();
                } else {
                    normalized.push("..");
                }
            }
            other => normalized.push(other.as_os_str()),
        }
    }
    normalized
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::config::site_config::{DEFAULT_EXCLUDE, DEFAULT_INCLUDE};
    use std::fs;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn default_globs_skip_partials_tests_and_hidden_files() {
        let dir = tempfile::tempdir().unwrap();
        for file in [
            "intro.md",
            "guide/setup.mdx",
            "guide/_partial.md",
            "_shared/note.md",
            "guide/__tests__/x.md",
            ".hidden/secret.md",
            "guide/.draft.md",
            "guide/image.png",
            "guide/component.test.js",
        ] {
            let path = dir.path().join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "# x").unwrap();
        }
        let (files, notes) = list_doc_files(dir.path(), &strings(DEFAULT_INCLUDE), &strings(DEFAULT_EXCLUDE)).unwrap();
        assert_eq!(files, vec!["guide/setup.mdx", "intro.md"]);
        assert!(notes.is_empty());
    }

    #[test]
    fn custom_exclude_replaces_the_defaults() {
        let dir = tempfile::tempdir().unwrap();
        for file in ["TEMPLATE.md", "rule.md", "_partial.md"] {
            fs::write(dir.path().join(file), "# x").unwrap();
        }
        let (files, _) = list_doc_files(dir.path(), &strings(DEFAULT_INCLUDE), &strings(&["TEMPLATE.md"])).unwrap();
        assert_eq!(files, vec!["_partial.md", "rule.md"]);
    }

    #[test]
    fn bad_patterns_are_reported_not_fatal() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("a.md"), "# x").unwrap();
        let (files, notes) = list_doc_files(dir.path(), &strings(DEFAULT_INCLUDE), &strings(&["[unclosed"])).unwrap();
        assert_eq!(files, vec!["a.md"]);
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn paths_normalise_lexically() {
        assert_eq!(lexical_normalize(Path::new("/site/website/../docs/./a.md")), PathBuf::from("/site/docs/a.md"));
        assert_eq!(lexical_normalize(Path::new("../x")), PathBuf::from("../x"));
    }
}
