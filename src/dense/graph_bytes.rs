//! The graph's compact byte form, and its conversion to and from instant-distance's own.
//!
//! instant-distance exposes its graph only through serde. Serialised with postcard ("the
//! wire form") it is: `ef_search`, the points (here: vector ids), then every node's full
//! neighbour array — 64 slots on layer 0 and 32 above, unused slots holding `u32::MAX`,
//! 5 bytes each as a varint. The compact form drops the unused slots, writes a degree byte
//! per node and each id in the fewest whole bytes that hold `count` (2 up to 65 536 vectors,
//! 3 up to 16.7 M), and is validated completely before any of it reaches instant-distance,
//! whose search indexes its arrays without checks.
//!
//! Compact layout (little-endian), after the vectors of the enclosing format:
//!
//! ```text
//! u32                 ef_search
//! count × id          graph position -> vector id (a permutation of 0..count)
//! count × node        layer 0: u8 degree (<= 64), then degree × id (< count)
//! u8                  number of upper layers L (<= 32)
//! L × { u32 n; n × node }   layers 1..=L, each no larger than the one below, upper nodes
//!                     having degree <= 32 and ids < n; all upper layers together <= count
//! ```

use super::{put_uint, ByteReader, DenseError};

/// Links per node on layer 0 and above: instant-distance's `2 * M` and `M`, with `M = 32`.
const ZERO_DEGREE: usize = 64;
const UPPER_DEGREE: usize = 32;
/// Enough for any graph: layers shrink ~3.5x each (instant-distance's `mL = 1 / ln M`).
const MAX_UPPER_LAYERS: usize = 32;
/// Widest search accepted from a file, so a corrupt value cannot ask for a scan-sized `ef`.
pub(crate) const MAX_EF: usize = 1 << 16;
/// An unused neighbour slot in instant-distance.
const INVALID: u32 = u32::MAX;

/// Bytes per id in the compact form: the fewest whole bytes that hold every id below `count`.
pub(crate) fn id_width(count: usize) -> usize {
    match count {
        0..=0x1_0000 => 2,
        0x1_0001..=0x100_0000 => 3,
        _ => 4,
    }
}

fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads postcard's varints from a wire form we produced; errors only if instant-distance's
/// serialised shape changed.
struct WireReader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

const WIRE_CHANGED: DenseError = DenseError::InvalidGraph("instant-distance's serialised form is not the expected one");

impl WireReader<'_> {
    fn varint(&mut self) -> Result<u64, DenseError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.pos).ok_or(WIRE_CHANGED)?;
            self.pos += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(WIRE_CHANGED)
    }

    fn u32(&mut self) -> Result<u32, DenseError> {
        u32::try_from(self.varint()?).map_err(|_| WIRE_CHANGED)
    }

    fn len(&mut self) -> Result<usize, DenseError> {
        usize::try_from(self.varint()?).map_err(|_| WIRE_CHANGED)
    }
}

/// The `ef_search` a wire form starts with.
pub(crate) fn wire_ef_search(wire: &[u8]) -> Result<usize, DenseError> {
    WireReader { bytes: wire, pos: 0 }.len()
}

/// The wire form with its `ef_search` replaced.
pub(crate) fn wire_with_ef_search(wire: &[u8], ef_search: usize) -> Result<Vec<u8>, DenseError> {
    let mut reader = WireReader { bytes: wire, pos: 0 };
    reader.varint()?;
    let mut out = Vec::with_capacity(wire.len());
    put_varint(&mut out, ef_search as u64);
    out.extend_from_slice(wire.get(reader.pos..).unwrap_or(&[]));
    Ok(out)
}

/// Appends the compact form of a wire-form graph over `count` vectors to `out`.
pub(crate) fn compact_from_wire(wire: &[u8], count: usize, out: &mut Vec<u8>) -> Result<(), DenseError> {
    let width = id_width(count);
    let mut reader = WireReader { bytes: wire, pos: 0 };
    let ef_search = u32::try_from(reader.varint()?).map_err(|_| WIRE_CHANGED)?;
    out.extend_from_slice(&ef_search.to_le_bytes());
    if reader.len()? != count {
        return Err(WIRE_CHANGED);
    }
    for _ in 0..count {
        put_uint(out, reader.u32()?, width);
    }
    if reader.len()? != count {
        return Err(WIRE_CHANGED);
    }
    let mut links = Vec::with_capacity(ZERO_DEGREE);
    for _ in 0..count {
        compact_node(&mut reader, ZERO_DEGREE, count, width, &mut links, out)?;
    }
    let layers = reader.len()?;
    out.push(u8::try_from(layers).map_err(|_| WIRE_CHANGED)?);
    for _ in 0..layers {
        let nodes = reader.len()?;
        out.extend_from_slice(&u32::try_from(nodes).map_err(|_| WIRE_CHANGED)?.to_le_bytes());
        for _ in 0..nodes {
            compact_node(&mut reader, UPPER_DEGREE, count, width, &mut links, out)?;
        }
    }
    if reader.pos != wire.len() {
        return Err(WIRE_CHANGED);
    }
    Ok(())
}

/// One node: the neighbours before the first unused slot (instant-distance stops there too).
fn compact_node(
    reader: &mut WireReader<'_>,
    slots: usize,
    count: usize,
    width: usize,
    links: &mut Vec<u32>,
    out: &mut Vec<u8>,
) -> Result<(), DenseError> {
    links.clear();
    let mut ended = false;
    for _ in 0..slots {
        let id = reader.u32()?;
        ended |= id == INVALID;
        if !ended {
            if id as usize >= count {
                return Err(WIRE_CHANGED);
            }
            links.push(id);
        }
    }
    out.push(links.len() as u8); // <= 64
    for &id in links.iter() {
        put_uint(out, id, width);
    }
    Ok(())
}

/// Reads a compact graph over `count` vectors, validating every field, and returns its wire form.
pub(crate) fn wire_from_compact(reader: &mut ByteReader<'_>, count: usize) -> Result<Vec<u8>, DenseError> {
    let width = id_width(count);
    let ef_search = reader.u32("graph header")? as usize;
    if ef_search == 0 || ef_search > MAX_EF {
        return Err(DenseError::InvalidGraph("its search width (ef) is 0 or absurdly large"));
    }
    // Each node takes at least an id and a degree byte, so `count` is checked against the
    // input before anything is sized from it; the wire form is ~1.5x the compact one.
    reader.require("graph", (count as u64) * (width as u64 + 1))?;
    let mut wire = Vec::with_capacity(reader.remaining().saturating_mul(2));
    put_varint(&mut wire, ef_search as u64);

    put_varint(&mut wire, count as u64);
    let mut seen = vec![false; count];
    for _ in 0..count {
        let id = reader.uint("graph order", width)?;
        match seen.get_mut(id as usize) {
            Some(slot) if !*slot => *slot = true,
            _ => return Err(DenseError::InvalidGraph("its point order is not a permutation of the vectors")),
        }
        put_varint(&mut wire, u64::from(id));
    }
    drop(seen);

    put_varint(&mut wire, count as u64);
    for node in 0..count {
        wire_node(reader, &mut wire, 0, node, ZERO_DEGREE, count, width)?;
    }

    let layers = usize::from(reader.u8("graph layers")?);
    if layers > MAX_UPPER_LAYERS {
        return Err(DenseError::InvalidGraph("it has more layers than any graph needs"));
    }
    put_varint(&mut wire, layers as u64);
    let (mut below, mut total) = (count, 0usize);
    for layer in 1..=layers {
        let nodes = reader.u32("graph layers")? as usize;
        total = total.saturating_add(nodes);
        // Search enters every layer at node 0 and carries nodes down, so no layer may be empty
        // or larger than the one below it.
        if nodes == 0 || nodes > below || total > count {
            return Err(DenseError::InvalidGraph("its layer sizes are inconsistent"));
        }
        reader.require("graph layers", nodes as u64)?;
        put_varint(&mut wire, nodes as u64);
        for node in 0..nodes {
            wire_node(reader, &mut wire, layer, node, UPPER_DEGREE, nodes, width)?;
        }
        below = nodes;
    }
    Ok(wire)
}

/// One node of `layer` (whose nodes are `0..limit`): validated links, padded to `slots`.
fn wire_node(
    reader: &mut ByteReader<'_>,
    wire: &mut Vec<u8>,
    layer: usize,
    node: usize,
    slots: usize,
    limit: usize,
    width: usize,
) -> Result<(), DenseError> {
    let degree = usize::from(reader.u8("graph nodes")?);
    if degree > slots {
        return Err(DenseError::DegreeTooLarge { layer, node, degree, max: slots });
    }
    for _ in 0..degree {
        let neighbour = reader.uint("graph nodes", width)?;
        if neighbour as usize >= limit {
            return Err(DenseError::NeighbourOutOfRange { layer, node, neighbour, limit });
        }
        put_varint(wire, u64::from(neighbour));
    }
    for _ in degree..slots {
        put_varint(wire, u64::from(INVALID));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_width_covers_every_id_below_count() {
        assert_eq!(id_width(1), 2);
        assert_eq!(id_width(65_536), 2);
        assert_eq!(id_width(65_537), 3);
        assert_eq!(id_width(1 << 24), 3);
        assert_eq!(id_width((1 << 24) + 1), 4);
    }

    #[test]
    fn varints_round_trip_and_ef_can_be_replaced() {
        let mut wire = Vec::new();
        for v in [0u64, 1, 127, 128, 300, u64::from(u32::MAX)] {
            put_varint(&mut wire, v);
        }
        let mut r = WireReader { bytes: &wire, pos: 0 };
        for v in [0u64, 1, 127, 128, 300, u64::from(u32::MAX)] {
            assert_eq!(r.varint().unwrap(), v);
        }
        assert!(r.varint().is_err());
        let replaced = wire_with_ef_search(&wire, 300).unwrap();
        assert_eq!(wire_ef_search(&replaced).unwrap(), 300);
        assert_eq!(replaced.len(), wire.len() + 1);
    }
}
