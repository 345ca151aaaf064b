#!/usr/bin/env bash
# The portable CLI (@lectern/cli-wasm32-wasi: wasm32-wasip1 run by Node's WASI) against the
# native binary, side by side in one run: a full `lectern build` of a site (empty output
# folder, --no-model) with each, BENCH_RUNS times (default 2) alternating, fastest counts.
# Prints a Markdown table for BENCHMARKS.md ("The CLI on every platform").
#
#   scripts/bench/cli-wasi.sh [SITE]        default: www/example
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"
site="${1:-www/example}"
runs="${BENCH_RUNS:-2}"
scripts/setup.sh model >/dev/null
rustup target add wasm32-wasip1 >/dev/null
cargo build --quiet --release -p index-build
cargo build --quiet --release -p index-build --target wasm32-wasip1
wasm="$CARGO_TARGET_DIR/wasm32-wasip1/release/lectern.wasm"
work="$(mktemp -d "${TMPDIR:-/tmp}/lectern-wasi-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# The package's runner next to the module, as npm installs them.
cp npm/cli-wasi/run.js "$work/run.js"
ln -s "$wasm" "$work/lectern.wasm"

best() { sort -n | head -1; }
time_build() { # OUT CMD...: seconds of one full build into an empty OUT
  local out="$1" start
  shift
  rm -rf "$out"
  start=$(date +%s.%N)
  "$@" build "$site" --out "$out" --no-model --json >"$out.json" || { echo "cli-wasi: $* build failed" >&2; return 1; }
  echo "$(date +%s.%N) - $start" | bc
}
native=() portable=()
for _ in $(seq "$runs"); do
  t="$(time_build "$work/native" "$LECTERN_BIN")"
  native+=("$t")
  # The flags @lectern/cli's launcher runs the portable build with (npm/cli/index.js).
  t="$(time_build "$work/wasi" node --no-warnings --no-incremental-marking "$work/run.js")"
  portable+=("$t")
done
n="$(printf '%s\n' "${native[@]}" | best)"
w="$(printf '%s\n' "${portable[@]}" | best)"
chunks="$(node -p "require('$work/native.json').chunks")"
cmp -s <(node -p "JSON.stringify(require('$work/native.json').files.map(f=>f.name))") \
  <(node -p "JSON.stringify(require('$work/wasi.json').files.map(f=>f.name))") &&
  same="identical bundle files (content-hashed names)" || same="bundle files DIFFER"
echo
echo "| CLI ($site, $chunks chunks, $(nproc) cores) | full build, s (best of $runs) | chunks/s | vs native |"
echo "|---|---|---|---|"
printf '| native (%s) | %.1f | %.1f | 1.00× |\n' "$(uname -m)" "$n" "$(echo "$chunks / $n" | bc -l)"
printf '| wasm32-wasip1 on Node %s | %.1f | %.1f | %.2f× slower |\n' "$(node --version)" "$w" "$(echo "$chunks / $w" | bc -l)" "$(echo "$w / $n" | bc -l)"
echo
echo "$same"
