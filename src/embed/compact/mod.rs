//! Lectern's compact model file: the ONNX graph without its weight data, and the weights as
//! groupwise low-bit codes with f16 scales (`format.rs` has the layout). It is what the
//! browser downloads and what `lectern build` embeds with: both decode it here, into the
//! same ONNX model proto that tract then loads, so index and questions run the same
//! weights; the model fingerprint is taken over the compact file itself.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod convert;
mod format;
mod quant;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use convert::{convert, Precision, Scheme, DEFAULT_SCHEME};
pub use format::{is_compact, VERSION};

use super::EmbedError;
use format::{Encoding, TensorRecord, ONNX_FLOAT, ONNX_INT8, SCALES_SUFFIX};
use tract_onnx::pb;
use tract_onnx::prelude::{f16, Framework};

/// Decodes a compact model file into the ONNX model proto tract loads. A damaged,
/// truncated or foreign file is an error, never a panic.
pub fn decode(bytes: &[u8]) -> Result<pb::ModelProto, EmbedError> {
    let container = format::read(bytes)?;
    let mut model = tract_onnx::onnx()
        .proto_model_for_read(&mut &container.graph[..])
        .map_err(|e| format::corrupt(format!("its graph is not an ONNX model: {e:#}")))?;
    let graph = model.graph.as_mut().ok_or_else(|| format::corrupt("it holds no graph".into()))?;
    for record in container.tensors {
        graph.initializer.extend(decode_tensor(record)?);
    }
    Ok(model)
}

fn decode_tensor(t: TensorRecord) -> Result<Vec<pb::TensorProto>, EmbedError> {
    let dims: Vec<i64> = t.dims.iter().map(|&d| d as i64).collect();
    let proto = |name: String, dims: Vec<i64>, data_type: u8, raw_data: Vec<u8>| pb::TensorProto {
        name,
        dims,
        data_type: i32::from(data_type),
        raw_data,
        ..Default::default()
    };
    let (rows, cols) = t.matrix()?;
    Ok(match t.encoding {
        Encoding::Raw => vec![proto(t.name, dims, t.data_type, t.data)],
        Encoding::Groupwise { bits, group, transposed } => {
            let (scales, codes) = split(&t.data, rows * cols, group as usize, bits);
            let group = group as usize;
            let mut values = vec![0f32; rows * cols];
            for (i, (&q, v)) in codes.iter().zip(values.iter_mut()).enumerate() {
                *v = f32::from(q) * scales[i / group];
            }
            if transposed {
                // Stored as [cols of the tensor, rows of the tensor]: back to the tensor's order.
                let mut back = vec![0f32; values.len()];
                for (r, row) in values.chunks_exact(cols.max(1)).enumerate() {
                    for (c, &v) in row.iter().enumerate() {
                        back[c * rows + r] = v;
                    }
                }
                values = back;
            }
            vec![proto(t.name, dims, ONNX_FLOAT, values.iter().flat_map(|v| v.to_le_bytes()).collect())]
        }
        Encoding::GroupwiseCodes { bits, group } => {
            let (scales, codes) = split(&t.data, rows * cols, group as usize, bits);
            let scale_dims = vec![rows as i64, (cols / group as usize) as i64, 1];
            let scale_name = format!("{}{SCALES_SUFFIX}", t.name);
            vec![
                proto(t.name, dims, ONNX_INT8, codes.iter().map(|&c| c as u8).collect()),
                proto(scale_name, scale_dims, ONNX_FLOAT, scales.iter().flat_map(|v| v.to_le_bytes()).collect()),
            ]
        }
    })
}

/// The f32 scales and the codes of groupwise data (its length checked by `format::read`).
fn split(data: &[u8], count: usize, group: usize, bits: u8) -> (Vec<f32>, Vec<i8>) {
    let (scales, packed) = data.split_at((count / group.max(1)) * 2);
    let scales = scales.chunks_exact(2).map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32()).collect();
    (scales, quant::unpack(packed, count, bits))
}

#[cfg(test)]
mod tests {
    use super::format::*;
    use super::*;

    fn sample() -> Vec<u8> {
        let values: Vec<f32> = (0..64 * 6).map(|i| ((i * 13 % 29) as f32 - 14.0) / 10.0).collect();
        let (scales, codes) = quant::quantize(&values, 64, 32, 4);
        let mut data: Vec<u8> = scales.iter().flat_map(|s| s.to_le_bytes()).collect();
        data.extend(quant::pack(&codes, 4));
        format::write(&Container {
            graph: EMPTY_GRAPH.to_vec(),
            tensors: vec![
                TensorRecord {
                    name: "w".into(),
                    encoding: Encoding::Groupwise { bits: 4, group: 32, transposed: true },
                    data_type: ONNX_FLOAT,
                    dims: vec![64, 6],
                    data: data.clone(),
                },
                TensorRecord {
                    name: "table".into(),
                    encoding: Encoding::GroupwiseCodes { bits: 4, group: 32 },
                    data_type: ONNX_FLOAT,
                    dims: vec![6, 64],
                    data,
                },
                TensorRecord {
                    name: "b".into(),
                    encoding: Encoding::Raw,
                    data_type: ONNX_FLOAT,
                    dims: vec![2],
                    data: [1f32, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect(),
                },
            ],
        })
    }

    /// An ONNX `ModelProto` holding an empty graph (field 7, length 0).
    const EMPTY_GRAPH: [u8; 2] = [0x3a, 0x00];

    #[test]
    fn decodes_every_encoding() {
        let model = decode(&sample()).unwrap();
        let init = &model.graph.unwrap().initializer;
        let names: Vec<&str> = init.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["w", "table", "table_group_scales", "b"]);
        assert_eq!(init[0].dims, [64, 6]);
        assert_eq!(init[0].raw_data.len(), 64 * 6 * 4);
        assert_eq!(init[1].data_type, i32::from(ONNX_INT8));
        assert_eq!(init[2].dims, [6, 2, 1]);
        assert_eq!(init[3].raw_data.len(), 8);
        // The transposed tensor's element [r, c] is the stored row c's element r.
        let w = |i: usize| f32::from_le_bytes(init[0].raw_data[i * 4..][..4].try_into().unwrap());
        let scale = |i: usize| f32::from_le_bytes(init[2].raw_data[i * 4..][..4].try_into().unwrap());
        let code = |i: usize| init[1].raw_data[i] as i8;
        // Row 1 of "table" is stored row 1 of "w": w[r=5, c=1] = table[1, 5].
        assert_eq!(w(5 * 6 + 1), f32::from(code(64 + 5)) * scale(2));
    }

    #[test]
    fn damage_is_a_coded_error_not_a_panic() {
        let good = sample();
        let version_2 = [&good[..8], &2u32.to_le_bytes(), &good[12..]].concat();
        assert!(matches!(decode(&version_2), Err(EmbedError::ModelVersion { found: 2, .. })));
        // Every truncation and every flipped byte is refused.
        for len in [0, 7, 8, 30, 52, good.len() / 2, good.len() - 1] {
            assert!(matches!(decode(&good[..len]), Err(EmbedError::ModelCorrupt(_))), "truncated to {len}");
        }
        for at in (12..good.len()).step_by(7) {
            let mut bad = good.clone();
            bad[at] ^= 0x40;
            assert!(matches!(decode(&bad), Err(EmbedError::ModelCorrupt(_))), "byte {at} flipped");
        }
        let longer = [&good[..], &[0u8]].concat();
        assert!(matches!(decode(&longer), Err(EmbedError::ModelCorrupt(_))));
    }

    #[test]
    fn a_consistent_but_malformed_body_is_refused() {
        // A correct header and checksum around records that do not add up.
        let container = Container {
            graph: EMPTY_GRAPH.to_vec(),
            tensors: vec![TensorRecord {
                name: "w".into(),
                encoding: Encoding::Groupwise { bits: 4, group: 32, transposed: false },
                data_type: ONNX_FLOAT,
                dims: vec![3, 33],
                data: vec![0; 10],
            }],
        };
        assert!(matches!(decode(&format::write(&container)), Err(EmbedError::ModelCorrupt(_))));
        let huge = Container {
            graph: EMPTY_GRAPH.to_vec(),
            tensors: vec![TensorRecord {
                name: "w".into(),
                encoding: Encoding::Raw,
                data_type: ONNX_FLOAT,
                dims: vec![u64::MAX, u64::MAX],
                data: vec![],
            }],
        };
        assert!(matches!(decode(&format::write(&huge)), Err(EmbedError::ModelCorrupt(_))));
    }
}
