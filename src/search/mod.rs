//! Retrieval over a loaded bundle: hybrid dense + lexical search, fusion, confidence, and
//! where a result's text holds the query's words (`snippet`).

//! Without the `search` feature only the confidence levels and fusion remain (the chat
//! layer rates and cites what the worker retrieved).

mod confidence;
mod confidence_fitted;
#[cfg(feature = "search")]
mod conversation;
#[cfg(feature = "search")]
mod error;
#[cfg(feature = "search")]
pub mod follow_ups;
mod fusion;
#[cfg(feature = "search")]
pub mod fusion_model;
#[cfg(feature = "search")]
mod hybrid;
mod language;
#[cfg(feature = "search")]
mod page_boost;
#[cfg(feature = "search")]
mod parts;
#[cfg(feature = "search")]
mod scope;
#[cfg(feature = "search")]
mod sharded;
pub mod snippet;

pub use confidence::{Confidence, ConfidenceRule, LinearScore, Signals, SIGNAL_COUNT, SIGNAL_NAMES};
#[cfg(feature = "search")]
pub use conversation::{follow_up_query, in_context_query, FollowUpOptions};
#[cfg(feature = "search")]
pub use error::SearchError;
pub use fusion::{reciprocal_rank_fusion, RankedList};
#[cfg(feature = "search")]
pub use hybrid::{Fusion, Hit, HybridSearch, SearchMode, SearchOptions, SearchResults};
pub use language::{semantic_search_fits, written_in, MODEL_LANGUAGE};
#[cfg(feature = "search")]
pub use page_boost::PageBoost;
#[cfg(feature = "search")]
pub use parts::matched_part;
#[cfg(feature = "search")]
pub use scope::{in_scope, DocsVersion};
#[cfg(feature = "search")]
pub use sharded::{NeededFile, Part, ShardedError, ShardedSearch, PAGES_AT_OPEN};
