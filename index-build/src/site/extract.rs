//! From a parsed doc (mdast) to its sections of plain text.
//!
//! Every heading gets its anchor here, in document order and with one
//! slugger per page, exactly as Docusaurus' heading plugin assigns ids (the
//! page title's `#` heading and headings inside JSX included). Text is
//! reduced to what a reader sees: front matter, `import`/`export`, JS
//! expressions and comments go; JSX keeps its children and prose props; code
//! stays code, with its language; tables become `Header: value; …` rows.

use crate::site::admonition;
use crate::site::inline_text::{
    code_component_text, collapse_whitespace, display_text_without_id, heading_source_text, inline_text,
    split_explicit_id, strip_html_tags,
};
use crate::site::jsx;
use crate::site::parse::{parse_doc, MarkdownFormat, ParseFailure};
use crate::site::partials;
use crate::site::slug::Slugger;
use markdown::mdast::{Heading, List, Node, Table};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Partials may import partials; deeper nesting is ignored (and cycles end).
const MAX_PARTIAL_DEPTH: usize = 4;

/// One kind of text unit; decides how units are joined and split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockKind {
    Paragraph,
    ListItem,
    TableRow,
    Code { language: Option<String> },
}

/// A unit of a section's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub kind: BlockKind,
    /// Plain text; for code, the code itself (without fences).
    pub text: String,
}

impl Block {
    fn paragraph(text: String) -> Self {
        Self { kind: BlockKind::Paragraph, text }
    }

    /// The text as it appears in a chunk: code keeps a fence with its language.
    pub fn rendered(&self) -> String {
        match &self.kind {
            BlockKind::Code { language } => {
                let mut fence = "```".to_string();
                while self.text.contains(fence.as_str()) {
                    fence.push('`');
                }
                format!("{fence}{}\n{}\n{fence}", language.as_deref().unwrap_or(""), self.text)
            }
            _ => self.text.clone(),
        }
    }
}

/// A heading and the text up to the next heading.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// 1 for the page-level section (text before the first `##`), else 2–6.
    pub level: u8,
    /// The heading's plain text; `None` for the page-level section.
    pub title: Option<String>,
    /// The heading's anchor (`id`); `None` for the page-level section.
    pub anchor: Option<String>,
    /// 1-based line of the heading (1 for the page-level section).
    pub line: usize,
    pub blocks: Vec<Block>,
    /// The identifier the heading names, when it starts with code (`` `testTimeout` [number] ``).
    pub name: Option<String>,
}

/// The text of one doc, cut at its headings.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtractedDoc {
    /// The `#` heading that opens the doc, if any (Docusaurus' `contentTitle`).
    pub content_title: Option<String>,
    /// `sections[0]` is the page-level section; the rest follow the headings.
    pub sections: Vec<Section>,
    /// Imported partials that could not be read (the page is still indexed).
    pub warnings: Vec<String>,
}

/// Extracts the sections of a parsed doc. `doc_dir` is the doc's folder,
/// used to inline imported Markdown partials; `None` leaves them out.
pub fn extract(root: &Node, format: MarkdownFormat, doc_dir: Option<&Path>) -> Result<ExtractedDoc, ParseFailure> {
    let mut extractor = Extractor {
        format,
        slugger: Slugger::new(),
        content_title: None,
        seen_content: false,
        pending_label: None,
        sections: vec![Section { level: 1, title: None, anchor: None, line: 1, blocks: Vec::new(), name: None }],
        line_offset: 0,
        doc_dir: doc_dir.map(Path::to_path_buf),
        partials: HashMap::new(),
        partial_depth: 0,
        warnings: Vec::new(),
    };
    if let Some(children) = root.children() {
        extractor.flow(children)?;
    }
    extractor.flush_pending_label();
    Ok(ExtractedDoc {
        content_title: extractor.content_title,
        sections: extractor.sections,
        warnings: extractor.warnings,
    })
}

struct Extractor {
    format: MarkdownFormat,
    slugger: Slugger,
    content_title: Option<String>,
    /// Whether anything but front matter / ESM came before: only a leading
    /// `#` heading is the content title.
    seen_content: bool,
    /// An admonition's label waiting for the admonition's first text.
    pending_label: Option<String>,
    sections: Vec<Section>,
    /// Lines before the Markdown being walked (inside `mdx-code-block`).
    line_offset: usize,
    /// Folder of the file being walked (the doc or a partial).
    doc_dir: Option<PathBuf>,
    /// Imported partials by component name.
    partials: HashMap<String, PathBuf>,
    /// How many partials deep the walk is; their headings are text.
    partial_depth: usize,
    warnings: Vec<String>,
}

impl Extractor {
    fn flow(&mut self, nodes: &[Node]) -> Result<(), ParseFailure> {
        for node in nodes {
            self.flow_node(node)?;
        }
        Ok(())
    }

    fn flow_node(&mut self, node: &Node) -> Result<(), ParseFailure> {
        match node {
            Node::Yaml(_) | Node::Toml(_) | Node::Definition(_) | Node::ThematicBreak(_) => {}
            Node::MdxjsEsm(esm) => {
                if let Some(dir) = &self.doc_dir {
                    self.partials.extend(partials::imported_partials(&esm.value, dir));
                }
            }
            Node::Heading(heading) => self.heading(heading),
            Node::Paragraph(paragraph) => self.paragraph(&inline_text(&paragraph.children)),
            Node::List(list) => self.list(list, 0)?,
            Node::Code(code) if code.lang.as_deref() == Some("mdx-code-block") => {
                // Docusaurus unwraps these fences and compiles their content as MDX.
                let start_line = node.position().map_or(0, |p| p.start.line);
                self.nested_mdx(&code.value, start_line)?;
            }
            Node::Code(code) => self.code(&code.value, code.lang.clone()),
            Node::Math(math) => self.code(&math.value, Some("math".to_string())),
            Node::Table(table) => self.table(table),
            Node::Html(html) => {
                let text = strip_html_tags(&html.value);
                self.paragraph(&text);
            }
            Node::MdxFlowExpression(expression) => {
                if let Some(text) = jsx::string_literal(&expression.value) {
                    self.prose_lines(&text);
                }
            }
            Node::MdxJsxFlowElement(element) => {
                if jsx::is_ignored_element(element.name.as_deref()) {
                    return Ok(());
                }
                if let Some(file) = element.name.as_ref().and_then(|name| self.partials.get(name)).cloned() {
                    self.partial(&file);
                    return Ok(());
                }
                if let Some(language) = jsx::code_language(element.name.as_deref(), &element.attributes) {
                    let code = code_component_text(&element.children);
                    self.code(&code, language);
                    return Ok(());
                }
                for prose in jsx::prose_props(element.name.as_deref(), &element.attributes) {
                    self.prose_lines(&prose);
                }
                self.flow(&element.children)?;
            }
            Node::Blockquote(_) | Node::FootnoteDefinition(_) | Node::Root(_) => {
                if let Some(children) = node.children() {
                    self.flow(children)?;
                }
            }
            Node::ListItem(_) => {
                if let Some(children) = node.children() {
                    self.flow(children)?;
                }
            }
            // Phrasing content directly in flow (not produced by the parser,
            // but harmless to handle).
            other => self.paragraph(&inline_text(std::slice::from_ref(other))),
        }
        Ok(())
    }

    fn nested_mdx(&mut self, source: &str, start_line: usize) -> Result<(), ParseFailure> {
        let offset = self.line_offset + start_line;
        let tree = parse_doc(source, MarkdownFormat::Mdx).map_err(|failure| ParseFailure {
            line: failure.line.map(|line| line + offset),
            message: failure.message,
        })?;
        let saved = std::mem::replace(&mut self.line_offset, offset);
        let result = match tree.children() {
            Some(children) => self.flow(children),
            None => Ok(()),
        };
        self.line_offset = saved;
        result
    }

    /// Inlines a partial's text where it is used. Its headings are rendered
    /// by its own MDX module, outside the page's anchors, so they stay text.
    fn partial(&mut self, file: &Path) {
        if self.partial_depth >= MAX_PARTIAL_DEPTH {
            return;
        }
        let tree = match std::fs::read_to_string(file) {
            Ok(source) => parse_doc(&source, self.format),
            Err(error) => {
                self.warnings.push(format!("partial {} could not be read: {error}", file.display()));
                return;
            }
        };
        let tree = match tree {
            Ok(tree) => tree,
            Err(failure) => {
                self.warnings.push(format!(
                    "partial {} could not be parsed (line {:?}): {}",
                    file.display(),
                    failure.line,
                    failure.message
                ));
                return;
            }
        };
        let saved_dir = std::mem::replace(&mut self.doc_dir, file.parent().map(Path::to_path_buf));
        let saved_partials = std::mem::take(&mut self.partials);
        let saved_offset = std::mem::replace(&mut self.line_offset, 0);
        self.partial_depth += 1;
        let result = match tree.children() {
            Some(children) => self.flow(children),
            None => Ok(()),
        };
        if let Err(failure) = result {
            self.warnings.push(format!("partial {} could not be read: {}", file.display(), failure.message));
        }
        self.partial_depth -= 1;
        self.line_offset = saved_offset;
        self.partials = saved_partials;
        self.doc_dir = saved_dir;
    }

    fn heading(&mut self, heading: &Heading) {
        if self.partial_depth > 0 {
            self.paragraph(&inline_text(&heading.children));
            return;
        }
        let line = self.line_offset + heading.position.as_ref().map_or(1, |p| p.start.line);
        let source_text = heading_source_text(&heading.children, self.format);
        let (display_source, explicit_id) = match split_explicit_id(&source_text) {
            Some((text, id)) => (display_text_without_id(&heading.children, &text), Some(id)),
            None => (inline_text(&heading.children), None),
        };
        let title = collapse_whitespace(&display_source);
        // Explicit ids bypass the slugger, as in Docusaurus.
        let anchor = explicit_id.unwrap_or_else(|| self.slugger.slug(&source_text));

        if heading.depth == 1 && self.content_title.is_none() && !self.seen_content {
            self.content_title = Some(title);
            self.seen_content = true;
            return;
        }
        self.seen_content = true;
        self.flush_pending_label();
        // The name the heading gives: its leading code span's identifier, or the whole heading
        // when it is short enough to be typed as a search (`### default`, an option value
        // written without backticks; `## Quality of Service`).
        let name = match heading.children.first() {
            Some(Node::InlineCode(code)) => lectern::lexical::heading_name(&code.value),
            _ => lectern::lexical::prose_heading_name(&title),
        };
        self.sections.push(Section {
            level: heading.depth.max(2),
            title: Some(title),
            anchor: Some(anchor),
            line,
            blocks: Vec::new(),
            name,
        });
    }

    /// A paragraph's text, with admonition fence lines turned into a label.
    fn paragraph(&mut self, text: &str) {
        let fenced = admonition::strip_fences(text);
        if let Some(label) = fenced.opened_label {
            self.flush_pending_label();
            self.pending_label = Some(label);
        }
        let text = collapse_whitespace(&fenced.text);
        if !text.is_empty() {
            self.push(Block::paragraph(text));
        }
    }

    /// Text from a prop or string expression: paragraphs at blank lines.
    fn prose_lines(&mut self, text: &str) {
        for paragraph in text.split("\n\n") {
            let paragraph = collapse_whitespace(paragraph);
            if !paragraph.is_empty() {
                self.push(Block::paragraph(paragraph));
            }
        }
    }

    fn code(&mut self, code: &str, language: Option<String>) {
        let code = code.trim_matches('\n');
        if code.trim().is_empty() {
            return;
        }
        self.push(Block {
            kind: BlockKind::Code { language: language.filter(|l| !l.is_empty()) },
            text: code.to_string(),
        });
    }

    fn list(&mut self, list: &List, depth: usize) -> Result<(), ParseFailure> {
        let indent = "  ".repeat(depth);
        let mut number = list.start.unwrap_or(1);
        for item in &list.children {
            let Node::ListItem(item) = item else {
                self.flow_node(item)?;
                continue;
            };
            let mut marker = if list.ordered {
                let marker = format!("{number}. ");
                number += 1;
                marker
            } else {
                "- ".to_string()
            };
            if let Some(checked) = item.checked {
                marker.push_str(if checked { "[x] " } else { "[ ] " });
            }
            let mut first = true;
            for child in &item.children {
                match child {
                    Node::Paragraph(paragraph) => {
                        let text = collapse_whitespace(&inline_text(&paragraph.children));
                        if text.is_empty() {
                            continue;
                        }
                        let prefix = if first { marker.as_str() } else { "  " };
                        self.push(Block { kind: BlockKind::ListItem, text: format!("{indent}{prefix}{text}") });
                        first = false;
                    }
                    Node::List(nested) => self.list(nested, depth + 1)?,
                    other => self.flow_node(other)?,
                }
            }
        }
        Ok(())
    }

    fn table(&mut self, table: &Table) {
        let mut rows = table.children.iter().filter_map(|row| match row {
            Node::TableRow(row) => Some(
                row.children
                    .iter()
                    .map(|cell| collapse_whitespace(&inline_text(cell.children().map_or(&[][..], |c| c.as_slice()))))
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        });
        let Some(header) = rows.next() else {
            return;
        };
        let mut any_body_row = false;
        for row in rows {
            any_body_row = true;
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .filter(|(_, value)| !value.is_empty())
                .map(|(i, value)| match header.get(i).filter(|h| !h.is_empty()) {
                    Some(name) => format!("{name}: {value}"),
                    None => value.clone(),
                })
                .collect();
            if !cells.is_empty() {
                self.push(Block { kind: BlockKind::TableRow, text: cells.join("; ") });
            }
        }
        if !any_body_row {
            let text = header.into_iter().filter(|h| !h.is_empty()).collect::<Vec<_>>().join("; ");
            if !text.is_empty() {
                self.push(Block { kind: BlockKind::TableRow, text });
            }
        }
    }

    fn push(&mut self, mut block: Block) {
        self.seen_content = true;
        if let Some(label) = self.pending_label.take() {
            match block.kind {
                BlockKind::Paragraph => block.text = format!("{label}: {}", block.text),
                _ => self.push_to_section(Block::paragraph(format!("{label}:"))),
            }
        }
        self.push_to_section(block);
    }

    fn push_to_section(&mut self, block: Block) {
        if let Some(section) = self.sections.last_mut() {
            section.blocks.push(block);
        }
    }

    /// An admonition that ended without text keeps its label as text.
    fn flush_pending_label(&mut self) {
        if let Some(label) = self.pending_label.take() {
            self.push_to_section(Block::paragraph(label));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(source: &str) -> ExtractedDoc {
        let tree = parse_doc(source, MarkdownFormat::Mdx).unwrap();
        extract(&tree, MarkdownFormat::Mdx, None).unwrap()
    }

    fn texts(section: &Section) -> Vec<String> {
        section.blocks.iter().map(Block::rendered).collect()
    }

    fn anchors(doc: &ExtractedDoc) -> Vec<String> {
        doc.sections.iter().filter_map(|s| s.anchor.clone()).collect()
    }

    #[test]
    fn page_title_and_sections() {
        let d = doc("---\ntitle: T\n---\n\n# The Title\n\nIntro text.\n\n## First\n\nOne.\n\n### Deeper\n\nTwo.\n");
        assert_eq!(d.content_title.as_deref(), Some("The Title"));
        assert_eq!(texts(&d.sections[0]), vec!["Intro text."]);
        assert_eq!(d.sections[1].title.as_deref(), Some("First"));
        assert_eq!(d.sections[1].level, 2);
        assert_eq!(d.sections[2].level, 3);
        assert_eq!(d.sections[2].line, 13);
        assert_eq!(anchors(&d), vec!["first", "deeper"]);
    }

    #[test]
    fn duplicate_headings_are_numbered_and_h1_counts() {
        let d = doc("# Setup\n\n## Setup\n\nA.\n\n## Setup\n\nB.\n\n## Next Steps\n\nC.\n\n## Next Steps\n\nD.\n");
        assert_eq!(anchors(&d), vec!["setup-1", "setup-2", "next-steps", "next-steps-1"]);
    }

    #[test]
    fn explicit_heading_ids_are_used_and_removed_from_text() {
        let d = doc("## Custom **bold** heading {#my-id}\n\nText.\n\n## Custom bold heading\n\nMore.\n");
        assert_eq!(d.sections[1].title.as_deref(), Some("Custom bold heading"));
        assert_eq!(anchors(&d), vec!["my-id", "custom-bold-heading"]);
        let md = parse_doc("## Plain {#plain-id}\n\nText.\n", MarkdownFormat::CommonMark).unwrap();
        let md = extract(&md, MarkdownFormat::CommonMark, None).unwrap();
        assert_eq!(md.sections[1].anchor.as_deref(), Some("plain-id"));
        assert_eq!(md.sections[1].title.as_deref(), Some("Plain"));
    }

    #[test]
    fn heading_slugs_use_the_plain_text_of_markup() {
        let d =
            doc("## The `useState()` [hook](https://react.dev) 🚀 in *React*!\n\nText.\n\n## Привет, мир\n\nText.\n");
        assert_eq!(d.sections[1].title.as_deref(), Some("The useState() hook 🚀 in React!"));
        assert_eq!(anchors(&d), vec!["the-usestate-hook--in-react", "привет-мир"]);
    }

    #[test]
    fn imports_exports_and_comments_are_dropped() {
        let d = doc(
            "import Tabs from '@theme/Tabs';\nexport const x = 1;\n\n# Title\n\n<!-- hidden note -->\n\nVisible {/* also hidden */} text.\n\nexport function Helper() {\n  const a = 1;\n\n  return a;\n}\n",
        );
        assert_eq!(d.content_title.as_deref(), Some("Title"));
        assert_eq!(texts(&d.sections[0]), vec!["Visible text."]);
    }

    #[test]
    fn admonitions_keep_their_title_and_text() {
        let d = doc(":::tip Pro tip\nUse the cache.\n:::\n\n:::note[Heads up]\n\nThis is **important**.\n\n:::\n\n:::warning\n\n- first\n- second\n\n:::\n");
        assert_eq!(
            texts(&d.sections[0]),
            vec!["Pro tip: Use the cache.", "Heads up: This is important.", "Warning:", "- first", "- second"]
        );
    }

    #[test]
    fn tabs_content_and_labels_are_kept() {
        let d = doc(
            "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n<Tabs groupId=\"pm\">\n  <TabItem value=\"npm\" label=\"npm\">\n\n```bash\nnpm install lectern\n```\n\n  </TabItem>\n  <TabItem value=\"yarn\" label=\"Yarn\">\n\nRun it with **Yarn**.\n\n  </TabItem>\n</Tabs>\n",
        );
        assert_eq!(
            texts(&d.sections[0]),
            vec!["npm", "```bash\nnpm install lectern\n```", "Yarn", "Run it with Yarn."]
        );
    }

    #[test]
    fn jsx_string_props_are_kept_and_code_props_are_not() {
        let d = doc(
            "<VideoEmbed\n  url=\"https://www.youtube.com/watch?v=x\"\n  title=\"Robot Walking Demo\"\n  privacyEnhanced={true}\n  transcript={`\nThe robot walks.\n\n# Not a heading\n`}\n/>\n",
        );
        assert_eq!(texts(&d.sections[0]), vec!["Robot Walking Demo", "The robot walks.", "# Not a heading"]);
        assert_eq!(d.sections.len(), 1);
    }

    #[test]
    fn code_components_become_code_blocks() {
        let d = doc(
            "<CodeSnippet language=\"bash\" title=\"install.sh\">\n{`# Install\nsudo apt update`}\n</CodeSnippet>\n",
        );
        assert_eq!(texts(&d.sections[0]), vec!["```bash\n# Install\nsudo apt update\n```"]);
        assert_eq!(d.sections.len(), 1);
    }

    #[test]
    fn hashes_inside_code_are_not_headings() {
        let d = doc("## Real\n\n```python\n# a comment\nx = 1\n```\n\n```\n## not a heading\n```\n");
        assert_eq!(d.sections.len(), 2);
        assert_eq!(texts(&d.sections[1]), vec!["```python\n# a comment\nx = 1\n```", "```\n## not a heading\n```"]);
    }

    #[test]
    fn tilde_line_inside_backtick_fence_does_not_close_it() {
        let d = doc("```md\n~~~\n# inside\n~~~\n```\n\nAfter.\n");
        assert_eq!(texts(&d.sections[0]), vec!["```md\n~~~\n# inside\n~~~\n```", "After."]);
        assert_eq!(d.sections.len(), 1);
    }

    #[test]
    fn tables_become_readable_rows() {
        let d = doc("| Name | Value |\n|------|-------|\n| `a` | **1** |\n| b | |\n");
        assert_eq!(texts(&d.sections[0]), vec!["Name: a; Value: 1", "Name: b"]);
    }

    #[test]
    fn inline_markup_is_stripped_but_link_and_code_text_kept() {
        let d = doc("Use [the CLI](./cli.md) and run `lectern build` ~~now~~ **today**.\n");
        assert_eq!(texts(&d.sections[0]), vec!["Use the CLI and run lectern build now today."]);
    }

    #[test]
    fn lists_keep_their_markers() {
        let d = doc("1. one\n2. two\n   - nested\n- [x] done\n");
        assert_eq!(texts(&d.sections[0]), vec!["1. one", "2. two", "  - nested", "- [x] done"]);
    }

    #[test]
    fn mdx_code_block_content_is_compiled_as_mdx() {
        let d = doc("````mdx-code-block\n## Inside\n\nText inside.\n````\n");
        assert_eq!(anchors(&d), vec!["inside"]);
        assert_eq!(texts(&d.sections[1]), vec!["Text inside."]);
    }

    #[test]
    fn html_in_commonmark_docs_keeps_its_text() {
        let tree = parse_doc(
            "<details>\n<summary>More</summary>\n\nHidden <b>bold</b> text.\n\n</details>\n",
            MarkdownFormat::CommonMark,
        )
        .unwrap();
        let d = extract(&tree, MarkdownFormat::CommonMark, None).unwrap();
        assert_eq!(texts(&d.sections[0]), vec!["More", "Hidden bold text."]);
    }

    #[test]
    fn imported_partials_are_inlined_where_used() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("_note.md"), ":::info\n\nShared note text.\n\n:::\n\n## Partial heading\n")
            .unwrap();
        let source = "import Note from './_note.md';\nimport Missing from './_missing.md';\n\n## Usage\n\n<Note />\n\n<Missing />\n\n## Usage\n\nAfter.\n";
        let tree = parse_doc(source, MarkdownFormat::Mdx).unwrap();
        let d = extract(&tree, MarkdownFormat::Mdx, Some(dir.path())).unwrap();
        assert_eq!(texts(&d.sections[1]), vec!["Info: Shared note text.", "Partial heading"]);
        // The partial's heading does not take a slug from the page.
        assert_eq!(anchors(&d), vec!["usage", "usage-1"]);
        assert_eq!(d.warnings.len(), 1);
    }
}
