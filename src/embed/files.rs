//! Where the model lives on disk (native only; the browser gets bytes over HTTP).

use super::{EmbedError, Embedder};
use std::path::{Path, PathBuf};

/// The encodings of the model that `scripts/setup.sh model` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelVariant {
    /// Lectern's compact file (low-bit weights, `embed::compact`): what the browser downloads
    /// and what indexes are built with.
    Compact,
    /// Weight-only int8 ONNX (23 MB): the previous shipped model, kept for comparison.
    Int8,
    /// The reference f32 weights (90 MB): for parity checks.
    F32,
}

impl ModelVariant {
    pub fn file_name(self) -> &'static str {
        match self {
            ModelVariant::Compact => "model-compact.lcm",
            ModelVariant::Int8 => "model-int8.onnx",
            ModelVariant::F32 => "model-f32.onnx",
        }
    }
}

/// Paths of one model + tokenizer pair.
#[derive(Clone, Debug)]
pub struct ModelFiles {
    pub onnx: PathBuf,
    pub tokenizer: PathBuf,
}

impl ModelFiles {
    /// The default model folder: `$LECTERN_MODEL_DIR` (the npm CLI sets it to the installed
    /// model package), else `.models/all-minilm-l6-v2` in the source tree this binary was
    /// built from (a developer's checkout).
    pub fn default_dir() -> PathBuf {
        match std::env::var_os("LECTERN_MODEL_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".models/all-minilm-l6-v2"),
        }
    }

    pub fn in_dir(dir: &Path, variant: ModelVariant) -> Self {
        ModelFiles { onnx: dir.join(variant.file_name()), tokenizer: dir.join("tokenizer.json") }
    }

    /// Reads both files, with an error naming the setup command when one is missing, and
    /// checks them against the `checksums.sha256` beside the model when there is one (the
    /// model package ships it): a damaged or swapped file is refused before it is used.
    pub fn read(&self) -> Result<(Vec<u8>, Vec<u8>), EmbedError> {
        let (onnx, tokenizer) = (read(&self.onnx)?, read(&self.tokenizer)?);
        verify_checksum(&self.onnx, &onnx)?;
        verify_checksum(&self.tokenizer, &tokenizer)?;
        Ok((onnx, tokenizer))
    }

    /// Loads an embedder for single texts.
    pub fn load(&self) -> Result<Embedder, EmbedError> {
        let (onnx, tokenizer) = self.read()?;
        Embedder::from_bytes(&onnx, &tokenizer)
    }

    /// Loads an embedder that also embeds batches (index build).
    pub fn load_for_batches(&self) -> Result<Embedder, EmbedError> {
        let (onnx, tokenizer) = self.read()?;
        Embedder::from_bytes_for_batches(&onnx, &tokenizer)
    }
}

/// The list of sha256 sums (`sha256sum` format) that may lie beside the model files.
pub const CHECKSUM_FILE: &str = "checksums.sha256";

/// Checks `bytes` against the line for `path`'s file name in the `checksums.sha256` of its
/// folder; a folder without that list, or a list without that name, is not checked.
fn verify_checksum(path: &Path, bytes: &[u8]) -> Result<(), EmbedError> {
    use sha2::{Digest, Sha256};
    let list = path.with_file_name(CHECKSUM_FILE);
    let text = match std::fs::read_to_string(&list) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(EmbedError::Unreadable { path: list.display().to_string(), reason: e.to_string() }),
    };
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return Ok(()) };
    let Some(expected) = expected_sum(&text, name) else { return Ok(()) };
    let actual: String = Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect();
    if actual == expected.to_ascii_lowercase() {
        return Ok(());
    }
    Err(EmbedError::ChecksumMismatch {
        path: path.display().to_string(),
        list: list.display().to_string(),
        expected: expected.to_string(),
        actual,
    })
}

/// The sum listed for `name` in a `sha256sum` listing (`<hex>  <name>`, `*` for binary mode).
fn expected_sum<'a>(listing: &'a str, name: &str) -> Option<&'a str> {
    listing.lines().find_map(|line| {
        let (sum, file) = line.trim().split_once(char::is_whitespace)?;
        (file.trim_start().trim_start_matches('*') == name).then_some(sum)
    })
}

fn read(path: &Path) -> Result<Vec<u8>, EmbedError> {
    std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => EmbedError::ModelMissing { path: path.display().to_string() },
        _ => EmbedError::Unreadable { path: path.display().to_string(), reason: e.to_string() },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sha256sum_listings() {
        let listing = "abc  model-int8.onnx\ndef *tokenizer.json\n\n";
        assert_eq!(expected_sum(listing, "model-int8.onnx"), Some("abc"));
        assert_eq!(expected_sum(listing, "tokenizer.json"), Some("def"));
        assert_eq!(expected_sum(listing, "model-f32.onnx"), None);
    }

    #[test]
    fn a_file_that_differs_from_its_listed_sum_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("tokenizer.json");
        std::fs::write(&file, b"{}").unwrap();
        // No listing: nothing to check.
        assert!(verify_checksum(&file, b"{}").is_ok());
        let good = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";
        std::fs::write(dir.path().join(CHECKSUM_FILE), format!("{good}  tokenizer.json\n")).unwrap();
        assert!(verify_checksum(&file, b"{}").is_ok());
        let err = verify_checksum(&file, b"{ }").unwrap_err();
        assert!(matches!(err, EmbedError::ChecksumMismatch { .. }), "{err}");
        assert!(err.to_string().contains("reinstall the model package"), "{err}");
    }
}
