use super::DenseError;

/// Little-endian cursor over untrusted bytes: every read is bounds-checked and fails with
/// [`DenseError::Truncated`] naming the section being read, never panics.
pub(crate) struct ByteReader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> ByteReader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        ByteReader { bytes, pos: 0 }
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// Fails unless `needed` more bytes are present; lets a caller check a whole section
    /// against a header's counts *before* allocating for it.
    pub fn require(&self, section: &'static str, needed: u64) -> Result<(), DenseError> {
        let available = self.remaining() as u64;
        if needed > available {
            return Err(DenseError::Truncated { section, needed, available });
        }
        Ok(())
    }

    pub fn take(&mut self, section: &'static str, len: usize) -> Result<&'a [u8], DenseError> {
        self.require(section, len as u64)?;
        let out = self.bytes.get(self.pos..self.pos + len).unwrap_or(&[]);
        self.pos += len;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, section: &'static str) -> Result<[u8; N], DenseError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(section, N)?);
        Ok(out)
    }

    pub fn u8(&mut self, section: &'static str) -> Result<u8, DenseError> {
        Ok(self.array::<1>(section)?[0])
    }

    pub fn u16(&mut self, section: &'static str) -> Result<u16, DenseError> {
        Ok(u16::from_le_bytes(self.array(section)?))
    }

    pub fn u32(&mut self, section: &'static str) -> Result<u32, DenseError> {
        Ok(u32::from_le_bytes(self.array(section)?))
    }

    /// An unsigned integer stored in `width` (1–4) little-endian bytes.
    pub fn uint(&mut self, section: &'static str, width: usize) -> Result<u32, DenseError> {
        let mut buf = [0u8; 4];
        let width = width.min(4);
        buf[..width].copy_from_slice(self.take(section, width)?);
        Ok(u32::from_le_bytes(buf))
    }

    /// Fails if anything is left: trailing bytes mean the file is not what was written.
    pub fn finish(self) -> Result<(), DenseError> {
        match self.remaining() {
            0 => Ok(()),
            extra => Err(DenseError::TrailingBytes { extra }),
        }
    }
}

/// Appends the low `width` (1–4) bytes of `value`, little-endian.
pub(crate) fn put_uint(out: &mut Vec<u8>, value: u32, width: usize) {
    out.extend_from_slice(&value.to_le_bytes()[..width.min(4)]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_reports_truncation() {
        let mut r = ByteReader::new(&[1, 0, 2, 0, 0, 0, 7, 8, 9]);
        assert_eq!(r.u16("a").unwrap(), 1);
        assert_eq!(r.u32("b").unwrap(), 2);
        assert_eq!(r.uint("c", 3).unwrap(), 0x0009_0807);
        assert_eq!(r.remaining(), 0);
        assert_eq!(r.u8("d"), Err(DenseError::Truncated { section: "d", needed: 1, available: 0 }));
        let r = ByteReader::new(&[1, 2]);
        assert_eq!(
            r.require("e", u64::MAX),
            Err(DenseError::Truncated { section: "e", needed: u64::MAX, available: 2 })
        );
        assert_eq!(r.finish(), Err(DenseError::TrailingBytes { extra: 2 }));
        let mut out = Vec::new();
        put_uint(&mut out, 0x0102_0304, 3);
        assert_eq!(out, vec![4, 3, 2]);
    }
}
