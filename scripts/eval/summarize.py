#!/usr/bin/env python3
"""Tables of retrieval quality from the JSON reports of `scripts/eval.sh --out DIR`.

Pools the outcomes of every corpus (each question counts once) and prints, per split and
mode, the figures of BENCHMARKS.md; with a second directory, each figure as "before → after".
Reads the outcomes, not the summaries, so pooled figures are over questions, not corpora.

usage: summarize.py DIR [BEFORE_DIR] [--corpus] [--k 3]
  --corpus   also one table per corpus
"""
import argparse
import glob
import json
import os

MODES = ["lexical", "dense", "hybrid"]
SPLITS = ["dev", "heldout"]


def load(directory):
    out = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        out[os.path.basename(path)[:-5]] = json.load(open(path))["outcomes"]
    return out


def auc(pos, neg):
    if not pos or not neg:
        return None
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def figures(outcomes, k):
    plain = [o for o in outcomes if not o["unanswerable"] and not o["selected"] and not o.get("follow_up")]
    follow = [o for o in outcomes if not o["unanswerable"] and not o["selected"] and o.get("follow_up")]
    near = [o for o in outcomes if o["unanswerable"] and not o["off_topic"]]
    off = [o for o in outcomes if o["off_topic"]]
    sel = [o for o in outcomes if o["selected"]]

    def hit(o, n):
        return o["rank"] is not None and o["rank"] <= n

    def share(xs, f):
        return sum(1 for x in xs if f(x)) / len(xs) if xs else float("nan")

    def in_context(o):
        return any(u in o["expected"] for u in o.get("context", []))

    # The first five sections, whole: the context before issue 25 (older reports: `context`).
    def in_top5(o):
        return any(u in o["expected"] for u in o.get("context_top5", o.get("context", [])))

    labelled = lambda level: [o for o in outcomes if not o["selected"] and not o["refused"] and o["confidence"] == level]  # noqa: E731
    high, medium, low = labelled("high"), labelled("medium"), labelled("low")
    right = lambda o: not o["unanswerable"] and hit(o, 1)  # noqa: E731
    answerable_scores = [o["confidence_score"] for o in plain + follow]
    return {
        "n": len(plain),
        "hit@1": share(plain, lambda o: hit(o, 1)),
        "hit@3": share(plain, lambda o: hit(o, 3)),
        "hit@5": share(plain, lambda o: hit(o, 5)),
        "hit@10": share(plain, lambda o: hit(o, 10)),
        "MRR": sum(1 / o["rank"] for o in plain if o["rank"]) / len(plain) if plain else float("nan"),
        "context": share(plain, in_context),
        "context top5": share(plain, in_top5),
        "false ref": f"{sum(o['refused'] for o in plain)}/{len(plain)}",
        "selection": f"{sum(1 for o in sel if hit(o, k) or (o['selection_of'] in o['expected']))}/{len(sel)}",
        "follow-up hit@3": f"{sum(hit(o, 3) for o in follow)}/{len(follow)}",
        "follow-up ref": f"{sum(o['refused'] for o in follow)}/{len(follow)}",
        "near-miss ref": f"{sum(o['refused'] for o in near)}/{len(near)}",
        "off-topic ref": f"{sum(o['refused'] for o in off)}/{len(off)}",
        "AUC": auc(answerable_scores, [o["confidence_score"] for o in near]),
        "high right": f"{sum(right(o) for o in high)}/{len(high)}",
        "medium right": f"{sum(right(o) for o in medium)}/{len(medium)}",
        "low right": f"{sum(right(o) for o in low)}/{len(low)}",
    }


def fmt(v):
    if v is None:
        return "—"
    if isinstance(v, float):
        return "—" if v != v else f"{v:.3f}"
    return str(v)


def table(title, after, before, k, rows_of):
    cols = list(figures([], k).keys())
    print(f"\n{title}\n")
    print("| split | mode | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    for split in SPLITS:
        for mode in MODES:
            a = figures(rows_of(after, split, mode), k)
            if before is None:
                cells = [fmt(a[c]) for c in cols]
            else:
                b = figures(rows_of(before, split, mode), k)
                cells = [fmt(a[c]) if fmt(a[c]) == fmt(b[c]) or c == "n" else f"{fmt(b[c])} → **{fmt(a[c])}**" for c in cols]
            print(f"| {split} | {mode} | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("before", nargs="?")
    ap.add_argument("--corpus", action="store_true")
    ap.add_argument("--k", type=int, default=3)
    args = ap.parse_args()
    after = load(args.dir)
    before = load(args.before) if args.before else None

    def pooled(reports, split, mode):
        return [o for outs in reports.values() for o in outs if o["split"] == split and o["mode"] == mode]

    table("Pooled over " + ", ".join(after), after, before, args.k, pooled)
    if args.corpus:
        for corpus in after:
            def one(reports, split, mode, corpus=corpus):
                return [o for o in reports.get(corpus, []) if o["split"] == split and o["mode"] == mode]

            table(corpus, after, before, args.k, one)


if __name__ == "__main__":
    main()
