//! From a page's sections to chunks of 100–2000 characters (SPEC.md §2).
//!
//! One chunk per section. A section shorter than the minimum merges into its
//! parent or previous sibling (the chunk keeps that section's anchor, and the
//! merged heading stays in the text); a short page introduction takes in the
//! section after it. A group longer than the maximum is split between
//! paragraphs, inside a paragraph between sentences, each part after the
//! first repeating the last sentence or two of the part before. Code blocks
//! are kept whole whenever they fit in a chunk.

use crate::site::extract::{Block, BlockKind, ExtractedDoc, Section};
use crate::site::permalink::with_anchor;
use crate::site::report::{Chunk, SkipKind, Skipped};
use std::path::Path;

/// Chunk size limits, in characters of `text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkSizing {
    pub min_chars: usize,
    pub max_chars: usize,
    /// At most this much of a part is repeated at the start of the next.
    pub overlap_chars: usize,
}

impl Default for ChunkSizing {
    fn default() -> Self {
        Self { min_chars: 100, max_chars: 2000, overlap_chars: 300 }
    }
}

/// The page a set of chunks belongs to.
#[derive(Debug, Clone)]
pub struct PageContext<'a> {
    pub docs_instance: &'a str,
    pub version: Option<&'a str>,
    pub doc_id: &'a str,
    pub title: &'a str,
    pub module: &'a str,
    /// Page URL (base URL and trailing slash applied), without anchor.
    pub url: &'a str,
    pub source: &'a Path,
}

/// Chunks for one page (`position` is left at 0 for the caller to number),
/// and the sections left out.
pub fn chunk_page(doc: &ExtractedDoc, page: &PageContext<'_>, sizing: &ChunkSizing) -> (Vec<Chunk>, Vec<Skipped>) {
    let (groups, skipped) = group_sections(&doc.sections, page, sizing);
    let mut chunks = Vec::new();
    for group in &groups {
        let Some(root) = doc.sections.get(group.root) else {
            continue;
        };
        let heading_path = heading_path(&doc.sections, group.root, page.title);
        let section_title = root.title.clone().unwrap_or_else(|| page.title.to_string());
        let anchor = root.anchor.clone();
        for (part, text) in split_group(&group.blocks, sizing).into_iter().enumerate() {
            chunks.push(Chunk {
                chunk_id: chunk_id(page, anchor.as_deref(), part),
                url: with_anchor(page.url, anchor.as_deref()),
                anchor: anchor.clone(),
                heading_path: heading_path.clone(),
                chapter_title: page.title.to_string(),
                section_title: section_title.clone(),
                module: page.module.to_string(),
                chapter_id: page.doc_id.to_string(),
                version: page.version.map(str::to_string),
                word_count: text.split_whitespace().count(),
                chars: text.chars().count(),
                text,
                position: 0,
            });
        }
    }
    (chunks, skipped)
}

/// `instance:version:doc_id#anchor:part` — only things that name the place
/// of the text, so the id survives edits elsewhere in the page.
pub fn chunk_id(page: &PageContext<'_>, anchor: Option<&str>, part: usize) -> String {
    format!(
        "{}:{}:{}#{}:{}",
        page.docs_instance,
        page.version.unwrap_or("current"),
        page.doc_id,
        anchor.unwrap_or(""),
        part
    )
}

/// Sections that end up in one chunk (or in parts of one chunk).
#[derive(Debug)]
struct Group {
    /// Index of the section whose heading and anchor the chunk carries.
    root: usize,
    blocks: Vec<Block>,
}

fn text_len(blocks: &[Block]) -> usize {
    join_blocks(blocks).chars().count()
}

fn group_sections(sections: &[Section], page: &PageContext<'_>, sizing: &ChunkSizing) -> (Vec<Group>, Vec<Skipped>) {
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of: Vec<Option<usize>> = vec![None; sections.len()];
    let mut skipped = Vec::new();

    for (index, section) in sections.iter().enumerate() {
        if index == 0 {
            groups.push(Group { root: 0, blocks: section.blocks.clone() });
            set_group(&mut group_of, 0, 0);
            continue;
        }
        if section.blocks.is_empty() {
            let has_subsections = sections.get(index + 1).is_some_and(|next| next.level > section.level);
            if !has_subsections {
                skipped.push(Skipped {
                    file: page.source.to_path_buf(),
                    line: Some(section.line),
                    kind: SkipKind::EmptySection,
                    reason: format!(
                        "section \"{}\" has a heading but no text",
                        section.title.as_deref().unwrap_or_default()
                    ),
                });
            }
            continue;
        }
        if text_len(&section.blocks) < sizing.min_chars {
            // Parent or previous sibling: the nearest earlier section at the
            // same or a higher level that has text of its own.
            let target = (0..index)
                .rev()
                .filter(|&earlier| sections.get(earlier).is_some_and(|s| s.level <= section.level))
                .find_map(|earlier| group_of.get(earlier).copied().flatten())
                .unwrap_or(0);
            if let Some(group) = groups.get_mut(target) {
                if let Some(title) = &section.title {
                    group.blocks.push(Block { kind: BlockKind::Paragraph, text: title.clone() });
                }
                group.blocks.extend(section.blocks.iter().cloned());
                set_group(&mut group_of, index, target);
                continue;
            }
        }
        set_group(&mut group_of, index, groups.len());
        groups.push(Group { root: index, blocks: section.blocks.clone() });
    }

    // A short introduction takes in the next section, and the chunk links to
    // the top of the page, where its text starts.
    let intro_len = groups.first().map_or(0, |g| text_len(&g.blocks));
    if intro_len > 0 && intro_len < sizing.min_chars && groups.len() > 1 {
        let next = groups.remove(1);
        if let Some(intro) = groups.first_mut() {
            if let Some(title) = sections.get(next.root).and_then(|s| s.title.clone()) {
                intro.blocks.push(Block { kind: BlockKind::Paragraph, text: title });
            }
            intro.blocks.extend(next.blocks);
        }
    }
    groups.retain(|group| !group.blocks.is_empty());
    (groups, skipped)
}

fn set_group(group_of: &mut [Option<usize>], section: usize, group: usize) {
    if let Some(slot) = group_of.get_mut(section) {
        *slot = Some(group);
    }
}

/// Page title followed by the titles of the section's ancestors and its own.
fn heading_path(sections: &[Section], root: usize, page_title: &str) -> Vec<String> {
    let mut titles = Vec::new();
    let mut level = u8::MAX;
    for section in sections.iter().take(root + 1).skip(1).rev() {
        if section.level < level {
            if let Some(title) = &section.title {
                titles.push(title.clone());
            }
            level = section.level;
        }
    }
    titles.push(page_title.to_string());
    titles.reverse();
    titles
}

/// How a unit attaches to the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Joint {
    /// Next sentence of the same paragraph.
    Space,
    /// Next list item or table row.
    Line,
    /// Next block.
    Paragraph,
}

impl Joint {
    fn separator(self) -> &'static str {
        match self {
            Joint::Space => " ",
            Joint::Line => "\n",
            Joint::Paragraph => "\n\n",
        }
    }
}

/// The smallest piece of text a chunk boundary may fall around.
#[derive(Debug, Clone)]
struct Unit {
    text: String,
    joint: Joint,
    is_prose: bool,
}

fn unit_len(unit: &Unit) -> usize {
    unit.text.chars().count()
}

fn join_blocks(blocks: &[Block]) -> String {
    let mut text = String::new();
    let mut previous: Option<&BlockKind> = None;
    for block in blocks {
        if let Some(previous) = previous {
            text.push_str(block_joint(previous, &block.kind).separator());
        }
        text.push_str(&block.rendered());
        previous = Some(&block.kind);
    }
    text
}

fn block_joint(previous: &BlockKind, next: &BlockKind) -> Joint {
    match (previous, next) {
        (BlockKind::ListItem, BlockKind::ListItem) | (BlockKind::TableRow, BlockKind::TableRow) => Joint::Line,
        _ => Joint::Paragraph,
    }
}

/// Splits a group's blocks into chunk texts within the size limits.
fn split_group(blocks: &[Block], sizing: &ChunkSizing) -> Vec<String> {
    let whole = join_blocks(blocks);
    if whole.chars().count() <= sizing.max_chars {
        return if whole.trim().is_empty() { Vec::new() } else { vec![whole] };
    }
    // Room left in every part for the overlap that may precede it.
    let limit = sizing.max_chars.saturating_sub(sizing.overlap_chars + 2).max(sizing.min_chars);
    let units = units_of(blocks, limit);
    let mut parts = pack(&units, limit, sizing.min_chars, sizing.max_chars);
    fix_short_tail(&mut parts, sizing.min_chars, sizing.max_chars);

    let mut texts = Vec::with_capacity(parts.len());
    let mut previous: Option<&Vec<Unit>> = None;
    for part in &parts {
        let body = render(part);
        let text = match previous.and_then(|p| overlap_of(p, sizing.overlap_chars)) {
            Some(overlap) if overlap.chars().count() + 2 + body.chars().count() <= sizing.max_chars => {
                format!("{overlap}\n\n{body}")
            }
            _ => body,
        };
        texts.push(text);
        previous = Some(part);
    }
    texts
}

/// Blocks as units no longer than `limit`: whole blocks when they fit,
/// else sentences (prose) or runs of lines (code).
fn units_of(blocks: &[Block], limit: usize) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut previous: Option<&BlockKind> = None;
    for block in blocks {
        let joint = previous.map_or(Joint::Paragraph, |p| block_joint(p, &block.kind));
        previous = Some(&block.kind);
        let rendered = block.rendered();
        let is_prose = !matches!(block.kind, BlockKind::Code { .. });
        if rendered.chars().count() <= limit {
            units.push(Unit { text: rendered, joint, is_prose });
            continue;
        }
        let pieces = match &block.kind {
            BlockKind::Code { language } => split_code(&block.text, language.as_deref(), limit),
            _ => split_prose(&block.text, limit),
        };
        for (i, piece) in pieces.into_iter().enumerate() {
            let joint = match (i, is_prose) {
                (0, _) => joint,
                (_, true) => Joint::Space,
                (_, false) => Joint::Paragraph,
            };
            units.push(Unit { text: piece, joint, is_prose });
        }
    }
    units
}

/// Greedy packing of units into parts of at most `limit` characters. A part
/// still under `min` takes the next unit anyway while it stays within `max`
/// (no chunk is left short just to keep room for an overlap).
fn pack(units: &[Unit], limit: usize, min: usize, max: usize) -> Vec<Vec<Unit>> {
    let mut parts: Vec<Vec<Unit>> = Vec::new();
    let mut current: Vec<Unit> = Vec::new();
    let mut current_len = 0;
    for unit in units {
        let added = unit_len(unit) + if current.is_empty() { 0 } else { unit.joint.separator().len() };
        let too_long = current_len + added > limit;
        let too_short_to_end = current_len < min && current_len + added <= max;
        if !current.is_empty() && too_long && !too_short_to_end {
            parts.push(std::mem::take(&mut current));
            current_len = 0;
        }
        current_len += unit_len(unit) + if current.is_empty() { 0 } else { unit.joint.separator().len() };
        current.push(unit.clone());
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}

/// A last part under `min` joins the part before it when both fit in
/// `max`; otherwise whole units move over from the part before.
fn fix_short_tail(parts: &mut Vec<Vec<Unit>>, min: usize, max: usize) {
    let count = parts.len();
    if count < 2 || parts.last().is_none_or(|last| render(last).chars().count() >= min) {
        return;
    }
    let joined_len = parts.iter().skip(count - 2).map(|p| render(p).chars().count()).sum::<usize>() + 2;
    if joined_len <= max {
        if let Some(mut last) = parts.pop() {
            // The first unit's joint already joins it to the previous part's end.
            if let Some(previous) = parts.last_mut() {
                previous.append(&mut last);
            }
        }
        return;
    }
    let (head, tail) = parts.split_at_mut(count - 1);
    let (Some(previous), Some(last)) = (head.last_mut(), tail.first_mut()) else {
        return;
    };
    while render(last).chars().count() < min && previous.len() > 1 {
        let Some(moved) = previous.last() else { break };
        let new_last_len = unit_len(moved) + 2 + render(last).chars().count();
        let remaining: Vec<Unit> = previous.iter().take(previous.len() - 1).cloned().collect();
        if new_last_len > max || render(&remaining).chars().count() < min {
            break;
        }
        if let Some(moved) = previous.pop() {
            last.insert(0, moved);
        }
    }
}

fn render(units: &[Unit]) -> String {
    let mut text = String::new();
    for (i, unit) in units.iter().enumerate() {
        if i > 0 {
            text.push_str(unit.joint.separator());
        }
        text.push_str(&unit.text);
    }
    text
}

/// The last sentence or two of a part, when it ends in prose.
fn overlap_of(part: &[Unit], max_chars: usize) -> Option<String> {
    let last = part.last().filter(|unit| unit.is_prose)?;
    let sentences = split_sentences(&last.text);
    let mut taken: Vec<&str> = Vec::new();
    let mut len = 0;
    for sentence in sentences.iter().rev().take(2) {
        let sentence_len = sentence.chars().count();
        if len + sentence_len + 1 > max_chars {
            break;
        }
        taken.push(sentence);
        len += sentence_len + 1;
    }
    if taken.is_empty() {
        // One very long sentence: repeat its end, from a word boundary.
        let text = sentences.last()?;
        let chars: Vec<char> = text.chars().collect();
        let start = chars.len().saturating_sub(max_chars.saturating_sub(1));
        let tail: String = chars.get(start..)?.iter().collect();
        let tail = tail.split_once(' ').map_or(tail.as_str(), |(_, rest)| rest).trim().to_string();
        return (!tail.is_empty()).then(|| format!("…{tail}"));
    }
    taken.reverse();
    Some(taken.join(" "))
}

/// Sentences of a paragraph, packed into pieces of at most `limit` chars;
/// a sentence longer than that is cut between words.
fn split_prose(text: &str, limit: usize) -> Vec<String> {
    let mut pieces: Vec<String> = Vec::new();
    for sentence in split_sentences(text) {
        if sentence.chars().count() <= limit {
            pieces.push(sentence.to_string());
            continue;
        }
        let mut current = String::new();
        for word in sentence.split(' ') {
            if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > limit {
                pieces.push(std::mem::take(&mut current));
            }
            if !current.is_empty() {
                current.push(' ');
            }
            // A single "word" longer than the limit (a URL, say) is cut.
            if word.chars().count() > limit {
                let chars: Vec<char> = word.chars().collect();
                for piece in chars.chunks(limit) {
                    if !current.is_empty() {
                        pieces.push(std::mem::take(&mut current));
                    }
                    current = piece.iter().collect();
                }
            } else {
                current.push_str(word);
            }
        }
        if !current.is_empty() {
            pieces.push(current);
        }
    }
    pieces
}

/// A code block too long for one chunk, as fenced pieces split between lines.
fn split_code(code: &str, language: Option<&str>, limit: usize) -> Vec<String> {
    let fence_len = 8 + language.map_or(0, |l| l.chars().count());
    let room = limit.saturating_sub(fence_len).max(1);
    let mut bodies: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in code.lines() {
        let line_len = line.chars().count();
        if !current.is_empty() && current.chars().count() + 1 + line_len > room {
            bodies.push(std::mem::take(&mut current));
        }
        if line_len > room {
            let chars: Vec<char> = line.chars().collect();
            for piece in chars.chunks(room) {
                if !current.is_empty() {
                    bodies.push(std::mem::take(&mut current));
                }
                current = piece.iter().collect();
            }
            continue;
        }
        if !current.is_empty() {
            current.push('\n');
        }
        current.push_str(line);
    }
    if !current.is_empty() {
        bodies.push(current);
    }
    bodies
        .into_iter()
        .map(|body| Block { kind: BlockKind::Code { language: language.map(str::to_string) }, text: body }.rendered())
        .collect()
}

/// Abbreviations after which a period does not end a sentence.
const ABBREVIATIONS: &[&str] =
    &["e.g", "i.e", "etc", "vs", "cf", "dr", "mr", "mrs", "ms", "prof", "fig", "no", "approx", "eq", "al", "st"];

/// Splits prose into sentences: after `.`, `!` or `?` (and closing quotes or
/// brackets) followed by a space and an upper-case letter, digit or opening
/// quote; after CJK full stops always.
pub fn split_sentences(text: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let char_at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while let Some(&(index, c)) = chars.get(i) {
        let is_cjk_stop = matches!(c, '。' | '！' | '？');
        if !matches!(c, '.' | '!' | '?') && !is_cjk_stop {
            i += 1;
            continue;
        }
        let mut end = i + 1;
        while char_at(end).is_some_and(|n| matches!(n, '"' | '\'' | '”' | '’' | ')' | ']')) {
            end += 1;
        }
        let end_byte = chars.get(end).map_or(text.len(), |&(b, _)| b);
        let next_starts_sentence = is_cjk_stop || {
            let mut next = end;
            while char_at(next).is_some_and(char::is_whitespace) {
                next += 1;
            }
            next > end
                && char_at(next).is_some_and(|n| {
                    n.is_uppercase() || n.is_ascii_digit() || matches!(n, '"' | '\'' | '“' | '‘' | '(' | '[' | '`')
                })
                && !(c == '.' && ends_with_abbreviation(text.get(start..index).unwrap_or("")))
        };
        if next_starts_sentence {
            if let Some(sentence) = text.get(start..end_byte).map(str::trim) {
                if !sentence.is_empty() {
                    sentences.push(sentence);
                }
            }
            start = end_byte;
        }
        i = end;
    }
    if let Some(rest) = text.get(start..).map(str::trim) {
        if !rest.is_empty() {
            sentences.push(rest);
        }
    }
    sentences
}

fn ends_with_abbreviation(before_period: &str) -> bool {
    let word = before_period.rsplit(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("").to_lowercase();
    let single_letter = word.chars().count() == 1 && word.chars().all(char::is_alphabetic);
    single_letter || ABBREVIATIONS.contains(&word.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::extract::extract;
    use crate::site::parse::{parse_doc, MarkdownFormat};

    fn page<'a>(source: &'a Path) -> PageContext<'a> {
        PageContext {
            docs_instance: "default",
            version: None,
            doc_id: "guide/setup",
            title: "Setup Guide",
            module: "Guide",
            url: "/docs/guide/setup",
            source,
        }
    }

    fn chunks_of(markdown: &str) -> (Vec<Chunk>, Vec<Skipped>) {
        let tree = parse_doc(markdown, MarkdownFormat::Mdx).unwrap();
        let doc = extract(&tree, MarkdownFormat::Mdx, None).unwrap();
        chunk_page(&doc, &page(Path::new("docs/guide/setup.md")), &ChunkSizing::default())
    }

    /// Just over the minimum chunk size on its own.
    const LONG: &str =
        "A long enough explanation of the configuration file, of every option it accepts, and of their defaults.";

    fn sentence(n: usize) -> String {
        format!("This is sentence number {n} of a long section about installing the tool. ")
    }

    fn long_paragraph(sentences: std::ops::Range<usize>) -> String {
        sentences.map(sentence).collect::<String>().trim().to_string()
    }

    #[test]
    fn one_chunk_per_section_with_heading_path_and_urls() {
        let intro = "Welcome to the setup guide. It explains how to install, configure and upgrade everything that you will need.";
        let body = "Install the package with your package manager, then check the version it prints.";
        let deeper = "On Linux you also need the build tools, which your distribution packages separately.";
        let (chunks, skipped) = chunks_of(&format!(
            "# Setup\n\n{intro}\n\n## Installation\n\n{body} {body}\n\n### On Linux\n\n{deeper} {deeper}\n"
        ));
        assert!(skipped.is_empty());
        assert_eq!(chunks.len(), 3);
        assert_eq!(chunks[0].anchor, None);
        assert_eq!(chunks[0].url, "/docs/guide/setup");
        assert_eq!(chunks[0].heading_path, vec!["Setup Guide"]);
        assert_eq!(chunks[0].text, intro);
        assert_eq!(chunks[1].url, "/docs/guide/setup#installation");
        assert_eq!(chunks[2].heading_path, vec!["Setup Guide", "Installation", "On Linux"]);
        assert_eq!(chunks[2].section_title, "On Linux");
        assert_eq!(chunks[2].chunk_id, "default:current:guide/setup#on-linux:0");
        assert_eq!(chunks[1].chars, chunks[1].text.chars().count());
        assert_eq!(chunks[1].word_count, chunks[1].text.split_whitespace().count());
    }

    #[test]
    fn short_sections_merge_into_parent_or_previous_sibling() {
        let long = LONG;
        let (chunks, _) = chunks_of(&format!(
            "## Configuration\n\n{long} {long}\n\n### Defaults\n\nAll optional.\n\n## Usage\n\n{long} {long}\n\n## Next Steps\n\nRead the API page.\n"
        ));
        let anchors: Vec<_> = chunks.iter().map(|c| c.anchor.clone().unwrap_or_default()).collect();
        assert_eq!(anchors, vec!["configuration", "usage"]);
        assert!(chunks[0].text.ends_with("Defaults\n\nAll optional."));
        assert!(chunks[1].text.ends_with("Next Steps\n\nRead the API page."));
    }

    #[test]
    fn short_introduction_takes_in_the_next_section() {
        let long = LONG;
        let (chunks, _) = chunks_of(&format!("# T\n\nShort intro.\n\n## Details\n\n{long}\n\n## More\n\n{long}\n"));
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[0].anchor, None);
        assert!(chunks[0].text.starts_with("Short intro.\n\nDetails\n\n"));
        assert_eq!(chunks[1].anchor.as_deref(), Some("more"));
    }

    #[test]
    fn stub_sections_are_reported_and_heading_only_parents_are_not() {
        let long = LONG;
        let (chunks, skipped) = chunks_of(&format!("## Parent\n\n### Child\n\n{long}\n\n## Stub\n"));
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].heading_path, vec!["Setup Guide", "Parent", "Child"]);
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].kind, SkipKind::EmptySection);
        assert_eq!(skipped[0].line, Some(7));
    }

    #[test]
    fn long_sections_split_with_overlap_and_sizes_in_bounds() {
        let markdown = format!("## Long\n\n{}\n\n{}\n", long_paragraph(0..20), long_paragraph(20..45));
        let (chunks, _) = chunks_of(&markdown);
        assert!(chunks.len() >= 2, "{}", chunks.len());
        for chunk in &chunks {
            assert!(chunk.chars >= 100 && chunk.chars <= 2000, "{}", chunk.chars);
            assert_eq!(chunk.anchor.as_deref(), Some("long"));
        }
        let ids: Vec<_> = chunks.iter().map(|c| c.chunk_id.clone()).collect();
        assert_eq!(ids[0], "default:current:guide/setup#long:0");
        assert_eq!(ids[1], "default:current:guide/setup#long:1");
        // The second part starts with the last sentence of the first.
        let first_last_sentence = *split_sentences(&chunks[0].text).last().unwrap();
        assert!(chunks[1].text.starts_with(first_last_sentence), "{}", chunks[1].text);
    }

    #[test]
    fn code_blocks_stay_whole_when_they_fit() {
        let code: String = (0..40).map(|i| format!("let value_{i} = compute({i});\n")).collect();
        let markdown =
            format!("## Example\n\n{}\n\n```rust\n{code}```\n\n{}\n", long_paragraph(0..15), long_paragraph(15..20));
        let (chunks, _) = chunks_of(&markdown);
        let holding_code: Vec<_> = chunks.iter().filter(|c| c.text.contains("let value_0 ")).collect();
        assert_eq!(holding_code.len(), 1);
        assert!(holding_code[0].text.contains("```rust\nlet value_0"));
        assert!(holding_code[0].text.contains("let value_39 = compute(39);\n```"));
        for chunk in &chunks {
            assert!(chunk.chars <= 2000);
            assert_eq!(chunk.text.matches("```").count() % 2, 0, "unbalanced fence in {}", chunk.text);
        }
    }

    #[test]
    fn code_longer_than_a_chunk_is_split_between_lines_with_fences() {
        let code: String = (0..200).map(|i| format!("print('line {i}')\n")).collect();
        let (chunks, _) = chunks_of(&format!("## Big\n\nThe whole script follows.\n\n```python\n{code}```\n"));
        assert!(chunks.len() >= 2);
        for chunk in &chunks {
            assert!(chunk.chars <= 2000);
            assert_eq!(chunk.text.matches("```").count() % 2, 0);
        }
    }

    #[test]
    fn ids_are_stable_when_other_sections_change() {
        let long = LONG;
        let before = chunks_of(&format!("## A\n\n{long}\n\n## B\n\n{long}\n")).0;
        let after = chunks_of(&format!(
            "## A\n\n{long} And one more sentence added later.\n\n## New\n\n{long}\n\n## B\n\n{long}\n"
        ))
        .0;
        let id_b =
            |chunks: &[Chunk]| chunks.iter().find(|c| c.anchor.as_deref() == Some("b")).map(|c| c.chunk_id.clone());
        assert_eq!(id_b(&before), id_b(&after));
        assert_eq!(before[0].chunk_id, after[0].chunk_id);
    }

    #[test]
    fn versioned_chunk_ids_name_the_version() {
        let source = PathBuf::from("x.md");
        let mut context = page(&source);
        context.version = Some("2.0");
        context.docs_instance = "api";
        assert_eq!(chunk_id(&context, Some("intro"), 1), "api:2.0:guide/setup#intro:1");
    }

    #[test]
    fn sentences_split_at_sentence_ends_only() {
        assert_eq!(
            split_sentences("First one. Second, e.g. this one! Third? (Fourth.) 5 is a number. j. doe wrote it."),
            vec!["First one.", "Second, e.g. this one!", "Third?", "(Fourth.)", "5 is a number. j. doe wrote it."]
        );
        assert_eq!(split_sentences("版本一。版本二。"), vec!["版本一。", "版本二。"]);
        assert_eq!(split_sentences("Version 2.0 is out. Try it."), vec!["Version 2.0 is out.", "Try it."]);
    }

    use std::path::PathBuf;
}
