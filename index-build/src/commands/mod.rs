//! One module per subcommand.

pub mod embed;

/// What a subcommand returns on failure: a message for the person at the terminal.
pub type CommandResult = Result<(), Box<dyn std::error::Error>>;
