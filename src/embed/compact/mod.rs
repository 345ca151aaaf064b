//! Lectern's compact model file: the ONNX graph without its weight data, and the weights as
//! groupwise low-bit codes with f16 scales (`format.rs` has the layout), the word table in
//! shards (`words.rs`). It is what the browser downloads and what `lectern build` embeds
//! with: both decode it here, into the same ONNX model proto that tract then loads and the
//! same word table, so index and questions run the same weights; the model fingerprint is
//! taken over the file's head, which holds the checksum of every shard.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod convert;
mod format;
mod quant;
mod words;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use convert::{convert, Precision, Scheme, DEFAULT_SCHEME};
pub use format::{head, is_compact, VERSION};
pub use words::{WordTable, INPUT as WORDS_INPUT};

use super::EmbedError;
use format::{Encoding, TensorRecord, ONNX_FLOAT};
use tract_onnx::pb;
use tract_onnx::prelude::Framework;

/// Decodes a compact model file (whole, or its head alone) into the ONNX model proto tract
/// loads and the word table, if the model keeps one outside its graph. A damaged,
/// truncated or foreign file is an error, never a panic.
pub fn decode(bytes: &[u8]) -> Result<(pb::ModelProto, Option<WordTable>), EmbedError> {
    let container = format::read(bytes)?;
    let mut model = tract_onnx::onnx()
        .proto_model_for_read(&mut &container.graph[..])
        .map_err(|e| format::corrupt(format!("its graph is not an ONNX model: {e:#}")))?;
    let graph = model.graph.as_mut().ok_or_else(|| format::corrupt("it holds no graph".into()))?;
    let mut words = None;
    let mut shards = Some(container.shards);
    for record in container.tensors {
        if let Encoding::Sharded { .. } = record.encoding {
            words = Some(WordTable::new(record, shards.take().unwrap_or_default())?);
        } else {
            graph.initializer.push(decode_tensor(record)?);
        }
    }
    Ok((model, words))
}

/// A compact file's head and its word table's shards, each as the bytes a bundle ships.
#[cfg(any(test, not(all(target_arch = "wasm32", target_os = "unknown"))))]
pub fn split(bytes: &[u8]) -> Result<(Vec<u8>, Vec<Vec<u8>>), EmbedError> {
    let container = format::read(bytes)?;
    if container.shards.is_empty() && container.tensors.iter().any(|t| t.shard_count() > 0) {
        return Err(format::corrupt("it is a head without its word table: use the whole model file".into()));
    }
    Ok((head(bytes).to_vec(), container.shards))
}

fn decode_tensor(t: TensorRecord) -> Result<pb::TensorProto, EmbedError> {
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
        Encoding::Raw => proto(t.name, dims, t.data_type, t.data),
        Encoding::Groupwise { bits, group, transposed } => {
            let (scales, codes) = quant::decode(&t.data, rows * cols, group as usize, bits);
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
            proto(t.name, dims, ONNX_FLOAT, values.iter().flat_map(|v| v.to_le_bytes()).collect())
        }
        Encoding::Sharded { .. } => return Err(format::corrupt(format!("tensor {} is sharded", t.name))),
    })
}

#[cfg(test)]
mod tests {
    use super::format::*;
    use super::*;

    /// Six rows of 64 values, quantised 4-bit in groups of 32.
    fn table() -> (Vec<f32>, Vec<u8>) {
        let values: Vec<f32> = (0..64 * 6).map(|i| ((i * 13 % 29) as f32 - 14.0) / 10.0).collect();
        let data = quant::encode(&values, 64, 32, 4);
        (values, data)
    }

    /// The six rows as shards of four rows (the last one two), as the converter cuts them.
    fn word_shards() -> Vec<Vec<u8>> {
        let values: Vec<f32> = table().0;
        values.chunks(4 * 64).map(|rows| quant::encode(rows, 64, 32, 4)).collect()
    }

    fn sample() -> Vec<u8> {
        let shards = word_shards();
        format::write(&Container {
            graph: EMPTY_GRAPH.to_vec(),
            tensors: vec![
                TensorRecord {
                    name: "w".into(),
                    encoding: Encoding::Groupwise { bits: 4, group: 32, transposed: true },
                    data_type: ONNX_FLOAT,
                    dims: vec![64, 6],
                    data: table().1,
                },
                TensorRecord {
                    name: "words".into(),
                    encoding: Encoding::Sharded { bits: 4, group: 32, rows: 4 },
                    data_type: ONNX_FLOAT,
                    dims: vec![6, 64],
                    data: shard_hashes(&shards),
                },
                TensorRecord {
                    name: "b".into(),
                    encoding: Encoding::Raw,
                    data_type: ONNX_FLOAT,
                    dims: vec![2],
                    data: [1f32, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect(),
                },
            ],
            shards,
        })
    }

    /// An ONNX `ModelProto` holding an empty graph (field 7, length 0).
    const EMPTY_GRAPH: [u8; 2] = [0x3a, 0x00];

    #[test]
    fn decodes_every_encoding() {
        let (model, words) = decode(&sample()).unwrap();
        let init = &model.graph.unwrap().initializer;
        let names: Vec<&str> = init.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["w", "b"]);
        assert_eq!(init[0].dims, [64, 6]);
        assert_eq!(init[0].raw_data.len(), 64 * 6 * 4);
        assert_eq!(init[1].raw_data.len(), 8);
        // The transposed tensor's element [r, c] is the stored row c's element r.
        let w = |i: usize| f32::from_le_bytes(init[0].raw_data[i * 4..][..4].try_into().unwrap());
        let words = words.unwrap();
        assert_eq!((words.cols(), words.shard_count()), (64, 2));
        let row1 = words.lookup(&[1]).unwrap();
        // Row 1 of the table is stored row 1 of "w" (the same values): w[r=5, c=1] = words[1, 5].
        assert_eq!(w(5 * 6 + 1), row1[5]);
        // Each looked-up value is within half a step of the original.
        let values = table().0;
        for (c, (&v, &q)) in values[64..128].iter().zip(&row1).enumerate() {
            assert!((v - q).abs() < 0.15, "column {c}: {v} vs {q}");
        }
    }

    #[test]
    fn a_head_takes_its_shards_one_by_one_and_only_its_own() {
        let whole = sample();
        let (head_bytes, shards) = split(&whole).unwrap();
        assert_eq!(head_bytes.as_slice(), head(&whole));
        assert_eq!(shards, word_shards());
        let (_, words) = decode(&head_bytes).unwrap();
        let mut words = words.unwrap();
        assert_eq!(words.missing(&[5, 0, 1, 5]), [0, 1]);
        assert!(matches!(words.lookup(&[5]), Err(EmbedError::WordsMissing(m)) if m == [1]));
        // A shard in the wrong place, or damaged, is refused and nothing is added.
        assert!(matches!(words.add(0, &shards[1]), Err(EmbedError::ModelCorrupt(_))));
        let mut bad = shards[1].clone();
        bad[3] ^= 1;
        assert!(matches!(words.add(1, &bad), Err(EmbedError::ModelCorrupt(_))));
        assert!(matches!(words.add(2, &shards[1]), Err(EmbedError::ModelCorrupt(_))));
        words.add(1, &shards[1]).unwrap();
        assert_eq!(words.missing(&[5, 0, 1, 5]), [0]);
        let (_, all) = decode(&whole).unwrap();
        assert_eq!(words.lookup(&[5, 4]).unwrap(), all.unwrap().lookup(&[5, 4]).unwrap());
        assert!(words.lookup(&[6]).is_err(), "past the last row");
        assert!(split(&head_bytes).is_err(), "a head cannot be split into a bundle");
    }

    #[test]
    fn damage_is_a_coded_error_not_a_panic() {
        let good = sample();
        let version_1 = [&good[..8], &1u32.to_le_bytes(), &good[12..]].concat();
        assert!(matches!(decode(&version_1), Err(EmbedError::ModelVersion { found: 1, .. })));
        let head_len = head(&good).len();
        // Every truncation and every flipped byte is refused, except a cut right after the
        // head: that is a head without its shards.
        for len in [0, 7, 8, 30, 52, head_len / 2, head_len - 1, head_len + 1, good.len() - 1] {
            assert!(matches!(decode(&good[..len]), Err(EmbedError::ModelCorrupt(_))), "truncated to {len}");
        }
        assert!(decode(&good[..head_len]).is_ok());
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
            shards: vec![],
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
            shards: vec![],
        };
        assert!(matches!(decode(&format::write(&huge)), Err(EmbedError::ModelCorrupt(_))));
        let no_hashes = Container {
            graph: EMPTY_GRAPH.to_vec(),
            tensors: vec![TensorRecord {
                name: "words".into(),
                encoding: Encoding::Sharded { bits: 4, group: 32, rows: 4 },
                data_type: ONNX_FLOAT,
                dims: vec![6, 64],
                data: vec![0; 32],
            }],
            shards: vec![],
        };
        assert!(matches!(decode(&format::write(&no_hashes)), Err(EmbedError::ModelCorrupt(_))));
    }
}
