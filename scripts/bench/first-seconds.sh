#!/usr/bin/env bash
# A reader's first seconds (issue 15, BENCHMARKS.md "A reader's first seconds"): the example
# textbook built with the plugin, served with brotli over a simulated 9 Mbit/s link with
# 40–150 ms round trips that every request shares (page, panel, worker, wasm, index, model,
# LLM stream), in headless Chromium with a 4x slower CPU (page and workers). Lectern: open a
# docs page, open the panel, ask; ms and bytes until the first cited answer and the first
# answer from hybrid retrieval, then a second visit (Cache API warm). Beside it, on the same
# page and link: transformers.js until its first embedding of the same question. Idempotent;
# build output goes to a log that is printed only on failure.
#
#   scripts/bench/first-seconds.sh [--runs N] [--json FILE] [--bundle DIR] [driver options]
#
#   --runs N      visits per side (default 3), sides alternating, medians printed
#   --json FILE   keep every sample
#   --bundle DIR  serve the bundle in DIR (one `lectern build` wrote with the model, e.g. the
#                 generated 10,000-page site's: scripts/bench/big-site.sh --embed) in place of
#                 the example site's own, as the plugin's bundleDir option would: the same
#                 pages, runtime and link, a larger index behind the questions
#   driver options (scripts/bench/browser/first-seconds.mjs): --mbit 9, --rtt 40-150, --cpu 4,
#                 --page /docs/intro/, --question TEXT, --token-ms 15, --sides lectern,tjs,
#                 --then TEXT (a further question, repeatable; the workers' memory is read
#                 after the last answer)
#
#   LECTERN_SKIP_PKG_BUILD=1   reuse pkg/ as it is (else scripts/build-pkg.sh builds it)
#   LECTERN_BIN=PATH           this `lectern` CLI indexes the site (else cargo build -p index-build)
user_bin="${LECTERN_BIN:-}"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"
here=scripts/bench/browser

driver_args=()
bundle=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bundle)
      [ -f "${2:-}/manifest.json" ] || { echo "bench/first-seconds: --bundle needs a bundle folder (with manifest.json)" >&2; exit 2; }
      bundle="$(cd "$2" && pwd)"
      shift ;;
    --json)
      [ -n "${2:-}" ] || { echo "bench/first-seconds: --json needs a file name" >&2; exit 2; }
      driver_args+=(--json "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")")
      shift ;;
    -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
    *) driver_args+=("$1") ;;
  esac
  shift
done

# Per checkout: worktrees measuring different runtimes must not share one built site.
work="$LECTERN_CACHE/first-seconds/$(printf '%s' "$LECTERN_ROOT" | sha256sum | cut -c1-12)"
site="$work/site"
mkdir -p "$work"
logs="$(mktemp -d "${TMPDIR:-/tmp}/lectern-first-seconds.XXXXXX")"
trap 'rm -rf "$logs"' EXIT

LOG_DIR="$logs" # for logged (common.sh)

step "first seconds: setup (Chromium, model, the example site's npm packages)"
logged setup scripts/setup.sh browser model node
[ -f "$LECTERN_MODEL_DIR/model-int8.onnx" ] || { echo "bench/first-seconds: no model in $LECTERN_MODEL_DIR" >&2; exit 1; }

if [ -n "$user_bin" ]; then
  [ -x "$user_bin" ] || { echo "bench/first-seconds: LECTERN_BIN=$user_bin is not an executable" >&2; exit 1; }
  LECTERN_BIN="$user_bin"
else
  step "first seconds: lectern CLI"
  logged setup-rust scripts/setup.sh rust
  logged cli cargo build --release -p index-build
fi
if [ "${LECTERN_SKIP_PKG_BUILD:-}" != 1 ] || [ ! -f pkg/wasm-file.js ]; then
  step "first seconds: browser runtime (scripts/build-pkg.sh)"
  logged setup-wasm scripts/setup.sh rust wasm
  logged pkg scripts/build-pkg.sh
fi

# The site, rebuilt only when what goes into it changed: the runtime, the plugin, the example
# site, the CLI and the model.
inputs="$( {
  find pkg www/docusaurus-plugin-lectern/src www/example/docs www/example/src www/example/static -type f -print0 | sort -z | xargs -0 sha256sum
  sha256sum www/example/docusaurus.config.js www/example/sidebars.js www/example/package-lock.json "$LECTERN_BIN" \
    "$LECTERN_MODEL_DIR/model-compact.lcm" "$LECTERN_MODEL_DIR/model-int8.onnx" "$LECTERN_MODEL_DIR/tokenizer.json"
} | sed 's/  .*\//  /' | sha256sum | cut -c1-16)"
if [ "$(cat "$site/.inputs" 2>/dev/null)" != "$inputs" ]; then
  step "first seconds: docusaurus build of the example site with the plugin"
  # The endpoint is the site's own path: first-seconds.mjs serves the LLM server there, behind
  # the same link, as a site's keyless proxy would be.
  logged site-build env -C www/example LECTERN_BIN="$LECTERN_BIN" LECTERN_ENDPOINT=/api/llm/v1/chat/completions \
    NO_UPDATE_NOTIFIER=1 npx docusaurus build --out-dir "$site"
  grep -h '^\[lectern\]' "$logs/site-build.log" || true
  echo "$inputs" >"$site/.inputs"
else
  echo "first seconds: the site in $site is up to date"
fi

if [ -n "$bundle" ]; then
  # A copy of the site of hard links (no bytes copied) whose bundle folder holds DIR's files.
  served="$work/site-$(printf '%s' "$bundle" | sha256sum | cut -c1-12)"
  own="$(dirname "$(grep -l '"lectern-index"' $(find "$site" -name manifest.json))")"
  rm -rf "$served"
  cp -al "$site" "$served"
  rm -rf "$served/${own#"$site"/}"
  cp -al "$bundle" "$served/${own#"$site"/}"
  echo "first seconds: serving $bundle as ${own#"$site"/} of the example site ($served)"
  site="$served"
fi

step "first seconds: npm ci (transformers.js, playwright-core)"
# --ignore-scripts: only onnxruntime-web's files are used; the native packages that
# transformers.js also depends on (onnxruntime-node, sharp) need not install anything.
logged npm-ci npm_ci "$here" --ignore-scripts

step "first seconds: Lectern vs transformers.js in headless Chromium ($(nproc) cores)"
node "$here/first-seconds.mjs" --site "$site" --model-dir "$LECTERN_MODEL_DIR" "${driver_args[@]}"
