#!/usr/bin/env bash
# Builds Lectern's npm packages into dist/ as `npm pack` tarballs, ready to publish or to
# `npm install` from the folder (the new-user test does). Idempotent: rebuilds only what
# changed (cargo, the cached wasm-opt) and replaces the tarballs.
#
#   scripts/pack.sh [--wasi]     --wasi: also the portable @lectern/cli-wasm32-wasi (a second
#                                tract build, ~10 min on 2 cores the first time)
#
#   docusaurus-plugin-lectern   the plugin and the widget; depends on the two below
#   lectern                     the browser runtime (pkg/: JS API, worker, chat, wasm)
#   @lectern/cli                the `lectern` command; optionalDependencies pick the binary
#   @lectern/cli-<platform>     the binary for this machine (npm/cli/platforms.json)
#   @lectern/model-all-minilm-l6-v2   compact model file + tokenizer + checksums + licences
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$LECTERN_ROOT"

wasi=()
for arg in "$@"; do
  case "$arg" in
    --wasi) wasi=(--wasi "$CARGO_TARGET_DIR/wasm32-wasip1/release/lectern.wasm") ;;
    *) echo "pack: unknown argument $arg (--wasi)" >&2; exit 2 ;;
  esac
done

step "pack: model, CLI and browser runtime"
scripts/setup.sh rust wasm model
cargo build --release --locked -p index-build
if [ ${#wasi[@]} -gt 0 ]; then
  rustup target add wasm32-wasip1 >/dev/null
  cargo build --release --locked -p index-build --target wasm32-wasip1
fi
scripts/build-pkg.sh

step "pack: tarballs"
node npm/pack.mjs --out dist --binary "$LECTERN_BIN" "${wasi[@]}"
