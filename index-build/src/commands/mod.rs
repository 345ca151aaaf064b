//! One module per subcommand.

pub mod build;
pub mod chunks;
pub mod compact_model;
mod dense_parts_args;
pub mod embed;
pub mod eval;
pub mod inspect;
mod llms_args;
pub mod report;
pub mod search;
mod site_args;

/// What a subcommand returns on failure: a message for the person at the terminal.
pub type CommandResult = Result<(), Box<dyn std::error::Error>>;
