#!/usr/bin/env bash
# The partitioned dense index on real MiniLM vectors (issue 28, point 2): embeds, once, the
# sections of the sample site and the shared corpora (`lectern chunks --json`), SciFact's
# abstracts and the generated 10,000-page site's sections (scripts/bench/gen-site.py), in
# passage form with windows as the bundle embeds them, plus the labelled questions, SciFact's
# test queries and the big-site questions; caches the vectors under
# $LECTERN_CACHE/bench/real-vectors/ (resumable: a killed run continues); then runs
# examples/bench_dense_parts.rs, which prints, per size, bytes per question (brotli, cold
# cache), round trips, search time, recall@10 against the exact int8 scan, build time and
# memory, beside today's single file; then the search time in headless Chromium once a
# question's parts are attached (tests/wasm_dense_parts_bench.rs, 100 questions, 30,000
# vectors, the default settings). Prints figures; asserts nothing about time. Embedding takes
# one to two hours on 2 cores the first time; it runs at nice 19.
#
#   scripts/bench/dense-parts.sh [SIZES] [KEY=VALUE...]   (passed to bench_dense_parts)
#   e.g. scripts/bench/dense-parts.sh 10000,30000,all
#        scripts/bench/dense-parts.sh 30000 synthetic=false "sweep=probe:8,16;rescore:32,64"
#   --embed-only   stop after the vectors are cached
#   --no-browser   skip the Chromium measurement
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"

embed_only=0
browser=1
args=()
for arg in "$@"; do
  case "$arg" in
    --embed-only) embed_only=1 ;;
    --no-browser) browser=0 ;;
    -h | --help) sed -n '2,21p' "$0"; exit 0 ;;
    *) args+=("$arg") ;;
  esac
done
corpora="${LECTERN_CORPORA:-$LECTERN_ROOT/../shared/corpora}"
scifact="${SCIFACT_DIR:-$LECTERN_ROOT/../shared/bench/scifact}"
cache="$LECTERN_CACHE/bench/real-vectors"
big="$LECTERN_CACHE/bench/big-site"
mkdir -p "$cache/chunks" "$cache/texts"
scripts/setup.sh model

step "the sites' sections"
cargo build --quiet --release -p index-build
[ -d "$big/site/docs" ] || python3 scripts/bench/gen-site.py --out "$big/site" --pages 10000 --seed 1 --corpora "$corpora"
sites=(sample=www/example physical-ai-textbook="$corpora/physical-ai-textbook" jest="$corpora/jest/website"
  typescript-eslint="$corpora/typescript-eslint/packages/website" kcl-lang="$corpora/kcl-lang" big-site="$big/site")
specs=()
for spec in "${sites[@]}"; do
  name="${spec%%=*}"
  [ -s "$cache/chunks/$name.jsonl" ] || "$LECTERN_BIN" chunks "${spec#*=}" --json >"$cache/chunks/$name.jsonl" 2>/dev/null
  specs+=("$name=$cache/chunks/$name.jsonl")
done
python3 scripts/bench/dense-parts/texts.py --out "$cache/texts" --scifact "$scifact" \
  --questions tests/eval/questions --big-site-script scripts/bench/big-site.sh "${specs[@]}"

step "embed (cached in $cache; nice 19)"
cargo build --quiet --release -p lectern --example real_vectors --example bench_dense_parts
for name in queries sample physical-ai-textbook jest typescript-eslint kcl-lang scifact big-site; do
  input="$cache/texts/passages.$name.jsonl"
  [ "$name" = queries ] && input="$cache/texts/queries.jsonl"
  nice -n 19 "$CARGO_TARGET_DIR/release/examples/real_vectors" "$input" "$cache/$name" 2>&1 | tail -1
done
[ "$embed_only" = 1 ] && exit 0

step "bench_dense_parts"
work="$LECTERN_CACHE/bench/dense-parts"
"$CARGO_TARGET_DIR/release/examples/bench_dense_parts" "$cache" "$work" "${args[@]}"
[ "$browser" = 1 ] || exit 0

step "search time in Chromium (30,000 vectors, default settings, 100 questions)"
scripts/setup.sh wasm browser
"$CARGO_TARGET_DIR/release/examples/bench_dense_parts" "$cache" "$work" 30000 synthetic=false \
  browser="$work/browser/dense-parts" >/dev/null
trap stop_asset_server EXIT
run_wasm_tests "$work/browser" --test wasm_dense_parts_bench -- --include-ignored --nocapture | grep BENCH
