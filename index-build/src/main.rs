//! `lectern`: the build-time CLI. Reads a Docusaurus site, chunks and embeds it, and writes
//! the static index bundle the browser searches.

mod commands;
mod eval;
mod index;
mod llms;
mod site;
mod usage_report;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "lectern", version, about = "Index a Docusaurus site for in-browser question answering")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Embed text with the model the index is built with.
    Embed(commands::embed::EmbedArgs),
    /// Show the chunks a site is cut into, without embedding anything.
    Chunks(commands::chunks::ChunksArgs),
    /// Read a site, embed what changed, and write its index bundle.
    Build(commands::build::BuildArgs),
    /// Search a bundle the way the browser does.
    Search(commands::search::SearchArgs),
    /// Show a bundle's manifest and sizes, and check its files.
    Inspect(commands::inspect::InspectArgs),
    /// Measure retrieval on labelled questions: hit@1/3/5, MRR, nDCG@10, refusals, misses.
    Eval(commands::eval::EvalArgs),
    /// Write the compact model file (low-bit weights) from the ONNX export.
    CompactModel(commands::compact_model::CompactModelArgs),
    /// Sum up an exported file of the widget's usage events: unanswered and refused
    /// questions, the sections cited most, the helpful rate.
    Report(commands::report::ReportArgs),
}

fn main() -> ExitCode {
    // WASI has no working directory of its own: the Node runner of the portable build
    // (npm/cli-wasi/run.js) passes the caller's in $PWD, so relative paths mean the same.
    #[cfg(target_os = "wasi")]
    if let Some(dir) = std::env::var_os("PWD") {
        let _ = std::env::set_current_dir(dir);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Embed(args) => commands::embed::run(args),
        Command::Chunks(args) => commands::chunks::run(args),
        Command::Build(args) => commands::build::run(args),
        Command::Search(args) => commands::search::run(args),
        Command::Inspect(args) => commands::inspect::run(args),
        Command::Eval(args) => commands::eval::run(args),
        Command::CompactModel(args) => commands::compact_model::run(args),
        Command::Report(args) => commands::report::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("lectern: {err}");
            ExitCode::FAILURE
        }
    }
}
