//! The report as a person reads it at a terminal.

use super::summary::{CountedQuestion, UsageReport};
use std::fmt;

impl fmt::Display for UsageReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} events: {} questions, {} answers (high {}, medium {}, low {}), {} refused, {} faults; {} searches, {} results followed",
            self.events,
            self.questions,
            self.answers,
            self.answers_high,
            self.answers_medium,
            self.answers_low,
            self.refusals,
            self.errors.iter().map(|(_, n)| n).sum::<usize>(),
            self.searches,
            self.search_clicks
        )?;
        match self.helpful_rate {
            Some(rate) => writeln!(
                f,
                "helpful rate: {:.0} % ({} helpful of {} rated)",
                rate * 100.0,
                self.helpful,
                self.helpful + self.not_helpful
            )?,
            None => writeln!(f, "helpful rate: no answer was rated")?,
        }
        questions(f, "Top refused questions (the site has nothing on them)", &self.top_refused)?;
        questions(
            f,
            "Top unanswered questions (answered at low confidence, or rated not helpful)",
            &self.top_unanswered,
        )?;
        questions(f, "Why answers were not helpful", &self.not_helpful_reasons)?;
        writeln!(f, "\nSections cited most (cited, followed)")?;
        if self.top_cited.is_empty() {
            writeln!(f, "  none")?;
        }
        for section in &self.top_cited {
            let title = if section.title.is_empty() { String::new() } else { format!("  {}", section.title) };
            writeln!(f, "  {:>5} {:>5}  {}{title}", section.cited, section.clicked, section.url)?;
        }
        if !self.errors.is_empty() {
            writeln!(f, "\nFaults by code")?;
            for (code, count) in &self.errors {
                writeln!(f, "  {count:>5}  {code}")?;
            }
        }
        Ok(())
    }
}

fn questions(f: &mut fmt::Formatter<'_>, heading: &str, list: &[CountedQuestion]) -> fmt::Result {
    writeln!(f, "\n{heading}")?;
    if list.is_empty() {
        return writeln!(f, "  none");
    }
    for q in list {
        writeln!(f, "  {:>5}  {}", q.count, q.text)?;
    }
    Ok(())
}
