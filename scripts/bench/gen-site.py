#!/usr/bin/env python3
"""Writes a Docusaurus-style docs tree of many pages (10,000 by default) for benchmarks of
keyword search on a large site (scripts/bench/big-site.sh).

The text comes from the shared corpora (../shared/corpora: real Docusaurus docs), read at
run time and never copied into the repository. Pages are varied, not copies: each page
recombines sections and paragraphs of different source pages, shuffled, under titles and
headings built from several sources. Seeded, so the same arguments give the same tree.

    scripts/bench/gen-site.py --out /tmp/big-site [--pages 10000] [--seed 1] [--corpora DIR]
                              [--edit-percent P]

--edit-percent P writes the same tree with P% of its pages edited, as an author would between
two deploys (a sentence added to each one's opening section), for incremental rebuilds.
"""

import argparse
import json
import os
import random
import re
import shutil
import sys

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(\{#[^}]*\})?\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
# Lines that only make sense in their own MDX file (imports, exports, JSX blocks) are left out.
MDX_ONLY = re.compile(r"^\s*(import\s|export\s|<[A-Za-z/!]|:::|\{/\*)")
PREFIXES = ["", "", "Understanding ", "Working with ", "A guide to ", "Advanced ", "Notes on ", "Practical ", "Inside "]
SUFFIXES = ["", "", "", " in practice", " explained", " basics", " and troubleshooting", " for teams", " revisited"]


def source_files(corpora):
    for root, dirs, files in os.walk(corpora):
        dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "build", ".git"))
        for name in sorted(files):
            if name.endswith((".md", ".mdx")) and not name.startswith("_"):
                yield os.path.join(root, name)


def blocks_of(path):
    """(headings, paragraphs) of one source page: H2/H3 titles, and blank-line separated
    blocks of prose or whole code fences, without front matter and MDX-only lines."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return [], []
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        lines = lines[end + 1 :]
    headings, paragraphs, block, fence = [], [], [], None
    for line in lines:
        if fence:
            block.append(line)
            if line.strip().startswith(fence):
                fence = None
                paragraphs.append("\n".join(block))
                block = []
            continue
        m = FENCE.match(line)
        if m:
            if block:
                paragraphs.append("\n".join(block))
            block, fence = [line], m.group(1)
            continue
        h = HEADING.match(line)
        if h:
            if block:
                paragraphs.append("\n".join(block))
                block = []
            title = re.sub(r"[`*_<>\[\]]", "", h.group(2)).strip()
            if len(h.group(1)) in (2, 3) and 2 < len(title) < 70:
                headings.append(title)
            continue
        if not line.strip():
            if block:
                paragraphs.append("\n".join(block))
                block = []
            continue
        if MDX_ONLY.match(line):
            continue
        block.append(line)
    if block and not fence:
        paragraphs.append("\n".join(block))
    # Very short fragments (a lone link, "Example:") add nothing to search.
    return headings, [p for p in paragraphs if len(p) >= 40]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_corpora = os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "corpora"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the site folder to write (replaced)")
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpora", default=os.environ.get("LECTERN_CORPORA", default_corpora))
    parser.add_argument("--edit-percent", type=float, default=0.0, help="share of pages to edit (0-100)")
    args = parser.parse_args()
    if not 0 <= args.edit_percent <= 100:
        sys.exit(f"gen-site: --edit-percent takes 0 to 100, not {args.edit_percent}")

    headings, paragraphs = [], []
    sources = 0
    for path in source_files(args.corpora):
        h, p = blocks_of(path)
        if p:
            sources += 1
            headings.extend(h)
            paragraphs.extend(p)
    if not paragraphs or not headings:
        sys.exit(f"gen-site: no Markdown found under {args.corpora} (set --corpora)")
    headings = sorted(set(headings))
    rng = random.Random(args.seed)
    # Its own generator: the tree is the same with or without edits, but for them.
    edited = set(random.Random(f"{args.seed}-edit").sample(range(args.pages), round(args.pages * args.edit_percent / 100)))

    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    docs = os.path.join(args.out, "docs")
    os.makedirs(docs)
    with open(os.path.join(args.out, "docusaurus.config.js"), "w", encoding="utf-8") as f:
        f.write(
            "// Generated by scripts/bench/gen-site.py: a large docs site for benchmarks.\n"
            "module.exports = {\n"
            "  title: 'Generated documentation',\n"
            "  url: 'https://bench.example.com',\n"
            "  baseUrl: '/',\n"
            "  markdown: { format: 'detect' },\n"
            "  presets: [['classic', { docs: { routeBasePath: '/docs' } }]],\n"
            "};\n"
        )

    parts = max(1, args.pages // 400)
    written = 0
    chars = 0
    for i in range(args.pages):
        part = i % parts
        folder = os.path.join(docs, f"part-{part + 1:02d}")
        if not os.path.isdir(folder):
            os.makedirs(folder)
            with open(os.path.join(folder, "_category_.json"), "w", encoding="utf-8") as f:
                f.write('{"label": "%s"}\n' % rng.choice(headings).replace('"', ""))
        a, b = rng.sample(headings, 2)
        title = (rng.choice(PREFIXES) + (a if rng.random() < 0.6 else f"{a} and {b}") + rng.choice(SUFFIXES)).strip()
        # A JSON string is a valid YAML scalar (non-ASCII left as is: YAML refuses the
        # surrogate-pair escapes JSON would write for emoji).
        lines = ["---", f"title: {json.dumps(title, ensure_ascii=False)}", f"sidebar_position: {i // parts + 1}", "---", "", f"# {title}", ""]
        lines += [rng.choice(paragraphs), ""]
        if i in edited:
            lines[-2] += f"\n\nRevised for this release: see the notes of {title} for what changed."
        for _ in range(rng.randint(3, 6)):
            lines += [f"## {rng.choice(PREFIXES)}{rng.choice(headings)}", ""]
            body = rng.sample(paragraphs, rng.randint(2, 5))
            rng.shuffle(body)
            for j, paragraph in enumerate(body):
                if j == 2 and rng.random() < 0.3:
                    lines += [f"### {rng.choice(headings)}", ""]
                lines += [paragraph, ""]
        text = "\n".join(lines)
        with open(os.path.join(folder, f"topic-{i + 1:05d}.md"), "w", encoding="utf-8") as f:
            f.write(text)
        written += 1
        chars += len(text)
    print(
        f"gen-site: {written} pages ({len(edited)} edited) in {parts} folders, {chars / 1e6:.1f} M characters, "
        f"from {len(paragraphs)} paragraphs and {len(headings)} headings of {sources} source pages"
    )


if __name__ == "__main__":
    main()
