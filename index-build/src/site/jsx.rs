//! What a JSX element in MDX contributes to the text: its children, its
//! prose-like string props (`title="…"`, `transcript={`…`}`), and for code
//! components (`<CodeBlock language="js">{`…`}</CodeBlock>`) its code.

use markdown::mdast::{AttributeContent, AttributeValue};

/// Elements whose content is never text a reader sees as prose.
const IGNORED_ELEMENTS: &[&str] = &["style", "script", "head", "svg", "iframe"];

/// Props that carry prose when they hold text.
const PROSE_PROPS: &[&str] = &[
    "title",
    "label",
    "caption",
    "alt",
    "description",
    "transcript",
    "summary",
    "heading",
    "subtitle",
    "text",
    "content",
    "question",
    "answer",
    "tooltip",
    "message",
    "quote",
    "excerpt",
];

/// Props that identify, style or configure, whatever their value looks like.
const CONFIG_PROPS: &[&str] = &[
    "id",
    "classname",
    "class",
    "style",
    "href",
    "src",
    "to",
    "url",
    "key",
    "value",
    "language",
    "lang",
    "type",
    "variant",
    "width",
    "height",
    "size",
    "color",
    "icon",
    "target",
    "rel",
    "groupid",
    "querystring",
    "path",
    "slug",
    "mode",
    "theme",
    "metastring",
    "name",
    "as",
    "role",
    "showlinenumbers",
    "highlight",
    "highlightlines",
    "default",
];

pub fn is_ignored_element(name: Option<&str>) -> bool {
    name.is_some_and(|n| IGNORED_ELEMENTS.contains(&n.to_ascii_lowercase().as_str()))
}

/// A string prop value: a literal, or an expression that is one string or
/// template literal.
fn string_value(value: &AttributeValue) -> Option<String> {
    match value {
        AttributeValue::Literal(text) => Some(text.clone()),
        AttributeValue::Expression(expression) => string_literal(&expression.value),
    }
}

/// The props of an element as (name, string value) pairs, in source order.
pub fn string_props(attributes: &[AttributeContent]) -> Vec<(String, String)> {
    attributes
        .iter()
        .filter_map(|attribute| match attribute {
            AttributeContent::Property(property) => {
                property.value.as_ref().and_then(string_value).map(|value| (property.name.clone(), value))
            }
            AttributeContent::Expression(_) => None,
        })
        .collect()
}

/// The prose carried by an element's props, in source order.
pub fn prose_props(element: Option<&str>, attributes: &[AttributeContent]) -> Vec<String> {
    let props = string_props(attributes);
    // A `TabItem` without `label` shows its `value` as the tab's label.
    if element == Some("TabItem") && !props.iter().any(|(name, _)| name == "label") {
        if let Some((_, value)) = props.iter().find(|(name, _)| name == "value") {
            return vec![value.clone()];
        }
    }
    props.into_iter().filter(|(name, value)| is_prose_prop(name, value)).map(|(_, value)| value).collect()
}

fn is_prose_prop(name: &str, value: &str) -> bool {
    let name = name.to_ascii_lowercase();
    if CONFIG_PROPS.contains(&name.as_str())
        || name.starts_with("aria-")
        || name.starts_with("data-")
        || name.starts_with("on")
    {
        return false;
    }
    if !looks_like_prose(value) {
        return false;
    }
    PROSE_PROPS.contains(&name.as_str()) || value.split_whitespace().count() >= 4
}

/// Text rather than an identifier, a URL, a file name or code.
fn looks_like_prose(value: &str) -> bool {
    let value = value.trim();
    if !value.chars().any(char::is_alphabetic) {
        return false;
    }
    let lower = value.to_ascii_lowercase();
    if ["http://", "https://", "mailto:", "/", "./", "../", "#", "@site/"]
        .iter()
        .any(|prefix| lower.starts_with(prefix))
    {
        return false;
    }
    let single_token = !value.contains(char::is_whitespace);
    let code_like = value.contains(['{', '}', ';', '=', '<', '>']) || value.contains("=>");
    !(code_like || single_token && value.contains(['.', '/', '_', '(', ':']))
}

/// The language of a code component, or `None` when the element is not one:
/// a name containing "code" (`CodeBlock`, `CodeSnippet`) or a `language` prop.
pub fn code_language(name: Option<&str>, attributes: &[AttributeContent]) -> Option<Option<String>> {
    let props = string_props(attributes);
    let language = props.iter().find(|(prop, _)| prop == "language" || prop == "lang").map(|(_, value)| value.clone());
    let named_code = name.is_some_and(|n| n.to_ascii_lowercase().contains("code"));
    if named_code || language.is_some() {
        Some(language)
    } else {
        None
    }
}

/// The value of a JavaScript expression that is a single string or template
/// literal (`'a'`, `"a"`, `` `a` ``); interpolations in a template are left
/// out. Anything else is code and yields `None`.
pub fn string_literal(expression: &str) -> Option<String> {
    let trimmed = expression.trim();
    let mut chars = trimmed.chars();
    let quote = chars.next()?;
    if !matches!(quote, '\'' | '"' | '`') || trimmed.len() < 2 || !trimmed.ends_with(quote) {
        return None;
    }
    let body = &trimmed[1..trimmed.len() - 1];
    let mut result = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    let mut interpolation_depth = 0usize;
    while let Some(c) = chars.next() {
        if interpolation_depth > 0 {
            match c {
                '{' => interpolation_depth += 1,
                '}' => interpolation_depth -= 1,
                _ => {}
            }
            continue;
        }
        match c {
            '\\' => match chars.next() {
                Some('n') => result.push('\n'),
                Some('t') => result.push('\t'),
                Some('r') => {}
                Some('\n') => {}
                Some(other) => result.push(other),
                None => {}
            },
            '$' if quote == '`' && chars.peek() == Some(&'{') => {
                chars.next();
                interpolation_depth = 1;
            }
            // An unescaped quote inside means this was not one literal
            // (`'a' + 'b'`).
            c if c == quote => return None,
            c => result.push(c),
        }
    }
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use markdown::mdast::{AttributeValueExpression, MdxJsxAttribute};

    fn literal(name: &str, value: &str) -> AttributeContent {
        AttributeContent::Property(MdxJsxAttribute {
            name: name.to_string(),
            value: Some(AttributeValue::Literal(value.to_string())),
        })
    }

    fn expression(name: &str, value: &str) -> AttributeContent {
        AttributeContent::Property(MdxJsxAttribute {
            name: name.to_string(),
            value: Some(AttributeValue::Expression(AttributeValueExpression {
                value: value.to_string(),
                stops: Vec::new(),
            })),
        })
    }

    #[test]
    fn string_literals_are_read_and_code_is_not() {
        assert_eq!(string_literal("'a b'").as_deref(), Some("a b"));
        assert_eq!(string_literal("\"it\\'s\"").as_deref(), Some("it's"));
        assert_eq!(string_literal("`\nline one\n# not a heading\n`").as_deref(), Some("\nline one\n# not a heading\n"));
        assert_eq!(string_literal("`Hi ${name}!`").as_deref(), Some("Hi !"));
        assert_eq!(string_literal("'a' + 'b'"), None);
        assert_eq!(string_literal("props.title"), None);
        assert_eq!(string_literal("45"), None);
    }

    #[test]
    fn prose_props_are_kept_and_config_props_dropped() {
        let attributes = vec![
            literal("title", "2D Transformation Matrix Visualizer"),
            expression("transcript", "`This video shows a robot walking.`"),
            literal("url", "https://www.youtube.com/watch?v=x"),
            literal("className", "hero banner big"),
            expression("defaultRotation", "45"),
            literal("title", "install-ros2.sh"),
            literal("label", "npm"),
            literal("value", "npm"),
            literal("note", "A longer note written as a sentence."),
            literal("mode", "dark"),
        ];
        assert_eq!(
            prose_props(Some("Custom"), &attributes),
            vec![
                "2D Transformation Matrix Visualizer",
                "This video shows a robot walking.",
                "npm",
                "A longer note written as a sentence."
            ]
        );
    }

    #[test]
    fn tab_items_show_their_value_when_they_have_no_label() {
        assert_eq!(prose_props(Some("TabItem"), &[literal("value", "❌ Incorrect")]), vec!["❌ Incorrect"]);
        assert_eq!(
            prose_props(Some("TabItem"), &[literal("value", "npm"), literal("label", "Using npm")]),
            vec!["Using npm"]
        );
    }

    #[test]
    fn code_components_are_recognised() {
        assert_eq!(code_language(Some("CodeBlock"), &[literal("language", "js")]), Some(Some("js".into())));
        assert_eq!(code_language(Some("CodeSnippet"), &[]), Some(None));
        assert_eq!(code_language(Some("Pre"), &[literal("lang", "py")]), Some(Some("py".into())));
        assert_eq!(code_language(Some("TabItem"), &[literal("label", "npm")]), None);
    }
}
