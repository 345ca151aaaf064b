//! ONNX -> compact model file (native only: `lectern model compact` and the parity tools).
//! Deterministic: the same source and scheme give the same bytes.

use super::format::{self, Container, Encoding, TensorRecord, ONNX_FLOAT, ONNX_INT64, ONNX_INT8};
use super::quant;
use super::words;
use crate::embed::EmbedError;
use prost::Message;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use tract_onnx::pb;
use tract_onnx::prelude::Framework;

/// The scheme the shipped model uses (BENCHMARKS.md, "A compact model on the wire").
pub const DEFAULT_SCHEME: &str = "words=q6g32,positions=q8,layers=q8";

/// Rows of the word table per shard: a question's dozen word pieces fetch about a dozen
/// shards of ~20 KB (6-bit rows of 384 values), and the table's catalog stays ~480 entries.
pub const WORD_SHARD_ROWS: u32 = 64;

/// How one class of f32 weights is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    F32,
    /// `bits`-bit codes; one f16 scale per `group` values, or per whole row (`None`: per
    /// output channel for a MatMul weight, per token for the word table).
    Quantized {
        bits: u8,
        group: Option<u32>,
    },
}

/// Precision per class of weights: the word-embedding table, the position table, and the
/// layers' MatMul weights. LayerNorm weights, biases and constants stay as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheme {
    pub words: Precision,
    pub positions: Precision,
    pub layers: Precision,
}

impl FromStr for Precision {
    type Err = String;
    /// `f32`, `q<bits>` (one scale per row) or `q<bits>g<group>`.
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "f32" {
            return Ok(Precision::F32);
        }
        let bad = || format!("`{s}` is not a precision: f32, q<bits> or q<bits>g<group> (bits 2-8), e.g. q4g32");
        let rest = s.strip_prefix('q').ok_or_else(bad)?;
        let (bits, group) = match rest.split_once('g') {
            Some((bits, group)) => (bits, Some(group.parse::<u32>().map_err(|_| bad())?)),
            None => (rest, None),
        };
        let bits: u8 = bits.parse().map_err(|_| bad())?;
        if !(2..=8).contains(&bits) || group == Some(0) {
            return Err(bad());
        }
        Ok(Precision::Quantized { bits, group })
    }
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Precision::F32 => f.write_str("f32"),
            Precision::Quantized { bits, group: None } => write!(f, "q{bits}"),
            Precision::Quantized { bits, group: Some(g) } => write!(f, "q{bits}g{g}"),
        }
    }
}

impl FromStr for Scheme {
    type Err = String;
    /// `words=…,positions=…,layers=…`; a class left out stays f32.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut scheme = Scheme { words: Precision::F32, positions: Precision::F32, layers: Precision::F32 };
        for part in s.split(',').filter(|p| !p.is_empty()) {
            let (class, precision) =
                part.split_once('=').ok_or_else(|| format!("`{part}`: expected CLASS=PRECISION, e.g. words=q4g32"))?;
            let precision = precision.parse()?;
            match class {
                "words" => scheme.words = precision,
                "positions" => scheme.positions = precision,
                "layers" => scheme.layers = precision,
                other => return Err(format!("`{other}` is not a class of weights: words, positions or layers")),
            }
        }
        Ok(scheme)
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "words={},positions={},layers={}", self.words, self.positions, self.layers)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Class {
    Words,
    Positions,
    Layers,
    Other,
}

/// Converts an ONNX encoder (the f32 export, for the best result) into a compact model file.
pub fn convert(onnx: &[u8], scheme: &Scheme) -> Result<Vec<u8>, EmbedError> {
    let invalid = |e: tract_onnx::prelude::TractError| EmbedError::ModelInvalid(format!("{e:#}"));
    let mut model = tract_onnx::onnx().proto_model_for_read(&mut &onnx[..]).map_err(invalid)?;
    let graph = model.graph.as_mut().ok_or_else(|| EmbedError::ModelInvalid("the model holds no graph".into()))?;
    let classes = classify(graph);
    let initializers = std::mem::take(&mut graph.initializer);
    let mut tensors = Vec::with_capacity(initializers.len());
    let mut shards = Vec::new();
    for tensor in initializers {
        let class = classes.get(tensor.name.as_str()).copied().unwrap_or(Class::Other);
        let precision = match class {
            Class::Words => scheme.words,
            Class::Positions => scheme.positions,
            Class::Layers => scheme.layers,
            Class::Other => Precision::F32,
        };
        let record = raw_record(tensor)?;
        let record = match precision {
            Precision::Quantized { bits, group } if record.data_type == ONNX_FLOAT && record.dims.len() == 2 => {
                if class == Class::Words {
                    words_as_input(graph, &record.name, record.dims[1] as i64)?;
                    let (record, table_shards) = shard(record, bits, group)?;
                    shards = table_shards;
                    record
                } else {
                    quantize(record, class, bits, group)?
                }
            }
            _ => record,
        };
        tensors.push(record);
    }
    let graph = model.encode_to_vec();
    Ok(format::write(&Container { graph, tensors, shards }))
}

/// Which initializers are the word table (gathered by a graph input), the position table
/// (gathered otherwise) and the layers' MatMul weights.
fn classify(graph: &pb::GraphProto) -> HashMap<String, Class> {
    let inputs: Vec<&str> = graph.input.iter().map(|i| i.name.as_str()).collect();
    let mut classes = HashMap::new();
    for node in &graph.node {
        match (node.op_type.as_str(), node.input.as_slice()) {
            ("Gather", [table, ids]) if inputs.contains(&ids.as_str()) => {
                classes.insert(table.clone(), Class::Words);
            }
            ("Gather", [table, _]) => {
                classes.entry(table.clone()).or_insert(Class::Positions);
            }
            ("MatMul", [_, weight]) => {
                classes.insert(weight.clone(), Class::Layers);
            }
            _ => {}
        }
    }
    classes
}

/// A tensor's values as a raw record (little-endian, as ONNX `raw_data`).
fn raw_record(t: pb::TensorProto) -> Result<TensorRecord, EmbedError> {
    let unsupported = |why: &str| EmbedError::ModelInvalid(format!("initializer {}: {why}", t.name));
    if !t.external_data.is_empty() {
        return Err(unsupported("external data is not supported"));
    }
    let data_type = match t.data_type {
        1 => ONNX_FLOAT,
        3 => ONNX_INT8,
        7 => ONNX_INT64,
        other => return Err(unsupported(&format!("data type {other} is not supported"))),
    };
    let data = if !t.raw_data.is_empty() {
        t.raw_data.clone()
    } else if data_type == ONNX_FLOAT {
        t.float_data.iter().flat_map(|v| v.to_le_bytes()).collect()
    } else if data_type == ONNX_INT64 {
        t.int64_data.iter().flat_map(|v| v.to_le_bytes()).collect()
    } else {
        t.int32_data.iter().map(|&v| v as i8 as u8).collect()
    };
    let dims: Result<Vec<u64>, _> =
        t.dims.iter().map(|&d| u64::try_from(d).map_err(|_| unsupported("negative dimension"))).collect();
    Ok(TensorRecord { name: t.name.clone(), encoding: Encoding::Raw, data_type, dims: dims?, data })
}

fn quantize(record: TensorRecord, class: Class, bits: u8, group: Option<u32>) -> Result<TensorRecord, EmbedError> {
    let values: Vec<f32> = record.data.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    let (rows, cols) = (record.dims[0] as usize, record.dims[1] as usize);
    // A MatMul weight [in, out] is grouped along `in`, the axis each output sums over.
    let transposed = class == Class::Layers;
    let (matrix, row_len) = if transposed {
        let mut t = vec![0f32; values.len()];
        for (r, row) in values.chunks_exact(cols).enumerate() {
            for (c, &v) in row.iter().enumerate() {
                t[c * rows + r] = v;
            }
        }
        (t, rows)
    } else {
        (values, cols)
    };
    let group = group.unwrap_or(row_len as u32);
    if !row_len.is_multiple_of(group as usize) {
        return Err(EmbedError::ModelInvalid(format!(
            "{}: rows of {row_len} values cannot be cut into groups of {group}",
            record.name
        )));
    }
    let data = quant::encode(&matrix, row_len, group as usize, bits);
    Ok(TensorRecord { encoding: Encoding::Groupwise { bits, group, transposed }, data, ..record })
}

/// The word table as a sharded record and its shards: [`WORD_SHARD_ROWS`] rows each, every
/// shard quantised on its own (the groups never cross a row, so the codes are the same as
/// the whole table's).
fn shard(record: TensorRecord, bits: u8, group: Option<u32>) -> Result<(TensorRecord, Vec<Vec<u8>>), EmbedError> {
    let cols = record.dims[1] as usize;
    let group = group.unwrap_or(cols as u32);
    if !cols.is_multiple_of(group as usize) {
        return Err(EmbedError::ModelInvalid(format!(
            "{}: rows of {cols} values cannot be cut into groups of {group}",
            record.name
        )));
    }
    let values: Vec<f32> = record.data.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    let shards: Vec<Vec<u8>> = (values.chunks(WORD_SHARD_ROWS as usize * cols))
        .map(|rows| quant::encode(rows, cols, group as usize, bits))
        .collect();
    let encoding = Encoding::Sharded { bits, group, rows: WORD_SHARD_ROWS };
    Ok((TensorRecord { encoding, data: format::shard_hashes(&shards), ..record }, shards))
}

/// Takes `Gather(table, ids)` out of the graph: its output becomes the graph input
/// [`words::INPUT`], `[batch, sequence, cols]` with the ids' own dimensions, which the
/// embedder fills from the word table (`words.rs`).
fn words_as_input(graph: &mut pb::GraphProto, table: &str, cols: i64) -> Result<(), EmbedError> {
    let at = graph
        .node
        .iter()
        .position(|n| n.op_type == "Gather" && n.input.first().map(String::as_str) == Some(table))
        .ok_or_else(|| EmbedError::ModelInvalid(format!("no Gather reads {table}")))?;
    let gather = graph.node.remove(at);
    let (ids, out) = match (gather.input.as_slice(), gather.output.as_slice()) {
        ([_, ids], [out]) => (ids.clone(), out.clone()),
        _ => return Err(EmbedError::ModelInvalid(format!("the Gather of {table} is not Gather(table, ids)"))),
    };
    if gather.attribute.iter().any(|a| a.name == "axis" && a.i != 0) {
        return Err(EmbedError::ModelInvalid(format!("the Gather of {table} is not along axis 0")));
    }
    let mut input = graph
        .input
        .iter()
        .find(|i| i.name == ids)
        .cloned()
        .ok_or_else(|| EmbedError::ModelInvalid(format!("the Gather of {table} does not read a graph input")))?;
    let Some(pb::type_proto::Value::TensorType(tensor)) = input.r#type.as_mut().and_then(|t| t.value.as_mut()) else {
        return Err(EmbedError::ModelInvalid(format!("the graph input {ids} has no tensor type")));
    };
    tensor.elem_type = i32::from(ONNX_FLOAT);
    let shape = tensor.shape.get_or_insert_with(Default::default);
    shape.dim.push(pb::tensor_shape_proto::Dimension {
        value: Some(pb::tensor_shape_proto::dimension::Value::DimValue(cols)),
        ..Default::default()
    });
    input.name = words::INPUT.to_string();
    graph.input.push(input);
    for node in &mut graph.node {
        for name in node.input.iter_mut().filter(|n| **n == out) {
            *name = words::INPUT.to_string();
        }
    }
    for output in graph.output.iter_mut().filter(|o| o.name == out) {
        output.name = words::INPUT.to_string();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes_parse_and_print() {
        let s: Scheme = "words=q4g32,positions=q8,layers=q6g64".parse().unwrap();
        assert_eq!(s.words, Precision::Quantized { bits: 4, group: Some(32) });
        assert_eq!(s.positions, Precision::Quantized { bits: 8, group: None });
        assert_eq!(s.to_string(), "words=q4g32,positions=q8,layers=q6g64");
        assert_eq!("layers=q8".parse::<Scheme>().unwrap().words, Precision::F32);
        assert!(DEFAULT_SCHEME.parse::<Scheme>().is_ok());
        for bad in ["words=q9", "words=q4g0", "word=q4", "words", "words=int8", "layers=q4gx"] {
            assert!(bad.parse::<Scheme>().is_err(), "{bad}");
        }
    }
}
