//! The container: a fixed header (magic, format version, body length, sha256 of the body)
//! and a body holding the ONNX graph without weight data and one record per weight tensor.
//! Every integer is little-endian.
//!
//! ```text
//! header  "LCTMODEL" | version u32 | body_len u64 | sha256(body) [32]
//! body    graph_len u32 | graph (ONNX ModelProto, no initializers) | count u32 | tensor*
//! tensor  name_len u16 | name | encoding u8 | onnx data type u8 | rank u8 | dims u64*
//!         | (groupwise: bits u8 | group u32 | transposed u8) | data_len u64 | data
//! ```
//!
//! Groupwise data is the f16 scales (one per group, row-major) followed by the packed codes
//! (`quant::pack`). Rows run along the last axis, or, when `transposed` (2-D only), along
//! the first: a MatMul weight `[in, out]` is grouped along `in`, the axis it is summed over.

use super::quant;
use crate::embed::EmbedError;
use sha2::{Digest, Sha256};

pub const MAGIC: &[u8; 8] = b"LCTMODEL";
/// The one format version this build reads and writes.
pub const VERSION: u32 = 1;
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
    /// Groupwise codes, decoded to an int8 tensor of the codes (`name`) and an f32 tensor of
    /// the scales, `[rows, groups, 1]` (`name` + [`SCALES_SUFFIX`]): for a table whose rows
    /// the graph gathers before scaling them, so it is never expanded to f32.
    GroupwiseCodes { bits: u8, group: u32 },
}

/// Name suffix of the scales tensor of a [`Encoding::GroupwiseCodes`] tensor.
pub const SCALES_SUFFIX: &str = "_group_scales";

#[derive(Clone, Debug, PartialEq)]
pub struct TensorRecord {
    pub name: String,
    pub encoding: Encoding,
    pub data_type: u8,
    pub dims: Vec<u64>,
    pub data: Vec<u8>,
}

impl TensorRecord {
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

/// A parsed container: the graph bytes and the tensor records, all checked.
#[derive(Debug)]
pub struct Container {
    pub graph: Vec<u8>,
    pub tensors: Vec<TensorRecord>,
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
            Encoding::GroupwiseCodes { .. } => 2,
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
            Encoding::GroupwiseCodes { bits, group } => {
                body.push(bits);
                body.extend_from_slice(&group.to_le_bytes());
                body.push(0);
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
    out
}

/// Parses and checks a container: magic, version, length, checksum, then every record's
/// shape against its data, so the decoder never reads past a buffer.
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
    let body = &bytes[HEADER_LEN..];
    if body.len() as u64 != body_len {
        return Err(corrupt(format!(
            "its body is {} bytes, the header says {body_len}: truncated or padded",
            body.len()
        )));
    }
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
            1 | 2 => {
                let (bits, group, transposed) = (r.u8()?, r.u32()?, r.u8()?);
                if !(2..=8).contains(&bits) || group == 0 || transposed > 1 {
                    return Err(corrupt(format!("tensor {name}: {bits}-bit codes in groups of {group}")));
                }
                if kind == 1 {
                    Encoding::Groupwise { bits, group, transposed: transposed == 1 }
                } else {
                    Encoding::GroupwiseCodes { bits, group }
                }
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
    Ok(Container { graph, tensors })
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
        Encoding::Groupwise { bits, group, .. } | Encoding::GroupwiseCodes { bits, group } => {
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
    usize::try_from(d).ok().filter(|&d| d <= 1 << 40)
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
