//! Content hashes: file checksums, content-addressed file names, per-chunk hashes.

use sha2::{Digest, Sha256};

/// Lower-case hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `stem.<first 12 hex of sha256>.ext`: a name that changes whenever the content does,
/// so a static host can cache every file but the manifest forever.
pub(super) fn content_addressed_name(stem: &str, ext: &str, bytes: &[u8]) -> String {
    let hash = sha256_hex(bytes);
    format!("{stem}.{}.{ext}", &hash[..12])
}

/// The same name from the start of the file's sha256 (at least 6 bytes): how a file listed
/// by a digest rather than by name (a dense index's parts) is named.
pub(super) fn name_for_digest(stem: &str, ext: &str, digest: &[u8]) -> String {
    format!("{stem}.{}.{ext}", hex(&digest[..digest.len().min(6)]))
}

/// The hash that decides whether a chunk must be re-embedded: what is embedded, and with
/// which model.
pub fn chunk_content_hash(model_fingerprint: &str, embed_text: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(model_fingerprint.as_bytes());
    hasher.update([0]);
    hasher.update(embed_text.as_bytes());
    hex(&hasher.finalize()[..8])
}

/// Lower-case hex of `bytes`.
pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_change_with_content() {
        let a = content_addressed_name("meta", "json", b"one");
        assert!(a.starts_with("meta.") && a.ends_with(".json") && a.len() == "meta..json".len() + 12);
        assert_ne!(a, content_addressed_name("meta", "json", b"two"));
    }

    #[test]
    fn a_name_from_a_digest_is_the_content_addressed_name() {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(b"one");
        assert_eq!(
            name_for_digest("dense-part", "bin", &digest[..16]),
            content_addressed_name("dense-part", "bin", b"one")
        );
    }

    #[test]
    fn chunk_hash_depends_on_model_and_text() {
        let h = chunk_content_hash("sha256:aa", "text");
        assert_eq!(h.len(), 16);
        assert_ne!(h, chunk_content_hash("sha256:bb", "text"));
        assert_ne!(h, chunk_content_hash("sha256:aa", "text2"));
    }
}
