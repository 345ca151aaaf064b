//! The plain text of inline markup: what a reader sees of phrasing content (markup
//! removed, link and code text kept, JS expressions dropped unless string literals), of a
//! heading with its `{#id}` removed, and of a code component; and the heading source text
//! Docusaurus slugs.

use crate::site::jsx;
use crate::site::parse::MarkdownFormat;
use markdown::mdast::Node;

/// Plain text of phrasing content: markup removed, link and inline code text
/// kept, JS expressions dropped unless they are string literals.
pub fn inline_text(nodes: &[Node]) -> String {
    let mut text = String::new();
    for node in nodes {
        match node {
            Node::Text(t) => text.push_str(&t.value),
            Node::InlineCode(code) => text.push_str(&code.value),
            Node::InlineMath(math) => text.push_str(&math.value),
            Node::Break(_) => text.push('\n'),
            Node::Image(image) => text.push_str(&image.alt),
            Node::ImageReference(image) => text.push_str(&image.alt),
            Node::Html(html) => text.push_str(&strip_html_tags(&html.value)),
            Node::MdxTextExpression(expression) => {
                if let Some(literal) = jsx::string_literal(&expression.value) {
                    text.push_str(&literal);
                }
            }
            Node::MdxJsxTextElement(element) => {
                if element.name.as_deref() == Some("br") {
                    text.push('\n');
                } else if !jsx::is_ignored_element(element.name.as_deref()) {
                    text.push_str(&inline_text(&element.children));
                }
            }
            Node::FootnoteReference(_) => {}
            other => {
                if let Some(children) = other.children() {
                    text.push_str(&inline_text(children));
                }
            }
        }
    }
    text
}

/// The heading string Docusaurus slugs: `mdast-util-to-string` of the
/// heading without top-level raw HTML. Docusaurus escapes `{#id}` to text
/// before compiling MDX, so an expression starting with `#` counts as text
/// with its braces; other expressions count as their source.
pub fn heading_source_text(nodes: &[Node], format: MarkdownFormat) -> String {
    let mut text = String::new();
    for node in nodes {
        match node {
            Node::Html(_) if format == MarkdownFormat::CommonMark => {}
            other => push_to_string(other, &mut text),
        }
    }
    text
}

fn push_to_string(node: &Node, text: &mut String) {
    match node {
        Node::Text(t) => text.push_str(&t.value),
        Node::InlineCode(code) => text.push_str(&code.value),
        Node::InlineMath(math) => text.push_str(&math.value),
        Node::Html(html) => text.push_str(&html.value),
        Node::MdxTextExpression(expression) if expression.value.starts_with('#') => {
            text.push('{');
            text.push_str(&expression.value);
            text.push('}');
        }
        Node::MdxTextExpression(expression) => text.push_str(&expression.value),
        Node::Image(image) => text.push_str(&image.alt),
        Node::ImageReference(image) => text.push_str(&image.alt),
        other => {
            if let Some(children) = other.children() {
                for child in children {
                    push_to_string(child, text);
                }
            }
        }
    }
}

/// Splits `Heading text {#custom-id}` into text and id, like Docusaurus'
/// `parseMarkdownHeadingId` (the id must close the heading).
pub fn split_explicit_id(heading: &str) -> Option<(String, String)> {
    let body = heading.strip_suffix('}')?;
    let start = body.rfind("{#")?;
    let id = body.get(start + 2..)?;
    if id.is_empty() || id.contains(['}', '\n', '\r']) {
        return None;
    }
    let text = body.get(..start)?.trim_end().to_string();
    Some((text, id.trim().to_string()))
}

/// The heading's display text once its `{#id}` is removed: the id is always
/// at the end, as an expression (MDX) or at the end of the last text (Markdown).
pub fn display_text_without_id(nodes: &[Node], fallback: &str) -> String {
    match nodes.split_last() {
        Some((Node::MdxTextExpression(expression), rest)) if expression.value.starts_with('#') => inline_text(rest),
        Some((Node::Text(last), rest)) => {
            let mut text = inline_text(rest);
            match split_explicit_id(&last.value) {
                Some((kept, _)) => text.push_str(&kept),
                None => text.push_str(&last.value),
            }
            text
        }
        _ => fallback.to_string(),
    }
}

/// Everything inside a code component, as code.
pub fn code_component_text(children: &[Node]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for child in children {
        match child {
            Node::MdxFlowExpression(expression) => {
                if let Some(code) = jsx::string_literal(&expression.value) {
                    parts.push(code);
                }
            }
            Node::Code(code) => parts.push(code.value.clone()),
            Node::Paragraph(paragraph) => parts.push(code_inline_text(&paragraph.children)),
            other => {
                if let Some(nested) = other.children() {
                    parts.push(code_component_text(nested));
                }
            }
        }
    }
    parts.join("\n")
}

fn code_inline_text(nodes: &[Node]) -> String {
    nodes
        .iter()
        .map(|node| match node {
            Node::MdxTextExpression(expression) => jsx::string_literal(&expression.value).unwrap_or_default(),
            other => inline_text(std::slice::from_ref(other)),
        })
        .collect()
}

/// Raw HTML (only in CommonMark docs) reduced to its text: tags and
/// comments removed.
pub fn strip_html_tags(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        let after = &rest[open..];
        let close =
            if after.starts_with("<!--") { after.find("-->").map(|i| i + 3) } else { after.find('>').map(|i| i + 1) };
        match close {
            Some(end) => rest = &after[end..],
            None => {
                rest = "";
            }
        }
    }
    text.push_str(rest);
    text
}

/// Runs of whitespace become one space; leading/trailing whitespace goes.
pub fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_ids_need_to_close_the_heading() {
        assert_eq!(split_explicit_id("A {#a}"), Some(("A".into(), "a".into())));
        assert_eq!(split_explicit_id("A {#a} b"), None);
        assert_eq!(split_explicit_id("A {#}"), None);
        assert_eq!(split_explicit_id("A {#x} B {#y}"), Some(("A {#x} B".into(), "y".into())));
    }
}
