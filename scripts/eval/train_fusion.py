#!/usr/bin/env python3
"""Trains and measures the learned fusion (src/search/fusion_model.rs): a linear score over
each hybrid candidate's features.

Reads the candidate files of `lectern eval --dump-candidates FILE` (one per corpus, named
<corpus>.cand.jsonl in DIR): every plain question with its candidates, their features (as
the search computes them) and whether each answers it. Fits a linear scorer with a
listwise loss (softmax over a question's candidates, the answering ones as targets) on dev
questions only, and reports hit@1 / hit@3 / MRR of the fused order against reciprocal rank
fusion (`rrf_rank`, the order before):

  - leave-one-corpus-out: trained on the other corpora's dev questions, measured on this
    corpus's dev questions (how it does on a site it never saw);
  - final: trained on every dev question, measured on the held-out questions (reported,
    never used to choose anything).

Prints the weights of the final fit, in the order of fusion_model::FEATURES (0 for a
feature left out). Short queries are left out of the measure (a section named by the
query goes first there, whatever the fusion). Pure Python.

Besides the shipped features, the dump carries measured-only ones under "extra" (BM25 of the
heading path, of the section's own heading and of the text alone, the share of the heading's
terms the question has, an identifier of a heading named by the question, section length);
this script adds page-level ones (the best cosine gap and BM25 of the candidate's page among
the candidates, whether it is its page's best). Name any of them in --features to measure
them. --keyword ranks the keyword list alone (keyword-only search: "before" is BM25's order).

usage: train_fusion.py DIR [--features NAME,NAME...] [--l2 0.01] [--epochs 300] [--keyword]
"""
import argparse
import glob
import json
import math
import os

# The order of fusion_model::FEATURES.
ALL = ["dense_rrf", "lexical_rrf", "cosine", "cosine_gap", "bm25_rel", "dense_near", "lexical_near"]


def page_features(q):
    """The candidate's page among the question's candidates: its best cosine gap and BM25."""
    pages = {}
    for c in q["candidates"]:
        pages.setdefault(c.get("extra", {}).get("page"), []).append(c["features"])
    for c in q["candidates"]:
        f, siblings = c["features"], pages[c.get("extra", {}).get("page")]
        c.setdefault("extra", {})
        c["extra"]["page_cos_gap"] = max(s["cosine_gap"] for s in siblings)
        c["extra"]["page_bm25"] = max(s["bm25_rel"] for s in siblings)
        c["extra"]["page_best"] = 1.0 if f["cosine_gap"] >= c["extra"]["page_cos_gap"] else 0.0
        c["extra"]["page_count"] = math.log(len(siblings))


def keyword_only(q):
    """The keyword list alone, in BM25's order (what keyword-only search ranks)."""
    cands = [c for c in q["candidates"] if c["features"]["lexical_rrf"] > 0]
    cands.sort(key=lambda c: -c["features"]["lexical_rrf"])
    for r, c in enumerate(cands, 1):
        c["rrf_rank"] = r
    q["candidates"] = cands


def load(directory, keyword=False):
    data = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.cand.jsonl"))):
        corpus = os.path.basename(path)[: -len(".cand.jsonl")]
        data[corpus] = [json.loads(line) for line in open(path)]
        for q in data[corpus]:
            if keyword:
                keyword_only(q)
            page_features(q)
    return data


def value(c, name):
    return c["features"][name] if name in c["features"] else c["extra"][name]


def vectors(q, names):
    return [[value(c, n) for n in names] for c in q["candidates"]]


def usable(q):
    return not q["unanswerable"] and any(c["label"] for c in q["candidates"])


def fit(questions, names, l2, epochs, rate=0.5):
    """Listwise softmax regression on standardised features; weights on the raw features."""
    rows = [(vectors(q, names), [c["label"] for c in q["candidates"]]) for q in questions if usable(q)]
    flat = [x for xs, _ in rows for x in xs]
    dims = len(names)
    mean = [sum(x[i] for x in flat) / len(flat) for i in range(dims)]
    std = [max(1e-6, math.sqrt(sum((x[i] - mean[i]) ** 2 for x in flat) / len(flat))) for i in range(dims)]
    zrows = [([[(x[i] - mean[i]) / std[i] for i in range(dims)] for x in xs], ys) for xs, ys in rows]
    w = [0.0] * dims
    for _ in range(epochs):
        grad = [0.0] * dims
        for zs, ys in zrows:
            scores = [sum(wi * zi for wi, zi in zip(w, z)) for z in zs]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            pos = sum(e for e, y in zip(exps, ys) if y)
            for z, e, y in zip(zs, exps, ys):
                # d(-log P(pos)) / d score = p - (y * e / pos)
                g = e / total - (e / pos if y else 0.0)
                if g:
                    for i in range(dims):
                        grad[i] += g * z[i]
        for i in range(dims):
            w[i] -= rate * (grad[i] / len(zrows) + l2 * w[i])
    return [w[i] / std[i] for i in range(dims)]


def first_hit(q, names, weights):
    """1-based rank of the first answering candidate (None if none), by the model or by RRF."""
    cands = q["candidates"]
    if weights is None:
        order = sorted(range(len(cands)), key=lambda i: cands[i]["rrf_rank"])
    else:
        xs = vectors(q, names)
        scores = [sum(wi * xi for wi, xi in zip(weights, x)) for x in xs]
        rrf = [c["features"]["dense_rrf"] + c["features"]["lexical_rrf"] for c in cands]
        order = sorted(range(len(cands)), key=lambda i: (-scores[i], -rrf[i], cands[i]["chunk"]))
    for r, i in enumerate(order, 1):
        if cands[i]["label"]:
            return r
    return None


def measure(questions, names, weights):
    rs = [first_hit(q, names, weights) for q in questions if not q["unanswerable"] and not q["short"]]
    n = max(1, len(rs))
    return {
        "n": len(rs),
        "hit@1": sum(1 for r in rs if r and r <= 1),
        "hit@3": sum(1 for r in rs if r and r <= 3),
        "MRR": sum(1 / r for r in rs if r) / n,
    }


def fmt(m):
    return f"n={m['n']:3} hit@1 {m['hit@1']:3} hit@3 {m['hit@3']:3} MRR {m['MRR']:.3f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--features", default=",".join(ALL))
    ap.add_argument("--l2", type=float, default=0.01)
    ap.add_argument("--epochs", type=int, default=300)
    ap.add_argument("--keyword", action="store_true")
    args = ap.parse_args()
    names = args.features.split(",")
    data = load(args.dir, args.keyword)
    dev = {c: [q for q in qs if q["split"] == "dev"] for c, qs in data.items()}
    held = {c: [q for q in qs if q["split"] == "heldout"] for c, qs in data.items()}

    def pooled(rows):
        return {"n": sum(r["n"] for r in rows), "hit@1": sum(r["hit@1"] for r in rows),
                "hit@3": sum(r["hit@3"] for r in rows),
                "MRR": sum(r["MRR"] * r["n"] for r in rows) / max(1, sum(r["n"] for r in rows))}

    print(f"features: {names}")
    print("leave-one-corpus-out (dev of the left-out corpus):")
    befores, afters = [], []
    for corpus in data:
        train = [q for c, qs in dev.items() if c != corpus for q in qs]
        w = fit(train, names, args.l2, args.epochs)
        base, model = measure(dev[corpus], names, None), measure(dev[corpus], names, w)
        befores.append(base)
        afters.append(model)
        print(f"  {corpus:<22} before {fmt(base)}   after {fmt(model)}")
    print(f"  {'pooled':<22} before {fmt(pooled(befores))}   after {fmt(pooled(afters))}")
    w = fit([q for qs in dev.values() for q in qs], names, args.l2, args.epochs)
    print("final (trained on all dev), held-out:")
    for corpus in data:
        print(f"  {corpus:<22} before {fmt(measure(held[corpus], names, None))}   after {fmt(measure(held[corpus], names, w))}")
    all_held = [q for qs in held.values() for q in qs]
    print(f"  {'pooled':<22} before {fmt(measure(all_held, names, None))}   after {fmt(measure(all_held, names, w))}")
    all_dev = [q for qs in dev.values() for q in qs]
    print(f"  {'dev, in-sample':<22} before {fmt(measure(all_dev, names, None))}   after {fmt(measure(all_dev, names, w))}")
    weights = dict(zip(names, w))
    print("weights (fusion_model::WEIGHTS):")
    print("  [" + ", ".join(f"{weights.get(n, 0.0):.6}" for n in ALL) + "]")


if __name__ == "__main__":
    main()
