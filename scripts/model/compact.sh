#!/usr/bin/env bash
# Writes the compact model file (model-compact.lcm: low-bit weights, Lectern's own format,
# src/embed/compact/) from the f32 ONNX export, with `lectern compact-model`, into the model
# folder; what the browser downloads and `lectern build` embeds with. Deterministic: the
# result must equal the sha256 recorded in scripts/model/checksums.sha256. Idempotent.
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"
here="$LECTERN_ROOT/scripts/model"
file="$LECTERN_MODEL_DIR/model-compact.lcm"
expected="$(awk '$2 == "model-compact.lcm" { print $1 }' "$here/checksums.sha256")"

if [ -f "$file" ] && [ "$(sha256sum "$file" | cut -d' ' -f1)" = "$expected" ]; then
  echo "model: $file is up to date"
  exit 0
fi
cargo build --release -p index-build
"$LECTERN_BIN" compact-model --model-dir "$LECTERN_MODEL_DIR"
actual="$(sha256sum "$file" | cut -d' ' -f1)"
if [ "$actual" != "$expected" ]; then
  echo "model: $file (sha256 $actual) is not the recorded model-compact.lcm ($expected)" >&2
  rm -f "$file"
  exit 1
fi
