#!/usr/bin/env python3
"""onnxruntime's own per-op profile of the same model-int8.onnx and texts as
examples/profile_ops.rs (1 thread, all graph optimisations, as onnxruntime-web runs it):
10 warm-up runs, then 50 profiled ones; a node counts with its median kernel time and an op
type with the sum of its nodes' medians. The op names are those of onnxruntime's optimised
graph, so they show what it fused (e.g. Gelu, SkipLayerNormalization) that tract runs as
separate elementwise ops.

Usage: ort_profile.py MODEL.onnx TOKENIZER.json TEXTS.json [--json]
"""

import collections
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

WARMUP, RUNS = 10, 50


def profile(model_path: str, ids: list) -> dict:
    feeds = {"input_ids": np.array([ids], dtype=np.int64), "attention_mask": np.ones((1, len(ids)), dtype=np.int64)}
    with tempfile.TemporaryDirectory() as tmp:
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        plain = ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])
        for _ in range(WARMUP):
            plain.run(None, feeds)
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            plain.run(None, feeds)
            times.append((time.perf_counter() - start) * 1e3)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.enable_profiling = True
        options.profile_file_prefix = os.path.join(tmp, "ort")
        session = ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])
        for _ in range(WARMUP):
            session.run(None, feeds)
        for _ in range(RUNS):
            session.run(None, feeds)
        events = json.load(open(session.end_profiling()))
    per_node = collections.defaultdict(list)
    op_of = {}
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            per_node[e["name"]].append(e["dur"] / 1e3)
            op_of[e["name"]] = e["args"]["op_name"]
    by_op = collections.defaultdict(lambda: [0, 0.0])
    for name, durs in per_node.items():
        # The last RUNS samples of each node are the timed runs (warm-up came first).
        by_op[op_of[name]][0] += 1
        by_op[op_of[name]][1] += statistics.median(durs[-RUNS:])
    total = sum(v[1] for v in by_op.values())
    ops = sorted(({"op": k, "nodes": v[0], "ms": v[1], "share": v[1] / total} for k, v in by_op.items()), key=lambda r: -r["ms"])
    return {"tokens": len(ids), "median_ms": statistics.median(times), "kernel_ms": total, "ops": ops}


def main() -> None:
    model_path, tokenizer_path, texts_path = sys.argv[1:4]
    as_json = "--json" in sys.argv[4:]
    texts = json.load(open(texts_path))
    tokenizer = Tokenizer.from_file(tokenizer_path)
    tokenizer.no_padding()
    tokenizer.enable_truncation(256)
    report = {"engine": f"onnxruntime {ort.__version__} native, 1 thread"}
    for label in ("query", "passage"):
        report[label] = profile(model_path, tokenizer.encode(texts[label]).ids)
    if as_json:
        print(json.dumps(report))
        return
    for label in ("query", "passage"):
        r = report[label]
        print(f"\n{label} ({r['tokens']} tokens): {report['engine']}: {r['median_ms']:.2f} ms median, kernels {r['kernel_ms']:.2f} ms")
        for row in r["ops"]:
            print(f"    {row['op']:<28} {row['nodes']:>3} nodes {row['ms']:>8.3f} ms {row['share'] * 100:>5.1f}%")


if __name__ == "__main__":
    main()
