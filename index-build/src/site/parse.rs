//! Parsing a doc file the way Docusaurus 3 does: MDX (or CommonMark for `.md`
//! under `markdown.format: 'detect'`) with GFM and front matter.
//!
//! Two gaps between markdown-rs and Docusaurus' MDX pipeline are closed here:
//! - Docusaurus accepts `<!-- comments -->` in MDX (its `mdx1Compat.comments`
//!   syntax extension); markdown-rs rejects them. When the parser stops at a
//!   `<!--`, that comment is blanked (offsets and lines kept) and the file is
//!   parsed again, so only real comments outside code are touched.
//! - markdown-rs asks a callback whether an `import`/`export` block or an
//!   `{expression}` is complete. Without one it ends ESM at the first blank
//!   line and expressions at the first balanced `}`, which cuts
//!   `export function` bodies and template literals containing `{`. The
//!   scanner below tracks strings, template literals, comments, regexes and
//!   bracket nesting; it does not validate JavaScript. If it misjudges a file
//!   (JSX text with an apostrophe inside an expression, say), the file is
//!   parsed again with markdown-rs' own brace counting.

use markdown::mdast::Node;
use markdown::message::{Message, Place};
use markdown::{Constructs, MdxExpressionKind, MdxSignal, ParseOptions};
use serde::Serialize;

/// How a doc file is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkdownFormat {
    Mdx,
    CommonMark,
}

/// Why a file could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFailure {
    /// 1-based line, when known.
    pub line: Option<usize>,
    pub message: String,
}

const INCOMPLETE_RULE: &str = "js-incomplete";

/// Parses a doc file into mdast.
pub fn parse_doc(source: &str, format: MarkdownFormat) -> Result<Node, ParseFailure> {
    match format {
        MarkdownFormat::CommonMark => parse_markdown(source, &commonmark_parse_options()).map_err(failure),
        MarkdownFormat::Mdx => match parse_mdx_with_comments(source, &mdx_parse_options(JsScanning::Scanner)) {
            Err(message) if message.rule_id.as_str() == INCOMPLETE_RULE => {
                parse_mdx_with_comments(source, &mdx_parse_options(JsScanning::BraceCounting)).map_err(failure)
            }
            other => other.map_err(failure),
        },
    }
}

fn failure(message: Message) -> ParseFailure {
    let line = match message.place.as_deref() {
        Some(Place::Point(point)) => Some(point.line),
        Some(Place::Position(position)) => Some(position.start.line),
        None => None,
    };
    ParseFailure { line, message: message.reason }
}

fn error_offset(message: &Message) -> Option<usize> {
    match message.place.as_deref() {
        Some(Place::Point(point)) => Some(point.offset),
        Some(Place::Position(position)) => Some(position.start.offset),
        None => None,
    }
}

/// Parses MDX, blanking each HTML comment the parser trips over.
fn parse_mdx_with_comments(source: &str, options: &ParseOptions) -> Result<Node, Message> {
    let mut text = source.to_string();
    let attempts = source.matches("<!--").count() + 1;
    let mut last_error = None;
    for _ in 0..attempts {
        match parse_markdown(&text, options) {
            Ok(tree) => return Ok(tree),
            Err(message) => {
                let comment_start = error_offset(&message).and_then(|offset| {
                    [offset, offset.saturating_sub(1)]
                        .into_iter()
                        .find(|&start| text.get(start..).is_some_and(|rest| rest.starts_with("<!--")))
                });
                match comment_start {
                    Some(start) => blank_comment(&mut text, start),
                    None => return Err(message),
                }
                last_error = Some(message);
            }
        }
    }
    match last_error {
        Some(message) => Err(message),
        None => parse_markdown(&text, options),
    }
}

/// Replaces `<!-- … -->` starting at `start` with spaces, keeping newlines so
/// that offsets and line numbers stay true. An unclosed comment runs to the end.
fn blank_comment(text: &mut String, start: usize) {
    let end = text.get(start + 4..).and_then(|rest| rest.find("-->")).map_or(text.len(), |i| start + 4 + i + 3);
    let Some(comment) = text.as_bytes().get(start..end) else {
        return;
    };
    let blanked: Vec<u8> = comment.iter().map(|&b| if b == b'\n' { b'\n' } else { b' ' }).collect();
    let mut bytes = std::mem::take(text).into_bytes();
    bytes.splice(start..end, blanked);
    // Whole UTF-8 sequences were replaced by ASCII, so this cannot fail.
    *text = String::from_utf8(bytes).unwrap_or_default();
}

/// Whether a piece of JavaScript has all its brackets, strings and comments closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completeness {
    Complete,
    /// Something is still open at the end: more text is needed.
    Incomplete,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Paren,
    Bracket,
    Brace,
    /// Inside the text of a template literal.
    Template,
    /// Inside `${ … }` of a template literal.
    Interpolation,
}

pub fn completeness(source: &str) -> Completeness {
    let chars: Vec<char> = source.chars().collect();
    let mut stack: Vec<Open> = Vec::new();
    // The last non-space character outside strings/comments, to tell a regex
    // literal from a division.
    let mut previous: Option<char> = None;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if stack.last() == Some(&Open::Template) {
            match c {
                '\\' => i += 1,
                '`' => {
                    stack.pop();
                    previous = Some('`');
                }
                '$' if chars.get(i + 1) == Some(&'{') => {
                    stack.push(Open::Interpolation);
                    previous = Some('{');
                    i += 1;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while chars.get(i).is_some_and(|&c| c != '\n') {
                    i += 1;
                }
                continue;
            }
            '/' if chars.get(i + 1) == Some(&'*') => match find_block_comment_end(&chars, i + 2) {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => return Completeness::Incomplete,
            },
            '/' if starts_regex(previous) => match find_regex_end(&chars, i + 1) {
                Some(end) => {
                    previous = Some('/');
                    i = end;
                    continue;
                }
                None => return Completeness::Incomplete,
            },
            '\'' | '"' => match find_string_end(&chars, i + 1, c) {
                Some(end) => {
                    previous = Some(c);
                    i = end;
                    continue;
                }
                None => return Completeness::Incomplete,
            },
            '`' => stack.push(Open::Template),
            '(' => stack.push(Open::Paren),
            '[' => stack.push(Open::Bracket),
            '{' => stack.push(Open::Brace),
            ')' | ']' | '}' => {
                // A stray closer is JavaScript's problem, not a reason to read on.
                stack.pop();
            }
            _ => {}
        }
        if !c.is_whitespace() {
            previous = Some(c);
        }
        i += 1;
    }
    if stack.is_empty() {
        Completeness::Complete
    } else {
        Completeness::Incomplete
    }
}

/// Index just past `*/`, searching from `from`.
fn find_block_comment_end(chars: &[char], from: usize) -> Option<usize> {
    (from..chars.len()).find(|&j| chars.get(j) == Some(&'*') && chars.get(j + 1) == Some(&'/')).map(|j| j + 2)
}

/// Index just past the closing quote of a `'`/`"` string. A string cannot
/// span lines, so an unclosed one ends at the line end (JSX text such as
/// `Don't` is not a string at all).
fn find_string_end(chars: &[char], from: usize, quote: char) -> Option<usize> {
    let mut j = from;
    while let Some(&c) = chars.get(j) {
        match c {
            '\\' => j += 2,
            '\n' => return Some(j),
            c if c == quote => return Some(j + 1),
            _ => j += 1,
        }
    }
    Some(chars.len())
}

/// A `/` starts a regex literal after an operator or an opening bracket.
fn starts_regex(previous: Option<char>) -> bool {
    match previous {
        None => true,
        Some(c) => "(,=:[!&|?{};+-*%~^".contains(c),
    }
}

/// Index just past the closing `/` (and flags) of a regex literal.
fn find_regex_end(chars: &[char], from: usize) -> Option<usize> {
    let mut j = from;
    let mut in_class = false;
    while let Some(&c) = chars.get(j) {
        match c {
            '\\' => j += 1,
            '\n' => return None,
            '[' => in_class = true,
            ']' => in_class = false,
            '/' if !in_class => {
                j += 1;
                while chars.get(j).is_some_and(char::is_ascii_alphabetic) {
                    j += 1;
                }
                return Some(j);
            }
            _ => {}
        }
        j += 1;
    }
    None
}

fn signal(source: &str) -> MdxSignal {
    match completeness(source) {
        Completeness::Complete => MdxSignal::Ok,
        Completeness::Incomplete => MdxSignal::Eof(
            "Unexpected end of file in JavaScript".to_string(),
            Box::new("lectern".to_string()),
            Box::new(INCOMPLETE_RULE.to_string()),
        ),
    }
}

/// How the end of ESM blocks and expressions is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JsScanning {
    /// The scanner in this file.
    Scanner,
    /// markdown-rs' own rules (ESM ends at a blank line, `{}` are counted).
    BraceCounting,
}

/// Parse options for MDX as Docusaurus 3 compiles it: MDX + GFM + front matter.
fn mdx_parse_options(scanning: JsScanning) -> ParseOptions {
    let constructs = Constructs {
        frontmatter: true,
        gfm_autolink_literal: true,
        gfm_footnote_definition: true,
        gfm_label_start_footnote: true,
        gfm_strikethrough: true,
        gfm_table: true,
        gfm_task_list_item: true,
        ..Constructs::mdx()
    };
    match scanning {
        JsScanning::Scanner => ParseOptions {
            constructs,
            mdx_esm_parse: Some(Box::new(signal)),
            mdx_expression_parse: Some(Box::new(|source: &str, _kind: &MdxExpressionKind| signal(source))),
            ..ParseOptions::mdx()
        },
        // markdown-rs only recognises ESM when given a callback.
        JsScanning::BraceCounting => {
            ParseOptions { constructs, mdx_esm_parse: Some(Box::new(|_: &str| MdxSignal::Ok)), ..ParseOptions::mdx() }
        }
    }
}

/// Parse options for `.md` files when the site sets `markdown.format: 'detect'`:
/// CommonMark + GFM + front matter, raw HTML allowed.
fn commonmark_parse_options() -> ParseOptions {
    let constructs = Constructs { frontmatter: true, ..Constructs::gfm() };
    ParseOptions { constructs, ..ParseOptions::gfm() }
}

/// Parses `source` into mdast, turning a parser panic into an error.
fn parse_markdown(source: &str, options: &ParseOptions) -> Result<Node, Message> {
    let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| markdown::to_mdast(source, options)));
    match parsed {
        Ok(result) => result,
        Err(_) => Err(Message {
            place: None,
            reason: "the Markdown parser crashed on this file".to_string(),
            rule_id: Box::new("parser-panic".to_string()),
            source: Box::new("lectern".to_string()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_code_is_complete() {
        assert_eq!(completeness("import A from 'a';"), Completeness::Complete);
        assert_eq!(completeness("export const x = {a: [1, 2]};"), Completeness::Complete);
        assert_eq!(completeness("`a ${b} {`"), Completeness::Complete);
        assert_eq!(completeness("'}' + \"{\""), Completeness::Complete);
        assert_eq!(completeness("/* { */ x // {"), Completeness::Complete);
        assert_eq!(completeness("x.replace(/[{]/g, '')"), Completeness::Complete);
    }

    #[test]
    fn open_code_is_incomplete() {
        assert_eq!(completeness("export function f() {\n  const a = 1;"), Completeness::Incomplete);
        assert_eq!(completeness("`unclosed template"), Completeness::Incomplete);
        assert_eq!(completeness("`a ${ {b: 1}"), Completeness::Incomplete);
    }

    #[test]
    fn export_function_with_blank_lines_stays_one_esm_block() {
        let source = "export function Note() {\n  const a = 1;\n\n  return a;\n}\n\n# Title\n";
        let tree = parse_doc(source, MarkdownFormat::Mdx).unwrap();
        let children = tree.children().unwrap();
        assert!(matches!(children[0], Node::MdxjsEsm(_)));
        assert!(matches!(children[1], Node::Heading(_)));
        assert_eq!(children.len(), 2);
    }

    #[test]
    fn template_literal_with_a_brace_stays_one_expression() {
        let source = "<Code>{`if (x) {\nreturn;`}</Code>\n";
        let tree = parse_doc(source, MarkdownFormat::Mdx).unwrap();
        assert!(matches!(tree.children().unwrap()[0], Node::MdxJsxFlowElement(_)));
    }

    #[test]
    fn html_comments_are_accepted_in_mdx() {
        let source =
            "Intro.\n\n<!-- a\ncomment -->\n\nText <!-- inline --> more.\n\n```html\n<!-- kept in code -->\n```\n";
        let tree = parse_doc(source, MarkdownFormat::Mdx).unwrap();
        let code = tree
            .children()
            .unwrap()
            .iter()
            .find_map(|node| match node {
                Node::Code(code) => Some(code.value.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(code, "<!-- kept in code -->");
        let text = markdown::mdast::Node::Root(markdown::mdast::Root {
            children: tree.children().unwrap().clone(),
            position: None,
        })
        .to_string();
        assert!(!text.contains("comment"));
        assert!(text.contains("Text"));
    }

    #[test]
    fn jsx_text_with_apostrophe_in_an_expression_still_parses() {
        let source = "{items.map(i => <li>Don't {i}</li>)}\n\nAfter.\n";
        assert!(parse_doc(source, MarkdownFormat::Mdx).is_ok());
    }

    #[test]
    fn invalid_mdx_reports_a_line() {
        let failure = parse_doc("Fine.\n\nBroken <5 here\n", MarkdownFormat::Mdx).unwrap_err();
        assert_eq!(failure.line, Some(3));
    }
}
