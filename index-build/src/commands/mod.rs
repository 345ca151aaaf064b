//! One module per subcommand.

pub mod build;
pub mod chunks;
pub mod embed;
mod site_args;

/// What a subcommand returns on failure: a message for the person at the terminal.
pub type CommandResult = Result<(), Box<dyn std::error::Error>>;
