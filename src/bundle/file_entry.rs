//! How the bundle names a file it holds: its name (relative, content-addressed), size and
//! sha256 — what the manifest and the catalog pages list, and what every file read is
//! checked against.

use super::checksum::sha256_hex;
use super::error::BundleError;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct FileEntry {
    pub name: String,
    pub bytes: u64,
    /// Lower-case hex: the whole sha256, or (a dense index's parts, listed in binary by its
    /// head) its first 16 bytes.
    pub sha256: String,
}

/// Hex digits of the shortest sha256 a listing may give: 128 bits.
const SHORTEST_SHA256_HEX: usize = 32;

impl FileEntry {
    pub fn describe(name: String, bytes: &[u8]) -> Self {
        FileEntry { name, bytes: bytes.len() as u64, sha256: sha256_hex(bytes) }
    }

    /// A dense index part as its head or its partition's codes list it (`PartFile`).
    pub fn dense_part(file: &crate::dense::partitioned::PartFile) -> Self {
        let kind = super::FileKind::DensePart;
        FileEntry {
            name: super::checksum::name_for_digest(kind.stem(), kind.extension(), &file.sha256_prefix),
            bytes: u64::from(file.bytes),
            sha256: super::checksum::hex(&file.sha256_prefix),
        }
    }

    /// Refuses bytes whose size or checksum differ from what the manifest recorded.
    pub fn verify(&self, bytes: &[u8]) -> Result<(), BundleError> {
        self.verify_listed(bytes, "the manifest")
    }

    /// Refuses bytes whose size or checksum differ from what `listed_in` recorded (the page
    /// that lists a shard, "term catalog page 3": what the error names).
    pub fn verify_listed(&self, bytes: &[u8], listed_in: &str) -> Result<(), BundleError> {
        if bytes.len() as u64 != self.bytes {
            return Err(BundleError::WrongSize {
                name: self.name.clone(),
                expected: self.bytes,
                actual: bytes.len() as u64,
                listed_in: listed_in.into(),
            });
        }
        if self.sha256.len() < SHORTEST_SHA256_HEX || !sha256_hex(bytes).starts_with(&self.sha256) {
            return Err(BundleError::ChecksumMismatch { name: self.name.clone(), listed_in: listed_in.into() });
        }
        Ok(())
    }
}

/// Names are relative file names inside the bundle folder, nothing else.
pub(super) fn check_name(name: &str) -> Result<(), BundleError> {
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(BundleError::Inconsistent(format!("file name {name:?} is not a plain file name")));
    }
    Ok(())
}
