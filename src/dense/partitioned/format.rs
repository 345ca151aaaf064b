//! The byte formats of a partitioned dense index: one head, fetched when the index opens, and
//! parts fetched as questions need them. Little-endian throughout; every count is checked
//! against the bytes present before anything is allocated from it, and every part repeats
//! the head's build id, so parts of another build are refused rather than misread.
//!
//! Head (magic "LDPH"):
//!
//! ```text
//! offset  size              field
//! 0       4                 magic "LDPH"
//! 4       2                 format version (PARTITIONED_FORMAT_VERSION)
//! 6       2                 flags, 0
//! 8       8                 build id (FNV-1a 64 of the content of the head and every part)
//! 16      4                 dims (1..=65536)
//! 20      4                 items: the item (chunk) ids the index answers with are below it
//! 24      4                 rows: vectors stored (one per window of each distinct section)
//! 28      4                 partitions P (1..=rows)
//! 32      2                 version slots V (1..): slot 0 = no version, slot v + 1 = version v
//! 34      2                 subspaces M of the 4-bit codes (1..=dims)
//! 36      2                 probe: partitions a question probes by default (1..)
//! 38      2                 rescore: candidates rescored with int8 by default (1..)
//! 40      2                 centroid subspaces C: 0 = int8 centroids, else 4-bit codes of C slices
//! 42      2                 reserved, 0
//! 44      4 M + 16 dims     quantiser of the rows: M f32 slice scales, then 16 int8 codewords
//!                           per slice (slice m covers dims m·dims/M .. (m+1)·dims/M)
//! ..                        centroids, if C = 0: P f32 scales, then P × dims int8 codes;
//!                           else a quantiser of C slices (as above), then P × ⌈C/2⌉ codes
//! ..      P × (8 + ⌈V/8⌉)   per partition: rows u32, shards u32, version slots it serves
//!                           (bit s of byte s/8; at least one set, none at or above V)
//! ..      P × 20            format 2 on: the file of each partition's codes (a part file)
//! ```
//!
//! A part file (20 bytes) lists a part as the bundle serves it: its size (u32, ≥ 24) and the
//! first 16 bytes of its sha256. The bundle names the file by the first 6
//! (`dense-part.<12 hex>.bin`, as every content-addressed file) and refuses bytes that differ
//! from the 16: the manifest checks the head, the head its partitions' codes, and each codes
//! part its row shards, so a question's parts need no catalog page (format 1 had none of these
//! lists; a bundle's dense catalog pages listed its parts).
//!
//! Part ids: 0..P are the partitions' codes, P.. the int8 row shards in partition order
//! (partition p's shards follow partition p − 1's).
//!
//! Codes of partition p (magic "LDPC"), the first round's part:
//!
//! ```text
//! 0       4                 magic "LDPC"
//! 4       2                 format version;  6  2  flags, 0
//! 8       8                 build id
//! 16      4                 part id (= p)
//! 20      4                 rows n (as in the head)
//! 24      2 × shards        rows of each of the partition's shards, u16, each ≥ 1, sum n
//! ..      20 × shards       format 2 on: the file of each of its row shards (a part file)
//! ..      n varints         each row's item: zigzag LEB128 of the difference to the previous
//!                           row's item (the first to 0)
//! ..      n × ⌈M/2⌉         4-bit codes of each row's residual to the centroid, low nibble
//!                           = even slice
//! ```
//!
//! Int8 rows of one shard (magic "LDPR"), the second round's part: the rows of the shard
//! in the order of its partition's codes.
//!
//! ```text
//! 0       4                 magic "LDPR"
//! 4       2                 format version;  6  2  flags, 0
//! 8       8                 build id
//! 16      4                 part id
//! 20      4                 rows n (as in the partition's codes)
//! 24      4 n               f32 scale of each row (0..=1.001/127)
//! ..      n × dims          int8 codes, row after row
//! ```

use super::config::MAX_SMALL;
use super::pq::ProductQuantizer;
use crate::dense::quantized::{QuantizedVectors, MAX_DIMS, MAX_SCALE};
use crate::dense::{ByteReader, DenseError};

/// Bump on any layout change: a reader refuses other versions rather than misread them.
/// Version 2: the head lists its partitions' codes files and each codes part its row shards'
/// (`PartFile`), so no catalog page lists the parts.
pub const PARTITIONED_FORMAT_VERSION: u16 = 2;
/// The oldest version read: version 1, the parts of a bundle of format 3 or 4, listed by its
/// dense catalog pages.
pub const OLDEST_PARTITIONED_FORMAT_VERSION: u16 = 1;
/// The version from which the head and the codes parts list the parts' files.
const LISTS_PART_FILES_FROM: u16 = 2;

pub(crate) const HEAD_MAGIC: [u8; 4] = *b"LDPH";
pub(crate) const CODES_MAGIC: [u8; 4] = *b"LDPC";
pub(crate) const ROWS_MAGIC: [u8; 4] = *b"LDPR";
const HEAD_FIXED: usize = 44;
const PART_FIXED: usize = 24;
/// Bytes of a [`PartFile`].
pub(crate) const PART_FILE_LEN: usize = 20;

/// How a part's file is listed: its size and the first 16 bytes of its sha256 (128 bits:
/// what the bundle checks the fetched bytes against; it names the file by the first 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartFile {
    pub bytes: u32,
    pub sha256_prefix: [u8; 16],
}

impl PartFile {
    /// The listing of `bytes`.
    pub fn of(bytes: &[u8]) -> PartFile {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(bytes);
        let mut sha256_prefix = [0u8; 16];
        sha256_prefix.copy_from_slice(&digest[..16]);
        PartFile { bytes: bytes.len().min(u32::MAX as usize) as u32, sha256_prefix }
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.bytes.to_le_bytes());
        out.extend_from_slice(&self.sha256_prefix);
    }

    fn read(r: &mut ByteReader<'_>, section: &'static str) -> Result<Option<PartFile>, DenseError> {
        let bytes = r.u32(section)?;
        let mut sha256_prefix = [0u8; 16];
        sha256_prefix.copy_from_slice(r.take(section, 16)?);
        Ok((bytes >= PART_FIXED as u32).then_some(PartFile { bytes, sha256_prefix }))
    }
}

/// What the head says of one partition.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PartitionInfo {
    pub rows: u32,
    pub shards: u32,
    /// Part id of its first row shard.
    pub first_shard_part: u32,
    /// Bit s set: serves version slot s.
    pub slots: Vec<u8>,
}

impl PartitionInfo {
    pub fn serves(&self, slot: u16) -> bool {
        self.slots.get(slot as usize / 8).is_some_and(|b| b & (1 << (slot % 8)) != 0)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Head {
    /// The format version it was written in (and its parts are).
    pub version: u16,
    pub build_id: u64,
    pub dims: usize,
    pub items: u32,
    pub rows: u32,
    pub version_slots: u16,
    pub probe: usize,
    pub rescore: usize,
    pub pq: ProductQuantizer,
    pub centroids: Centroids,
    pub partitions: Vec<PartitionInfo>,
    /// Format 2 on: the file of each partition's codes (empty in format 1).
    pub files: Vec<PartFile>,
}

/// The partitions' centroids: int8 (exact, 4 + dims bytes each), or 4-bit product codes
/// (`C / 2` bytes each) so a large index's head stays small.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Centroids {
    Int8(QuantizedVectors),
    Coded { pq: ProductQuantizer, codes: Vec<u8> },
}

impl Centroids {
    /// The query's dot product with every centroid, as stored.
    pub fn scores(&self, query: &[f32]) -> Vec<f32> {
        match self {
            Centroids::Int8(vectors) => (0..vectors.len() as u32).map(|p| vectors.cosine_unchecked(query, p)).collect(),
            Centroids::Coded { pq, codes } => {
                let table = pq.table(query);
                codes.chunks_exact(pq.code_len()).map(|code| ProductQuantizer::score(&table, code)).collect()
            }
        }
    }

    /// Centroid `p` as a reader sees it (what residuals are taken against).
    pub fn decoded(&self, p: usize) -> Vec<f32> {
        match self {
            Centroids::Int8(vectors) => vectors.dequantize(p as u32).unwrap_or_default(),
            Centroids::Coded { pq, codes } => {
                let len = pq.code_len();
                codes.get(p * len..(p + 1) * len).map(|code| pq.decode(code)).unwrap_or_default()
            }
        }
    }

    fn subspaces(&self) -> usize {
        match self {
            Centroids::Int8(_) => 0,
            Centroids::Coded { pq, .. } => pq.subspaces(),
        }
    }

    /// Bytes one centroid takes in the head.
    pub fn bytes_per_centroid(&self, dims: usize) -> usize {
        match self {
            Centroids::Int8(_) => 4 + dims,
            Centroids::Coded { pq, .. } => pq.code_len(),
        }
    }
}

impl Head {
    pub fn part_count(&self) -> u32 {
        self.partitions.last().map_or(0, |p| p.first_shard_part + p.shards)
    }

    pub fn write(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&HEAD_MAGIC);
        out.extend_from_slice(&self.version.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&self.build_id.to_le_bytes());
        for value in [self.dims as u32, self.items, self.rows, self.partitions.len() as u32] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        for value in
            [self.version_slots as usize, self.pq.subspaces(), self.probe, self.rescore, self.centroids.subspaces(), 0]
        {
            out.extend_from_slice(&(value.min(MAX_SMALL) as u16).to_le_bytes());
        }
        self.pq.write(&mut out);
        match &self.centroids {
            Centroids::Int8(vectors) => {
                for scale in vectors.raw_scales() {
                    out.extend_from_slice(&scale.to_le_bytes());
                }
                out.extend(vectors.raw_codes().iter().map(|&c| c as u8));
            }
            Centroids::Coded { pq, codes } => {
                pq.write(&mut out);
                out.extend_from_slice(codes);
            }
        }
        for p in &self.partitions {
            out.extend_from_slice(&p.rows.to_le_bytes());
            out.extend_from_slice(&p.shards.to_le_bytes());
            out.extend_from_slice(&p.slots);
        }
        if self.version >= LISTS_PART_FILES_FROM {
            self.files.iter().for_each(|file| file.write(&mut out));
        }
        out
    }

    /// Whether the head and the codes parts list the parts' files (format 2 on).
    pub fn lists_part_files(&self) -> bool {
        self.version >= LISTS_PART_FILES_FROM
    }

    pub fn read(bytes: &[u8]) -> Result<Head, DenseError> {
        let mut r = ByteReader::new(bytes);
        r.require("header", HEAD_FIXED as u64)?;
        let version = preamble(&mut r, HEAD_MAGIC)?;
        let build_id = u64_of(&mut r, "header")?;
        let dims = r.u32("header")? as usize;
        let items = r.u32("header")?;
        let rows = r.u32("header")?;
        let partitions = r.u32("header")? as usize;
        let version_slots = r.u16("header")?;
        let subspaces = r.u16("header")? as usize;
        let probe = r.u16("header")? as usize;
        let rescore = r.u16("header")? as usize;
        let centroid_subspaces = r.u16("header")? as usize;
        if r.u16("header")? != 0 {
            return Err(DenseError::InvalidHeader("a reserved field is not 0"));
        }
        if dims == 0 || dims > MAX_DIMS {
            return Err(DenseError::InvalidHeader("its dimension count is 0 or above 65536"));
        }
        if items == 0 || rows == 0 || rows == u32::MAX {
            return Err(DenseError::InvalidHeader("it holds no items or no vectors"));
        }
        if partitions == 0 || partitions > rows as usize {
            return Err(DenseError::InvalidHeader("its partition count is 0 or above its vector count"));
        }
        if version_slots == 0
            || subspaces == 0
            || subspaces > dims
            || centroid_subspaces > dims
            || probe == 0
            || rescore == 0
        {
            return Err(DenseError::InvalidHeader("a version, quantiser or search count is 0 or too large"));
        }
        let pq = ProductQuantizer::read(&mut r, dims, subspaces)?;
        let slot_bytes = (version_slots as usize).div_ceil(8);
        let per_centroid =
            if centroid_subspaces == 0 { 4 + dims as u64 } else { centroid_subspaces.div_ceil(2) as u64 };
        // u64: these products overflow a 32-bit usize (wasm) for a corrupt header.
        let listed = if version >= LISTS_PART_FILES_FROM { PART_FILE_LEN as u64 } else { 0 };
        let rest = partitions as u64 * (per_centroid + 8 + slot_bytes as u64 + listed);
        r.require("centroids and partitions", rest)?;
        let centroids = if centroid_subspaces == 0 {
            let mut scales = Vec::with_capacity(partitions);
            for raw in r.take("centroids", 4 * partitions)?.chunks_exact(4) {
                let scale = f32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
                if !(0.0..=MAX_SCALE).contains(&scale) {
                    return Err(DenseError::InvalidHeader("a centroid has an invalid scale"));
                }
                scales.push(scale);
            }
            let codes = r.take("centroids", partitions * dims)?.iter().map(|&b| b as i8).collect();
            Centroids::Int8(QuantizedVectors::from_parts(dims, codes, scales))
        } else {
            let pq = ProductQuantizer::read(&mut r, dims, centroid_subspaces)?;
            let codes = r.take("centroids", partitions * pq.code_len())?.to_vec();
            Centroids::Coded { pq, codes }
        };
        r.require("partitions", partitions as u64 * (8 + slot_bytes as u64))?;
        let mut infos = Vec::with_capacity(partitions);
        let (mut total_rows, mut next_part) = (0u64, partitions as u64);
        for _ in 0..partitions {
            let rows_here = r.u32("partitions")?;
            let shards = r.u32("partitions")?;
            let slots = r.take("partitions", slot_bytes)?.to_vec();
            if rows_here == 0 || shards == 0 || shards > rows_here || rows_here as usize > MAX_SMALL * shards as usize {
                return Err(DenseError::InvalidHeader("a partition has no rows, no shards or more shards than rows"));
            }
            let unused = (version_slots as usize..slot_bytes * 8).any(|s| slots[s / 8] & (1 << (s % 8)) != 0);
            if unused || slots.iter().all(|&b| b == 0) {
                return Err(DenseError::InvalidHeader("a partition serves no version slot or an unknown one"));
            }
            total_rows += u64::from(rows_here);
            if next_part + u64::from(shards) > u64::from(u32::MAX) {
                return Err(DenseError::InvalidHeader("it has more parts than part ids"));
            }
            infos.push(PartitionInfo { rows: rows_here, shards, first_shard_part: next_part as u32, slots });
            next_part += u64::from(shards);
        }
        if total_rows != u64::from(rows) {
            return Err(DenseError::InvalidHeader("its partitions' rows do not add up to its vector count"));
        }
        let too_small = DenseError::InvalidHeader("a partition's codes file is listed smaller than a part");
        let files = read_part_files(&mut r, "part files", if listed > 0 { partitions } else { 0 }, too_small)?;
        r.finish()?;
        Ok(Head {
            version,
            build_id,
            dims,
            items,
            rows,
            version_slots,
            probe,
            rescore,
            pq,
            centroids,
            partitions: infos,
            files,
        })
    }
}

/// The rows of one partition as the first round sees them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CodesPart {
    /// First row of each shard, then the row count.
    pub shard_starts: Vec<u32>,
    pub items: Vec<u32>,
    /// `rows × code_len` bytes.
    pub codes: Vec<u8>,
    /// Format 2 on: the file of each of its row shards (empty in format 1).
    pub shard_files: Vec<PartFile>,
}

impl CodesPart {
    pub fn write(&self, version: u16, build_id: u64, part: u32, out: &mut Vec<u8>) {
        part_preamble(CODES_MAGIC, version, build_id, part, self.items.len() as u32, out);
        for pair in self.shard_starts.windows(2) {
            out.extend_from_slice(&((pair[1] - pair[0]) as u16).to_le_bytes());
        }
        if version >= LISTS_PART_FILES_FROM {
            self.shard_files.iter().for_each(|file| file.write(out));
        }
        let mut previous = 0i64;
        for &item in &self.items {
            put_varint(out, zigzag(i64::from(item) - previous));
            previous = i64::from(item);
        }
        out.extend_from_slice(&self.codes);
    }

    /// Reads partition `partition`'s codes (part id `partition`), checked against the head.
    pub fn read(bytes: &[u8], head: &Head, partition: u32) -> Result<CodesPart, DenseError> {
        let info = head
            .partitions
            .get(partition as usize)
            .ok_or(DenseError::UnknownPart { part: partition, parts: head.part_count() })?;
        let mut r = ByteReader::new(bytes);
        let rows = read_part_preamble(&mut r, CODES_MAGIC, head, partition)?;
        let invalid = |reason| DenseError::InvalidPart { part: partition, reason };
        if rows != info.rows {
            return Err(invalid("its row count differs from the head's"));
        }
        let code_len = head.pq.code_len();
        let listed = if head.lists_part_files() { PART_FILE_LEN as u64 } else { 0 };
        r.require("partition codes", (2 + listed) * u64::from(info.shards) + u64::from(rows) * (1 + code_len as u64))?;
        let mut shard_starts = Vec::with_capacity(info.shards as usize + 1);
        let mut at = 0u32;
        for _ in 0..info.shards {
            shard_starts.push(at);
            let size = u32::from(r.u16("partition codes")?);
            if size == 0 {
                return Err(invalid("one of its shards is empty"));
            }
            at = at.saturating_add(size);
        }
        if at != rows {
            return Err(invalid("its shards' rows do not add up to its row count"));
        }
        shard_starts.push(at);
        let too_small = invalid("a row shard's file is listed smaller than a part");
        let shard_files =
            read_part_files(&mut r, "partition codes", if listed > 0 { info.shards as usize } else { 0 }, too_small)?;
        let mut items = Vec::with_capacity(rows as usize);
        let mut previous = 0i64;
        for _ in 0..rows {
            let difference = varint(&mut r, "partition codes").map_err(|e| match e {
                DenseError::InvalidHeader(_) => invalid("an item number is longer than 5 bytes"),
                other => other,
            })?;
            let item = previous + unzigzag(difference);
            if !(0..i64::from(head.items)).contains(&item) {
                return Err(invalid("a row names an item the index does not have"));
            }
            items.push(item as u32);
            previous = item;
        }
        let codes = r.take("partition codes", rows as usize * code_len)?.to_vec();
        r.finish()?;
        Ok(CodesPart { shard_starts, items, codes, shard_files })
    }
}

/// Writes a rows part: `vectors` are the shard's rows in order.
pub(crate) fn write_rows_part(vectors: &QuantizedVectors, version: u16, build_id: u64, part: u32, out: &mut Vec<u8>) {
    part_preamble(ROWS_MAGIC, version, build_id, part, vectors.len() as u32, out);
    for scale in vectors.raw_scales() {
        out.extend_from_slice(&scale.to_le_bytes());
    }
    out.extend(vectors.raw_codes().iter().map(|&c| c as u8));
}

/// Reads a rows part of `expected_rows` rows.
pub(crate) fn read_rows_part(
    bytes: &[u8],
    head: &Head,
    part: u32,
    expected_rows: u32,
) -> Result<QuantizedVectors, DenseError> {
    let mut r = ByteReader::new(bytes);
    let rows = read_part_preamble(&mut r, ROWS_MAGIC, head, part)?;
    if rows != expected_rows {
        return Err(DenseError::InvalidPart { part, reason: "its row count differs from its partition's codes" });
    }
    let rows = rows as usize;
    r.require("row shard", rows as u64 * (4 + head.dims as u64))?;
    let mut scales = Vec::with_capacity(rows);
    for raw in r.take("row shard", 4 * rows)?.chunks_exact(4) {
        let scale = f32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
        if !(0.0..=MAX_SCALE).contains(&scale) {
            return Err(DenseError::InvalidPart { part, reason: "a row has an invalid scale" });
        }
        scales.push(scale);
    }
    let codes = r.take("row shard", rows * head.dims)?.iter().map(|&b| b as i8).collect();
    r.finish()?;
    Ok(QuantizedVectors::from_parts(head.dims, codes, scales))
}

/// `count` part files (none before format 2); one listed smaller than a part's fixed fields is
/// `too_small`.
fn read_part_files(
    r: &mut ByteReader<'_>,
    section: &'static str,
    count: usize,
    too_small: DenseError,
) -> Result<Vec<PartFile>, DenseError> {
    r.require(section, count as u64 * PART_FILE_LEN as u64)?;
    let mut files = Vec::with_capacity(count);
    for _ in 0..count {
        files.push(PartFile::read(r, section)?.ok_or_else(|| too_small.clone())?);
    }
    Ok(files)
}

/// Checks the magic, version and flags; returns the version.
fn preamble(r: &mut ByteReader<'_>, magic: [u8; 4]) -> Result<u16, DenseError> {
    if r.take("header", 4)? != magic {
        return Err(DenseError::BadMagic);
    }
    let version = r.u16("header")?;
    if !(OLDEST_PARTITIONED_FORMAT_VERSION..=PARTITIONED_FORMAT_VERSION).contains(&version) {
        return Err(DenseError::UnsupportedVersion { found: version, supported: PARTITIONED_FORMAT_VERSION });
    }
    let flags = r.u16("header")?;
    if flags != 0 {
        return Err(DenseError::UnknownFlags { flags });
    }
    Ok(version)
}

fn part_preamble(magic: [u8; 4], version: u16, build_id: u64, part: u32, rows: u32, out: &mut Vec<u8>) {
    out.extend_from_slice(&magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&build_id.to_le_bytes());
    out.extend_from_slice(&part.to_le_bytes());
    out.extend_from_slice(&rows.to_le_bytes());
}

/// Checks a part's fixed fields against its head and returns its row count.
fn read_part_preamble(r: &mut ByteReader<'_>, magic: [u8; 4], head: &Head, part: u32) -> Result<u32, DenseError> {
    r.require("header", PART_FIXED as u64)?;
    let version = preamble(r, magic)?;
    if u64_of(r, "header")? != head.build_id || version != head.version {
        return Err(DenseError::OtherBuild { part });
    }
    let found = r.u32("header")?;
    if found != part {
        return Err(DenseError::WrongPart { expected: part, found });
    }
    r.u32("header")
}

fn u64_of(r: &mut ByteReader<'_>, section: &'static str) -> Result<u64, DenseError> {
    let low = u64::from(r.u32(section)?);
    let high = u64::from(r.u32(section)?);
    Ok(low | high << 32)
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// An LEB128 value of at most 5 bytes (item differences fit in 33 bits after zigzag).
fn varint(r: &mut ByteReader<'_>, section: &'static str) -> Result<u64, DenseError> {
    let mut value = 0u64;
    for shift in (0..35).step_by(7) {
        let byte = r.u8(section)?;
        value |= u64::from(byte & 0x7F) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(DenseError::InvalidHeader("a variable-length number is longer than 5 bytes"))
}

/// FNV-1a, 64-bit: the build id. Not a checksum against tampering (the manifest's sha256 is),
/// only a tag that keeps parts of different builds apart.
pub(crate) struct Fnv(u64);

impl Fnv {
    pub fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_zigzag_round_trip() {
        for v in [0i64, 1, -1, 63, -64, 64, 1 << 20, -(1 << 31), u32::MAX as i64, -(u32::MAX as i64)] {
            let mut out = Vec::new();
            put_varint(&mut out, zigzag(v));
            assert!(out.len() <= 5, "{v}");
            let mut r = ByteReader::new(&out);
            assert_eq!(unzigzag(varint(&mut r, "t").unwrap()), v);
            assert_eq!(r.remaining(), 0);
        }
        let mut r = ByteReader::new(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
        assert!(matches!(varint(&mut r, "t"), Err(DenseError::InvalidHeader(_))));
        let mut r = ByteReader::new(&[0x80]);
        assert!(matches!(varint(&mut r, "t"), Err(DenseError::Truncated { .. })));
    }
}
