#!/usr/bin/env python3
"""Fits the refusal rule on the dev questions of every corpus together.

Reads the JSON reports of `scripts/eval.sh --out DIR` and, for semantic search (hybrid) and
keyword-only search (lexical), fits a logistic regression of "answerable" on the search's
signals (src/search/confidence.rs `Signals`), then picks the refusal cut-off on its score:
the highest that refuses no more than the allowed share of answerable dev questions, lowered
by a safety margin (a site nobody labelled has questions scoring below ours). Prints the
weights and cut-offs to put in src/search/confidence.rs, and what they do on dev and
held-out questions, per corpus. Pure Python: a few hundred points need no numpy.

usage: calibrate.py DIR [--max-false-refusals 0.0] [--lexical-max-false-refusals 0.0] [--margin 0.25]
"""
import argparse
import glob
import json
import math
import os

FEATURES = {
    "hybrid": ["dense_top", "dense_gap", "lexical_top", "agreement", "lexical_unknown"],
    "lexical": ["lexical_top", "lexical_unknown"],
}


def load(directory):
    rows = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        corpus = os.path.basename(path)[:-5]
        report = json.load(open(path))
        for o in report["outcomes"]:
            if o["selected"]:
                continue  # selected mode never refuses
            rows.append((corpus, o))
    return rows


def features(o, names):
    s = o["signals"]
    return [float(s.get(n) or 0.0) for n in names]


def fit(xs, ys, l2=0.01, steps=4000, rate=0.5):
    """Logistic regression by gradient descent on standardised features; returns weights on
    the raw features (bias last) so the Rust side needs no scaling."""
    dims = len(xs[0])
    mean = [sum(x[i] for x in xs) / len(xs) for i in range(dims)]
    std = [max(1e-6, math.sqrt(sum((x[i] - mean[i]) ** 2 for x in xs) / len(xs))) for i in range(dims)]
    zs = [[(x[i] - mean[i]) / std[i] for i in range(dims)] for x in xs]
    # Balance the classes: unanswerable questions are fewer.
    pos = sum(ys)
    neg = len(ys) - pos
    weight = [0.5 / pos if y else 0.5 / neg for y in ys]
    w = [0.0] * (dims + 1)
    for _ in range(steps):
        grad = [0.0] * (dims + 1)
        for z, y, c in zip(zs, ys, weight):
            p = 1 / (1 + math.exp(-(sum(wi * zi for wi, zi in zip(w, z)) + w[-1])))
            for i in range(dims):
                grad[i] += c * (p - y) * z[i]
            grad[-1] += c * (p - y)
        for i in range(dims):
            grad[i] += l2 * w[i]
        w = [wi - rate * g for wi, g in zip(w, grad)]
    raw = [w[i] / std[i] for i in range(dims)]
    bias = w[-1] - sum(w[i] * mean[i] / std[i] for i in range(dims))
    return raw, bias


def score(x, raw, bias):
    return sum(wi * xi for wi, xi in zip(raw, x)) + bias


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--max-false-refusals", type=float, default=0.0)
    # Keyword-only search runs before the model has arrived: it refuses only questions that
    # share (almost) nothing with the site and leaves the rest to the LLM at low confidence.
    ap.add_argument("--lexical-max-false-refusals", type=float, default=0.0)
    ap.add_argument("--margin", type=float, default=0.25)
    args = ap.parse_args()
    rows = load(args.dir)
    for mode, names in FEATURES.items():
        allowed = args.max_false_refusals if mode == "hybrid" else args.lexical_max_false_refusals
        mine = [(c, o) for c, o in rows if o["mode"] == mode]
        dev = [(c, o) for c, o in mine if o["split"] == "dev"]
        xs = [features(o, names) for _, o in dev]
        ys = [0 if o["unanswerable"] else 1 for _, o in dev]
        raw, bias = fit(xs, ys)
        answerable = sorted(score(x, raw, bias) for x, y in zip(xs, ys) if y)
        # The cut-off: refuse below it; at most `allowed` of answerable dev questions under it.
        k = int(math.floor(allowed * len(answerable)))
        cut = (answerable[k] if k < len(answerable) else answerable[-1]) - args.margin
        print(f"## {mode}: features {names}")
        print(f"weights {[round(v, 4) for v in raw]}, bias {bias:.4f}, refuse below {cut:.4f}")
        for split in ("dev", "heldout"):
            for corpus in sorted({c for c, _ in mine}):
                these = [o for c, o in mine if c == corpus and o["split"] == split]
                s = [(score(features(o, names), raw, bias) < cut, o) for o in these]
                ans = [r for r, o in s if not o["unanswerable"]]
                near = [r for r, o in s if o["unanswerable"] and o["kind"] != "off-topic"]
                off = [r for r, o in s if o["kind"] == "off-topic"]
                print(
                    f"  {split:<8} {corpus:<22} false refusals {sum(ans)}/{len(ans)}  "
                    f"near-miss refused {sum(near)}/{len(near)}  off-topic refused {sum(off)}/{len(off)}"
                )


if __name__ == "__main__":
    main()
