//! How far embedding has come and how long it has left, told the same way by the CLI's
//! progress bar and by the lines docusaurus-plugin-lectern prints while it runs the CLI (its
//! output is captured there, so the bar is not seen): sections embedded of those to embed,
//! and an estimate of the time left.

use serde::Serialize;
use std::time::{Duration, Instant};

/// Embedding's progress, told after each batch (and once before the first).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct EmbedProgress {
    /// Sections all of whose windows are embedded.
    pub sections_done: usize,
    /// Sections to embed (those whose text changed since the last build).
    pub sections_total: usize,
    /// Sections whose vectors are reused from the last build.
    pub sections_reused: usize,
    /// Word pieces embedded, of all those to embed: what the time left is estimated from.
    pub tokens_done: usize,
    pub tokens_total: usize,
}

impl EmbedProgress {
    pub fn finished(&self) -> bool {
        self.sections_done >= self.sections_total
    }

    /// Seconds left at the rate so far, counted in word pieces: a text costs about its length,
    /// and batches run shortest first, so a count of sections would promise an early end.
    /// `None` before anything is embedded.
    pub fn seconds_left(&self, elapsed: Duration) -> Option<f64> {
        if self.tokens_done == 0 || self.finished() {
            return None;
        }
        let left = self.tokens_total.saturating_sub(self.tokens_done) as f64;
        Some(elapsed.as_secs_f64() * left / self.tokens_done as f64)
    }

    /// One line: `embedded 120/960 sections (12 %), about 1 min 20 s left`.
    pub fn message(&self, seconds_left: Option<f64>) -> String {
        let reused = match self.sections_reused {
            0 => String::new(),
            n => format!("; {n} unchanged, reused"),
        };
        if self.sections_total == 0 {
            return format!("nothing to embed ({} sections unchanged, reused)", self.sections_reused);
        }
        if self.sections_done == 0 && self.tokens_done == 0 {
            return format!("embedding {} sections{reused}", self.sections_total);
        }
        let percent = self.sections_done * 100 / self.sections_total;
        let left = seconds_left.map(|s| format!(", {} left", about(s))).unwrap_or_default();
        format!("embedded {}/{} sections ({percent} %){left}{reused}", self.sections_done, self.sections_total)
    }
}

/// A duration as a reader rounds it: `about 40 s`, `about 2 min 30 s`, `about 12 min`.
pub fn about(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..60 => format!("about {} s", (s.max(1)).div_ceil(5) * 5),
        60..600 => match (s / 60, (s % 60) / 10 * 10) {
            (m, 0) => format!("about {m} min"),
            (m, r) => format!("about {m} min {r} s"),
        },
        _ => format!("about {} min", s.div_ceil(60)),
    }
}

/// Lets a progress line through at most once per `every`, and always the first and the last.
#[derive(Debug)]
pub struct Throttle {
    every: Duration,
    last: Option<Instant>,
}

impl Throttle {
    pub fn new(every: Duration) -> Self {
        Self { every, last: None }
    }

    pub fn due(&mut self, now: Instant, finished: bool) -> bool {
        let due = finished || self.last.is_none_or(|last| now.duration_since(last) >= self.every);
        if due {
            self.last = Some(now);
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(sections_done: usize, tokens_done: usize) -> EmbedProgress {
        EmbedProgress { sections_done, sections_total: 960, sections_reused: 0, tokens_done, tokens_total: 100_000 }
    }

    #[test]
    fn the_time_left_follows_the_word_pieces_not_the_sections() {
        // A quarter of the sections, a tenth of the word pieces, in 10 s: 90 s left.
        let p = progress(240, 10_000);
        assert_eq!(p.seconds_left(Duration::from_secs(10)), Some(90.0));
        assert_eq!(progress(0, 0).seconds_left(Duration::from_secs(10)), None);
        assert_eq!(progress(960, 100_000).seconds_left(Duration::from_secs(10)), None);
    }

    #[test]
    fn messages_say_sections_done_of_total_and_the_estimate() {
        assert_eq!(progress(0, 0).message(None), "embedding 960 sections");
        assert_eq!(
            progress(120, 12_000).message(Some(80.0)),
            "embedded 120/960 sections (12 %), about 1 min 20 s left"
        );
        let reused = EmbedProgress { sections_reused: 40, ..progress(960, 100_000) };
        assert_eq!(reused.message(None), "embedded 960/960 sections (100 %); 40 unchanged, reused");
        let nothing = EmbedProgress { sections_total: 0, sections_reused: 7, ..EmbedProgress::default() };
        assert_eq!(nothing.message(None), "nothing to embed (7 sections unchanged, reused)");
    }

    #[test]
    fn durations_are_rounded_as_a_reader_would() {
        assert_eq!(about(0.2), "about 5 s");
        assert_eq!(about(42.0), "about 45 s");
        assert_eq!(about(60.0), "about 1 min");
        assert_eq!(about(155.0), "about 2 min 30 s");
        assert_eq!(about(1000.0), "about 17 min");
    }

    #[test]
    fn the_throttle_lets_one_line_through_per_period_and_the_last() {
        let start = Instant::now();
        let mut throttle = Throttle::new(Duration::from_secs(5));
        let at = |s: u64| start + Duration::from_secs(s);
        let passed: Vec<u64> = (0..12).filter(|&s| throttle.due(at(s), false)).collect();
        assert_eq!(passed, vec![0, 5, 10]);
        assert!(throttle.due(at(11), true), "the last line always");
    }
}
