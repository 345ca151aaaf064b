//! `lectern report`: reads an exported events file and prints what the site could not answer,
//! what it cites most and how helpful its answers were (`usage_report`).

use super::CommandResult;
use crate::usage_report::{read_events, summarize};
use std::io::BufReader;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ReportArgs {
    /// The events file: JSON Lines, one usage event per line (`-`: standard input).
    events: PathBuf,
    /// How many entries each list shows.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    json: bool,
}

/// Lines that are not events are named on stderr, at most this many.
const BAD_LINES_SHOWN: usize = 5;

pub fn run(args: ReportArgs) -> CommandResult {
    let read = if args.events.as_os_str() == "-" {
        read_events(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(&args.events)
            .map_err(|e| format!("cannot open the events file {}: {e}", args.events.display()))?;
        read_events(BufReader::new(file))
    }
    .map_err(|e| format!("cannot read the events file {}: {e}", args.events.display()))?;
    for bad in read.bad_lines.iter().take(BAD_LINES_SHOWN) {
        eprintln!("{}:{}: not a usage event, skipped: {}", args.events.display(), bad.line, bad.reason);
    }
    if read.bad_lines.len() > BAD_LINES_SHOWN {
        eprintln!("… and {} more lines skipped", read.bad_lines.len() - BAD_LINES_SHOWN);
    }
    if read.events.is_empty() {
        return Err(format!("{} holds no usage events", args.events.display()).into());
    }
    let report = summarize(&read.events, args.top);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{report}");
    }
    Ok(())
}
