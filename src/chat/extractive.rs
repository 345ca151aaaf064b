//! The answer without an LLM (none configured, or unreachable): the sentences of the best
//! sections that share the most terms with the question, each with its citation, labelled
//! as excerpts. Prose only: code blocks, tables, headings and admonition fences are skipped.

use super::site_name::SiteName;
use super::sources::NumberedSource;
use crate::lexical::tokenize;
use std::collections::HashSet;

/// Sections excerpted at most, and sentences per section.
const MAX_SECTIONS: usize = 3;
const SENTENCE_MIN_CHARS: usize = 25;
const SENTENCE_MAX_CHARS: usize = 320;

/// The first line of an excerpts answer: "**Excerpts from the Jest docs** (no generated answer):".
pub fn excerpts_heading(site: &SiteName) -> String {
    format!("**Excerpts from {}** (no generated answer):", site.noun())
}

/// The excerpt answer for `question`, from `selection` (selected mode) and `sources`.
pub fn extractive_answer(
    question: &str,
    selection: Option<&str>,
    sources: &[NumberedSource],
    site: &SiteName,
) -> String {
    let terms: HashSet<String> = tokenize(question).into_iter().collect();
    let mut parts = vec![excerpts_heading(site)];
    if let Some(selection) = selection {
        let best = best_sentences(selection, &terms, 2);
        if !best.is_empty() {
            parts.push(format!("From your selection:\n\n{}", quote_lines(&best, None)));
        }
    }
    let mut cited = 0;
    for source in sources {
        if cited == MAX_SECTIONS {
            break;
        }
        let best = best_sentences(&source.text, &terms, 1);
        if best.is_empty() {
            continue;
        }
        cited += 1;
        parts.push(quote_lines(&best, Some(source.reference.n)));
    }
    parts.join("\n\n")
}

fn quote_lines(sentences: &[String], citation: Option<usize>) -> String {
    let cite = citation.map(|n| format!(" [{n}]")).unwrap_or_default();
    sentences.iter().map(|s| format!("> {s}{cite}")).collect::<Vec<_>>().join("\n>\n")
}

/// Up to `max` sentences of `text`, most question terms first (ties: earlier first), in
/// text order; the first sentence when none shares a term.
fn best_sentences(text: &str, terms: &HashSet<String>, max: usize) -> Vec<String> {
    let sentences = prose_sentences(text);
    let mut scored: Vec<(usize, usize)> = sentences
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let shared: HashSet<String> = tokenize(s).into_iter().filter(|t| terms.contains(t)).collect();
            (i, shared.len())
        })
        .collect();
    crate::sort::sort_by(&mut scored, |a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut chosen: Vec<usize> = scored.iter().filter(|(_, score)| *score > 0).take(max).map(|(i, _)| *i).collect();
    if chosen.is_empty() {
        chosen.extend(sentences.first().map(|_| 0));
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|i| shorten(&sentences[i])).collect()
}

/// The sentences of the prose paragraphs of a chunk's Markdown text (also what a citation's
/// passage is chosen from, `passage`).
pub(super) fn prose_sentences(text: &str) -> Vec<String> {
    let mut paragraphs: Vec<String> = vec![String::new()];
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            paragraphs.push(String::new());
            continue;
        }
        let skip = in_fence
            || trimmed.is_empty()
            || trimmed.starts_with('|')
            || trimmed.starts_with('#')
            || trimmed.starts_with(":::")
            || trimmed.starts_with('<');
        if skip {
            paragraphs.push(String::new());
            continue;
        }
        let trimmed = trimmed.trim_start_matches(['>', '-', '*', '+', ' ']);
        if let Some(last) = paragraphs.last_mut() {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(trimmed);
        }
    }
    paragraphs.iter().flat_map(|p| split_sentences(p)).filter(|s| s.chars().count() >= SENTENCE_MIN_CHARS).collect()
}

/// Splits at `.`, `!` or `?` followed by a space and an upper-case letter, digit or quote,
/// which keeps "e.g. the node" and "v1.2" whole.
fn split_sentences(paragraph: &str) -> Vec<String> {
    let chars: Vec<(usize, char)> = paragraph.char_indices().collect();
    let mut sentences = Vec::new();
    let mut start = 0;
    for w in chars.windows(3) {
        let [(_, end), (_, space), (next_at, next)] = [w[0], w[1], w[2]];
        if matches!(end, '.' | '!' | '?')
            && space == ' '
            && (next.is_uppercase() || next.is_ascii_digit() || next == '"')
        {
            sentences.push(paragraph[start..next_at].trim().to_string());
            start = next_at;
        }
    }
    sentences.push(paragraph[start..].trim().to_string());
    sentences.retain(|s| !s.is_empty());
    sentences
}

fn shorten(sentence: &str) -> String {
    super::error::truncate(sentence, SENTENCE_MAX_CHARS)
}

#[cfg(test)]
mod tests {
    use super::super::sources::{number_sources, tests::chunk, SiteOrigins};
    use super::*;

    #[test]
    fn best_matching_prose_sentence_per_section_with_its_citation() {
        let text = "# Discovery\n\nROS 2 builds on DDS. Nodes discover each other automatically through DDS \
                    participant announcements on the network. Nothing else is needed.\n\n```bash\nros2 node list \
                    # nodes discover each other\n```\n\n| table | discover nodes |\n";
        let chunks = [
            chunk("a", "/a", text, 0.9),
            chunk(
                "b",
                "/b",
                "Quality of service settings decide \
                       reliability and durability of topics.",
                0.5,
            ),
        ];
        let sources = number_sources(&chunks, &SiteOrigins::default());
        let jest = SiteName::new(Some("Jest"));
        let answer = extractive_answer("How do nodes discover each other?", None, &sources, &jest);
        assert!(answer.starts_with("**Excerpts from the Jest docs** (no generated answer):\n\n"));
        assert!(answer.contains(
            "> Nodes discover each other automatically through DDS participant announcements on the network. [1]"
        ));
        assert!(!answer.contains("ros2 node list") && !answer.contains("| table"));
        // The second section shares no term: its first sentence stands for it.
        assert!(answer.contains("> Quality of service settings decide reliability and durability of topics. [2]"));
    }

    #[test]
    fn selection_comes_first_and_sentences_keep_abbreviations() {
        let selection = "A PID controller sums three terms, e.g. the proportional one. The integral term removes \
                         steady-state error over time. Tuning matters.";
        let answer = extractive_answer("What does the integral term do?", Some(selection), &[], &SiteName::default());
        assert!(answer.starts_with("**Excerpts from this site**"));
        // Both sentences sharing terms, in text order; "Tuning matters." shares none.
        assert!(answer.ends_with(
            "From your selection:\n\n> A PID controller sums three terms, e.g. the proportional one.\n>\n> The \
             integral term removes steady-state error over time."
        ));
        assert_eq!(split_sentences("Use e.g. rclpy. Then v1.2 works! Done?").len(), 3);
    }
}
