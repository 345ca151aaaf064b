#!/usr/bin/env python3
"""Writes the option-heading questions of an API reference (tests/eval/options/*.jsonl).

An API reference is searched for an option by its own name ("testTimeout", "--debug"), and
the answer is that option's own section. This reads `lectern chunks --json` of a site (each
chunk's URL and heading path, and those of the short sections merged into it) and writes one
labelled question per option heading: the option's name as the question, its own URL as the
answer. Only names and URLs are written, never the site's text.

  jest: every `###` heading under "Options" or "Reference" of the current docs' Configuration
        and CLI pages (/docs/next/configuration, /docs/next/cli): 148 options. The name is the
        heading up to its type or argument syntax ("testTimeout [number]" -> "testTimeout",
        "--bail[=<n>]" -> "--bail").
  typescript-eslint: every `###` heading under "Options" of a rule page that is one unquoted
        identifier (an option, not an option value like "array"). A name that several rules
        share is asked with its rule's name in front ("array-type default").

usage: lectern chunks SITE --json | option_questions.py jest|typescript-eslint > FILE
"""
import collections
import json
import re
import sys


def headings(chunks):
    """(heading path, url) of every section: each chunk's own and its merged parts'."""
    seen = set()
    for c in chunks:
        for path, url in [(c["heading_path"], c["url"])] + [(p["heading_path"], p["url"]) for p in c.get("parts", [])]:
            if url not in seen:
                seen.add(url)
                yield path, url


def jest(chunks):
    for path, url in headings(chunks):
        if url.startswith(("/docs/next/configuration#", "/docs/next/cli#")) and len(path) == 3 and path[1] in ("Options", "Reference"):
            name = re.split(r"\s*\[|=", path[2], maxsplit=1)[0].strip()
            yield name, url


def typescript_eslint(chunks):
    options = [
        (path, url)
        for path, url in headings(chunks)
        if url.startswith("/rules/") and len(path) == 3 and path[1] == "Options" and re.fullmatch(r"[A-Za-z_$][\w$-]*", path[2])
    ]
    shared = collections.Counter(path[2] for path, _ in options)
    for path, url in options:
        name = path[2]
        yield (f"{path[0]} {name}" if shared[name] > 1 else name), url


def main():
    corpus = sys.argv[1]
    chunks = [json.loads(line) for line in sys.stdin if line.strip()]
    pick = {"jest": jest, "typescript-eslint": typescript_eslint}[corpus]
    for n, (name, url) in enumerate(pick(chunks), 1):
        q = {"id": f"{corpus}-option-{n:03}", "split": "dev", "kind": "option", "question": name, "expected": [url]}
        print(json.dumps(q, ensure_ascii=False))


if __name__ == "__main__":
    main()
