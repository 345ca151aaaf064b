//! Helpers for the site reader's tests: small sites written to a temporary folder.

/// Writes `files` (relative path, content) into a new temporary folder.
pub fn write_site(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, content) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, content).unwrap();
    }
    dir
}

/// Whether `node` runs here (tests that evaluate configs skip without it).
pub fn node_available() -> bool {
    std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success())
}
