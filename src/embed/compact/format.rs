//! The container: a fixed header (magic, format version, body length, sha256 of the body),
//! a body holding the ONNX graph without weight data and one record per weight tensor, and,
//! after the body, the shards of the word-embedding table. Every integer is little-endian.
//!
//! ```text
//! header  "LCTMODEL" | version u32 | body_len u64 | sha256(body) [32]
//! body    graph_len u32 | graph (ONNX ModelProto, no initializers) | count u32 | tensor*
//! tensor  name_len u16 | name | encoding u8 | onnx data type u8 | rank u8 | dims u64*
//!         | (groupwise: bits u8 | group u32 | transposed u8)
//!         | (sharded: bits u8 | group u32 | rows per shard u32) | data_len u64 | data
//! shards  (all or none) the sharded tensor's shards, in order
//! ```
//!
//! Groupwise data is the f16 scales (one per group, row-major) followed by the packed codes
//! (`quant::pack`). Rows run along the last axis, or, when `transposed` (2-D only), along
//! the first: a MatMul weight `[in, out]` is grouped along `in`, the axis it is summed over.
//!
//! A sharded tensor (the word table, at most one per file) keeps only the sha256 of each
//! shard in the body; a shard is groupwise data of `rows per shard` consecutive rows (the
//! last one fewer). The header and body (the *head*) therefore commit to every shard: the
//! model's fingerprint is taken over the head, and a reader that has only the head (a
//! bundle ships the shards as files of their own, fetched for the words of a question)
//! checks each shard it adds against it.

use super::quant;
use crate::embed::EmbedError;
use sha2::{Digest, Sha256};

pub const MAGIC: &[u8; 8] = b"LCTMODEL";
/// The one format version this build reads and writes. Version 2: the word table in shards.
pub const VERSION: u32 = 2;
const HEADER_LEN: usize = 8 + 4 + 8 + 32;
/// ONNX `TensorProto.DataType` codes the container carries.
pub const ONNX_FLOAT: u8 = 1;
pub const ONNX_INT8: u8 = 3;
pub const ONNX_INT64: u8 = 7;

/// How a tensor's values are stored, and what the decoder makes of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Encoding {
    /// The tensor's bytes as ONNX `raw_data` (little-endian), unchanged.
    Raw,
    /// Groupwise codes, decoded to an f32 tensor.
    Groupwise { bits: u8, group: u32, transposed: bool },
    /// Groupwise codes in shards of `rows` rows, each checked by its sha256 (the record's
    /// data: 32 bytes per shard). Not a graph initializer: the word table, whose rows the
    /// embedder looks up itself and feeds to the graph (`words.rs`).
    Sharded { bits: u8, group: u32, rows: u32 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct TensorRecord {
    pub name: String,
    pub encoding: Encoding,
    pub data_type: u8,
    pub dims: Vec<u64>,
    pub data: Vec<u8>,
}

impl TensorRecord {
    /// Shards of a sharded tensor (0 for any other).
    pub fn shard_count(&self) -> usize {
        match (&self.encoding, self.dims.first()) {
            (Encoding::Sharded { rows, .. }, Some(&n)) => to_usize(n).map_or(0, |n| n.div_ceil(*rows as usize)),
            _ => 0,
        }
    }

    /// Byte length of each shard of a sharded tensor.
    pub fn shard_lens(&self) -> Result<Vec<usize>, EmbedError> {
        let Encoding::Sharded { bits, group, rows: per_shard } = self.encoding else { return Ok(Vec::new()) };
        let (rows, cols) = self.matrix()?;
        if !cols.is_multiple_of(group as usize) {
            return Err(corrupt(format!("tensor {}: rows of {cols} cannot be cut into groups of {group}", self.name)));
        }
        let per_shard = per_shard as usize;
        Ok((0..self.shard_count())
            .map(|i| shard_len(per_shard.min(rows - i * per_shard), cols, group as usize, bits))
            .collect())
    }

    /// Refuses a shard that is not the one the record names at `index`.
    pub fn check_shard(&self, index: usize, shard: &[u8]) -> Result<(), EmbedError> {
        let expected = self.data.get(index * 32..index * 32 + 32);
        if expected.is_none() || expected != Some(Sha256::digest(shard).as_slice()) {
            return Err(corrupt(format!("shard {index} of {} does not match its sha256 in the model", self.name)));
        }
        Ok(())
    }

    /// Rows and columns of the matrix the groups run along (`rows * cols` = element count).
    pub fn matrix(&self) -> Result<(usize, usize), EmbedError> {
        let count = element_count(&self.dims)?;
        let cols = match (&self.encoding, self.dims.as_slice()) {
            (Encoding::Groupwise { transposed: true, .. }, [rows, _]) => dim(*rows)?,
            (Encoding::Groupwise { transposed: true, .. }, _) => {
                return Err(corrupt(format!("tensor {} is transposed but not 2-D", self.name)))
            }
            (_, [.., last]) => dim(*last)?,
            (_, []) => 1,
        };
        if cols == 0 {
            return Ok((0, 0));
        }
        Ok((count / cols, cols))
    }
}

/// A parsed container: the graph bytes, the tensor records and the shards, all checked.
#[derive(Debug)]
pub struct Container {
    pub graph: Vec<u8>,
    pub tensors: Vec<TensorRecord>,
    /// The shards of the sharded tensor: all of them, or none (a head without its shards).
    pub shards: Vec<Vec<u8>>,
}

/// The sha256 of each shard, concatenated: a sharded record's data.
#[cfg(any(test, not(all(target_arch = "wasm32", target_os = "unknown"))))]
pub fn shard_hashes(shards: &[Vec<u8>]) -> Vec<u8> {
    shards.iter().flat_map(|s| Sha256::digest(s).to_vec()).collect()
}

/// Bytes of a shard of `rows` rows of `cols` values: f16 scales, then packed codes.
pub fn shard_len(rows: usize, cols: usize, group: usize, bits: u8) -> usize {
    rows * cols / group.max(1) * 2 + quant::packed_len(rows * cols, bits)
}

/// The head of a compact file (header and body: what its identity is taken over), or all
/// of `bytes` when they are not a compact file or too short to say.
pub fn head(bytes: &[u8]) -> &[u8] {
    if !is_compact(bytes) || bytes.len() < HEADER_LEN {
        return bytes;
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&bytes[12..20]);
    let end = usize::try_from(u64::from_le_bytes(len)).ok().and_then(|n| n.checked_add(HEADER_LEN));
    &bytes[..end.map_or(bytes.len(), |e| e.min(bytes.len()))]
}

/// True when `bytes` start like a compact model (whatever their version or state).
pub fn is_compact(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The file's bytes (the converter's, natively; the browser only reads).
#[cfg(any(test, not(all(target_arch = "wasm32", target_os = "unknown"))))]
pub fn write(container: &Container) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(&(container.graph.len() as u32).to_le_bytes());
    body.extend_from_slice(&container.graph);
    body.extend_from_slice(&(container.tensors.len() as u32).to_le_bytes());
    for t in &container.tensors {
        body.extend_from_slice(&(t.name.len() as u16).to_le_bytes());
        body.extend_from_slice(t.name.as_bytes());
        let kind = match t.encoding {
            Encoding::Raw => 0u8,
            Encoding::Groupwise { .. } => 1,
            Encoding::Sharded { .. } => 3,
        };
        body.extend_from_slice(&[kind, t.data_type, t.dims.len() as u8]);
        for d in &t.dims {
            body.extend_from_slice(&d.to_le_bytes());
        }
        match t.encoding {
            Encoding::Raw => {}
            Encoding::Groupwise { bits, group, transposed } => {
                body.push(bits);
                body.extend_from_slice(&group.to_le_bytes());
                body.push(u8::from(transposed));
            }
            Encoding::Sharded { bits, group, rows } => {
                body.push(bits);
                body.extend_from_slice(&group.to_le_bytes());
                body.extend_from_slice(&rows.to_le_bytes());
            }
        }
        body.extend_from_slice(&(t.data.len() as u64).to_le_bytes());
        body.extend_from_slice(&t.data);
    }
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&Sha256::digest(&body));
    out.extend_from_slice(&body);
    for shard in &container.shards {
        out.extend_from_slice(shard);
    }
    out
}

/// Parses and checks a container: magic, version, length, checksum, then every record's
/// shape against its data, so the decoder never reads past a buffer, and the shards, if
/// the file carries them, against their sha256 in the body.
pub fn read(bytes: &[u8]) -> Result<Container, EmbedError> {
    if !is_compact(bytes) {
        return Err(corrupt("it does not start with the compact model's magic bytes".into()));
    }
    if bytes.len() < HEADER_LEN {
        return Err(corrupt(format!("it is truncated: {} bytes, shorter than the header", bytes.len())));
    }
    let mut header = Reader { bytes: &bytes[8..HEADER_LEN] };
    let version = header.u32()?;
    if version != VERSION {
        return Err(EmbedError::ModelVersion { found: version, supported: VERSION });
    }
    let body_len = header.u64()?;
    let sum = header.take(32)?;
    let rest = &bytes[HEADER_LEN..];
    let body_len = usize::try_from(body_len)
        .ok()
        .filter(|&n| n <= rest.len())
        .ok_or_else(|| corrupt(format!("its body is {} bytes, the header says {body_len}: truncated", rest.len())))?;
    let (body, tail) = rest.split_at(body_len);
    if Sha256::digest(body).as_slice() != sum {
        return Err(corrupt("its body does not match the checksum in its header".into()));
    }
    let mut r = Reader { bytes: body };
    let graph_len = r.u32()? as usize;
    let graph = r.take(graph_len)?.to_vec();
    let count = r.u32()?;
    let mut tensors = Vec::new();
    for _ in 0..count {
        let name_len = usize::from(r.u16()?);
        let name = std::str::from_utf8(r.take(name_len)?)
            .map_err(|_| corrupt("a tensor name is not UTF-8".into()))?
            .to_string();
        let (kind, data_type, rank) = (r.u8()?, r.u8()?, r.u8()?);
        let dims = (0..rank).map(|_| r.u64()).collect::<Result<Vec<_>, _>>()?;
        let encoding = match kind {
            0 => Encoding::Raw,
            1 => {
                let (bits, group, transposed) = (r.u8()?, r.u32()?, r.u8()?);
                if !(2..=8).contains(&bits) || group == 0 || transposed > 1 {
                    return Err(corrupt(format!("tensor {name}: {bits}-bit codes in groups of {group}")));
                }
                Encoding::Groupwise { bits, group, transposed: transposed == 1 }
            }
            3 => {
                let (bits, group, rows) = (r.u8()?, r.u32()?, r.u32()?);
                if !(2..=8).contains(&bits) || group == 0 || rows == 0 {
                    return Err(corrupt(format!(
                        "tensor {name}: {bits}-bit codes in groups of {group}, {rows} rows a shard"
                    )));
                }
                Encoding::Sharded { bits, group, rows }
            }
            other => return Err(corrupt(format!("tensor {name}: unknown encoding {other}"))),
        };
        let data_len = usize::try_from(r.u64()?).map_err(|_| corrupt(format!("tensor {name} is too large")))?;
        let data = r.take(data_len)?.to_vec();
        let record = TensorRecord { name, encoding, data_type, dims, data };
        check(&record)?;
        tensors.push(record);
    }
    if !r.bytes.is_empty() {
        return Err(corrupt(format!("{} bytes follow the last tensor", r.bytes.len())));
    }
    let shards = read_shards(&tensors, tail)?;
    Ok(Container { graph, tensors, shards })
}

/// The shards after the body: none, or every shard of the one sharded tensor, each equal to
/// its sha256 in the body.
fn read_shards(tensors: &[TensorRecord], tail: &[u8]) -> Result<Vec<Vec<u8>>, EmbedError> {
    let mut sharded = tensors.iter().filter(|t| matches!(t.encoding, Encoding::Sharded { .. }));
    let (table, second) = (sharded.next(), sharded.next());
    if second.is_some() {
        return Err(corrupt("it has more than one sharded tensor".into()));
    }
    let Some(table) = table else {
        return if tail.is_empty() {
            Ok(Vec::new())
        } else {
            Err(corrupt(format!("{} bytes follow its body", tail.len())))
        };
    };
    if tail.is_empty() {
        return Ok(Vec::new());
    }
    let mut rest = tail;
    let mut shards = Vec::new();
    for (index, len) in table.shard_lens()?.into_iter().enumerate() {
        if len > rest.len() {
            return Err(corrupt(format!("it ends inside shard {index} of {}", table.name)));
        }
        let (shard, after) = rest.split_at(len);
        table.check_shard(index, shard)?;
        shards.push(shard.to_vec());
        rest = after;
    }
    if !rest.is_empty() {
        return Err(corrupt(format!("{} bytes follow the last shard", rest.len())));
    }
    Ok(shards)
}

/// A record's data length must be exactly what its shape and encoding need.
fn check(t: &TensorRecord) -> Result<(), EmbedError> {
    let count = element_count(&t.dims)?;
    let expected = match t.encoding {
        Encoding::Raw => {
            let width = match t.data_type {
                ONNX_FLOAT => 4,
                ONNX_INT8 => 1,
                ONNX_INT64 => 8,
                other => return Err(corrupt(format!("tensor {}: unsupported data type {other}", t.name))),
            };
            count.checked_mul(width)
        }
        Encoding::Sharded { .. } => {
            if t.data_type != ONNX_FLOAT || t.dims.len() != 2 {
                return Err(corrupt(format!("tensor {}: only a 2-D f32 table can be sharded", t.name)));
            }
            t.shard_lens()?;
            t.shard_count().checked_mul(32)
        }
        Encoding::Groupwise { bits, group, .. } => {
            let (_, cols) = t.matrix()?;
            let group = group as usize;
            if t.data_type != ONNX_FLOAT || !cols.is_multiple_of(group) {
                return Err(corrupt(format!("tensor {}: rows of {cols} cannot be cut into groups of {group}", t.name)));
            }
            (count / group).checked_mul(2).and_then(|s| s.checked_add(quant::packed_len(count, bits)))
        }
    };
    if expected != Some(t.data.len()) {
        return Err(corrupt(format!("tensor {} holds {} bytes, its shape needs {expected:?}", t.name, t.data.len())));
    }
    Ok(())
}

pub fn element_count(dims: &[u64]) -> Result<usize, EmbedError> {
    dims.iter()
        .try_fold(1usize, |n, &d| n.checked_mul(to_usize(d)?))
        .ok_or_else(|| corrupt(format!("a tensor shape {dims:?} is too large")))
}

fn dim(d: u64) -> Result<usize, EmbedError> {
    to_usize(d).ok_or_else(|| corrupt(format!("a tensor dimension {d} is too large")))
}

fn to_usize(d: u64) -> Option<usize> {
    // Compared as u64: a wasm32 usize cannot hold the bound.
    usize::try_from(d).ok().filter(|_| d <= 1u64 << 40)
}

pub fn corrupt(reason: String) -> EmbedError {
    EmbedError::ModelCorrupt(reason)
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], EmbedError> {
        if n > self.bytes.len() {
            return Err(corrupt(format!("a record needs {n} bytes, {} are left", self.bytes.len())));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], EmbedError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, EmbedError> {
        Ok(self.array::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16, EmbedError> {
        Ok(u16::from_le_bytes(self.array()?))
    }
    fn u32(&mut self) -> Result<u32, EmbedError> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    fn u64(&mut self) -> Result<u64, EmbedError> {
        Ok(u64::from_le_bytes(self.array()?))
    }
}
