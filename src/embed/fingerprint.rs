use sha2::{Digest, Sha256};
use std::fmt;

/// Identifies a model + tokenizer pair by content, so an index built with one model is
/// never searched with vectors from another.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct ModelFingerprint(String);

impl ModelFingerprint {
    /// `sha256:` + the first 16 bytes (hex) of sha256(sha256(model) ‖ sha256(tokenizer)), where
    /// the model is the compact file's head (`compact::head`): its decoding is fixed by its
    /// format version and it holds the checksum of every word-table shard, so the hash
    /// covers the weights that run, and a browser that fetched only the head gets the same
    /// fingerprint as `lectern build` with the whole file. Any other file is hashed whole.
    pub fn of(model: &[u8], tokenizer_json: &[u8]) -> Self {
        let mut outer = Sha256::new();
        outer.update(Sha256::digest(super::compact::head(model)));
        outer.update(Sha256::digest(tokenizer_json));
        let digest = outer.finalize();
        let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
        ModelFingerprint(format!("sha256:{hex}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ModelFingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depends_on_both_files_and_their_order() {
        let a = ModelFingerprint::of(b"model", b"tok");
        assert_eq!(a, ModelFingerprint::of(b"model", b"tok"));
        assert_ne!(a, ModelFingerprint::of(b"model2", b"tok"));
        assert_ne!(a, ModelFingerprint::of(b"model", b"tok2"));
        assert_ne!(a, ModelFingerprint::of(b"tok", b"model"));
        assert!(a.as_str().starts_with("sha256:") && a.as_str().len() == 7 + 32);
    }
}
