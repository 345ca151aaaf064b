//! Retrieval evaluation: labelled question files, the runs through the browser's search,
//! and the metrics `lectern eval` reports.

pub mod candidates;
pub mod follow_ups;
mod metrics;
#[cfg(test)]
mod option_tests;
pub mod questions;
mod run;
#[cfg(test)]
mod version_tests;
pub mod versions;

pub use metrics::{Outcome, Summary};
pub use questions::Split;
pub use run::{AskedFrom, Evaluator};
pub use versions::VersionScope;
