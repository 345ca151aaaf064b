#!/usr/bin/env bash
# Embedding speed, side by side in one run: Lectern native (tract), onnxruntime native
# (1 thread, same ONNX file), and Lectern's wasm in headless Chromium. Prints a Markdown
# table for BENCHMARKS.md. Figures are medians of 50 runs after 10 warm-up runs.
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"
scripts/setup.sh rust wasm browser model

venv="$LECTERN_CACHE/bench-venv"
if ! "$venv/bin/python" -c "import onnxruntime, tokenizers" 2>/dev/null; then
  python3 -m venv "$venv" && "$venv/bin/pip" install --quiet -r scripts/bench/requirements.txt
fi
out="$(mktemp -d "${TMPDIR:-/tmp}/lectern-bench.XXXXXX")"
trap 'stop_asset_server; rm -rf "$out"' EXIT

step "Lectern native"
cargo run --quiet --release --example bench_embed >"$out/native.json"
step "onnxruntime native"
"$venv/bin/python" scripts/bench/embed_peer.py "$LECTERN_MODEL_DIR/model-int8.onnx" \
  "$LECTERN_MODEL_DIR/tokenizer.json" examples/bench/texts.json >"$out/peer.json"
step "Lectern wasm in Chromium"
run_wasm_tests "$out" --test wasm_embed_bench -- --include-ignored --nocapture | tee "$out/wasm.log"
sed -n 's/.*BENCH //p' "$out/wasm.log" | head -n 1 >"$out/wasm.json"

step "results"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
rows = [json.load(open(f"{out}/{name}.json")) for name in ("native", "peer", "wasm")]
peer = rows[1]
print(f"| engine | load ms | query ({rows[0]['query']['tokens']} tokens) median / p95 ms | passage ({rows[0]['passage']['tokens']} tokens) median / p95 ms | query vs onnxruntime |")
print("|---|---|---|---|---|")
for r in rows:
    q, p = r["query"]["stats"], r["passage"]["stats"]
    ratio = q["median_ms"] / peer["query"]["stats"]["median_ms"]
    print(f"| {r['engine']} | {r['load_ms']:.0f} | {q['median_ms']:.2f} / {q['p95_ms']:.2f} | {p['median_ms']:.1f} / {p['p95_ms']:.1f} | {ratio:.2f}x |")
PY
