#!/usr/bin/env bash
# Calibrates the confidence cut-offs: builds the sample textbook's bundle and runs the
# labelled questions of tests/fixtures/calibration through hybrid and lexical search.
# The chosen defaults live in src/search/confidence.rs; the last results are in
# tests/fixtures/calibration/README.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$LECTERN_ROOT"
scripts/setup.sh rust model
cargo build --release -p index-build
cargo build --release -p lectern --example calibrate
bundle="$LECTERN_CACHE/calibration-bundle"
"$LECTERN_BIN" build www/example --out "$bundle" --no-model
"$CARGO_TARGET_DIR/release/examples/calibrate" "$bundle"
