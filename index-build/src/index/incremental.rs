//! Vectors of the previous build, by chunk content hash, so an unchanged chunk is not
//! embedded again: those of the bundle already in the output folder, and those a stopped
//! build left in its journal there (`EmbedJournal`).

use lectern::bundle::{load_dir, MANIFEST_FILE};
use lectern::dense::AnyDenseIndex;
use std::collections::HashMap;
use std::path::Path;

#[derive(Default)]
pub struct PreviousVectors {
    /// The vectors of each chunk (one per window).
    by_hash: HashMap<String, Vec<Vec<f32>>>,
    /// Why nothing could be reused, when that is the case (shown in the summary).
    pub not_reused: Option<String>,
}

impl PreviousVectors {
    /// Reads the bundle in `dir`, if there is one built with the same model.
    pub fn load(dir: &Path, fingerprint: &str) -> Self {
        if !dir.join(MANIFEST_FILE).exists() {
            return PreviousVectors { not_reused: Some("no previous index".into()), ..Default::default() };
        }
        let bundle = match load_dir(dir) {
            Ok(bundle) => bundle,
            Err(e) => {
                return PreviousVectors {
                    not_reused: Some(format!("previous index unreadable: {e}")),
                    ..Default::default()
                }
            }
        };
        if bundle.manifest.model.fingerprint != fingerprint {
            return PreviousVectors {
                not_reused: Some("the model changed since the previous index: full rebuild".into()),
                ..Default::default()
            };
        }
        let by_hash = match &bundle.dense {
            // A bundle in a language the model does not suit has no vectors to reuse.
            None => HashMap::new(),
            Some(AnyDenseIndex::Whole(dense)) => bundle
                .chunks
                .iter()
                .enumerate()
                .filter_map(|(i, chunk)| {
                    let vectors = dense.item_vectors(i as u32)?.map(|v| dense.vectors().dequantize(v));
                    Some((chunk.hash.clone(), vectors.collect::<Option<Vec<_>>>()?))
                })
                .collect(),
            // In parts, only a section's first copy has rows; its copies share its hash.
            Some(AnyDenseIndex::Parts(dense)) => {
                let mut by_hash: HashMap<String, Vec<Vec<f32>>> = HashMap::new();
                for (item, vector) in dense.attached_vectors() {
                    if let Some(chunk) = bundle.chunks.get(item as usize) {
                        by_hash.entry(chunk.hash.clone()).or_default().push(vector);
                    }
                }
                by_hash
            }
        };
        PreviousVectors { by_hash, not_reused: None }
    }

    /// Adds the vectors a stopped build left in its journal (they were embedded from the
    /// same text as the previous bundle's, or from newer text).
    pub fn extend(&mut self, journaled: HashMap<String, Vec<Vec<f32>>>) {
        self.by_hash.extend(journaled);
    }

    pub fn get(&self, hash: &str) -> Option<&Vec<Vec<f32>>> {
        self.by_hash.get(hash)
    }
}
