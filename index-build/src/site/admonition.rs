//! Docusaurus admonitions (`:::tip Title` … `:::`, `:::note[Title]`).
//!
//! They are a Docusaurus remark extension (container directives), not
//! CommonMark, so markdown-rs reads their fence lines as paragraph text. This
//! module recognises those lines in the *parsed* paragraphs; the content
//! between the fences is ordinary Markdown and has already been parsed as such.

/// A paragraph line that is an admonition fence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenceLine {
    /// `:::tip`, `:::tip Title`, `:::tip[Title]`, `::::note{#id}`.
    Open { keyword: String, title: Option<String> },
    /// `:::` (or more colons) alone on a line.
    Close,
}

pub fn classify_line(line: &str) -> Option<FenceLine> {
    let trimmed = line.trim();
    let after_colons = trimmed.trim_start_matches(':');
    if trimmed.len() - after_colons.len() < 3 {
        return None;
    }
    if after_colons.is_empty() {
        return Some(FenceLine::Close);
    }
    let keyword_len = after_colons
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_alphabetic() || (*i > 0 && (c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))))
        .map_or(after_colons.len(), |(i, _)| i);
    if keyword_len == 0 {
        return None;
    }
    let keyword = after_colons[..keyword_len].to_ascii_lowercase();
    let rest = &after_colons[keyword_len..];
    let title = if let Some(bracketed) = rest.strip_prefix('[') {
        // `[Title]`, possibly followed by `{attributes}`.
        bracketed.rfind(']').map(|end| bracketed[..end].trim().to_string())
    } else if rest.starts_with('{') {
        None
    } else if rest.starts_with(char::is_whitespace) {
        Some(rest.trim().to_string())
    } else if rest.is_empty() {
        None
    } else {
        // `:::tipx!` is not a fence.
        return None;
    };
    Some(FenceLine::Open { keyword, title: title.filter(|t| !t.is_empty()) })
}

/// The label an admonition's text is introduced with: its own title, or its
/// kind (`Tip`, `Warning`, …) when it has none.
pub fn label(keyword: &str, title: Option<&str>) -> String {
    match title {
        Some(title) => title.to_string(),
        None => {
            let mut chars = keyword.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        }
    }
}

/// A paragraph's text with its admonition fence lines taken out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FencedParagraph {
    /// The label of an admonition opened in this paragraph, if any.
    pub opened_label: Option<String>,
    /// The remaining text (may be empty).
    pub text: String,
}

pub fn strip_fences(paragraph: &str) -> FencedParagraph {
    let mut result = FencedParagraph::default();
    let mut kept: Vec<&str> = Vec::new();
    for line in paragraph.split('\n') {
        match classify_line(line) {
            Some(FenceLine::Open { keyword, title }) => {
                result.opened_label = Some(label(&keyword, title.as_deref()));
            }
            Some(FenceLine::Close) => {}
            None => kept.push(line),
        }
    }
    result.text = kept.join("\n");
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_opening_fences_with_and_without_titles() {
        assert_eq!(
            classify_line(":::tip My Title"),
            Some(FenceLine::Open { keyword: "tip".into(), title: Some("My Title".into()) })
        );
        assert_eq!(
            classify_line(":::note[Read this]"),
            Some(FenceLine::Open { keyword: "note".into(), title: Some("Read this".into()) })
        );
        assert_eq!(classify_line("::::danger"), Some(FenceLine::Open { keyword: "danger".into(), title: None }));
        assert_eq!(classify_line(":::info{#anchor}"), Some(FenceLine::Open { keyword: "info".into(), title: None }));
        assert_eq!(classify_line(":::"), Some(FenceLine::Close));
        assert_eq!(classify_line("::::  "), Some(FenceLine::Close));
    }

    #[test]
    fn ordinary_lines_are_not_fences() {
        assert_eq!(classify_line("a ::: b"), None);
        assert_eq!(classify_line("::tip"), None);
        assert_eq!(classify_line(":::123"), None);
        assert_eq!(classify_line("Note: text"), None);
    }

    #[test]
    fn strips_fences_and_keeps_content() {
        let fenced = strip_fences(":::warning Be careful\nThis deletes data.\n:::");
        assert_eq!(fenced.opened_label.as_deref(), Some("Be careful"));
        assert_eq!(fenced.text, "This deletes data.");
        let untitled = strip_fences(":::tip\nUse the cache.");
        assert_eq!(untitled.opened_label.as_deref(), Some("Tip"));
        let closing_only = strip_fences(":::");
        assert_eq!(closing_only, FencedParagraph::default());
    }
}
