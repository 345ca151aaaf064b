#!/usr/bin/env bash
# tract's f32 GEMM kernels for wasm against Lectern's 4x8 (src/embed/wasm_gemm.rs), side by
# side in V8 (Node's WASI runs examples/gemm_kernels.rs built for wasm32-wasip1 with simd128,
# as the portable CLI is). Prints a Markdown table for BENCHMARKS.md ("A 4x8 GEMM kernel for
# wasm"). Kernel names as arguments replace the default three; the first is the reference.
#
#   scripts/bench/gemm-kernels.sh [KERNEL...]
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"
rustup target add wasm32-wasip1 >/dev/null
cargo build --quiet --release --target wasm32-wasip1 --example gemm_kernels
work="$(mktemp -d "${TMPDIR:-/tmp}/lectern-gemm.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# The portable CLI's runner loads lectern.wasm beside it.
cp npm/cli-wasi/run.js "$work/run.js"
ln -s "$CARGO_TARGET_DIR/wasm32-wasip1/release/examples/gemm_kernels.wasm" "$work/lectern.wasm"
echo "Node $(node --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
node "$work/run.js" "$@"
