//! Lexical (keyword) search: a BM25 index over the site's chunks that answers as soon as its
//! few hundred kilobytes arrive, long before the embedding model does, and whose ranking is
//! later fused with the dense one.
//!
//! - [`tokenizer`]: one set of rules for documents and questions, aware of code identifiers.
//! - [`stem`] and [`stop_words`]: the English parts of those rules.
//! - [`LexicalIndex`]: build, search, normalised scores ([`bm25`] has the formula).
//! - [`expand`]: what a word still being typed or misspelt stands for (a search box's query).
//! - [`format`]: the compact bytes written into the bundle, and their defensive reader.
//!
//! ```
//! # use lectern::lexical::{Document, IndexOptions, LexicalIndex};
//! let chunks = [
//!     Document::new("Nodes and topics", "Inspect a topic with `ros2 topic echo /cmd_vel`."),
//!     Document::new("Launch files", "Start several nodes at once with ros2 launch."),
//! ];
//! let index = LexicalIndex::build(&chunks, IndexOptions::default())?;
//! let bytes = index.to_bytes();
//! let index = LexicalIndex::from_bytes(&bytes)?;
//! let hits = index.search("How do I echo messages on /cmd_vel?", 5, None);
//! assert_eq!(hits[0].0, 0);
//! # Ok::<(), lectern::lexical::LexicalError>(())
//! ```

pub mod bm25;
mod error;
pub mod expand;
mod expanded_search;
pub mod format;
mod index;
pub mod names;
pub mod shards;
pub mod stem;
pub mod stop_words;
pub mod tokenizer;
mod varint;

// Native only: they use proptest / read the sample site from disk, neither of which exists
// in the browser.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod format_properties;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod sample_site_tests;

pub use bm25::Bm25Params;
pub use error::LexicalError;
pub use expanded_search::{EXPANSION_WEIGHT, MAX_EXPANSIONS};
pub use index::{normalize_score, Document, IndexOptions, LexicalIndex, QueryCoverage, MAX_DOCUMENTS, MAX_TITLE_BOOST};
pub use names::{heading_name, is_short_query, name_term, prose_heading_name, query_names, NAME_PREFIX};
pub use shards::{parse_term_shard, query_terms, LexicalStats, ShardTerm, TermShard};
pub use tokenizer::{for_each_token, tokenize, TOKENIZER_VERSION};
