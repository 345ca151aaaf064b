#!/usr/bin/env python3
"""Writes the texts the dense-parts benchmark embeds (scripts/bench/dense-parts.sh), one JSON
object a line, as examples/real_vectors.rs reads them:

  passages.<set>.jsonl  {"set", "id", "version", "heading_path", "text"} per section: the
                        chunks of a site (`lectern chunks --json`, given as SET=FILE), or
                        SciFact's abstracts (title + " " + text, no heading path)
  queries.jsonl         {"set", "id", "text", "query": true}: the labelled questions of
                        tests/eval/questions/*.jsonl, SciFact's test queries, and the
                        questions of scripts/bench/big-site.sh (read from that script)

    texts.py --out DIR --scifact DIR --questions DIR --big-site-script FILE SET=CHUNKS.jsonl...
"""

import argparse
import json
import os
import re


def chunk_version(chunk_id):
    # `instance:version:doc_id#anchor:part` (index-build/src/site/report.rs)
    parts = chunk_id.split(":")
    return parts[1] if len(parts) > 2 and parts[1] else None


def write(path, rows):
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    os.replace(path + ".tmp", path)
    return len(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--scifact", required=True)
    parser.add_argument("--questions", required=True)
    parser.add_argument("--big-site-script", required=True)
    parser.add_argument("sites", nargs="*", help="SET=FILE of `lectern chunks --json` lines")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    for spec in args.sites:
        name, path = spec.split("=", 1)
        rows = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue  # the summary lines after the chunks
                chunk = json.loads(line)
                rows.append({
                    "set": name,
                    "id": chunk["chunk_id"],
                    "version": chunk_version(chunk["chunk_id"]),
                    "heading_path": " › ".join(chunk["heading_path"]),
                    "text": chunk["text"],
                })
        print(f"{name}: {write(os.path.join(args.out, f'passages.{name}.jsonl'), rows)} sections")

    rows = []
    with open(os.path.join(args.scifact, "corpus.jsonl"), encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            rows.append({"set": "scifact", "id": doc["_id"], "version": None, "heading_path": None,
                         "text": (doc.get("title", "") + " " + doc["text"]).strip()})
    print(f"scifact: {write(os.path.join(args.out, 'passages.scifact.jsonl'), rows)} abstracts")

    queries = []
    for name in sorted(os.listdir(args.questions)):
        if name.endswith(".jsonl"):
            with open(os.path.join(args.questions, name), encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        q = json.loads(line)
                        queries.append({"set": name[:-6], "id": q["id"], "text": q["question"], "query": True})
    # SciFact's test split: the queries that have judgements (BEIR's 300).
    judged = set()
    with open(os.path.join(args.scifact, "qrels", "test.tsv"), encoding="utf-8") as f:
        for line in f:
            cols = line.split("\t")
            if cols and cols[0] != "query-id":
                judged.add(cols[0])
    with open(os.path.join(args.scifact, "queries_test.jsonl"), encoding="utf-8") as f:
        for line in f:
            q = json.loads(line)
            if q["_id"] in judged:
                queries.append({"set": "scifact", "id": q["_id"], "text": q["text"], "query": True})
    # The big-site questions: the quoted lines of the `questions=( … )` array.
    script = open(args.big_site_script, encoding="utf-8").read()
    block = re.search(r"^questions=\((.*?)^\)", script, re.S | re.M)
    for n, text in enumerate(re.findall(r'"([^"]+)"', block.group(1) if block else "")):
        queries.append({"set": "big-site", "id": f"big-site-{n + 1}", "text": text, "query": True})
    print(f"queries: {write(os.path.join(args.out, 'queries.jsonl'), queries)}")


if __name__ == "__main__":
    main()
