//! Reads an OpenAI-compatible streamed completion incrementally: server-sent events
//! (`data:` lines, blank-line dispatch, `\n`, `\r\n` or `\r` line ends, comments), each a
//! `chat.completion.chunk` whose `choices[0].delta.content` is the next piece of text, and
//! `data: [DONE]` at the end. Bytes may arrive split anywhere, even inside a character.
//!
//! A server that ignores `stream: true` and sends one JSON completion is read too. A stream
//! that ends before `[DONE]` (or a final `finish_reason`), an unreadable event or an error
//! event is an `LLM_BAD_RESPONSE`: a `Failed` step after the tokens that came before it (in
//! the same bytes too), and nothing after it.
//!
//! The text goes through the refusal marker's filter (`marker.rs`): an answer that is the
//! marker ends as a `Refused` step, and nothing after it is read.

use super::error::ChatError;
use super::marker::{Filtered, MarkerFilter};

#[derive(Clone, Debug, PartialEq)]
pub enum StreamStep {
    Token(String),
    Done,
    Failed(ChatError),
    /// The LLM answered that the context does not hold the answer (`marker::NOT_IN_CONTEXT`).
    Refused,
}

#[derive(Debug)]
pub struct CompletionStream {
    /// Bytes of the line being received.
    line: Vec<u8>,
    /// The event being assembled (its `data:` lines).
    data: Option<String>,
    /// The last byte was `\r`: a following `\n` belongs to the same line end.
    after_cr: bool,
    /// The body is one JSON object, not events.
    whole_json: Option<Vec<u8>>,
    started: bool,
    finished: bool,
    done: bool,
    failed: bool,
    marker: MarkerFilter,
}

impl Default for CompletionStream {
    fn default() -> Self {
        CompletionStream {
            line: Vec::new(),
            data: None,
            after_cr: false,
            whole_json: None,
            started: false,
            finished: false,
            done: false,
            failed: false,
            marker: MarkerFilter::new(),
        }
    }
}

impl CompletionStream {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether `[DONE]` (or a final `finish_reason`) has been read.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Reads the next bytes of the body.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<StreamStep> {
        let mut steps = Vec::new();
        if let Err(error) = self.read(bytes, &mut steps) {
            self.fail(error, &mut steps);
        }
        steps
    }

    /// The body has ended: what it still held, or why it was incomplete.
    pub fn finish(&mut self) -> Vec<StreamStep> {
        let mut steps = Vec::new();
        if let Err(error) = self.read_end(&mut steps) {
            self.fail(error, &mut steps);
        }
        steps
    }

    /// The text held back by the marker's filter goes out before the failure.
    fn fail(&mut self, error: ChatError, steps: &mut Vec<StreamStep>) {
        self.failed = true;
        let held = self.marker.finish();
        if !held.is_empty() {
            steps.push(StreamStep::Token(held));
        }
        steps.push(StreamStep::Failed(error));
    }

    /// A piece of the answer's text, through the marker's filter.
    fn text(&mut self, content: &str, steps: &mut Vec<StreamStep>) {
        match self.marker.push(content) {
            Filtered::Text(text) if !text.is_empty() => steps.push(StreamStep::Token(text)),
            Filtered::Text(_) => {}
            Filtered::Refused => {
                // Nothing after the refusal is read.
                self.finished = true;
                self.done = true;
                steps.push(StreamStep::Refused);
            }
        }
    }

    /// The answer is complete: the held-back text, then `Done`.
    fn complete(&mut self, steps: &mut Vec<StreamStep>) {
        self.done = true;
        let held = self.marker.finish();
        if !held.is_empty() {
            steps.push(StreamStep::Token(held));
        }
        steps.push(StreamStep::Done);
    }

    fn read(&mut self, bytes: &[u8], steps: &mut Vec<StreamStep>) -> Result<(), ChatError> {
        if self.failed || self.finished {
            return Ok(());
        }
        let mut bytes = bytes;
        if !self.started {
            let skip = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
            bytes = &bytes[skip..];
            match bytes.first() {
                None => return Ok(()),
                Some(b'{') => self.whole_json = Some(Vec::new()),
                Some(_) => {}
            }
            self.started = true;
        }
        if let Some(json) = &mut self.whole_json {
            json.extend_from_slice(bytes);
            return Ok(());
        }
        for &byte in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
            match byte {
                b'\n' if after_cr => {}
                b'\n' | b'\r' => self.end_line(steps)?,
                _ => self.line.push(byte),
            }
        }
        Ok(())
    }

    fn read_end(&mut self, steps: &mut Vec<StreamStep>) -> Result<(), ChatError> {
        if self.failed || self.finished {
            return Ok(());
        }
        self.finished = true;
        if let Some(json) = self.whole_json.take() {
            let text = whole_completion(&json)?;
            self.text(&text, steps);
            if !self.marker.refused() {
                self.complete(steps);
            }
            return Ok(());
        }
        if !self.line.is_empty() {
            self.end_line(steps)?;
        }
        // An event not followed by a blank line is still read: some servers close right after `[DONE]`.
        self.dispatch(steps)?;
        if !self.done {
            return Err(ChatError::bad_stream("CUT", "The answer stream ended before it was complete."));
        }
        Ok(())
    }

    fn end_line(&mut self, steps: &mut Vec<StreamStep>) -> Result<(), ChatError> {
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            return self.dispatch(steps);
        }
        let line = String::from_utf8(line).map_err(|_| malformed("an event is not UTF-8"))?;
        if line.starts_with(':') {
            return Ok(()); // a comment (keep-alive)
        }
        let (field, value) = line.split_once(':').unwrap_or((line.as_str(), ""));
        if field == "data" {
            let value = value.strip_prefix(' ').unwrap_or(value);
            match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            }
        }
        Ok(())
    }

    fn dispatch(&mut self, steps: &mut Vec<StreamStep>) -> Result<(), ChatError> {
        let Some(data) = self.data.take() else { return Ok(()) };
        if self.done {
            return Ok(()); // anything after the end is ignored
        }
        if data.trim() == "[DONE]" {
            self.complete(steps);
            return Ok(());
        }
        let chunk: serde_json::Value = serde_json::from_str(&data).map_err(|_| malformed("an event is not JSON"))?;
        if let Some(error) = chunk.get("error") {
            let message = error.get("message").and_then(|m| m.as_str()).or(error.as_str()).unwrap_or("unknown error");
            return Err(ChatError::bad_stream(
                "ERROR_EVENT",
                format!("The answer service reported an error: {message}"),
            ));
        }
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else { return Ok(()) };
        let content = choice.pointer("/delta/content").or_else(|| choice.get("text")).and_then(|c| c.as_str());
        if let Some(content) = content.filter(|c| !c.is_empty()) {
            self.text(content, steps);
            if self.marker.refused() {
                return Ok(());
            }
        }
        if choice.get("finish_reason").is_some_and(|r| !r.is_null()) {
            // The answer is complete; `[DONE]` normally follows, but a server that closes
            // here has not cut anything.
            self.complete(steps);
        }
        Ok(())
    }
}

fn whole_completion(json: &[u8]) -> Result<String, ChatError> {
    let value: serde_json::Value = serde_json::from_slice(json).map_err(|_| malformed("the body is not JSON"))?;
    if let Some(error) = value.get("error") {
        let message = error.get("message").and_then(|m| m.as_str()).unwrap_or("unknown error");
        return Err(ChatError::bad_stream("ERROR_EVENT", format!("The answer service reported an error: {message}")));
    }
    value
        .pointer("/choices/0/message/content")
        .and_then(|c| c.as_str())
        .map(str::to_string)
        .ok_or_else(|| malformed("the completion has no message content"))
}

fn malformed(what: &str) -> ChatError {
    ChatError::bad_stream("MALFORMED_EVENT", format!("The answer stream was unreadable ({what})."))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(content: &str) -> String {
        let delta =
            serde_json::json!({ "choices": [{ "index": 0, "delta": { "content": content }, "finish_reason": null }] });
        format!("data: {delta}\n\n")
    }

    /// Feeds `body` in pieces of `size` bytes and returns the text and whether it completed,
    /// or the failure and the text that came before it.
    fn read_partial(body: &[u8], size: usize) -> (String, Result<bool, ChatError>) {
        let mut stream = CompletionStream::new();
        let mut text = String::new();
        let mut outcome = Ok(false);
        let mut steps: Vec<StreamStep> = body.chunks(size).flat_map(|piece| stream.feed(piece)).collect();
        steps.extend(stream.finish());
        for step in steps {
            match step {
                StreamStep::Token(t) => text.push_str(&t),
                StreamStep::Done => outcome = Ok(true),
                StreamStep::Failed(e) => outcome = Err(e),
                StreamStep::Refused => text.push_str("<refused>"),
            }
        }
        (text, outcome)
    }

    fn read(body: &[u8], size: usize) -> Result<(String, bool), ChatError> {
        let (text, outcome) = read_partial(body, size);
        outcome.map(|done| (text, done))
    }

    #[test]
    fn tokens_in_order_whatever_the_split() {
        let body = format!(
            ": keep-alive\n\n{}{}{}data: [DONE]\n\n",
            chunk("Nodes find each other "),
            chunk("über DDS [1]."),
            "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
        );
        for size in [1, 2, 3, 7, 64, body.len()] {
            assert_eq!(read(body.as_bytes(), size), Ok(("Nodes find each other über DDS [1].".into(), true)), "{size}");
        }
        let crlf = body.replace('\n', "\r\n");
        let cr = body.replace('\n', "\r");
        for size in [1, 5, 1000] {
            assert_eq!(read(crlf.as_bytes(), size).map(|r| r.0), Ok("Nodes find each other über DDS [1].".into()));
            assert_eq!(read(cr.as_bytes(), size).map(|r| r.0), Ok("Nodes find each other über DDS [1].".into()));
        }
    }

    #[test]
    fn a_stream_cut_before_done_is_an_error_but_a_final_finish_reason_is_not() {
        let cut = format!("{}{}", chunk("Half an"), chunk(" answer"));
        let err = read(cut.as_bytes(), 5).err();
        assert_eq!(err.and_then(|e| e.detail), Some("CUT".into()));
        let closed =
            format!("{}data: {{\"choices\":[{{\"delta\":{{}},\"finish_reason\":\"stop\"}}]}}", chunk("Whole."));
        assert_eq!(read(closed.as_bytes(), 4), Ok(("Whole.".into(), true)));
        let done_unterminated = format!("{}data: [DONE]", chunk("Whole."));
        assert_eq!(read(done_unterminated.as_bytes(), 3), Ok(("Whole.".into(), true)));
    }

    #[test]
    fn malformed_and_error_events_are_reported() {
        let bad = format!("{}{}data: {{not json\n\n{}", chunk("a"), chunk("b"), chunk("never read"));
        assert_eq!(read(bad.as_bytes(), 10).err().and_then(|e| e.detail), Some("MALFORMED_EVENT".into()));
        // Tokens that arrive in the same bytes as the bad event are kept; nothing after it is read.
        for size in [10, bad.len()] {
            let (text, outcome) = read_partial(bad.as_bytes(), size);
            assert_eq!(text, "ab");
            assert!(outcome.is_err());
        }
        let error = format!("{}data: {{\"error\":{{\"message\":\"overloaded\"}}}}\n\n", chunk("a"));
        let err = read(error.as_bytes(), 10).err();
        assert!(err.is_some_and(
            |e| e.detail.as_deref() == Some("ERROR_EVENT") && e.technical.is_some_and(|t| t.contains("overloaded"))
        ));
    }

    #[test]
    fn multi_line_data_and_other_fields() {
        let body =
            "event: message\nid: 1\ndata: {\"choices\":[{\"delta\":\ndata: {\"content\":\"x\"}}]}\n\ndata:[DONE]\n\n";
        assert_eq!(read(body.as_bytes(), 3), Ok(("x".into(), true)));
    }

    #[test]
    fn the_refusal_marker_is_a_refused_step_wherever_the_stream_splits_it() {
        let refusal = format!(
            "{}{}{}{}data: [DONE]\n\n",
            chunk("NOT_"),
            chunk("IN_CON"),
            chunk("TEXT\nThe context"),
            chunk(" lacks it.")
        );
        for size in [1, 2, 5, 13, refusal.len()] {
            let (text, outcome) = read_partial(refusal.as_bytes(), size);
            assert_eq!((text.as_str(), outcome), ("<refused>", Ok(false)), "{size}");
        }
        // An answer that only starts like the marker is the answer, held-back text included.
        let answer = format!("{}{}data: [DONE]\n\n", chunk("NOT"), chunk(" in scope: nodes [1]."));
        assert_eq!(read(answer.as_bytes(), 3), Ok(("NOT in scope: nodes [1].".into(), true)));
        let short = format!("{}data: [DONE]\n\n", chunk("NOT_IN"));
        assert_eq!(read(short.as_bytes(), 4), Ok(("NOT_IN".into(), true)));
        // Held-back text is kept before a failure too.
        let cut = chunk("NOT_IN");
        assert_eq!(read_partial(cut.as_bytes(), 4).0, "NOT_IN");
        let whole = r#"{"choices":[{"message":{"role":"assistant","content":"NOT_IN_CONTEXT"}}]}"#;
        assert_eq!(read_partial(whole.as_bytes(), 7), ("<refused>".to_string(), Ok(false)));
    }

    #[test]
    fn a_whole_json_completion_is_read() {
        let body = r#"  {"choices":[{"message":{"role":"assistant","content":"All at once [1]."}}]}"#;
        assert_eq!(read(body.as_bytes(), 4), Ok(("All at once [1].".into(), true)));
        let empty_body = CompletionStream::new().finish();
        assert!(matches!(&empty_body[..], [StreamStep::Failed(e)] if e.detail.as_deref() == Some("CUT")));
    }
}
