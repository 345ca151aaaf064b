//! `manifest.json`: the one file of a bundle with a fixed name. It says which format and
//! model the index was built with, and names every other file with its size and sha256.

use super::checksum::sha256_hex;
use super::BundleError;
use serde::{Deserialize, Serialize};

/// Bumped whenever a reader of the previous version could misread a new bundle.
pub const FORMAT_VERSION: u32 = 1;
pub const FORMAT_NAME: &str = "lectern-index";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    pub format: String,
    pub format_version: u32,
    /// The Lectern version that wrote the bundle.
    pub created_by: String,
    pub model: ModelInfo,
    pub site: SiteInfo,
    pub counts: Counts,
    pub files: Files,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ModelInfo {
    /// sha256 over the model file and tokenizer bytes (see `embed::ModelFingerprint`).
    pub fingerprint: String,
    pub dims: usize,
    /// The model and tokenizer, when the bundle carries them. The model is the compact file
    /// (`embed::compact`), under the key `weights`.
    #[serde(default, rename = "weights", skip_serializing_if = "Option::is_none")]
    pub onnx: Option<FileEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokenizer: Option<FileEntry>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SiteInfo {
    pub base_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_url: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Counts {
    pub pages: usize,
    pub chunks: usize,
    /// Characters of chunk text.
    pub characters: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Files {
    /// Chunk metadata without text (`ChunkMeta` list, JSON).
    pub chunks: FileEntry,
    /// BM25 postings (`lexical::LexicalIndex` bytes).
    pub lexical: FileEntry,
    /// int8 vectors and HNSW graph (`dense::DenseIndex` bytes).
    pub dense: FileEntry,
    /// Chunk text in shards of consecutive chunks, fetched per result.
    pub text: Vec<TextShardEntry>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FileEntry {
    pub name: String,
    pub bytes: u64,
    pub sha256: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TextShardEntry {
    #[serde(flatten)]
    pub file: FileEntry,
    /// Index of the first chunk in the shard; the shard holds `count` consecutive chunks.
    pub first_chunk: usize,
    pub count: usize,
}

impl FileEntry {
    pub fn describe(name: String, bytes: &[u8]) -> Self {
        FileEntry { name, bytes: bytes.len() as u64, sha256: sha256_hex(bytes) }
    }

    /// Refuses bytes whose size or checksum differ from what the manifest recorded.
    pub fn verify(&self, bytes: &[u8]) -> Result<(), BundleError> {
        if bytes.len() as u64 != self.bytes {
            return Err(BundleError::WrongSize {
                name: self.name.clone(),
                expected: self.bytes,
                actual: bytes.len() as u64,
            });
        }
        if sha256_hex(bytes) != self.sha256 {
            return Err(BundleError::ChecksumMismatch { name: self.name.clone() });
        }
        Ok(())
    }
}

impl Manifest {
    /// Parses and checks the format and internal consistency (not the other files).
    pub fn parse(bytes: &[u8]) -> Result<Manifest, BundleError> {
        // Read the version first, so a future format with other fields still gets the
        // "wrong version" message rather than a parse error.
        #[derive(Deserialize)]
        struct Head {
            format: String,
            format_version: u32,
        }
        let head: Head = serde_json::from_slice(bytes).map_err(|e| BundleError::ManifestInvalid(e.to_string()))?;
        if head.format != FORMAT_NAME {
            return Err(BundleError::ManifestInvalid(format!("format is {:?}, not {FORMAT_NAME:?}", head.format)));
        }
        if head.format_version != FORMAT_VERSION {
            return Err(BundleError::WrongVersion { found: head.format_version, expected: FORMAT_VERSION });
        }
        let manifest: Manifest =
            serde_json::from_slice(bytes).map_err(|e| BundleError::ManifestInvalid(e.to_string()))?;
        manifest.check_consistency()?;
        Ok(manifest)
    }

    /// Refuses an index built with another model than the one about to embed queries.
    pub fn check_model(&self, fingerprint: &str) -> Result<(), BundleError> {
        if self.model.fingerprint != fingerprint {
            return Err(BundleError::WrongModel {
                index: self.model.fingerprint.clone(),
                model: fingerprint.to_string(),
            });
        }
        Ok(())
    }

    /// Every file the manifest names, model files included.
    pub fn all_files(&self) -> Vec<&FileEntry> {
        let mut files = vec![&self.files.chunks, &self.files.lexical, &self.files.dense];
        files.extend(self.files.text.iter().map(|t| &t.file));
        files.extend(self.model.onnx.iter().chain(self.model.tokenizer.iter()));
        files
    }

    /// The text shard holding chunk `index`.
    pub fn text_shard_of(&self, index: usize) -> Option<&TextShardEntry> {
        self.files.text.iter().find(|s| index >= s.first_chunk && index < s.first_chunk + s.count)
    }

    fn check_consistency(&self) -> Result<(), BundleError> {
        let mut next = 0;
        for shard in &self.files.text {
            if shard.first_chunk != next || shard.count == 0 {
                return Err(BundleError::Inconsistent(format!(
                    "text shard {} starts at chunk {} (expected {next})",
                    shard.file.name, shard.first_chunk
                )));
            }
            next += shard.count;
        }
        if next != self.counts.chunks {
            return Err(BundleError::Inconsistent(format!(
                "text shards hold {next} chunks, the manifest counts {}",
                self.counts.chunks
            )));
        }
        for file in self.all_files() {
            // Names are relative file names inside the bundle folder, nothing else.
            if file.name.is_empty() || file.name.contains(['/', '\\']) || file.name.starts_with('.') {
                return Err(BundleError::Inconsistent(format!("file name {:?} is not a plain file name", file.name)));
            }
        }
        Ok(())
    }
}
