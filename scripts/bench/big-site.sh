#!/usr/bin/env bash
# Keyword search on a large site (issue 15, point 2): generates a Docusaurus docs tree of
# 10,000 pages from the shared corpora (scripts/bench/gen-site.py: recombined, not copied;
# seeded), builds its bundle with `lectern build --no-embed` (the keyword index is what is
# measured; stand-in vectors spare an hour of embedding on 2 cores, and the bundle refuses
# semantic search), then measures in headless Chromium, for several questions each with an
# empty cache, the bytes a first-time reader fetches by role: wasm core, JS, manifest, chunk
# table, term catalog pages and shards, chunk catalog pages, metadata and text shards
# (scripts/bench/big-site/measure.mjs). Prints figures; asserts nothing about time.
#
#   scripts/bench/big-site.sh [--pages N] [--seed N] [--k N] [--work DIR] [--sample]
#                             [--embed] [--edit-percent P] [--no-measure]
#     --sample         measure the sample site's bundle (www/example, built with the model) too
#     --embed          build with the model (real vectors, semantic search works) instead of
#                      --no-embed: hours at 10,000 pages on 2 cores. The build resumes from
#                      what it embedded (its journal, or the bundle already in --work)
#     --edit-percent P then edit P% of the pages (gen-site.py) and build again: what an
#                      incremental rebuild re-embeds, and its time (the tree is written back
#                      unedited on the next run, which re-embeds those pages once more)
#     --no-measure     build only (no browser)
#   Each build runs under /usr/bin/time -v: its summary (--json) and peak memory are kept in
#   the work folder as build.json / build.time (edit.json / edit.time for the rebuild).
#   LECTERN_SKIP_PKG_BUILD=1   reuse pkg/ as it is
#   LECTERN_BIN=PATH           this `lectern` CLI builds (else cargo build -p index-build)
user_bin="${LECTERN_BIN:-}"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"

pages=10000
seed=1
k=3
work="$LECTERN_CACHE/bench/big-site"
sample=0
embed=0
edit_percent=0
measure=1
while [ $# -gt 0 ]; do
  case "$1" in
    --pages) pages="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --k) k="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --sample) sample=1; shift ;;
    --embed) embed=1; shift ;;
    --edit-percent) edit_percent="$2"; shift 2 ;;
    --no-measure) measure=0; shift ;;
    -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "big-site: unknown argument $1" >&2; exit 2 ;;
  esac
done

# Questions a reader of the generated site might ask: rare identifiers, plain prose, and
# words that occur on most pages (the worst case for a term-sharded index).
questions=(
  "How do I mock a module with jest.mock?"
  "What does the no-floating-promises rule report?"
  "How do I echo messages on /cmd_vel?"
  "snapshot testing with toMatchSnapshot"
  "inverse kinematics for a humanoid arm"
  "How do I configure parserOptions.project for typed linting?"
  "How do I test my code?"
)

step "generate a site of $pages pages (seed $seed) into $work/site"
mkdir -p "$work"
python3 scripts/bench/gen-site.py --out "$work/site" --pages "$pages" --seed "$seed"

if [ -z "$user_bin" ]; then
  cargo build --release -p index-build
  user_bin="$LECTERN_BIN"
fi
# A copy: other checkouts share the target folder, and the builds below may take hours.
cp "$user_bin" "$work/lectern"
build_flags=(--no-embed)
label="lectern build --no-embed"
if [ "$embed" = 1 ]; then
  build_flags=()
  label="lectern build, with the model"
fi
# One build of the tree in $work/site into $work/bundle: its summary and peak memory as
# $work/NAME.json and $work/NAME.time, printed in a line.
build() {
  local name="$1"
  /usr/bin/time -v -o "$work/$name.time" "$work/lectern" build "$work/site" --out "$work/bundle" \
    "${build_flags[@]}" --json --progress json >"$work/$name.json" 2>"$work/$name.log" ||
    { tail -20 "$work/$name.log"; exit 1; }
  local peak
  peak=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/$name.time")
  jq -r --arg peak "$peak" '"  \(.chunks) sections, \(.vectors) vectors: embedded \(.embedded), reused \(.reused)" +
    " in \(.seconds * 10 | round / 10) s, peak memory \($peak) MB"' "$work/$name.json"
}

step "$label"
build build

if [ "$edit_percent" != 0 ]; then
  step "edit $edit_percent% of the pages, build again"
  python3 scripts/bench/gen-site.py --out "$work/site" --pages "$pages" --seed "$seed" --edit-percent "$edit_percent"
  build edit
fi
[ "$measure" = 1 ] || exit 0

if [ "${LECTERN_SKIP_PKG_BUILD:-}" != 1 ] || [ ! -f pkg/lectern_core.js ]; then
  scripts/build-pkg.sh
fi
npm_ci scripts/bench/big-site

step "bytes of one keyword search, empty cache, $pages-page site"
node scripts/bench/big-site/measure.mjs --bundle "$work/bundle" --pkg pkg --k "$k" \
  --cache "$LECTERN_CACHE/bench-encoded" --json "$work/big-site.json" "${questions[@]}"

if [ "$sample" = 1 ]; then
  step "the same on the sample site (www/example, with the model)"
  "$LECTERN_BIN" build www/example --out "$work/sample-bundle" >"$work/sample-build.log" 2>&1 ||
    { cat "$work/sample-build.log"; exit 1; }
  node scripts/bench/big-site/measure.mjs --bundle "$work/sample-bundle" --pkg pkg --k "$k" \
    --cache "$LECTERN_CACHE/bench-encoded" --json "$work/sample.json" \
    "How do ROS 2 nodes discover each other?" "What is a URDF file?" "How do I echo messages on /cmd_vel?"
fi
