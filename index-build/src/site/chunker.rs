//! From a page's sections to chunks of 100–2000 characters (docs/DESIGN.md §2.1).
//!
//! One chunk per section. A section shorter than the minimum merges into its
//! parent or previous sibling (the chunk keeps that section's anchor, and the
//! merged heading stays in the text); a short page introduction takes in the
//! section after it. A merged section keeps its own link: the chunk lists it as a
//! part (`SectionPart`: its URL, heading path and byte range in the text), so a
//! result that matched it links to it. A group longer than the maximum is cut into
//! parts (`split`). What is embedded for a chunk is not decided here (`embed::windows`).

use crate::site::extract::{Block, BlockKind, ExtractedDoc, Section};
use crate::site::permalink::with_anchor;
use crate::site::report::{Chunk, SkipKind, Skipped};
use crate::site::split::{join_blocks, split_group, ChunkSizing};
use lectern::bundle::SectionPart;
use lectern::lexical::prose_heading_name;
use std::path::Path;

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
        let marked: Vec<usize> = group.parts.iter().map(|p| p.block).collect();
        // The merged section whose text runs on into the next chunk text, if any.
        let mut running: Option<usize> = None;
        for (part, split) in split_group(&group.blocks, &marked, sizing).into_iter().enumerate() {
            let text = split.text;
            let mut parts: Vec<SectionPart> = Vec::new();
            let open = |parts: &mut Vec<SectionPart>, merged: usize, start: usize| {
                if let Some(last) = parts.last_mut() {
                    last.end = start;
                }
                let Some((index, section)) =
                    group.parts.get(merged).and_then(|p| Some((p.section, doc.sections.get(p.section)?)))
                else {
                    return;
                };
                parts.push(SectionPart {
                    url: with_anchor(page.url, section.anchor.as_deref()),
                    heading_path: self::heading_path(&doc.sections, index, page.title),
                    start,
                    end: text.len(),
                    name: section.name.clone(),
                });
            };
            if let Some(merged) = running {
                open(&mut parts, merged, 0);
            }
            for (at, block) in split.marks {
                if let Some(merged) = group.parts.iter().position(|p| p.block == block) {
                    open(&mut parts, merged, at);
                    running = Some(merged);
                }
            }
            for part in &mut parts {
                let kept = text.get(part.start..part.end).map_or(0, |t| t.trim_end().len());
                part.end = part.start + kept;
            }
            parts.retain(|p| p.end > p.start);
            chunks.push(Chunk {
                chunk_id: chunk_id(page, anchor.as_deref(), part),
                url: with_anchor(page.url, anchor.as_deref()),
                anchor: anchor.clone(),
                heading_path: heading_path.clone(),
                chapter_title: page.title.to_string(),
                section_title: section_title.clone(),
                module: page.module.to_string(),
                chapter_id: page.doc_id.to_string(),
                docs_instance: page.docs_instance.to_string(),
                version: page.version.map(str::to_string),
                word_count: text.split_whitespace().count(),
                chars: text.chars().count(),
                text,
                parts,
                // A page's introduction is named by the page's title.
                name: root
                    .name
                    .clone()
                    .or_else(|| root.title.is_none().then(|| prose_heading_name(page.title)).flatten()),
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
    /// The sections merged into it, in order, each from its heading's block on.
    parts: Vec<MergedSection>,
}

#[derive(Debug, Clone, Copy)]
struct MergedSection {
    /// Index in `Group::blocks` of the block holding its heading.
    block: usize,
    /// Index of the section.
    section: usize,
}

impl Group {
    fn new(root: usize, blocks: Vec<Block>) -> Self {
        Group { root, blocks, parts: Vec::new() }
    }

    /// Appends section `section` (heading and blocks) as a merged part.
    fn merge(&mut self, section: usize, title: Option<&String>, blocks: impl IntoIterator<Item = Block>) {
        if let Some(title) = title {
            self.parts.push(MergedSection { block: self.blocks.len(), section });
            self.blocks.push(Block { kind: BlockKind::Paragraph, text: title.clone() });
        }
        self.blocks.extend(blocks);
    }
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
            groups.push(Group::new(0, section.blocks.clone()));
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
                group.merge(index, section.title.as_ref(), section.blocks.iter().cloned());
                set_group(&mut group_of, index, target);
                continue;
            }
        }
        set_group(&mut group_of, index, groups.len());
        groups.push(Group::new(index, section.blocks.clone()));
    }

    // A short introduction takes in the next section, and the chunk links to
    // the top of the page, where its text starts.
    let intro_len = groups.first().map_or(0, |g| text_len(&g.blocks));
    if intro_len > 0 && intro_len < sizing.min_chars && groups.len() > 1 {
        let next = groups.remove(1);
        if let Some(intro) = groups.first_mut() {
            let title = sections.get(next.root).and_then(|s| s.title.as_ref());
            intro.merge(next.root, title, []);
            // The next section's own merged sections stay parts, after it.
            let offset = intro.blocks.len();
            intro.parts.extend(next.parts.iter().map(|p| MergedSection { block: p.block + offset, ..*p }));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::extract::extract;
    use crate::site::parse::{parse_doc, MarkdownFormat};
    use crate::site::sentences::split_sentences;
    use std::path::PathBuf;

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
        // A heading short enough to be typed in a search box names its section; the page's
        // title names its introduction.
        assert_eq!(chunks[0].name.as_deref(), Some("setup guide"));
        assert_eq!(chunks[2].name.as_deref(), Some("on linux"));
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
        // Each merged section keeps its own link, heading path and place in the text.
        let part = &chunks[0].parts[0];
        assert_eq!(chunks[0].parts.len(), 1);
        assert_eq!(part.url, "/docs/guide/setup#defaults");
        assert_eq!(part.heading_path, ["Setup Guide", "Configuration", "Defaults"]);
        assert_eq!(&chunks[0].text[part.start..part.end], "Defaults\n\nAll optional.");
        assert_eq!(chunks[1].parts[0].heading_path, ["Setup Guide", "Next Steps"], "a sibling, not a child");
    }

    #[test]
    fn runs_of_short_options_each_keep_their_anchor() {
        let options: String = ["alpha", "beta", "gamma"]
            .iter()
            .map(|o| format!("### `{o}` [number]\n\nSets {o}. Default: 5.\n\n"))
            .collect();
        let (chunks, _) = chunks_of(&format!("## Options\n\n{LONG}\n\n{options}"));
        assert_eq!(chunks.len(), 1);
        let urls: Vec<&str> = chunks[0].parts.iter().map(|p| p.url.as_str()).collect();
        assert_eq!(
            urls,
            ["/docs/guide/setup#alpha-number", "/docs/guide/setup#beta-number", "/docs/guide/setup#gamma-number"]
        );
        let texts: Vec<&str> = chunks[0].parts.iter().map(|p| &chunks[0].text[p.start..p.end]).collect();
        assert_eq!(texts[1], "beta [number]\n\nSets beta. Default: 5.\n\n".trim_end());
        assert!(chunks[0].parts.windows(2).all(|w| w[0].end <= w[1].start));
        let names: Vec<Option<&str>> = chunks[0].parts.iter().map(|p| p.name.as_deref()).collect();
        assert_eq!(names, [Some("alpha"), Some("beta"), Some("gamma")], "a heading's leading code names it");
        assert_eq!(chunks[0].name.as_deref(), Some("options"), "a one-word heading names itself");
        assert!(chunks[0].text[..chunks[0].parts[0].start].starts_with("A long enough"), "the own section comes first");
    }

    #[test]
    fn a_merged_section_split_across_chunks_is_a_part_of_each() {
        // A group of merged options longer than a chunk is cut; an option cut in two is a
        // part of both texts.
        let small: String = (0..12).map(|i| format!("### Option {i}\n\n{}\n\n", sentence(i))).collect();
        let (chunks, _) = chunks_of(&format!("## Options\n\n{}\n\n{small}", long_paragraph(20..40)));
        assert!(chunks.len() >= 2, "{}", chunks.len());
        let mut seen: Vec<(usize, String)> = Vec::new();
        for chunk in &chunks {
            for part in &chunk.parts {
                let n: usize = part.url.rsplit('-').next().unwrap().parse().unwrap();
                match seen.last_mut() {
                    Some((last, text)) if *last == n => text.push_str(&chunk.text[part.start..part.end]),
                    _ => seen.push((n, chunk.text[part.start..part.end].to_string())),
                }
            }
        }
        for (n, text) in &seen {
            assert!(text.contains(&format!("sentence number {n} ")), "option {n} holds {text:?}");
        }
        let seen: Vec<usize> = seen.iter().map(|(n, _)| *n).collect();
        assert_eq!(seen, (0..12).collect::<Vec<_>>(), "every option has its part, in order");
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
}
