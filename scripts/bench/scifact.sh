#!/usr/bin/env bash
# Retrieval quality on SciFact (BEIR): nDCG@10 and recall@100 of dense, lexical and hybrid
# search, plus a sweep of the fusion settings, printed as Markdown for BENCHMARKS.md.
#
#   scripts/bench/scifact.sh [--f32-model]     --f32-model adds the f32 ONNX model as a row
#
# The data is read in place from ../shared/bench/scifact (override: SCIFACT_DIR); nothing of
# it is copied into the repo. The first run embeds the 5,183 abstracts (minutes on 2 cores);
# their vectors are cached in $LECTERN_CACHE/bench/, keyed by model fingerprint and corpus.
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"
data="${SCIFACT_DIR:-$LECTERN_ROOT/../shared/bench/scifact}"
for f in corpus.jsonl queries_test.jsonl qrels/test.tsv; do
  [ -f "$data/$f" ] || { echo "scifact: $data/$f not found (set SCIFACT_DIR)" >&2; exit 1; }
done
scripts/setup.sh model

step "SciFact"
cargo build --quiet --release -p lectern --example bench_scifact
"$CARGO_TARGET_DIR/release/examples/bench_scifact" "$data" "$LECTERN_CACHE/bench" "$@"
