//! The vectors embedded so far by the build under way, appended to a file in the bundle
//! folder as each chunk is done, so a build that is stopped (killed, timed out in CI, out of
//! memory) loses nothing it embedded: the next build reads the file back and embeds only
//! the rest. A build that finishes replaces the folder, file and all, since the new bundle
//! holds every vector itself (`PreviousVectors` reads them from there next time).
//!
//! The file: a header line, the model's fingerprint and the vector size, then one record per
//! chunk (its content hash, its window count, each window's vector as little-endian f32).
//! A torn last record (the build was stopped mid-write) is dropped and overwritten. A file
//! written for another model, or unreadable, is started again: it is only a cache.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The journal's name inside the bundle folder (a dot file: no bundle file is named so).
pub const JOURNAL_FILE: &str = ".lectern-embedded";

const MAGIC: &[u8] = b"LECTERN-EMBEDDED 1\n";

/// Vectors by chunk content hash, one per window.
pub type VectorsByHash = HashMap<String, Vec<Vec<f32>>>;

pub struct EmbedJournal {
    path: PathBuf,
    dims: usize,
    /// None once a write failed: the build goes on without its journal.
    writer: Option<BufWriter<File>>,
    /// Why the journal stopped being written, if it did.
    pub error: Option<String>,
}

impl EmbedJournal {
    /// Opens the journal in the bundle folder `dir` (creating the folder if need be), returns
    /// the vectors a stopped build of the same model left in it, and appends after them.
    pub fn open(dir: &Path, fingerprint: &str, dims: usize) -> (EmbedJournal, VectorsByHash) {
        let path = dir.join(JOURNAL_FILE);
        let (kept, valid_len) = match std::fs::read(&path) {
            Ok(bytes) => read_records(&bytes, fingerprint, dims),
            Err(_) => (VectorsByHash::new(), 0),
        };
        let mut journal = EmbedJournal { path, dims, writer: None, error: None };
        match journal.start(dir, fingerprint, valid_len) {
            Ok(writer) => journal.writer = Some(writer),
            Err(e) => journal.error = Some(format!("cannot write {}: {e}", journal.path.display())),
        }
        (journal, kept)
    }

    /// The file, cut after its last whole record (or started with a header when it had none).
    fn start(&self, dir: &Path, fingerprint: &str, valid_len: u64) -> std::io::Result<BufWriter<File>> {
        std::fs::create_dir_all(dir)?;
        let mut file = OpenOptions::new().create(true).truncate(false).read(true).write(true).open(&self.path)?;
        file.set_len(valid_len)?;
        file.seek(SeekFrom::End(0))?;
        let mut writer = BufWriter::new(file);
        if valid_len == 0 {
            writer.write_all(MAGIC)?;
            write_len(&mut writer, fingerprint.len())?;
            writer.write_all(fingerprint.as_bytes())?;
            write_len(&mut writer, self.dims)?;
            writer.flush()?;
        }
        Ok(writer)
    }

    /// Appends one chunk's vectors and flushes them to the file.
    pub fn record(&mut self, hash: &str, vectors: &[&Vec<f32>]) {
        let Some(writer) = self.writer.as_mut() else { return };
        let written = (|| {
            write_len(writer, hash.len())?;
            writer.write_all(hash.as_bytes())?;
            write_len(writer, vectors.len())?;
            for vector in vectors {
                if vector.len() != self.dims {
                    return Err(std::io::Error::other(format!(
                        "a vector of {} values, not {}",
                        vector.len(),
                        self.dims
                    )));
                }
                for value in vector.iter() {
                    writer.write_all(&value.to_le_bytes())?;
                }
            }
            writer.flush()
        })();
        if let Err(e) = written {
            self.error = Some(format!("cannot write {}: {e}", self.path.display()));
            self.writer = None;
        }
    }
}

fn write_len(writer: &mut impl Write, len: usize) -> std::io::Result<()> {
    let len = u32::try_from(len).map_err(|_| std::io::Error::other("a length over 4 GB"))?;
    writer.write_all(&len.to_le_bytes())
}

/// The whole records of a journal written for `fingerprint` and `dims`, and the length of the
/// file they fill (0 when the file is of another model or not a journal: start it again).
fn read_records(bytes: &[u8], fingerprint: &str, dims: usize) -> (VectorsByHash, u64) {
    let mut reader = bytes;
    let header_matches = (|| {
        let mut magic = [0u8; MAGIC.len()];
        reader.read_exact(&mut magic).ok()?;
        let found = read_bytes(&mut reader)?;
        let found_dims = read_len(&mut reader)?;
        (magic == MAGIC && found == fingerprint.as_bytes() && found_dims == dims).then_some(())
    })();
    let mut records = VectorsByHash::new();
    if header_matches.is_none() {
        return (records, 0);
    }
    let mut valid_len = bytes.len() - reader.len();
    while let Some((hash, vectors)) = read_record(&mut reader, dims) {
        records.insert(hash, vectors);
        valid_len = bytes.len() - reader.len();
    }
    (records, valid_len as u64)
}

fn read_record(reader: &mut &[u8], dims: usize) -> Option<(String, Vec<Vec<f32>>)> {
    let hash = String::from_utf8(read_bytes(reader)?).ok()?;
    let windows = read_len(reader)?;
    let mut vectors = Vec::with_capacity(windows.min(1024));
    for _ in 0..windows {
        let raw = reader.get(..dims.checked_mul(4)?)?;
        vectors.push(raw.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect());
        *reader = &reader[raw.len()..];
    }
    Some((hash, vectors))
}

fn read_len(reader: &mut &[u8]) -> Option<usize> {
    let mut len = [0u8; 4];
    reader.read_exact(&mut len).ok()?;
    usize::try_from(u32::from_le_bytes(len)).ok()
}

fn read_bytes(reader: &mut &[u8]) -> Option<Vec<u8>> {
    let len = read_len(reader)?;
    let bytes = reader.get(..len)?.to_vec();
    *reader = &reader[len..];
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn journal_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lectern-journal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn keeps_what_a_stopped_build_embedded() {
        let dir = journal_dir("kept");
        let (mut journal, kept) = EmbedJournal::open(&dir, "sha256:a", 2);
        assert!(kept.is_empty());
        journal.record("h1", &[&vec![1.0, 2.0]]);
        journal.record("h2", &[&vec![3.0, 4.0], &vec![5.0, 6.0]]);
        drop(journal);
        let (mut journal, kept) = EmbedJournal::open(&dir, "sha256:a", 2);
        assert_eq!(kept.get("h1"), Some(&vec![vec![1.0, 2.0]]));
        assert_eq!(kept.get("h2"), Some(&vec![vec![3.0, 4.0], vec![5.0, 6.0]]));
        journal.record("h3", &[&vec![7.0, 8.0]]);
        drop(journal);
        let (_, kept) = EmbedJournal::open(&dir, "sha256:a", 2);
        assert_eq!(kept.len(), 3);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn drops_a_torn_record_and_appends_after_the_last_whole_one() {
        let dir = journal_dir("torn");
        let (mut journal, _) = EmbedJournal::open(&dir, "sha256:a", 2);
        journal.record("h1", &[&vec![1.0, 2.0]]);
        journal.record("h2", &[&vec![3.0, 4.0]]);
        drop(journal);
        let path = dir.join(JOURNAL_FILE);
        let len = std::fs::metadata(&path).unwrap().len();
        OpenOptions::new().write(true).open(&path).unwrap().set_len(len - 3).unwrap();
        let (mut journal, kept) = EmbedJournal::open(&dir, "sha256:a", 2);
        assert_eq!(kept.keys().collect::<Vec<_>>(), vec!["h1"]);
        journal.record("h3", &[&vec![5.0, 6.0]]);
        drop(journal);
        let (_, kept) = EmbedJournal::open(&dir, "sha256:a", 2);
        assert_eq!(kept.get("h3"), Some(&vec![vec![5.0, 6.0]]));
        assert_eq!(kept.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn starts_again_for_another_model_or_a_foreign_file() {
        let dir = journal_dir("model");
        let (mut journal, _) = EmbedJournal::open(&dir, "sha256:a", 2);
        journal.record("h1", &[&vec![1.0, 2.0]]);
        drop(journal);
        let (journal, kept) = EmbedJournal::open(&dir, "sha256:b", 2);
        assert!(kept.is_empty());
        drop(journal);
        // The file was started again for the new model: the old one's vectors are gone.
        let (_, kept) = EmbedJournal::open(&dir, "sha256:a", 2);
        assert!(kept.is_empty());
        std::fs::write(dir.join(JOURNAL_FILE), b"not a journal").unwrap();
        let (_, kept) = EmbedJournal::open(&dir, "sha256:b", 2);
        assert!(kept.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
