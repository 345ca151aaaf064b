#!/usr/bin/env python3
"""Fits the confidence rules on the dev questions of every corpus together.

Reads the JSON reports of `scripts/eval.sh --out DIR` (every mode) and, for semantic search
(hybrid) and keyword-only search (lexical), fits two logistic regressions on the search's
signals (src/search/confidence.rs `Signals`, `SIGNAL_NAMES`):

- "will the site answer?" (answerable vs unanswerable): its score is what refusal cuts. The
  cut-off is the highest that refuses no more than the allowed share of answerable dev
  questions, lowered by a safety margin (a site nobody labelled has questions scoring
  below ours);
- "is the first source right?" (the first result is an answering section; an unanswerable
  question never is): its score is the label of an answered question. `medium` from an
  even chance, `high` from the lowest cut at which the questions above it, each scored by
  the model fitted without its own corpus (leave-one-corpus-out), are right first at least
  --high-precision of the time.

Prints the leave-one-corpus-out validation, the trade-off of refusal (near-miss questions
refused against answerable ones refused, dev and held-out), and what the rules do per
corpus and split; with --write FILE it writes the rules as Rust (src/search/confidence_fitted.rs).
Held-out questions are only measured, never fitted on. Pure Python: a few hundred points
need no numpy. Refit after any change to the signals or to the fusion they read:

  LECTERN_CORPORA=... scripts/eval.sh --out DIR --mode all
  scripts/eval/calibrate.py DIR --write src/search/confidence_fitted.rs

usage: calibrate.py DIR [--write FILE] [--max-false-refusals 0.0] [--margin 0.25] [--high-precision 0.95]
"""
import argparse
import glob
import json
import math
import os
import re
import sys

# The signals in the order of `SIGNAL_NAMES` in src/search/confidence.rs, read from there (a
# rule's weights follow that order, and the list is written once).
def _signal_names():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "src", "search", "confidence.rs")) as f:
        source = f.read()
    block = re.search(r"pub const SIGNAL_NAMES: \[&str; SIGNAL_COUNT\] = \[(.*?)\];", source, re.S)
    if not block:
        sys.exit("calibrate: SIGNAL_NAMES not found in src/search/confidence.rs")
    return re.findall(r'"([a-z_]+)"', block.group(1))


SIGNALS = _signal_names()

# Which signals each rule reads (the others weigh 0). Keyword-only search has no dense list.
FEATURES = {
    "hybrid": {
        "answerable": ["dense_top", "dense_gap", "lexical_top", "agreement", "lexical_unknown", "fused_top", "fused_margin"],
        "right_first": ["dense_top", "dense_gap", "lexical_top", "agreement", "fused_top", "fused_margin", "first_in_both", "lexical_margin"],
    },
    "lexical": {
        "answerable": ["lexical_top", "lexical_unknown"],
        "right_first": ["lexical_top", "lexical_unknown", "lexical_margin"],
    },
}
RUST_NAME = {"hybrid": "SEMANTIC", "lexical": "KEYWORD"}


def load(directory):
    rows = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        corpus = os.path.basename(path)[:-5]
        for o in json.load(open(path))["outcomes"]:
            if o["selected"]:
                continue  # selected mode never refuses and is labelled by its selection
            if "fused_margin" not in o["signals"]:
                raise SystemExit(f"{path}: reports without the fusion signals; rebuild `lectern` and rerun the eval")
            rows.append((corpus, o))
    return rows


def features(o, names):
    s = o["signals"]
    return [float(s.get(n) or 0.0) for n in names]


def right_first(o):
    return (not o["unanswerable"]) and o["rank"] == 1


def fit(xs, ys, balanced, l2=0.01, steps=3000, rate=0.5):
    """Logistic regression by gradient descent on standardised features; returns weights on
    the raw features and the bias, so the Rust side needs no scaling. `balanced` weighs the
    two classes equally (refusal: unanswerable questions are few); otherwise the score is a
    calibrated logit."""
    dims = len(xs[0])
    mean = [sum(x[i] for x in xs) / len(xs) for i in range(dims)]
    std = [max(1e-6, math.sqrt(sum((x[i] - mean[i]) ** 2 for x in xs) / len(xs))) for i in range(dims)]
    zs = [[(x[i] - mean[i]) / std[i] for i in range(dims)] for x in xs]
    pos = sum(ys)
    neg = len(ys) - pos
    if balanced:
        weight = [0.5 / pos if y else 0.5 / neg for y in ys]
    else:
        weight = [1.0 / len(ys)] * len(ys)
    w = [0.0] * (dims + 1)
    for _ in range(steps):
        grad = [0.0] * (dims + 1)
        for z, y, c in zip(zs, ys, weight):
            t = sum(wi * zi for wi, zi in zip(w, z)) + w[-1]
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, t))))
            for i in range(dims):
                grad[i] += c * (p - y) * z[i]
            grad[-1] += c * (p - y)
        for i in range(dims):
            grad[i] += l2 * w[i]
        w = [wi - rate * g for wi, g in zip(w, grad)]
    raw = [w[i] / std[i] for i in range(dims)]
    bias = w[-1] - sum(w[i] * mean[i] / std[i] for i in range(dims))
    return raw, bias


def score(x, model):
    raw, bias = model
    return sum(wi * xi for wi, xi in zip(raw, x)) + bias


def auc(pos, neg):
    if not pos or not neg:
        return float("nan")
    return sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg) / (len(pos) * len(neg))


def refusal_cut(answerable_scores, allowed, margin):
    """Refuse below it: at most `allowed` of the answerable scores under it, minus `margin`."""
    ordered = sorted(answerable_scores)
    k = int(math.floor(allowed * len(ordered)))
    return (ordered[k] if k < len(ordered) else ordered[-1]) - margin


def high_cut(scored, precision, least=5):
    """The lowest score from which the (score, right) pairs are right at least `precision` of
    the time (at least `least` of them); infinity when no cut reaches it."""
    ordered = sorted(scored, key=lambda p: -p[0])
    best = float("inf")
    right = 0
    for n, (s, r) in enumerate(ordered, 1):
        right += r
        if n >= least and right / n >= precision and (n == len(ordered) or ordered[n][0] < s):
            best = s
    return best


class Rules:
    """The two fitted models of one mode, with their cut-offs."""

    def __init__(self, dev, names, args):
        a_names, r_names = names["answerable"], names["right_first"]
        self.names = names
        xs = [features(o, a_names) for o in dev]
        ys = [0 if o["unanswerable"] else 1 for o in dev]
        self.answerable = fit(xs, ys, balanced=True)
        self.refuse_below = refusal_cut([score(x, self.answerable) for x, y in zip(xs, ys) if y], args.allowed, args.margin)
        xs = [features(o, r_names) for o in dev]
        ys = [1 if right_first(o) else 0 for o in dev]
        self.right_first = fit(xs, ys, balanced=False)
        self.medium = 0.0
        self.high = float("inf")

    def a(self, o):
        return score(features(o, self.names["answerable"]), self.answerable)

    def r(self, o):
        return score(features(o, self.names["right_first"]), self.right_first)

    def label(self, o):
        if self.a(o) < self.refuse_below:
            return "none"
        r = self.r(o)
        return "high" if r >= self.high else "medium" if r >= self.medium else "low"

    def rust(self, mode):
        def weights(model, used):
            raw, bias = model
            full = [0.0] * len(SIGNALS)
            for name, w in zip(used, raw):
                full[SIGNALS.index(name)] = w
            # As rustfmt lays it out, so that a refit changes only the numbers.
            return "LinearScore {\n        weights: [%s],\n        bias: %s,\n    }" % (
                ", ".join(f32(w) for w in full),
                f32(bias),
            )

        return (
            f"pub const {RUST_NAME[mode]}: ConfidenceRule = ConfidenceRule {{\n"
            f"    answerable: {weights(self.answerable, self.names['answerable'])},\n"
            f"    refuse_below: {f32(self.refuse_below)},\n"
            f"    right_first: {weights(self.right_first, self.names['right_first'])},\n"
            f"    medium: {f32(self.medium)},\n"
            f"    high: {f32(self.high)},\n"
            "};\n"
        )


def f32(v):
    if v == float("inf"):
        return "f32::MAX"
    return f"{v:.4f}"


def reliability(outcomes, label):
    """Per label: right first / labelled (refusals are not labelled)."""
    table = {}
    for o in outcomes:
        level = label(o)
        if level == "none":
            continue
        n, r = table.get(level, (0, 0))
        table[level] = (n + 1, r + right_first(o))
    return ", ".join(f"{lv} {table[lv][1]}/{table[lv][0]}" for lv in ("high", "medium", "low") if lv in table)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--write", help="the Rust file of the fitted rules (src/search/confidence_fitted.rs)")
    ap.add_argument("--max-false-refusals", dest="allowed", type=float, default=0.0)
    ap.add_argument("--margin", type=float, default=0.25)
    ap.add_argument("--high-precision", type=float, default=0.95)
    args = ap.parse_args()
    rows = load(args.dir)
    rust = []
    for mode, names in FEATURES.items():
        mine = [(c, o) for c, o in rows if o["mode"] == mode]
        corpora = sorted({c for c, _ in mine})
        dev = [o for c, o in mine if o["split"] == "dev"]
        print(f"## {mode}: answerable from {names['answerable']}, right first from {names['right_first']}")

        # Leave one corpus out: each corpus's dev questions scored by rules fitted on the others.
        held = []
        print("  leave-one-corpus-out (dev): false refusals, near-miss refused, refusal AUC")
        for corpus in corpora:
            rules = Rules([o for c, o in mine if o["split"] == "dev" and c != corpus], names, args)
            these = [o for c, o in mine if o["split"] == "dev" and c == corpus]
            held += [(rules.r(o), right_first(o), corpus) for o in these if rules.a(o) >= rules.refuse_below]
            ans = [o for o in these if not o["unanswerable"]]
            near = [o for o in these if o["unanswerable"] and o["kind"] != "off-topic"]
            print(
                f"    {corpus:<22} {sum(rules.a(o) < rules.refuse_below for o in ans)}/{len(ans)}  "
                f"{sum(rules.a(o) < rules.refuse_below for o in near)}/{len(near)}  "
                f"AUC {auc([rules.a(o) for o in ans], [rules.a(o) for o in near]):.3f}"
            )
        final = Rules(dev, names, args)
        final.high = high_cut([(s, r) for s, r, _ in held], args.high_precision)
        if final.high < final.medium:
            final.high = final.medium
        print(f"  high from right-first score {final.high:.4f} (leave-one-corpus-out dev precision ≥ {args.high_precision})")
        for corpus in corpora:
            mine_held = [(s, r) for s, r, c in held if c == corpus]
            hi = [r for s, r in mine_held if s >= final.high]
            print(f"    {corpus:<22} high right first {sum(hi)}/{len(hi)} (leave-one-corpus-out)")

        # The refusal trade-off: near-miss questions refused as the cut rises past answerable ones.
        print("  refusal trade-off (cut under the k-th lowest answerable dev score, no margin):")
        print("    k  dev false ref  dev near-miss  held-out false ref  held-out near-miss")
        answerable_dev = sorted(final.a(o) for o in dev if not o["unanswerable"])
        for k in range(0, min(12, len(answerable_dev))):
            cut = answerable_dev[k]
            line = []
            for split in ("dev", "heldout"):
                these = [o for c, o in mine if o["split"] == split]
                ans = [o for o in these if not o["unanswerable"]]
                near = [o for o in these if o["unanswerable"] and o["kind"] != "off-topic"]
                line.append(f"{sum(final.a(o) < cut for o in ans)}/{len(ans)}")
                line.append(f"{sum(final.a(o) < cut for o in near)}/{len(near)}")
            print(f"    {k:<2} {line[0]:>13}  {line[1]:>13}  {line[2]:>18}  {line[3]:>18}")

        print("  the fitted rules per corpus and split:")
        for split in ("dev", "heldout"):
            for corpus in corpora:
                these = [o for c, o in mine if c == corpus and o["split"] == split]
                ans = [o for o in these if not o["unanswerable"]]
                near = [o for o in these if o["unanswerable"] and o["kind"] != "off-topic"]
                off = [o for o in these if o["kind"] == "off-topic"]
                refused = lambda group: sum(final.label(o) == "none" for o in group)
                print(
                    f"    {split:<8} {corpus:<22} false refusals {refused(ans)}/{len(ans)}  near-miss refused "
                    f"{refused(near)}/{len(near)}  off-topic refused {refused(off)}/{len(off)}  "
                    f"AUC {auc([final.a(o) for o in ans], [final.a(o) for o in near]):.3f}  "
                    f"reliability {reliability(these, final.label)}"
                )
        rust.append(final.rust(mode))
    if args.write:
        with open(args.write, "w") as out:
            out.write(HEADER + "\n" + "\n".join(rust))
        print(f"wrote {args.write}")


HEADER = """//! The fitted confidence rules (`ConfidenceRule::SEMANTIC` and `KEYWORD`). Written by
//! `scripts/eval/calibrate.py --write` from the eval reports of the four labelled corpora
//! (dev questions only); refit after any change to the signals or to the fusion they read.
//! Do not edit by hand.

use super::confidence::{ConfidenceRule, LinearScore};
"""

if __name__ == "__main__":
    main()
