//! The lexical index's own byte format (one file inside the bundle), little-endian:
//!
//! ```text
//! header      magic "LXBM" · format version u16 · tokenizer version u16 · k1 f32 · b f32
//!             title_boost varint · doc_count varint · term_count varint · posting_count varint
//! lengths     doc_count varints: weighted term count of each document
//! vocabulary  term_count entries, sorted by bytes, front-coded against the previous term:
//!             shared-prefix length varint · suffix length varint · suffix (UTF-8) · doc_freq varint
//! postings    for each term in vocabulary order, doc_freq pairs of varints:
//!             doc-id gap (the first is the doc id itself; the rest ≥ 1) · term frequency (≥ 1)
//! ```
//!
//! Nothing follows the postings. Varints are LEB128. The reader trusts nothing: each count
//! is checked against the bytes left before anything is allocated for it, terms are at most
//! [`MAX_TOKEN_BYTES`] long, and doc ids must be < doc_count and strictly increasing, so
//! damaged input is an error, never a panic, and memory stays within a small multiple of
//! the input size.

use super::bm25::Bm25Params;
use super::error::LexicalError;
use super::index::{LexicalIndex, MAX_TITLE_BOOST};
use super::tokenizer::{MAX_TOKEN_BYTES, TOKENIZER_VERSION};
use super::varint::{read_u32, write_u32, write_u64, ByteReader};

pub const MAGIC: [u8; 4] = *b"LXBM";
/// Bumped on any change to the layout above.
pub const FORMAT_VERSION: u16 = 1;

/// Smallest encodings, used to bound counts by the bytes that remain.
const MIN_TERM_BYTES: usize = 4; // prefix, suffix length, one suffix byte, doc_freq
const MIN_POSTING_BYTES: usize = 2; // gap, tf

/// The header both lexical formats start with (this index and its term shards): magic,
/// format version, tokenizer version.
pub(super) fn write_header(out: &mut Vec<u8>, magic: [u8; 4], version: u16) {
    out.extend_from_slice(&magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&TOKENIZER_VERSION.to_le_bytes());
}

/// Reads [`write_header`]'s header, refusing another magic, format or tokenizer version.
pub(super) fn read_header(
    reader: &mut ByteReader,
    magic: [u8; 4],
    version: u16,
    what: &'static str,
) -> Result<(), LexicalError> {
    if reader.array::<4>(what).map_err(|_| LexicalError::NotAnIndex)? != magic {
        return Err(LexicalError::NotAnIndex);
    }
    let found = reader.u16_le(what)?;
    if found != version {
        return Err(LexicalError::UnsupportedVersion { found, expected: version });
    }
    let tokenizer = reader.u16_le(what)?;
    if tokenizer != TOKENIZER_VERSION {
        return Err(LexicalError::TokenizerMismatch { found: tokenizer, expected: TOKENIZER_VERSION });
    }
    Ok(())
}

impl LexicalIndex {
    /// Serializes the index (see the module docs for the layout).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + self.doc_lengths.len() * 2 + self.term_text.len() + self.postings.len());
        write_header(&mut out, MAGIC, FORMAT_VERSION);
        out.extend_from_slice(&self.params.k1.to_le_bytes());
        out.extend_from_slice(&self.params.b.to_le_bytes());
        write_u32(&mut out, self.title_boost);
        write_u64(&mut out, self.doc_lengths.len() as u64);
        write_u64(&mut out, self.term_count() as u64);
        write_u64(&mut out, self.posting_count);
        for &length in &self.doc_lengths {
            write_u32(&mut out, length);
        }
        let mut previous = "";
        for i in 0..self.term_count() {
            let term = self.term(i);
            let shared = shared_prefix_len(previous, term);
            write_u64(&mut out, shared as u64);
            let suffix = term.as_bytes().get(shared..).unwrap_or(&[]);
            write_u64(&mut out, suffix.len() as u64);
            out.extend_from_slice(suffix);
            write_u32(&mut out, self.doc_freqs.get(i).copied().unwrap_or(0));
            previous = term;
        }
        out.extend_from_slice(&self.postings);
        out
    }

    /// Reads an index written by [`to_bytes`](Self::to_bytes), refusing anything malformed,
    /// from another format or tokenizer version, or with trailing bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LexicalError> {
        let mut reader = ByteReader::new(bytes);
        read_header(&mut reader, MAGIC, FORMAT_VERSION, "the header")?;
        let params = Bm25Params { k1: reader.f32_le("the header")?, b: reader.f32_le("the header")? };
        params.validate().map_err(|e| LexicalError::Corrupt(format!("stored BM25 parameters: {e}")))?;
        let title_boost = reader.varint_u32("the header")?;
        if title_boost > MAX_TITLE_BOOST {
            return Err(LexicalError::Corrupt(format!("title boost {title_boost} is above {MAX_TITLE_BOOST}")));
        }
        let doc_count = reader.varint_u64("the header")?;
        let term_count = reader.varint_u64("the header")?;
        let posting_count = reader.varint_u64("the header")?;

        let doc_count = bounded_count(doc_count, 1, reader.remaining(), "document lengths")?;
        let doc_count_u32 =
            u32::try_from(doc_count).map_err(|_| LexicalError::Corrupt("more than 2^32 documents".into()))?;
        let mut doc_lengths = Vec::with_capacity(doc_count);
        for _ in 0..doc_count {
            doc_lengths.push(reader.varint_u32("document lengths")?);
        }

        let term_count = bounded_count(term_count, MIN_TERM_BYTES, reader.remaining(), "the vocabulary")?;
        let mut term_text = String::new();
        let mut term_ends = Vec::with_capacity(term_count);
        let mut doc_freqs = Vec::with_capacity(term_count);
        let mut term = Vec::with_capacity(MAX_TOKEN_BYTES);
        let mut previous_start = 0;
        let mut stored_postings: u64 = 0;
        for _ in 0..term_count {
            let shared = reader.varint_u64("the vocabulary")?;
            let suffix_len = reader.varint_u64("the vocabulary")?;
            let previous_len = term_text.len() - previous_start;
            let total = shared.saturating_add(suffix_len);
            if shared > previous_len as u64 || suffix_len == 0 || total > MAX_TOKEN_BYTES as u64 {
                return Err(LexicalError::Corrupt(format!(
                    "vocabulary entry {} has impossible lengths (shared {shared}, new {suffix_len})",
                    term_ends.len()
                )));
            }
            let suffix = reader.take(suffix_len as usize, "the vocabulary")?;
            term.clear();
            term.extend_from_slice(
                term_text.as_bytes().get(previous_start..previous_start + shared as usize).unwrap_or(&[]),
            );
            term.extend_from_slice(suffix);
            let text = std::str::from_utf8(&term)
                .map_err(|_| LexicalError::Corrupt(format!("vocabulary entry {} is not UTF-8", term_ends.len())))?;
            let previous = term_text.get(previous_start..).unwrap_or("");
            if !term_ends.is_empty() && text <= previous {
                return Err(LexicalError::Corrupt(format!("vocabulary entry {} is out of order", term_ends.len())));
            }
            let doc_freq = reader.varint_u32("the vocabulary")?;
            if doc_freq == 0 || doc_freq > doc_count_u32 {
                return Err(LexicalError::Corrupt(format!(
                    "term {text:?} is said to occur in {doc_freq} of {doc_count} documents"
                )));
            }
            previous_start = term_text.len();
            term_text.push_str(text);
            term_ends.push(term_text.len());
            doc_freqs.push(doc_freq);
            stored_postings += u64::from(doc_freq);
        }
        if stored_postings != posting_count {
            return Err(LexicalError::Corrupt(format!(
                "the header counts {posting_count} postings, the vocabulary {stored_postings}"
            )));
        }
        bounded_count(posting_count, MIN_POSTING_BYTES, reader.remaining(), "the postings")?;

        let postings = reader.rest();
        let posting_ends = validate_postings(postings, &doc_freqs, &doc_lengths)?;
        if posting_ends.last().copied().unwrap_or(0) != postings.len() {
            return Err(LexicalError::Corrupt("unexpected bytes after the postings".into()));
        }
        Ok(LexicalIndex::from_validated_parts(
            params,
            title_boost,
            doc_lengths,
            term_text,
            term_ends,
            doc_freqs,
            postings.to_vec(),
            posting_ends,
            posting_count,
        ))
    }
}

/// `count` as a usize, if that many items of at least `min_bytes` each fit in `remaining`.
fn bounded_count(count: u64, min_bytes: usize, remaining: usize, section: &'static str) -> Result<usize, LexicalError> {
    match usize::try_from(count) {
        Ok(count) if count.checked_mul(min_bytes).is_some_and(|need| need <= remaining) => Ok(count),
        _ => Err(LexicalError::Truncated { section }),
    }
}

/// Walks every posting list; returns where each ends.
fn validate_postings(bytes: &[u8], doc_freqs: &[u32], doc_lengths: &[u32]) -> Result<Vec<usize>, LexicalError> {
    let doc_count = doc_lengths.len() as u64;
    let mut ends = Vec::with_capacity(doc_freqs.len());
    let mut pos = 0;
    for (term, &doc_freq) in doc_freqs.iter().enumerate() {
        let mut doc: u64 = 0;
        for i in 0..doc_freq {
            let (Some(gap), Some(tf)) = (read_u32(bytes, &mut pos), read_u32(bytes, &mut pos)) else {
                return Err(if pos >= bytes.len() {
                    LexicalError::Truncated { section: "the postings" }
                } else {
                    LexicalError::Corrupt(format!("malformed number in the postings of term {term}"))
                });
            };
            if i > 0 && gap == 0 {
                return Err(LexicalError::Corrupt(format!("postings of term {term} are not strictly increasing")));
            }
            doc += u64::from(gap);
            let length = if doc < doc_count { doc_lengths.get(doc as usize).copied() } else { None };
            let Some(length) = length else {
                return Err(LexicalError::Corrupt(format!(
                    "term {term} points to document {doc}, but there are {doc_count}"
                )));
            };
            if tf == 0 || tf > length {
                return Err(LexicalError::Corrupt(format!(
                    "term {term} occurs {tf} times in document {doc} of length {length}"
                )));
            }
        }
        ends.push(pos);
    }
    Ok(ends)
}

fn shared_prefix_len(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::super::index::{Document, IndexOptions};
    use super::*;

    fn sample() -> LexicalIndex {
        let docs = [
            Document::new("Nodes and topics", "Run `ros2 topic echo /cmd_vel` to watch velocity commands."),
            Document::new("QoS", "Reliability: RELIABLE or BEST_EFFORT; durability TRANSIENT_LOCAL."),
            Document::new("Safety", "ISO/TS 15066 limits contact forces for collaborative robots."),
            Document::new("日本語", "ロボットの制御"),
        ];
        LexicalIndex::build(&docs, IndexOptions { title_boost: 2, ..Default::default() }).unwrap()
    }

    #[test]
    fn round_trip_is_identical() {
        let idx = sample();
        let bytes = idx.to_bytes();
        let back = LexicalIndex::from_bytes(&bytes).unwrap();
        assert_eq!(back, idx);
        assert_eq!(back.to_bytes(), bytes);
        for query in ["echo cmd_vel", "15066", "best effort", "ロボット", "robots"] {
            assert_eq!(back.search(query, 5, None), idx.search(query, 5, None), "{query}");
        }
    }

    #[test]
    fn round_trip_keeps_params_and_boost() {
        let docs = [Document::new("a title", "some body text")];
        let options = IndexOptions { bm25: Bm25Params::new(0.9, 0.4).unwrap(), title_boost: 5 };
        let back = LexicalIndex::from_bytes(&LexicalIndex::build(&docs, options).unwrap().to_bytes()).unwrap();
        assert_eq!(back.params(), options.bm25);
        assert_eq!(back.title_boost(), 5);
    }

    #[test]
    fn empty_index_round_trips() {
        let idx = LexicalIndex::build(&[], IndexOptions::default()).unwrap();
        let back = LexicalIndex::from_bytes(&idx.to_bytes()).unwrap();
        assert_eq!(back.doc_count(), 0);
        assert!(back.search("anything", 3, None).is_empty());
    }

    #[test]
    fn layout_starts_with_the_documented_header() {
        let bytes = sample().to_bytes();
        assert_eq!(&bytes[0..4], b"LXBM");
        assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), FORMAT_VERSION);
        assert_eq!(u16::from_le_bytes([bytes[6], bytes[7]]), TOKENIZER_VERSION);
        assert_eq!(f32::from_le_bytes(bytes[8..12].try_into().unwrap()), 1.2);
        assert_eq!(f32::from_le_bytes(bytes[12..16].try_into().unwrap()), 0.75);
        assert_eq!(bytes[16], 2); // title boost
        assert_eq!(bytes[17], 4); // documents
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = sample().to_bytes();
        for len in 0..bytes.len() {
            assert!(LexicalIndex::from_bytes(&bytes[..len]).is_err(), "prefix of {len} bytes loaded");
        }
    }

    #[test]
    fn wrong_magic_version_and_tokenizer() {
        let bytes = sample().to_bytes();
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(LexicalIndex::from_bytes(&bad), Err(LexicalError::NotAnIndex));
        assert_eq!(LexicalIndex::from_bytes(b"LX"), Err(LexicalError::NotAnIndex));
        assert_eq!(LexicalIndex::from_bytes(b"{\"json\": true}"), Err(LexicalError::NotAnIndex));
        let mut bad = bytes.clone();
        bad[4] = 9;
        assert_eq!(LexicalIndex::from_bytes(&bad), Err(LexicalError::UnsupportedVersion { found: 9, expected: 1 }));
        let mut bad = bytes.clone();
        bad[6] = 7;
        assert!(matches!(LexicalIndex::from_bytes(&bad), Err(LexicalError::TokenizerMismatch { found: 7, .. })));
        let mut bad = bytes;
        bad[8..12].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(matches!(LexicalIndex::from_bytes(&bad), Err(LexicalError::Corrupt(_))));
    }

    #[test]
    fn trailing_bytes_are_refused() {
        let mut bytes = sample().to_bytes();
        bytes.push(0);
        assert!(matches!(LexicalIndex::from_bytes(&bytes), Err(LexicalError::Corrupt(_))));
    }

    /// Magic, versions and the default BM25 parameters: the fixed start of every index.
    fn header_start() -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&TOKENIZER_VERSION.to_le_bytes());
        out.extend_from_slice(&1.2f32.to_le_bytes());
        out.extend_from_slice(&0.75f32.to_le_bytes());
        out
    }

    /// Hand-assembles a one-term index whose only postings are `postings`.
    fn one_term(doc_count: u32, doc_freq: u32, postings: &[u32]) -> Vec<u8> {
        let mut out = header_start();
        for v in [1, doc_count, 1, doc_freq] {
            write_u32(&mut out, v);
        }
        for _ in 0..doc_count {
            write_u32(&mut out, 5);
        }
        out.extend_from_slice(&[0, 5]);
        out.extend_from_slice(b"robot");
        write_u32(&mut out, doc_freq);
        for &v in postings {
            write_u32(&mut out, v);
        }
        out
    }

    #[test]
    fn hand_built_index_loads() {
        let idx = LexicalIndex::from_bytes(&one_term(3, 2, &[0, 1, 2, 3])).unwrap();
        assert_eq!(idx.search("robots", 5, None).iter().map(|h| h.0).collect::<Vec<_>>(), [2, 0]);
    }

    #[test]
    fn invalid_postings_are_refused() {
        let cases: [(&str, Vec<u8>); 6] = [
            ("doc id out of range", one_term(3, 1, &[3, 1])),
            ("repeated doc id", one_term(3, 2, &[1, 1, 0, 1])),
            ("zero term frequency", one_term(3, 1, &[0, 0])),
            ("frequency above length", one_term(3, 1, &[0, 6])),
            ("doc_freq above doc count", one_term(3, 4, &[0, 1, 1, 1, 1, 1, 1, 1])),
            ("zero doc_freq", one_term(3, 0, &[])),
        ];
        for (what, bytes) in cases {
            assert!(matches!(LexicalIndex::from_bytes(&bytes), Err(LexicalError::Corrupt(_))), "{what}");
        }
        // Gaps that overflow past u32 and the doc count.
        assert!(LexicalIndex::from_bytes(&one_term(3, 2, &[2, 1, u32::MAX, 1])).is_err());
    }

    #[test]
    fn huge_counts_fail_before_allocating() {
        let mut out = header_start();
        write_u32(&mut out, 1);
        write_u64(&mut out, u64::MAX); // documents
        write_u64(&mut out, u64::MAX); // terms
        write_u64(&mut out, u64::MAX); // postings
        assert_eq!(LexicalIndex::from_bytes(&out), Err(LexicalError::Truncated { section: "document lengths" }));
    }

    #[test]
    fn unsorted_or_invalid_vocabulary_is_refused() {
        let idx = LexicalIndex::build(&[Document::text("alpha beta")], IndexOptions::default()).unwrap();
        let bytes = idx.to_bytes();
        let at = bytes.windows(5).position(|w| w == b"alpha").unwrap();
        let mut swapped = bytes.clone();
        swapped[at] = b'z'; // "zlpha" now sorts after "beta"
        assert!(matches!(LexicalIndex::from_bytes(&swapped), Err(LexicalError::Corrupt(_))));
        let mut not_utf8 = bytes;
        not_utf8[at] = 0xff;
        assert!(matches!(LexicalIndex::from_bytes(&not_utf8), Err(LexicalError::Corrupt(_))));
    }
}
