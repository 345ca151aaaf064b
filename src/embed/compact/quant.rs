//! Groupwise symmetric quantisation: a matrix's rows are cut into groups of `group`
//! consecutive values, each stored as `bits`-bit signed codes times one f16 scale.

use tract_onnx::prelude::f16;

/// Lowest and highest code of a `bits`-bit signed integer.
#[cfg(any(test, not(all(target_arch = "wasm32", target_os = "unknown"))))]
pub fn code_range(bits: u8) -> (i32, i32) {
    let half = 1i32 << (bits - 1);
    (-half, half - 1)
}

/// Quantises `values` (rows of `cols`, groups of `group` along each row) to f16 scales
/// (one per group, row-major) and signed codes. Each group's scale is chosen among a fixed
/// set of fractions of its largest magnitude as the one with the least squared error, so
/// the output is deterministic. `cols` must be a multiple of `group`.
#[cfg(any(test, not(all(target_arch = "wasm32", target_os = "unknown"))))]
pub fn quantize(values: &[f32], cols: usize, group: usize, bits: u8) -> (Vec<f16>, Vec<i8>) {
    let (lo, hi) = code_range(bits);
    let mut scales = Vec::with_capacity(values.len() / group.max(1));
    let mut codes = Vec::with_capacity(values.len());
    debug_assert!(group > 0 && cols.is_multiple_of(group) && values.len().is_multiple_of(cols));
    for chunk in values.chunks(group) {
        let max = chunk.iter().fold(0f32, |m, v| m.max(v.abs()));
        let mut best = (f32::INFINITY, f16::ZERO);
        // 0.70 ..= 1.20 of the scale that maps the largest magnitude to the top code.
        for step in 0..=20 {
            let scale = f16::from_f32(max / hi as f32 * (0.70 + 0.025 * step as f32));
            let s = scale.to_f32();
            if !(s > 0.0 && s.is_finite()) {
                continue;
            }
            let err: f32 = chunk
                .iter()
                .map(|&v| {
                    let q = (v / s).round().clamp(lo as f32, hi as f32);
                    (v - q * s) * (v - q * s)
                })
                .sum();
            if err < best.0 {
                best = (err, scale);
            }
        }
        let (scale, s) = (best.1, best.1.to_f32());
        scales.push(scale);
        codes
            .extend(chunk.iter().map(|&v| if s > 0.0 { (v / s).round().clamp(lo as f32, hi as f32) as i8 } else { 0 }));
    }
    (scales, codes)
}

/// Quantises `values` (see [`quantize`]) into groupwise data as the compact file stores it:
/// the f16 scales, then the packed codes.
#[cfg(any(test, not(all(target_arch = "wasm32", target_os = "unknown"))))]
pub fn encode(values: &[f32], cols: usize, group: usize, bits: u8) -> Vec<u8> {
    let (scales, codes) = quantize(values, cols, group, bits);
    let mut data: Vec<u8> = scales.iter().flat_map(|s| s.to_le_bytes()).collect();
    data.extend(pack(&codes, bits));
    data
}

/// The f32 scales and the codes of `count` values of groupwise data written by [`encode`]
/// (its length checked by the caller).
pub fn decode(data: &[u8], count: usize, group: usize, bits: u8) -> (Vec<f32>, Vec<i8>) {
    let (scales, packed) = data.split_at((count / group.max(1)) * 2);
    let scales = scales.chunks_exact(2).map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32()).collect();
    (scales, unpack(packed, count, bits))
}

/// Packs signed `bits`-bit codes, offset to unsigned, into a little-endian bit stream.
#[cfg(any(test, not(all(target_arch = "wasm32", target_os = "unknown"))))]
pub fn pack(codes: &[i8], bits: u8) -> Vec<u8> {
    let offset = 1i32 << (bits - 1);
    let mut out = Vec::with_capacity(packed_len(codes.len(), bits));
    let (mut acc, mut filled) = (0u64, 0u8);
    for &c in codes {
        acc |= ((i32::from(c) + offset) as u64) << filled;
        filled += bits;
        while filled >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            filled -= 8;
        }
    }
    if filled > 0 {
        out.push(acc as u8);
    }
    out
}

/// Bytes that `count` packed `bits`-bit codes take.
pub fn packed_len(count: usize, bits: u8) -> usize {
    (count * usize::from(bits)).div_ceil(8)
}

/// Unpacks `count` signed codes written by [`pack`]; `packed` must hold
/// [`packed_len`]`(count, bits)` bytes (checked by the caller).
pub fn unpack(packed: &[u8], count: usize, bits: u8) -> Vec<i8> {
    let offset = 1i32 << (bits - 1);
    let mask = (1u64 << bits) - 1;
    let mut out = Vec::with_capacity(count);
    if bits == 8 {
        out.extend(packed.iter().take(count).map(|&b| (i32::from(b) - offset) as i8));
        return out;
    }
    let (mut acc, mut filled) = (0u64, 0u8);
    let mut bytes = packed.iter();
    while out.len() < count {
        while filled < bits {
            let Some(&b) = bytes.next() else { return out };
            acc |= u64::from(b) << filled;
            filled += 8;
        }
        out.push(((acc & mask) as i32 - offset) as i8);
        acc >>= bits;
        filled -= bits;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_every_width() {
        for bits in 2..=8u8 {
            let (lo, hi) = code_range(bits);
            let codes: Vec<i8> = (0..101).map(|i| (lo + (i * 7) % (hi - lo + 1)) as i8).collect();
            let packed = pack(&codes, bits);
            assert_eq!(packed.len(), packed_len(codes.len(), bits));
            assert_eq!(unpack(&packed, codes.len(), bits), codes, "bits {bits}");
        }
    }

    #[test]
    fn chosen_scales_do_no_worse_than_the_largest_magnitude_rule() {
        let values: Vec<f32> = (0..256).map(|i| ((i * 37 % 101) as f32 - 50.0) / 97.0).collect();
        for (bits, group) in [(4u8, 32usize), (6, 64), (8, 128)] {
            let (scales, codes) = quantize(&values, 128, group, bits);
            assert_eq!(scales.len(), values.len() / group);
            let hi = code_range(bits).1 as f32;
            for (g, chunk) in values.chunks(group).enumerate() {
                let s = scales[g].to_f32();
                let err: f32 =
                    chunk.iter().zip(&codes[g * group..]).map(|(&v, &q)| (v - f32::from(q) * s).powi(2)).sum();
                let max = chunk.iter().fold(0f32, |m, v| m.max(v.abs()));
                let plain = f16::from_f32(max / hi).to_f32();
                let plain_err: f32 = chunk.iter().map(|&v| (v - (v / plain).round() * plain).powi(2)).sum();
                assert!(err <= plain_err * 1.01, "bits {bits} group {g}: {err} > {plain_err}");
            }
        }
    }

    #[test]
    fn an_all_zero_group_decodes_to_zeros() {
        let (scales, codes) = quantize(&[0.0; 32], 32, 32, 4);
        assert_eq!(scales[0].to_f32(), 0.0);
        assert!(codes.iter().all(|&c| c == 0));
    }
}
