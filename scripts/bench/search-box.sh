#!/usr/bin/env bash
# The search box's speed against Pagefind (issue 26, point 4): keystroke to rendered rows
# (median, p95), bytes from focus to the first results, on the sample site (www/example,
# with the model: hybrid too) and on the 10,000-page generated site (scripts/bench/gen-site.py,
# keyword index: `lectern build --no-embed`, as scripts/bench/big-site.sh builds it). Pagefind
# 1.6 indexes the same sections (search-box/index-pagefind.mjs). Prints figures and ratios;
# asserts nothing about time. Not part of scripts/test.sh.
#
#   scripts/bench/search-box.sh [--runs N] [--pages N] [--no-big] [--json DIR]
#   LECTERN_SKIP_PKG_BUILD=1   reuse pkg/ as it is
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"

runs=3
pages=10000
big=1
json=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --pages) pages="$2"; shift 2 ;;
    --no-big) big=0; shift ;;
    --json) json="$2"; mkdir -p "$json"; shift 2 ;;
    -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "search-box: unknown argument $1" >&2; exit 2 ;;
  esac
done
work="$LECTERN_CACHE/bench/search-box"
mkdir -p "$work"

cargo build --release -p index-build
if [ "${LECTERN_SKIP_PKG_BUILD:-}" != 1 ] || [ ! -f pkg/lectern_core.js ]; then
  scripts/build-pkg.sh
fi
npm_ci scripts/bench/search-box

# index SITE NAME [build args...]: Lectern's bundle and Pagefind's index of SITE's sections.
index() {
  local site="$1" name="$2"
  shift 2
  step "$name: lectern build $* and Pagefind over the same sections"
  local start=$SECONDS
  "$LECTERN_BIN" build "$site" --out "$work/$name-bundle" "$@" >"$work/$name-build.log" 2>&1 ||
    { cat "$work/$name-build.log"; exit 1; }
  echo "  lectern build: $((SECONDS - start)) s"
  "$LECTERN_BIN" chunks "$site" --json >"$work/$name-chunks.jsonl"
  start=$SECONDS
  rm -rf "$work/$name-pagefind"
  node scripts/bench/search-box/index-pagefind.mjs --chunks "$work/$name-chunks.jsonl" --out "$work/$name-pagefind"
  echo "  pagefind: $((SECONDS - start)) s"
}

measure() {
  local name="$1"
  shift
  local out=()
  [ -z "$json" ] || out=(--json "$json/$name.json")
  node scripts/bench/search-box/measure.mjs --bundle "$work/$name-bundle" --pkg pkg \
    --pagefind "$work/$name-pagefind" --runs "$runs" --label "$name" "${out[@]}" "$@"
}

index www/example sample
step "sample site: Lectern and Pagefind, side by side"
measure sample --hybrid "publisher qos" "launch file" "inverse kinematics" "camera calibration" "how do nodes discover each other"

if [ "$big" = 1 ]; then
  step "generate a site of $pages pages (seed 1)"
  python3 scripts/bench/gen-site.py --out "$work/big-site" --pages "$pages" --seed 1 \
    --corpora "${LECTERN_CORPORA:-$LECTERN_ROOT/../shared/corpora}"
  index "$work/big-site" big --no-embed
  step "the $pages-page site: Lectern (keyword index) and Pagefind, side by side"
  measure big "jest.mock" "no-floating-promises" "cmd_vel" "toMatchSnapshot" "inverse kinematics" "test my code"
fi
