//! What ranking must know of *every* chunk before any chunk's metadata has been fetched: its
//! module, docs instance and version (the search filters) and which earlier chunk it is an
//! identical copy of (a page unchanged across doc versions counts once). Stored as runs of
//! consecutive chunks, so it stays small on a large site: chunks come in site order, where
//! modules, instances and versions are contiguous and unchanged pages repeat in the same
//! order. Each chunk's page (`page_key`) is kept too, for the boost of the page the reader
//! asks from.

use super::{page_key, BundleError, ChunkMeta};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChunkTable {
    /// Chunks in all.
    pub chunks: usize,
    pub modules: Vec<String>,
    pub versions: Vec<String>,
    /// `[first chunk, count, module index, version index + 1 (0: no version)]`, covering
    /// every chunk in order.
    pub runs: Vec<[u32; 4]>,
    /// The docs plugin instances, and `[first chunk, count, instance index]` covering every
    /// chunk in order (one run per instance on a Docusaurus site). A version name belongs to
    /// its instance: two instances may both have a "1.0". Absent in a bundle written before
    /// them: no chunk's instance is known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instance_runs: Vec<[u32; 3]>,
    /// `[first chunk, count, first copy]`: chunk `first + i` is a copy of `copy + i` (the
    /// first chunk with its content hash). Chunks in no run are their own first copy.
    pub copies: Vec<[u32; 3]>,
    /// The most copies of one section (1: none repeats).
    pub max_copies: usize,
    /// `[first chunk, count, page key]`: the chunks of one page (`page_key` of their URL), in
    /// order. Absent in a bundle written before it: no chunk is then on any page. Since
    /// format version 4 the bundle keeps them in a file of their own (`FileKind::PageTable`,
    /// `split_pages`), which only a search asked from a page fetches: on a 10,000-page site
    /// they are most of the table's bytes, and the search box never needs them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<[u32; 3]>,
}

impl ChunkTable {
    pub fn from_metas(chunks: &[ChunkMeta]) -> ChunkTable {
        let mut table = ChunkTable { chunks: chunks.len(), max_copies: 1, ..Default::default() };
        let mut first: std::collections::HashMap<&str, (u32, usize)> = std::collections::HashMap::new();
        for (i, chunk) in (0u32..).zip(chunks) {
            let module = index_of(&mut table.modules, &chunk.module);
            let version = chunk.version.as_deref().map_or(0, |v| index_of(&mut table.versions, v) + 1);
            match table.runs.last_mut() {
                Some(run) if run[2] == module && run[3] == version && run[0] + run[1] == i => run[1] += 1,
                _ => table.runs.push([i, 1, module, version]),
            }
            let instance = index_of(&mut table.instances, &chunk.instance);
            match table.instance_runs.last_mut() {
                Some(run) if run[2] == instance && run[0] + run[1] == i => run[1] += 1,
                _ => table.instance_runs.push([i, 1, instance]),
            }
            let page = page_key(&chunk.url);
            match table.pages.last_mut() {
                Some(run) if run[2] == page && run[0] + run[1] == i => run[1] += 1,
                _ => table.pages.push([i, 1, page]),
            }
            if chunk.hash.is_empty() {
                continue;
            }
            let entry = first.entry(chunk.hash.as_str()).or_insert((i, 0));
            entry.1 += 1;
            table.max_copies = table.max_copies.max(entry.1);
            let source = entry.0;
            if source == i {
                continue;
            }
            match table.copies.last_mut() {
                Some(run) if run[0] + run[1] == i && run[2] + run[1] == source => run[1] += 1,
                _ => table.copies.push([i, 1, source]),
            }
        }
        table
    }

    /// Parses and checks the table of a bundle of `chunks` chunks.
    pub fn parse(name: &str, bytes: &[u8], chunks: usize) -> Result<ChunkTable, BundleError> {
        let corrupt = |reason: String| BundleError::Corrupt { name: name.to_string(), reason };
        let table: ChunkTable = serde_json::from_slice(bytes).map_err(|e| corrupt(e.to_string()))?;
        if table.chunks != chunks {
            return Err(corrupt(format!("describes {} chunks, the manifest says {chunks}", table.chunks)));
        }
        let mut next = 0u64;
        for run in &table.runs {
            let [first, count, module, version] = *run;
            if u64::from(first) != next
                || count == 0
                || module as usize >= table.modules.len()
                || version as usize > table.versions.len()
            {
                return Err(corrupt(format!("run {run:?} does not follow chunk {next} or names no module")));
            }
            next += u64::from(count);
        }
        if next != chunks as u64 {
            return Err(corrupt(format!("its runs cover {next} chunks of {chunks}")));
        }
        let mut after = 0u64;
        for run in &table.copies {
            let [first, count, copy] = *run;
            let (first, count, copy) = (u64::from(first), u64::from(count), u64::from(copy));
            // A copy points back to an earlier chunk, within the bundle.
            if first < after || count == 0 || first + count > chunks as u64 || copy >= first {
                return Err(corrupt(format!("copy run {run:?} is out of order or out of range")));
            }
            after = first + count;
        }
        let mut next = 0u64;
        for run in &table.instance_runs {
            let [first, count, instance] = *run;
            if u64::from(first) != next || count == 0 || instance as usize >= table.instances.len() {
                return Err(corrupt(format!("instance run {run:?} does not follow chunk {next} or names no instance")));
            }
            next += u64::from(count);
        }
        if !table.instance_runs.is_empty() && next != chunks as u64 {
            return Err(corrupt(format!("its instance runs cover {next} chunks of {chunks}")));
        }
        check_pages(&table.pages, chunks).map_err(corrupt)?;
        if table.max_copies == 0 || table.max_copies > chunks.max(1) {
            return Err(corrupt(format!("{} copies of one section in {chunks} chunks", table.max_copies)));
        }
        Ok(table)
    }

    /// Parses and checks a bundle's page table (`FileKind::PageTable`: the table's `pages`,
    /// written apart so that only a search asked from a page fetches them).
    pub fn parse_pages(name: &str, bytes: &[u8], chunks: usize) -> Result<Vec<[u32; 3]>, BundleError> {
        let corrupt = |reason: String| BundleError::Corrupt { name: name.to_string(), reason };
        let pages: Vec<[u32; 3]> = serde_json::from_slice(bytes).map_err(|e| corrupt(e.to_string()))?;
        check_pages(&pages, chunks).map_err(corrupt)?;
        Ok(pages)
    }

    /// The table without its pages, and the pages as the page table's bytes (`None` when
    /// no chunk is on a page).
    pub fn split_pages(mut self) -> (ChunkTable, Option<Vec<u8>>) {
        let pages = std::mem::take(&mut self.pages);
        // Numbers only: always serialises.
        let bytes = (!pages.is_empty()).then(|| serde_json::to_vec(&pages).unwrap_or_default());
        (self, bytes)
    }

    /// Gives a table read without its pages (the bundle has a page table) the pages.
    pub fn set_pages(&mut self, pages: Vec<[u32; 3]>) {
        self.pages = pages;
    }

    /// Whether the table knows which chunk is on which page.
    pub fn has_pages(&self) -> bool {
        !self.pages.is_empty()
    }

    pub fn to_json(&self) -> Vec<u8> {
        // Strings and numbers only: always serialises.
        serde_json::to_vec(self).unwrap_or_default()
    }

    fn run_of(&self, index: u32) -> Option<&[u32; 4]> {
        let at = self.runs.partition_point(|r| r[0] <= index).checked_sub(1)?;
        self.runs.get(at).filter(|r| index < r[0].saturating_add(r[1]))
    }

    pub fn module(&self, index: u32) -> Option<&str> {
        self.run_of(index).and_then(|r| self.modules.get(r[2] as usize)).map(String::as_str)
    }

    pub fn version(&self, index: u32) -> Option<&str> {
        let version = self.run_of(index)?[3];
        self.versions.get((version as usize).checked_sub(1)?).map(String::as_str)
    }

    /// `index`'s docs instance; `None` in a bundle that does not record instances.
    pub fn instance(&self, index: u32) -> Option<&str> {
        let at = self.instance_runs.partition_point(|r| r[0] <= index).checked_sub(1)?;
        let run = self.instance_runs.get(at).filter(|r| index < r[0].saturating_add(r[1]))?;
        self.instances.get(run[2] as usize).map(String::as_str)
    }

    /// The key of `index`'s page (`page_key` of its URL); `None` in a bundle without pages.
    pub fn page(&self, index: u32) -> Option<u32> {
        let at = self.pages.partition_point(|r| r[0] <= index).checked_sub(1)?;
        self.pages.get(at).filter(|r| index < r[0].saturating_add(r[1])).map(|r| r[2])
    }

    /// `index`'s version as a slot number: 0 without a version, v + 1 for `versions[v]` (how
    /// a dense index in parts says which versions a partition serves).
    pub fn version_slot(&self, index: u32) -> u16 {
        self.run_of(index).map_or(0, |r| u16::try_from(r[3]).unwrap_or(u16::MAX))
    }

    /// The first chunk with `index`'s content (itself when it is the first).
    pub fn first_copy(&self, index: u32) -> u32 {
        let at = self.copies.partition_point(|r| r[0] <= index);
        match at.checked_sub(1).and_then(|at| self.copies.get(at)) {
            Some(&[first, count, copy]) if index < first.saturating_add(count) => copy.saturating_add(index - first),
            _ => index,
        }
    }
}

/// Page runs must be in order, non-empty and within the bundle's chunks.
fn check_pages(pages: &[[u32; 3]], chunks: usize) -> Result<(), String> {
    let mut after = 0u64;
    for run in pages {
        let (first, count) = (u64::from(run[0]), u64::from(run[1]));
        if first < after || count == 0 || first + count > chunks as u64 {
            return Err(format!("page run {run:?} is out of order or out of range"));
        }
        after = first + count;
    }
    Ok(())
}

fn index_of(list: &mut Vec<String>, value: &str) -> u32 {
    match list.iter().position(|v| v == value) {
        Some(i) => i as u32,
        None => {
            list.push(value.to_string());
            (list.len() - 1) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(i: usize, module: &str, version: Option<&str>, hash: &str) -> ChunkMeta {
        ChunkMeta {
            chunk_id: format!("c{i}"),
            url: format!("/c{i}"),
            heading_path: vec![],
            chapter_title: String::new(),
            section_title: String::new(),
            module: module.into(),
            chapter_id: String::new(),
            instance: "default".into(),
            version: version.map(str::to_string),
            word_count: 1,
            position: i,
            hash: hash.into(),
            parts: Vec::new(),
            name: None,
        }
    }

    #[test]
    fn runs_answer_like_the_metas_and_round_trip() {
        let spec = [
            ("A", Some("2.0"), "a"),
            ("A", Some("2.0"), "b"),
            ("B", Some("2.0"), "c"),
            ("A", Some("1.0"), "a"),
            ("A", Some("1.0"), "b"),
            ("B", Some("1.0"), "x"),
            ("B", None, ""),
            ("B", None, "c"),
        ];
        let mut metas: Vec<ChunkMeta> = spec.iter().enumerate().map(|(i, (m, v, h))| meta(i, m, *v, h)).collect();
        // The last two chunks are another docs instance's, unversioned.
        for m in &mut metas[6..] {
            m.instance = "api".into();
        }
        let table = ChunkTable::from_metas(&metas);
        assert_eq!(table.copies, vec![[3, 2, 0], [7, 1, 2]]);
        assert_eq!(table.instance_runs, vec![[0, 6, 0], [6, 2, 1]]);
        assert_eq!(table.max_copies, 2);
        let back = ChunkTable::parse("t", &table.to_json(), metas.len()).unwrap();
        assert_eq!(back, table);
        for (i, m) in (0u32..).zip(&metas) {
            assert_eq!(back.module(i), Some(m.module.as_str()));
            assert_eq!(back.version(i), m.version.as_deref());
            assert_eq!(back.instance(i), Some(m.instance.as_str()));
        }
        for (i, m) in (0u32..).zip(&metas) {
            assert_eq!(back.page(i), Some(page_key(&m.url)));
        }
        assert_eq!(back.page(8), None);
        let firsts: Vec<u32> = (0..8).map(|i| back.first_copy(i)).collect();
        assert_eq!(firsts, [0, 1, 2, 0, 1, 5, 6, 2]);
        assert_eq!(back.module(8), None);
        assert_eq!(back.instance(8), None);
    }

    #[test]
    fn a_table_written_before_instances_knows_none() {
        let metas: Vec<ChunkMeta> = (0..3).map(|i| meta(i, "A", Some("1.0"), "")).collect();
        let mut table = ChunkTable::from_metas(&metas);
        table.instances.clear();
        table.instance_runs.clear();
        let json = String::from_utf8(table.to_json()).unwrap();
        assert!(!json.contains("instance"), "{json}");
        let back = ChunkTable::parse("t", json.as_bytes(), 3).unwrap();
        assert_eq!((back.instance(0), back.version(0)), (None, Some("1.0")));
    }

    #[test]
    fn pages_split_into_a_page_table_and_back() {
        let metas: Vec<ChunkMeta> = (0..5).map(|i| meta(i, "A", None, "")).collect();
        let table = ChunkTable::from_metas(&metas);
        let (without, bytes) = table.clone().split_pages();
        let bytes = bytes.expect("pages");
        assert!(!without.has_pages() && table.has_pages());
        let json = String::from_utf8(without.to_json()).unwrap();
        assert!(!json.contains("pages"), "{json}");
        let mut back = ChunkTable::parse("t", json.as_bytes(), 5).unwrap();
        assert_eq!(back.page(0), None, "no page known before the page table");
        back.set_pages(ChunkTable::parse_pages("p", &bytes, 5).unwrap());
        assert_eq!(back, table);
        assert_eq!(ChunkTable::default().split_pages().1, None, "no pages, no page table");
    }

    #[test]
    fn damaged_page_tables_are_refused() {
        for bad in [&b"["[..], b"{}", b"[[0,1]]", b"[[0,0,7]]", b"[[1,1,7],[0,1,7]]", b"[[0,6,7]]", b"[[4,2,7]]"] {
            let refused = ChunkTable::parse_pages("p", bad, 5);
            assert!(matches!(refused, Err(BundleError::Corrupt { .. })), "{}", String::from_utf8_lossy(bad));
        }
        assert_eq!(ChunkTable::parse_pages("p", b"[[0,2,7],[2,3,9]]", 5).unwrap(), vec![[0, 2, 7], [2, 3, 9]]);
    }

    #[test]
    fn damaged_tables_are_refused() {
        let metas: Vec<ChunkMeta> = (0..4).map(|i| meta(i, "A", None, if i < 2 { "h" } else { "" })).collect();
        let table = ChunkTable::from_metas(&metas);
        assert!(ChunkTable::parse("t", &table.to_json(), 5).is_err(), "wrong count");
        assert!(ChunkTable::parse("t", b"{", 4).is_err());
        let mut bad = table.clone();
        bad.runs[0][2] = 7;
        assert!(ChunkTable::parse("t", &bad.to_json(), 4).is_err(), "unknown module");
        let mut bad = table.clone();
        bad.instance_runs[0][2] = 1;
        assert!(ChunkTable::parse("t", &bad.to_json(), 4).is_err(), "unknown instance");
        let mut bad = table.clone();
        bad.instance_runs[0][1] = 3;
        assert!(ChunkTable::parse("t", &bad.to_json(), 4).is_err(), "instance runs leave chunks out");
        let mut bad = table.clone();
        bad.copies = vec![[1, 1, 3]];
        assert!(ChunkTable::parse("t", &bad.to_json(), 4).is_err(), "copy of a later chunk");
        let mut bad = table.clone();
        bad.pages = vec![[2, 1, 7], [0, 1, 7]];
        assert!(ChunkTable::parse("t", &bad.to_json(), 4).is_err(), "page runs out of order");
        let mut bad = table;
        bad.runs[0][1] = 2;
        assert!(ChunkTable::parse("t", &bad.to_json(), 4).is_err(), "runs leave chunks out");
    }
}
