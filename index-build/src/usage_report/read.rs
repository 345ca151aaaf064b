//! Reading an events file: one JSON event per line. A line that is not an event is listed
//! with its number and why, and the rest is still read (an export may hold other records).

use lectern::usage::UsageEvent;
use std::io::BufRead;

#[derive(Debug, Default)]
pub struct EventsRead {
    pub events: Vec<UsageEvent>,
    /// Lines that are not events (blank lines are not counted).
    pub bad_lines: Vec<BadLine>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// From 1.
    pub line: usize,
    pub reason: String,
}

/// Reads every line of `input`; fails only when the input itself cannot be read.
pub fn read_events(input: impl BufRead) -> std::io::Result<EventsRead> {
    let mut read = EventsRead::default();
    for (index, line) in input.lines().enumerate() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        match serde_json::from_str::<UsageEvent>(text) {
            Ok(event) => read.events.push(event),
            Err(error) => read.bad_lines.push(BadLine { line: index + 1, reason: error.to_string() }),
        }
    }
    Ok(read)
}
