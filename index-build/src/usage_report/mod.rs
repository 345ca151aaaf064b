//! `lectern report`'s library: reads an exported file of usage events (JSON Lines of
//! `lectern::usage::UsageEvent`, one per line) and sums up what a docs team needs to know
//! which pages to write: the questions the site could not answer (refused, or answered only
//! at low confidence or rated not helpful), the sections answers cite most, the share of
//! rated answers found helpful, and the faults by code.

mod read;
mod render;
mod summary;

pub use read::read_events;
pub use summary::summarize;

#[cfg(test)]
mod tests;
