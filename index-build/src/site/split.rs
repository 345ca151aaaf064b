//! Cutting the text of a group of sections into chunk texts within the size limits: one
//! text when it fits; else parts cut between paragraphs, inside a paragraph between
//! sentences, code between lines (kept whole whenever it fits), each part after the first
//! repeating the last sentence or two of the part before. Where chosen blocks (the headings
//! of short sections merged into the chunk) start in each text is reported, so the chunk
//! keeps their anchors.

use crate::site::extract::{Block, BlockKind};
use crate::site::sentences::split_sentences;

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
    /// The block it comes from, and whether it is that block's first piece.
    block: usize,
    starts_block: bool,
}

/// One chunk text of a group, and where the marked blocks that start in it begin.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitText {
    pub text: String,
    /// `(byte offset in text, block index)` of each marked block starting in this text, in order.
    pub marks: Vec<(usize, usize)>,
}

fn unit_len(unit: &Unit) -> usize {
    unit.text.chars().count()
}

pub fn join_blocks(blocks: &[Block]) -> String {
    join_blocks_marked(blocks, &[]).text
}

/// The blocks joined, with the byte offsets where the `marked` ones start.
fn join_blocks_marked(blocks: &[Block], marked: &[usize]) -> SplitText {
    let mut text = String::new();
    let mut marks = Vec::new();
    let mut previous: Option<&BlockKind> = None;
    for (i, block) in blocks.iter().enumerate() {
        if let Some(previous) = previous {
            text.push_str(block_joint(previous, &block.kind).separator());
        }
        if marked.contains(&i) {
            marks.push((text.len(), i));
        }
        text.push_str(&block.rendered());
        previous = Some(&block.kind);
    }
    SplitText { text, marks }
}

fn block_joint(previous: &BlockKind, next: &BlockKind) -> Joint {
    match (previous, next) {
        (BlockKind::ListItem, BlockKind::ListItem) | (BlockKind::TableRow, BlockKind::TableRow) => Joint::Line,
        _ => Joint::Paragraph,
    }
}

/// Splits a group's blocks into chunk texts within the size limits, reporting where each of
/// the `marked` blocks starts: in the text that holds its first piece (an overlap repeated
/// at the start of the next text is not a start).
pub fn split_group(blocks: &[Block], marked: &[usize], sizing: &ChunkSizing) -> Vec<SplitText> {
    let whole = join_blocks_marked(blocks, marked);
    if whole.text.chars().count() <= sizing.max_chars {
        return if whole.text.trim().is_empty() { Vec::new() } else { vec![whole] };
    }
    // Room left in every part for the overlap that may precede it.
    let limit = sizing.max_chars.saturating_sub(sizing.overlap_chars + 2).max(sizing.min_chars);
    let units = units_of(blocks, limit);
    let mut parts = pack(&units, limit, sizing.min_chars, sizing.max_chars);
    fix_short_tail(&mut parts, sizing.min_chars, sizing.max_chars);

    let mut texts = Vec::with_capacity(parts.len());
    let mut previous: Option<&Vec<Unit>> = None;
    for part in &parts {
        let (body, starts) = render_marked(part, marked);
        let (text, shift) = match previous.and_then(|p| overlap_of(p, sizing.overlap_chars)) {
            Some(overlap) if overlap.chars().count() + 2 + body.chars().count() <= sizing.max_chars => {
                (format!("{overlap}\n\n{body}"), overlap.len() + 2)
            }
            _ => (body, 0),
        };
        texts.push(SplitText { text, marks: starts.into_iter().map(|(at, block)| (at + shift, block)).collect() });
        previous = Some(part);
    }
    texts
}

/// Blocks as units no longer than `limit`: whole blocks when they fit,
/// else sentences (prose) or runs of lines (code).
fn units_of(blocks: &[Block], limit: usize) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut previous: Option<&BlockKind> = None;
    for (index, block) in blocks.iter().enumerate() {
        let joint = previous.map_or(Joint::Paragraph, |p| block_joint(p, &block.kind));
        previous = Some(&block.kind);
        let rendered = block.rendered();
        let is_prose = !matches!(block.kind, BlockKind::Code { .. });
        if rendered.chars().count() <= limit {
            units.push(Unit { text: rendered, joint, is_prose, block: index, starts_block: true });
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
            units.push(Unit { text: piece, joint, is_prose, block: index, starts_block: i == 0 });
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
    render_marked(units, &[]).0
}

/// The units joined, and `(byte offset, block)` where each of the `marked` blocks starts.
fn render_marked(units: &[Unit], marked: &[usize]) -> (String, Vec<(usize, usize)>) {
    let mut text = String::new();
    let mut starts = Vec::new();
    for (i, unit) in units.iter().enumerate() {
        if i > 0 {
            text.push_str(unit.joint.separator());
        }
        if unit.starts_block && marked.contains(&unit.block) {
            starts.push((text.len(), unit.block));
        }
        text.push_str(&unit.text);
    }
    (text, starts)
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
