#!/usr/bin/env python3
"""onnxruntime (1 thread) + Hugging Face tokenizers on the same ONNX model and texts as
examples/bench_embed.rs, timed the same way (10 warm-up runs, then 50), printed as JSON.

Usage: embed_peer.py MODEL.onnx TOKENIZER.json TEXTS.json
"""

import json
import sys
import time

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

WARMUP, RUNS = 10, 50


def main() -> None:
    model_path, tokenizer_path, texts_path = sys.argv[1:4]
    texts = json.load(open(texts_path))
    tokenizer = Tokenizer.from_file(tokenizer_path)
    tokenizer.no_padding()
    tokenizer.enable_truncation(256)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    start = time.perf_counter()
    session = ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])
    load_ms = (time.perf_counter() - start) * 1e3

    def embed(text: str) -> np.ndarray:
        ids = np.array([tokenizer.encode(text).ids], dtype=np.int64)
        mask = np.ones_like(ids)
        hidden = session.run(None, {"input_ids": ids, "attention_mask": mask})[0][0]
        pooled = hidden.mean(axis=0)
        return pooled / np.linalg.norm(pooled)

    def stats(text: str) -> dict:
        for _ in range(WARMUP):
            embed(text)
        samples = []
        for _ in range(RUNS):
            start = time.perf_counter()
            embed(text)
            samples.append((time.perf_counter() - start) * 1e3)
        samples.sort()
        at = lambda q: samples[round((len(samples) - 1) * q)]  # noqa: E731
        return {"runs": RUNS, "min_ms": at(0), "median_ms": at(0.5), "p95_ms": at(0.95), "max_ms": at(1)}

    report = {
        "engine": f"onnxruntime {ort.__version__} native, 1 thread",
        "load_ms": load_ms,
        "query": {"tokens": len(tokenizer.encode(texts["query"]).ids), "stats": stats(texts["query"])},
        "passage": {"tokens": len(tokenizer.encode(texts["passage"]).ids), "stats": stats(texts["passage"])},
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
