//! Labelled question files (JSON Lines): one question per line with the section URLs that
//! answer it, or `unanswerable: true`; an optional selection for selected mode.
//!
//! ```json
//! {"id": "jest-004", "split": "heldout", "kind": "code", "question": "…", "expected": ["/docs/x#y"]}
//! {"id": "jest-051", "split": "dev", "kind": "near-miss", "question": "…", "unanswerable": true}
//! {"id": "jest-030", "split": "dev", "kind": "selection", "question": "what does this do?",
//!  "expected": ["/docs/x#y"], "selection": {"of": "/docs/x#y", "from_word": 0, "words": 40}}
//! {"id": "jest-92", "split": "dev", "kind": "follow-up", "previous": ["How do I use fake timers?"],
//!  "question": "And how do I move time forward?", "expected": ["/docs/timer-mocks#advance-timers-by-time"]}
//! ```
//!
//! A selection is either literal text or words `[from_word, from_word + words)` of a
//! section's text (its chunks' texts in order, joined by a space): question files over
//! content we may not copy name the passage instead of quoting it. A follow-up names the
//! conversation's earlier questions in `previous`, oldest first.

use serde::Deserialize;
use std::fmt;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Split {
    /// Used for tuning.
    Dev,
    /// Never looked at while tuning; reported apart.
    Heldout,
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Split::Dev => "dev",
            Split::Heldout => "heldout",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum SelectionSpec {
    Text(String),
    Passage { of: String, from_word: usize, words: usize },
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub id: String,
    pub split: Split,
    /// What the question exercises (paraphrase, code, table, near-miss, …): reported per kind.
    #[serde(default)]
    pub kind: String,
    pub question: String,
    /// Section URLs (with anchors) that answer it; any one is a hit.
    #[serde(default)]
    pub expected: Vec<String>,
    #[serde(default)]
    pub unanswerable: bool,
    #[serde(default)]
    pub selection: Option<SelectionSpec>,
    /// A follow-up's earlier questions in the conversation, oldest first: the retrieval for
    /// `question` takes them into account, as the chat's does (reported apart).
    #[serde(default)]
    pub previous: Vec<String>,
}

impl Question {
    /// Off-topic questions (nothing like the book) are told apart from near misses by kind.
    pub fn is_off_topic(&self) -> bool {
        self.kind == "off-topic"
    }

    /// Asked after earlier questions of a conversation.
    pub fn is_follow_up(&self) -> bool {
        !self.previous.is_empty()
    }
}

/// Reads and checks a question file; errors name the file and line.
pub fn load(path: &Path) -> Result<Vec<Question>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn parse(text: &str) -> Result<Vec<Question>, String> {
    let mut questions: Vec<Question> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let at = |m: String| format!("line {}: {m}", n + 1);
        let q: Question = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
        if q.question.trim().is_empty() {
            return Err(at("empty question".into()));
        }
        if q.unanswerable != q.expected.is_empty() {
            return Err(at(format!(
                "question {}: give either expected URLs or \"unanswerable\": true, not both or neither",
                q.id
            )));
        }
        if q.previous.iter().any(|p| p.trim().is_empty()) {
            return Err(at(format!("question {}: an empty previous question", q.id)));
        }
        if q.unanswerable && q.selection.is_some() {
            return Err(at(format!("question {}: a selection question must be answerable", q.id)));
        }
        if questions.iter().any(|p| p.id == q.id) {
            return Err(at(format!("duplicate id {}", q.id)));
        }
        questions.push(q);
    }
    if questions.is_empty() {
        return Err("no questions".into());
    }
    Ok(questions)
}

/// The text of `spec`, looking passages up in `section_text` (URL → the section's text).
pub fn selection_text(
    spec: &SelectionSpec,
    section_text: impl Fn(&str) -> Option<String>,
) -> Result<(String, Option<&str>), String> {
    match spec {
        SelectionSpec::Text(text) => Ok((text.clone(), None)),
        SelectionSpec::Passage { of, from_word, words } => {
            let text = section_text(of).ok_or_else(|| format!("selection: no section {of} in the index"))?;
            let picked: Vec<&str> = text.split_whitespace().skip(*from_word).take(*words).collect();
            if picked.is_empty() {
                return Err(format!("selection: section {of} has no words from {from_word}"));
            }
            Ok((picked.join(" "), Some(of.as_str())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_answerable_unanswerable_and_selection_lines() {
        let qs = parse(concat!(
            r#"{"id":"a","split":"dev","kind":"code","question":"q1","expected":["/x#y","/z"]}"#,
            "\n\n",
            r#"{"id":"b","split":"heldout","kind":"off-topic","question":"q2","unanswerable":true}"#,
            "\n",
            r#"{"id":"c","split":"dev","question":"q3","expected":["/x"],"selection":{"of":"/x","from_word":1,"words":2}}"#,
            "\n",
            r#"{"id":"d","split":"dev","question":"q4","expected":["/x"],"selection":"literal text"}"#,
        ))
        .unwrap();
        assert_eq!(qs.len(), 4);
        assert_eq!(qs[0].expected, ["/x#y", "/z"]);
        assert!(qs[1].unanswerable && qs[1].is_off_topic());
        let (text, of) =
            selection_text(qs[2].selection.as_ref().unwrap(), |_| Some("one two three four".into())).unwrap();
        assert_eq!((text.as_str(), of), ("two three", Some("/x")));
        let (text, of) = selection_text(qs[3].selection.as_ref().unwrap(), |_| None).unwrap();
        assert_eq!((text.as_str(), of), ("literal text", None));
    }

    #[test]
    fn bad_lines_are_refused_with_their_line_number() {
        let both = r#"{"id":"a","split":"dev","question":"q","expected":["/x"],"unanswerable":true}"#;
        assert!(parse(both).unwrap_err().starts_with("line 1:"));
        let neither = r#"{"id":"a","split":"dev","question":"q"}"#;
        assert!(parse(neither).is_err());
        let typo = r#"{"id":"a","split":"dev","question":"q","expect":["/x"]}"#;
        assert!(parse(typo).unwrap_err().contains("expect"));
        let dup = "{\"id\":\"a\",\"split\":\"dev\",\"question\":\"q\",\"expected\":[\"/x\"]}\n".repeat(2);
        assert!(parse(&dup).unwrap_err().contains("line 2: duplicate id a"));
        assert!(parse("").is_err());
    }

    #[test]
    fn a_passage_outside_the_section_is_an_error() {
        let spec = SelectionSpec::Passage { of: "/x".into(), from_word: 10, words: 5 };
        assert!(selection_text(&spec, |_| Some("short text".into())).is_err());
        assert!(selection_text(&spec, |_| None).unwrap_err().contains("no section /x"));
    }
}
