//! The lexical index split into term shards, so a browser fetches only the postings of the
//! question's terms (as Pagefind does) instead of the whole index.
//!
//! Design:
//! - The vocabulary, sorted by bytes, is cut into **term ranges** of about `target` bytes
//!   each; shard i holds every term from its first term up to the next shard's first term.
//!   A range (not a hash) keeps each shard near its target size and lets one very common
//!   term sit alone in its shard. Who needs which shard is decided here, in Rust, from the
//!   same tokenizer that built the index ([`query_terms`]): the JS never tokenizes.
//! - BM25 needs, besides a term's postings, the length of every document it scores and the
//!   site's average length. Each posting therefore carries its document's weighted length,
//!   and the site-wide numbers (documents, total length, parameters) are a few bytes of
//!   [`LexicalStats`]: a query's fetch stays proportional to its terms' postings, never to
//!   the site. An index assembled from some shards ([`LexicalIndex::from_stats`] then
//!   [`LexicalIndex::attach_terms`]) scores every query whose terms it holds exactly as the
//!   whole index does (same numbers, same order of summation); from all shards it *is* the
//!   whole index.
//!
//! Shard layout, little-endian, varints LEB128:
//!
//! ```text
//! header   magic "LXSH" · shard format version u16 · tokenizer version u16 · term_count varint
//! terms    term_count entries, sorted, front-coded against the previous term of the shard:
//!          shared-prefix length varint · suffix length varint · suffix (UTF-8) · doc_freq varint ·
//!          doc_freq triples of varints: doc-id gap (the first is the id) · tf (≥ 1) · doc length (≥ tf)
//! ```
//!
//! The reader trusts nothing: counts are bounded by the bytes left, ids by the document
//! count, terms by the shard's range, and a document's length must agree across shards.

use serde::{Deserialize, Serialize};

use super::bm25::Bm25Params;
use super::error::LexicalError;
use super::format::{read_header, write_header};
use super::index::{LexicalIndex, TermSpan, MAX_TITLE_BOOST};
use super::names::query_names;
use super::tokenizer::{tokenize, MAX_TOKEN_BYTES, TOKENIZER_VERSION};
use super::varint::{write_u32, write_u64, ByteReader};

pub const SHARD_MAGIC: [u8; 4] = *b"LXSH";
/// Bumped on any change to the shard layout above.
pub const SHARD_FORMAT_VERSION: u16 = 1;

/// Smallest encoding of a term entry (prefix, suffix length, one byte, doc_freq) and of a posting.
const MIN_TERM_BYTES: usize = 4;
const MIN_POSTING_BYTES: usize = 3;

/// The site-wide numbers BM25 needs besides the postings: a few bytes, loaded up front.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct LexicalStats {
    pub shard_format_version: u16,
    pub tokenizer_version: u16,
    pub k1: f32,
    pub b: f32,
    pub title_boost: u32,
    pub doc_count: u32,
    /// Sum of the documents' weighted lengths (avgdl = total / doc_count).
    pub total_length: u64,
    pub term_count: u64,
    pub posting_count: u64,
}

/// One term of a shard: its postings as (doc id, term frequency, document length).
#[derive(Clone, Debug, PartialEq)]
pub struct ShardTerm {
    pub term: String,
    pub postings: Vec<(u32, u32, u32)>,
}

/// A written shard: its first term (the start of its range) and its bytes.
pub struct TermShard {
    pub first_term: String,
    pub bytes: Vec<u8>,
}

/// The distinct index terms of `query`, sorted: what a search for it looks up — its words,
/// and the names it may be asking for (`names::query_names`). The one rule that decides
/// which shards a query needs.
pub fn query_terms(query: &str) -> Vec<String> {
    let mut words = tokenize(query);
    words.extend(query_names(query));
    crate::sort::sort_dedup(&mut words);
    words
}

impl LexicalIndex {
    pub fn stats(&self) -> LexicalStats {
        LexicalStats {
            shard_format_version: SHARD_FORMAT_VERSION,
            tokenizer_version: TOKENIZER_VERSION,
            k1: self.params.k1,
            b: self.params.b,
            title_boost: self.title_boost,
            doc_count: self.doc_count(),
            total_length: self.length_total,
            term_count: self.term_count() as u64,
            posting_count: self.posting_count,
        }
    }

    /// The sum of the document lengths this index knows: the site's total once every shard
    /// is attached (a check that no shard is missing).
    pub fn known_length_total(&self) -> u64 {
        self.doc_lengths.iter().map(|&len| u64::from(len)).sum()
    }

    /// Cuts the vocabulary into shards of about `target_bytes` each (a term whose postings
    /// alone are larger gets a shard of its own). An empty index gives no shard.
    pub fn to_term_shards(&self, target_bytes: usize) -> Vec<TermShard> {
        let mut shards = Vec::new();
        let mut body = Vec::new();
        let mut count = 0u64;
        let mut first = String::new();
        let mut previous = "";
        let mut block = Vec::new();
        for i in 0..self.term_count() {
            let term = self.term(i);
            let encode = |block: &mut Vec<u8>, previous: &str| {
                block.clear();
                let shared = term.bytes().zip(previous.bytes()).take_while(|(a, b)| a == b).count();
                write_u64(block, shared as u64);
                let suffix = term.as_bytes().get(shared..).unwrap_or(&[]);
                write_u64(block, suffix.len() as u64);
                block.extend_from_slice(suffix);
                write_u32(block, self.doc_freqs.get(i).copied().unwrap_or(0));
                let mut last = 0;
                for (n, (doc, tf)) in self.postings_of(i).enumerate() {
                    write_u32(block, if n == 0 { doc } else { doc - last });
                    write_u32(block, tf);
                    write_u32(block, self.doc_lengths.get(doc as usize).copied().unwrap_or(0));
                    last = doc;
                }
            };
            encode(&mut block, previous);
            if count > 0 && body.len() + block.len() > target_bytes {
                shards.push(finish_shard(std::mem::take(&mut first), count, &body));
                body.clear();
                count = 0;
                encode(&mut block, "");
            }
            if count == 0 {
                first = term.to_string();
            }
            body.extend_from_slice(&block);
            count += 1;
            previous = term;
        }
        if count > 0 {
            shards.push(finish_shard(first, count, &body));
        }
        shards
    }

    /// An index that knows the site's numbers but no term yet: keyword search finds nothing
    /// until the shards of the question's terms are attached.
    pub fn from_stats(stats: &LexicalStats) -> Result<Self, LexicalError> {
        if stats.shard_format_version != SHARD_FORMAT_VERSION {
            return Err(LexicalError::UnsupportedVersion {
                found: stats.shard_format_version,
                expected: SHARD_FORMAT_VERSION,
            });
        }
        if stats.tokenizer_version != TOKENIZER_VERSION {
            return Err(LexicalError::TokenizerMismatch {
                found: stats.tokenizer_version,
                expected: TOKENIZER_VERSION,
            });
        }
        let params = Bm25Params { k1: stats.k1, b: stats.b };
        params.validate().map_err(|e| LexicalError::Corrupt(format!("stored BM25 parameters: {e}")))?;
        if stats.title_boost > MAX_TITLE_BOOST {
            return Err(LexicalError::Corrupt(format!("title boost {} is above {MAX_TITLE_BOOST}", stats.title_boost)));
        }
        // Bounded: one u32 and one f32 per document, which the manifest's chunk count matches.
        let doc_count = stats.doc_count as usize;
        let mut index = LexicalIndex::from_validated_parts(
            params,
            stats.title_boost,
            vec![0; doc_count],
            String::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            0,
        );
        index.length_total = stats.total_length;
        index.refresh_length_norms();
        Ok(index)
    }

    /// Marks the terms from `first` up to `end` (excluded; `None`: to the last) as withheld:
    /// their shard could not be loaded. A query's words in the span are then left out of the
    /// search — not scored, and not counted as words the site never uses — so a question is
    /// scored from the shards that arrived (a partial search) until the span is [`release`]d.
    ///
    /// [`release`]: LexicalIndex::release
    pub fn withhold(&mut self, first: &str, end: Option<&str>) {
        let span = TermSpan { first: first.to_string(), end: end.map(str::to_string) };
        if !self.withheld.contains(&span) {
            self.withheld.push(span);
        }
    }

    /// Ends the withholding of the span that starts at `first` (its shard arrived).
    pub fn release(&mut self, first: &str) {
        self.withheld.retain(|span| span.first != first);
    }

    /// Whether some terms are withheld.
    pub fn is_withholding(&self) -> bool {
        !self.withheld.is_empty()
    }

    /// Adds the terms of one shard (from [`parse_term_shard`]). A term already present, or
    /// a document whose length disagrees with what another shard said, is an error and
    /// leaves the index unchanged.
    pub fn attach_terms(&mut self, terms: Vec<ShardTerm>) -> Result<(), LexicalError> {
        let mut lengths: Vec<(u32, u32)> = Vec::new();
        for term in &terms {
            if self.term_id(&term.term).is_some() {
                return Err(LexicalError::Corrupt(format!("term {:?} is in two shards", term.term)));
            }
            for &(doc, _, len) in &term.postings {
                match self.doc_lengths.get(doc as usize) {
                    Some(&0) => lengths.push((doc, len)),
                    Some(&known) if known == len => {}
                    _ => {
                        return Err(LexicalError::Corrupt(format!(
                            "document {doc} has length {len} in the postings of {:?}, elsewhere another",
                            term.term
                        )))
                    }
                }
            }
        }
        crate::sort::sort_dedup(&mut lengths);
        if lengths.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(LexicalError::Corrupt("one shard gives a document two lengths".into()));
        }
        for (doc, len) in lengths {
            if let Some(slot) = self.doc_lengths.get_mut(doc as usize) {
                *slot = len;
            }
        }
        // Merge the new terms into the sorted vocabulary, postings re-encoded as the index
        // keeps them (gap, tf).
        let mut old: Vec<(String, u32, Vec<u8>)> = (0..self.term_count())
            .map(|i| {
                let start = if i == 0 { 0 } else { self.posting_ends.get(i - 1).copied().unwrap_or(0) };
                let end = self.posting_ends.get(i).copied().unwrap_or(start);
                let bytes = self.postings.get(start..end).unwrap_or(&[]).to_vec();
                (self.term(i).to_string(), self.doc_freqs.get(i).copied().unwrap_or(0), bytes)
            })
            .collect();
        for term in terms {
            let mut bytes = Vec::with_capacity(term.postings.len() * 2);
            let mut last = 0;
            for (n, &(doc, tf, _)) in term.postings.iter().enumerate() {
                write_u32(&mut bytes, if n == 0 { doc } else { doc - last });
                write_u32(&mut bytes, tf);
                last = doc;
            }
            self.posting_count += term.postings.len() as u64;
            old.push((term.term, term.postings.len() as u32, bytes));
        }
        crate::sort::sort_by(&mut old, |a, b| a.0.cmp(&b.0));
        self.term_text.clear();
        self.term_ends.clear();
        self.doc_freqs.clear();
        self.postings.clear();
        self.posting_ends.clear();
        for (term, doc_freq, bytes) in old {
            self.term_text.push_str(&term);
            self.term_ends.push(self.term_text.len());
            self.doc_freqs.push(doc_freq);
            self.postings.extend_from_slice(&bytes);
            self.posting_ends.push(self.postings.len());
        }
        self.refresh_length_norms();
        Ok(())
    }
}

fn finish_shard(first_term: String, count: u64, body: &[u8]) -> TermShard {
    let mut bytes = Vec::with_capacity(16 + body.len());
    write_header(&mut bytes, SHARD_MAGIC, SHARD_FORMAT_VERSION);
    write_u64(&mut bytes, count);
    bytes.extend_from_slice(body);
    TermShard { first_term, bytes }
}

/// Reads one shard, refusing anything malformed, any term outside `[first, next)` (the
/// shard's range by the catalog; `next` is `None` for the last shard), and any document id
/// not below `doc_count`.
pub fn parse_term_shard(
    bytes: &[u8],
    doc_count: u32,
    first: &str,
    next: Option<&str>,
) -> Result<Vec<ShardTerm>, LexicalError> {
    let mut reader = ByteReader::new(bytes);
    read_header(&mut reader, SHARD_MAGIC, SHARD_FORMAT_VERSION, "the shard header")?;
    let count = reader.varint_u64("the shard header")?;
    let count = match usize::try_from(count) {
        Ok(c) if c.checked_mul(MIN_TERM_BYTES).is_some_and(|need| need <= reader.remaining()) => c,
        _ => return Err(LexicalError::Truncated { section: "the shard's terms" }),
    };
    let mut terms: Vec<ShardTerm> = Vec::with_capacity(count);
    let mut term = Vec::with_capacity(MAX_TOKEN_BYTES);
    for n in 0..count {
        let shared = reader.varint_u64("the shard's terms")?;
        let suffix_len = reader.varint_u64("the shard's terms")?;
        if shared > term.len() as u64 || suffix_len == 0 || shared.saturating_add(suffix_len) > MAX_TOKEN_BYTES as u64 {
            return Err(LexicalError::Corrupt(format!("shard term {n} has impossible lengths")));
        }
        term.truncate(shared as usize);
        term.extend_from_slice(reader.take(suffix_len as usize, "the shard's terms")?);
        let text = std::str::from_utf8(&term)
            .map_err(|_| LexicalError::Corrupt(format!("shard term {n} is not UTF-8")))?
            .to_string();
        let in_range = text.as_str() >= first && next.is_none_or(|next| text.as_str() < next);
        let ordered = terms.last().is_none_or(|last| last.term < text);
        if !in_range || !ordered || (n == 0 && text != first) {
            return Err(LexicalError::Corrupt(format!(
                "shard term {text:?} is out of order or outside the shard's range"
            )));
        }
        let doc_freq = reader.varint_u32("the shard's postings")?;
        if doc_freq == 0
            || doc_freq > doc_count
            || (doc_freq as usize).checked_mul(MIN_POSTING_BYTES).is_none_or(|need| need > reader.remaining())
        {
            return Err(LexicalError::Corrupt(format!(
                "term {text:?} is said to occur in {doc_freq} of {doc_count} documents"
            )));
        }
        let mut postings = Vec::with_capacity(doc_freq as usize);
        let mut doc: u64 = 0;
        for i in 0..doc_freq {
            let gap = reader.varint_u32("the shard's postings")?;
            let tf = reader.varint_u32("the shard's postings")?;
            let len = reader.varint_u32("the shard's postings")?;
            if i > 0 && gap == 0 {
                return Err(LexicalError::Corrupt(format!("postings of {text:?} are not strictly increasing")));
            }
            doc += u64::from(gap);
            if doc >= u64::from(doc_count) || tf == 0 || tf > len {
                return Err(LexicalError::Corrupt(format!(
                    "term {text:?}: document {doc} of {doc_count}, {tf} times in a length of {len}"
                )));
            }
            postings.push((doc as u32, tf, len));
        }
        terms.push(ShardTerm { term: text, postings });
    }
    if reader.remaining() != 0 {
        return Err(LexicalError::Corrupt("unexpected bytes after the shard's terms".into()));
    }
    Ok(terms)
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
            Document::new("Empty", ""),
            Document::new("日本語", "ロボットの制御 robot robot robots topic"),
        ];
        LexicalIndex::build(&docs, IndexOptions { title_boost: 2, ..Default::default() }).unwrap()
    }

    fn firsts(shards: &[TermShard]) -> Vec<&str> {
        shards.iter().map(|s| s.first_term.as_str()).collect()
    }

    fn attach_all(index: &LexicalIndex, shards: &[TermShard]) -> LexicalIndex {
        let mut partial = LexicalIndex::from_stats(&index.stats()).unwrap();
        let first = firsts(shards);
        for (i, shard) in shards.iter().enumerate() {
            let terms = parse_term_shard(&shard.bytes, index.doc_count(), first[i], first.get(i + 1).copied()).unwrap();
            partial.attach_terms(terms).unwrap();
        }
        partial
    }

    #[test]
    fn a_withheld_span_is_left_out_of_the_query_until_released() {
        let whole = sample();
        // "robot" alone, the question's other word withheld: scored as the whole index
        // scores "robot", and the withheld word does not count as one the site never uses.
        let mut index = sample();
        index.withhold("topic", Some("topicz"));
        assert!(index.is_withholding());
        assert_eq!(index.search("robot topic", 5, None), whole.search("robot", 5, None));
        assert_eq!(index.coverage("robot topic").unknown_share, 0.0);
        assert_eq!(index.coverage("robot topic").reference, whole.coverage("robot").reference);
        index.release("topic");
        assert_eq!(index.search("robot topic", 5, None), whole.search("robot topic", 5, None));
        // To the last term.
        index.withhold("r", None);
        assert_eq!(index.search("robot", 5, None), Vec::new());
        assert_eq!(index.coverage("robot").unknown_share, 0.0, "a withheld word is not unknown");
    }

    #[test]
    fn all_shards_rebuild_the_whole_index() {
        let index = sample();
        for target in [1, 40, 200, 1 << 20] {
            let shards = index.to_term_shards(target);
            assert!(!shards.is_empty());
            if target == 1 {
                assert_eq!(shards.len(), index.term_count(), "one term per shard");
            }
            assert_eq!(attach_all(&index, &shards), index, "target {target}");
        }
    }

    #[test]
    fn a_query_scores_exactly_with_only_its_shards() {
        let index = sample();
        let shards = index.to_term_shards(30);
        assert!(shards.len() > 5);
        let first = firsts(&shards);
        for query in ["echo cmd_vel", "robots topic", "15066 best effort", "ロボット", "unknown words only", ""] {
            let mut partial = LexicalIndex::from_stats(&index.stats()).unwrap();
            // Which shard a term is in is the bundle's catalog's to say (`bundle::Catalog`):
            // here, the shards that hold one of the query's terms.
            let wanted = query_terms(query);
            for (i, shard) in shards.iter().enumerate() {
                let terms = parse_term_shard(&shard.bytes, 5, first[i], first.get(i + 1).copied()).unwrap();
                if terms.iter().any(|t| wanted.contains(&t.term)) {
                    partial.attach_terms(terms).unwrap();
                }
            }
            assert_eq!(partial.search(query, 5, None), index.search(query, 5, None), "{query}");
            assert_eq!(partial.coverage(query), index.coverage(query), "{query}");
            assert!(partial.term_count() < index.term_count());
        }
    }

    #[test]
    fn corrupt_and_misplaced_shards_are_refused() {
        let index = sample();
        let shards = index.to_term_shards(60);
        let first = firsts(&shards);
        let bytes = &shards[1].bytes;
        let range = (first[1], first.get(2).copied());
        for len in 0..bytes.len() {
            assert!(parse_term_shard(&bytes[..len], 5, range.0, range.1).is_err(), "prefix {len}");
        }
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(parse_term_shard(&padded, 5, range.0, range.1).is_err());
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(parse_term_shard(&bad, 5, range.0, range.1), Err(LexicalError::NotAnIndex));
        // The right bytes under another shard's range, or with too few documents.
        assert!(parse_term_shard(bytes, 5, first[0], Some(first[1])).is_err());
        assert!(parse_term_shard(bytes, 1, range.0, range.1).is_err());
        // Flipping any byte never panics.
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x55;
            let _ = parse_term_shard(&flipped, 5, range.0, range.1);
        }
    }

    #[test]
    fn attaching_a_shard_twice_or_with_other_lengths_fails() {
        let index = sample();
        let shards = index.to_term_shards(1 << 20);
        let terms = parse_term_shard(&shards[0].bytes, 5, &shards[0].first_term, None).unwrap();
        let mut partial = LexicalIndex::from_stats(&index.stats()).unwrap();
        partial.attach_terms(terms.clone()).unwrap();
        assert!(partial.attach_terms(terms.clone()).is_err());
        let mut other = LexicalIndex::from_stats(&index.stats()).unwrap();
        let (a, b) = terms.split_at(terms.len() / 2);
        other.attach_terms(a.to_vec()).unwrap();
        let mut changed = b.to_vec();
        changed[0].postings[0].2 += 1;
        assert!(other.attach_terms(changed).is_err());
    }

    #[test]
    fn stats_from_another_version_are_refused() {
        let stats = sample().stats();
        let bad = LexicalStats { tokenizer_version: stats.tokenizer_version + 1, ..stats.clone() };
        assert!(matches!(LexicalIndex::from_stats(&bad), Err(LexicalError::TokenizerMismatch { .. })));
        let bad = LexicalStats { shard_format_version: 9, ..stats.clone() };
        assert!(matches!(LexicalIndex::from_stats(&bad), Err(LexicalError::UnsupportedVersion { .. })));
        let bad = LexicalStats { b: 3.0, ..stats };
        assert!(LexicalIndex::from_stats(&bad).is_err());
    }

    #[test]
    fn query_terms_are_the_distinct_index_terms() {
        assert_eq!(query_terms("Topics, topic and ECHO echo"), vec!["echo".to_string(), "topic".to_string()]);
    }
}
