#!/usr/bin/env python3
"""sentence-transformers encoding the same texts `lectern build` embeds (every window of
every chunk, the `windows` of `lectern chunks --json --windows`), on CPU, timed; printed as
one JSON object. The peer of the build-throughput benchmark (scripts/bench/build.sh).

Usage: build_peer.py SENTENCE_TRANSFORMERS_MODEL_DIR CHUNKS.jsonl
"""

import json
import sys
import time

import sentence_transformers
import torch
from sentence_transformers import SentenceTransformer

BATCH = 32  # sentence-transformers' default; it sorts texts by length itself


def main() -> None:
    model_dir, chunks_path = sys.argv[1:3]
    chunks = [json.loads(line)["windows"] for line in open(chunks_path, encoding="utf-8") if line.strip()]
    texts = [window for windows in chunks for window in windows]
    start = time.perf_counter()
    model = SentenceTransformer(model_dir, device="cpu")
    load_s = time.perf_counter() - start
    assert model.max_seq_length == 256, model.max_seq_length  # the same truncation as Lectern
    # One small batch first, so one-off start-up costs (allocator, kernels) are not timed.
    model.encode(texts[:BATCH], batch_size=BATCH, normalize_embeddings=True)
    start = time.perf_counter()
    vectors = model.encode(texts, batch_size=BATCH, normalize_embeddings=True, convert_to_numpy=True)
    encode_s = time.perf_counter() - start
    assert vectors.shape == (len(texts), 384), vectors.shape
    report = {
        "engine": f"sentence-transformers {sentence_transformers.__version__}, torch {torch.__version__}",
        "torch_threads": torch.get_num_threads(),
        "batch_size": BATCH,
        "chunks": len(chunks),
        "vectors": len(texts),
        "load_s": load_s,
        "encode_s": encode_s,
        "chunks_per_s": len(chunks) / encode_s,
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
