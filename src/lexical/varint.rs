//! LEB128 variable-length integers and a bounds-checked reader: small numbers (doc-id gaps,
//! term frequencies, lengths) take one byte, and no read can run past the input.

use super::error::LexicalError;

pub(crate) fn write_u64(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

pub(crate) fn write_u32(out: &mut Vec<u8>, value: u32) {
    write_u64(out, u64::from(value));
}

/// Decodes one varint at `*pos`, advancing it. `None` if the bytes end first, the
/// encoding is longer than a u64 needs, or the value overflows.
pub(crate) fn read_u64(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut value: u64 = 0;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*pos)?;
        *pos += 1;
        let bits = u64::from(byte & 0x7f);
        // The tenth byte may only carry the top bit of a u64.
        if shift == 63 && bits > 1 {
            return None;
        }
        value |= bits << shift;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

pub(crate) fn read_u32(bytes: &[u8], pos: &mut usize) -> Option<u32> {
    read_u64(bytes, pos).and_then(|v| u32::try_from(v).ok())
}

/// Reads the serialized index front to back; every method checks the remaining length, and
/// every failure names the section so the error says where the file broke.
pub(crate) struct ByteReader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> ByteReader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        ByteReader { bytes, pos: 0 }
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    pub(crate) fn take(&mut self, len: usize, section: &'static str) -> Result<&'a [u8], LexicalError> {
        let end = self.pos.checked_add(len).ok_or(LexicalError::Truncated { section })?;
        let slice = self.bytes.get(self.pos..end).ok_or(LexicalError::Truncated { section })?;
        self.pos = end;
        Ok(slice)
    }

    pub(crate) fn array<const N: usize>(&mut self, section: &'static str) -> Result<[u8; N], LexicalError> {
        let slice = self.take(N, section)?;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    pub(crate) fn u16_le(&mut self, section: &'static str) -> Result<u16, LexicalError> {
        Ok(u16::from_le_bytes(self.array(section)?))
    }

    pub(crate) fn f32_le(&mut self, section: &'static str) -> Result<f32, LexicalError> {
        Ok(f32::from_le_bytes(self.array(section)?))
    }

    pub(crate) fn varint_u64(&mut self, section: &'static str) -> Result<u64, LexicalError> {
        let mut pos = self.pos;
        match read_u64(self.bytes, &mut pos) {
            Some(value) => {
                self.pos = pos;
                Ok(value)
            }
            None if pos >= self.bytes.len() => Err(LexicalError::Truncated { section }),
            None => Err(LexicalError::Corrupt(format!("malformed number in {section}"))),
        }
    }

    pub(crate) fn varint_u32(&mut self, section: &'static str) -> Result<u32, LexicalError> {
        let value = self.varint_u64(section)?;
        u32::try_from(value).map_err(|_| LexicalError::Corrupt(format!("number too large in {section}")))
    }

    /// The unread rest, consuming it.
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        let rest = self.bytes.get(self.pos..).unwrap_or(&[]);
        self.pos = self.bytes.len();
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_boundary_values() {
        for value in [0u64, 1, 127, 128, 300, 16_383, 16_384, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            write_u64(&mut out, value);
            let mut pos = 0;
            assert_eq!(read_u64(&out, &mut pos), Some(value));
            assert_eq!(pos, out.len());
        }
    }

    #[test]
    fn small_values_take_one_byte() {
        let mut out = Vec::new();
        write_u32(&mut out, 127);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn rejects_truncated_overlong_and_overflowing() {
        let mut pos = 0;
        assert_eq!(read_u64(&[0x80, 0x80], &mut pos), None);
        let mut pos = 0;
        assert_eq!(read_u64(&[0xff; 11], &mut pos), None);
        // Ten bytes whose last carries more than the top bit.
        let mut pos = 0;
        assert_eq!(read_u64(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02], &mut pos), None);
        let mut out = Vec::new();
        write_u64(&mut out, u64::from(u32::MAX) + 1);
        let mut pos = 0;
        assert_eq!(read_u32(&out, &mut pos), None);
    }

    #[test]
    fn reader_reports_truncation_and_corruption() {
        let mut reader = ByteReader::new(&[0x80]);
        assert!(matches!(reader.varint_u64("x"), Err(LexicalError::Truncated { .. })));
        let mut reader = ByteReader::new(&[0xff; 12]);
        assert!(matches!(reader.varint_u64("x"), Err(LexicalError::Corrupt(_))));
        let mut reader = ByteReader::new(&[1, 2]);
        assert!(matches!(reader.take(3, "x"), Err(LexicalError::Truncated { .. })));
        assert_eq!(reader.take(usize::MAX, "x"), Err(LexicalError::Truncated { section: "x" }));
        assert_eq!(reader.remaining(), 2);
    }
}
