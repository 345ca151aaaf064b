#!/usr/bin/env bash
# run-corpora.sh [--build-only]
#
# For each corpus in <repo>/../shared/corpora: build it with build-site.mjs
# (cached under ${LECTERN_CACHE:-~/.cache/lectern}/corpora/<name>, rebuilt only
# when the corpus, build-site.mjs or the Docusaurus install change), chunk it
# with "$LECTERN_BIN" chunks <site-root> --json, and check every chunk URL
# against the build with check-urls.mjs; write the llms files (lectern build --llms-out) and
# check their format and that every URL lands with check-llms.mjs. Prints one table row per corpus.
#
# Env: LECTERN_BIN (required unless --build-only), LECTERN_CACHE,
# LECTERN_CORPORA (default <repo>/../shared/corpora), LECTERN_MIN_PCT (100).
# Exit: 0 when every corpus passes or the run is skipped, 1 otherwise.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(git -C "$HERE" rev-parse --show-toplevel 2>/dev/null || (cd "$HERE/../.." && pwd))
CORPORA=${LECTERN_CORPORA:-$REPO/../shared/corpora}
CACHE=${LECTERN_CACHE:-$HOME/.cache/lectern}/corpora
MIN_PCT=${LECTERN_MIN_PCT:-100}
LOCK=$REPO/www/example/package-lock.json
BUILD_ONLY=0
[ "${1:-}" = --build-only ] && BUILD_ONLY=1

if [ ! -d "$CORPORA" ]; then
  echo "run-corpora: no corpora at $CORPORA; skipping"
  exit 0
fi
if [ "$BUILD_ONLY" = 0 ] && { [ -z "${LECTERN_BIN:-}" ] || ! command -v "$LECTERN_BIN" >/dev/null; }; then
  echo "run-corpora: LECTERN_BIN is not set or not executable (${LECTERN_BIN:-unset}); skipping"
  exit 0
fi
if [ ! -x "$REPO/www/example/node_modules/.bin/docusaurus" ] && [ -z "${LECTERN_NODE_MODULES:-}" ]; then
  echo "run-corpora: Docusaurus is not installed (run npm ci in www/example); skipping"
  exit 0
fi

# Everything a build depends on, hashed: reuse the cached build when equal.
inputs_hash() {
  { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
    sha256sum "$HERE/build-site.mjs" "$LOCK" 2>/dev/null; } | sha256sum | cut -d' ' -f1
}

status=0
rows=()
for dir in "$CORPORA"/*/; do
  dir=${dir%/}
  name=$(basename "$dir")
  if ! layout=$(node "$HERE/build-site.mjs" --layout "$dir"); then
    echo "run-corpora: $name: no layout known in build-site.mjs; skipping"
    continue
  fi
  IFS=$'\t' read -r site base <<<"$layout"
  out=$CACHE/$name
  mkdir -p "$out"

  hash=$(inputs_hash "$dir")
  build_state=cached
  build_time=-
  if [ "$(cat "$out/inputs.sha256" 2>/dev/null)" != "$hash" ] || [ ! -d "$out/build" ]; then
    echo "== $name: building (log: $out/build.log)"
    rm -f "$out/inputs.sha256"
    start=$SECONDS
    if node "$HERE/build-site.mjs" "$site" "$out/build" >"$out/build.log" 2>&1; then
      echo "$hash" >"$out/inputs.sha256"
      build_state=built
    else
      build_state=FAILED
      tail -20 "$out/build.log"
    fi
    build_time="$((SECONDS - start))s"
  fi
  if [ "$build_state" = FAILED ]; then
    rows+=("$(printf '%-22s %-7s %6s %9s %7s %9s  %s' "$name" FAILED "$build_time" - - - 'build failed')")
    status=1
    continue
  fi
  doc_pages=$(grep -rl --include='*.html' 'theme-doc-markdown' "$out/build" | wc -l)
  if [ "$BUILD_ONLY" = 1 ]; then
    rows+=("$(printf '%-22s %-7s %6s %9s %7s %9s  %s' "$name" "$build_state" "$build_time" "$doc_pages" - - 'build only')")
    continue
  fi

  echo "== $name: chunking with $LECTERN_BIN"
  if ! "$LECTERN_BIN" chunks "$site" --json >"$out/chunks.jsonl" 2>"$out/chunks.err"; then
    tail -20 "$out/chunks.err"
    rows+=("$(printf '%-22s %-7s %6s %9s %7s %9s  %s' "$name" "$build_state" "$build_time" "$doc_pages" - - 'chunker failed')")
    status=1
    continue
  fi
  node "$HERE/check-urls.mjs" --build "$out/build" --base-url "$base" --chunks "$out/chunks.jsonl" \
    --min-pct "$MIN_PCT" >"$out/check.txt"
  check=$?
  node "$HERE/check-urls.mjs" --build "$out/build" --base-url "$base" --chunks "$out/chunks.jsonl" \
    --min-pct "$MIN_PCT" --json >"$out/check.json"
  # The llms files, written from the same read of the site (no model: the text is what counts).
  llms=ok
  if ! "$LECTERN_BIN" build "$site" --out "$out/llms-bundle" --no-embed --progress none --llms-out "$out/llms" \
    >/dev/null 2>"$out/llms.err" ||
    ! node "$HERE/check-llms.mjs" --build "$out/build" --llms "$out/llms" --base-url "$base" >"$out/llms.txt"; then
    cat "$out/llms.err" "$out/llms.txt" 2>/dev/null | tail -20
    llms=FAILED
    status=1
  fi
  sed -n '1,40p' "$out/check.txt"
  [ "$(wc -l <"$out/check.txt")" -gt 40 ] && echo "... (full report: $out/check.txt)"
  read -r chunks pct <<<"$(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1]));console.log(r.chunks, r.pct.toFixed(2))' "$out/check.json")"
  result=ok
  if [ "$check" != 0 ]; then result="below ${MIN_PCT}%"; status=1; fi
  [ "$llms" = ok ] || result="$result; llms files FAILED ($out/llms.txt)"
  rows+=("$(printf '%-22s %-7s %6s %9s %7s %8s%%  %s' "$name" "$build_state" "$build_time" "$doc_pages" "$chunks" "$pct" "$result")")
done

echo
printf '%-22s %-7s %6s %9s %7s %9s  %s\n' corpus build time doc-pages chunks resolving result
for r in "${rows[@]}"; do echo "$r"; done
exit $status
