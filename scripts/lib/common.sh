# Sourced by every script: one place for paths and tool locations.
# shellcheck shell=bash
set -euo pipefail

LECTERN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export LECTERN_CACHE="${LECTERN_CACHE:-$HOME/.cache/lectern}"
# One target dir outside the clone, so a fresh clone (CI) reuses the compiled dependencies.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$LECTERN_CACHE/target}"
export PATH="$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export LECTERN_MODEL_DIR="${LECTERN_MODEL_DIR:-$LECTERN_ROOT/.models/all-minilm-l6-v2}"
# LECTERN_BIN may be set to a copy of the CLI kept apart (another worktree's build can replace
# the one in a shared target dir between a build and its use).
LECTERN_BIN="${LECTERN_BIN:-$CARGO_TARGET_DIR/release/lectern}"

# Flags Chromium needs here as root on a machine with no outside network.
CHROMIUM_FLAGS=(--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking
  --disable-component-update --disable-sync --no-first-run --disable-quic)

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# npm_ci DIR [NPM_ARGS...]: `npm ci` in DIR when its package-lock.json changed since the last install
# (a stamp in node_modules), so re-runs cost nothing.
npm_ci() {
  local dir="$1" stamp="$1/node_modules/.lectern-lock.sha256" want
  shift
  want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "npm ci in ${dir#"$LECTERN_ROOT"/}"
    (cd "$dir" && NO_UPDATE_NOTIFIER=1 npm ci --no-audit --no-fund --loglevel=error "$@")
    echo "$want" >"$stamp"
  fi
}

# logged LABEL CMD...: runs CMD (a command or a function) with its output in a log under
# $LOG_DIR; prints the log only if it fails, and then exits.
logged() {
  local label="$1" log
  shift
  log="${LOG_DIR:?logged needs LOG_DIR}/$(echo "$label" | tr -c 'a-zA-Z0-9\n' '-').log"
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "$(basename "$0" .sh): $label failed (log above)" >&2
    exit 1
  fi
}

# A free TCP port on 127.0.0.1.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# wait_for_url URL [SECONDS]: polls until URL answers.
wait_for_url() {
  local url="$1" tries=$(( ${2:-30} * 10 ))
  for _ in $(seq "$tries"); do
    curl -fsS -o /dev/null "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "timed out waiting for $url" >&2
  return 1
}

# Writes a wasm-bindgen-test-runner webdriver.json for Debian's Chromium with a fresh profile
# and prints its path.
webdriver_json() {
  local dir
  dir="$(mktemp -d "${TMPDIR:-/tmp}/lectern-chromium.XXXXXX")"
  python3 - "$dir" "${CHROMIUM_FLAGS[@]}" <<'PY'
import json, sys
dir, flags = sys.argv[1], sys.argv[2:]
caps = {"goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": [f.lstrip("-") for f in flags] + [f"user-data-dir={dir}/profile"]}}
json.dump(caps, open(f"{dir}/webdriver.json", "w"))
PY
  echo "$dir/webdriver.json"
}

# start_asset_server DIR: serves DIR on a free loopback port with CORS (browser tests and
# benches fetch model and fixtures from it). Sets ASSET_URL; stopped by stop_asset_server.
start_asset_server() {
  local port
  port="$(free_port)"
  python3 "$LECTERN_ROOT/scripts/lib/serve_static.py" "$1" "$port" &
  ASSET_SERVER_PID=$!
  ASSET_URL="http://127.0.0.1:$port"
  wait_for_url "$ASSET_URL/"
}
stop_asset_server() {
  [ -z "${ASSET_SERVER_PID:-}" ] || kill "$ASSET_SERVER_PID" 2>/dev/null || true
}

# run_wasm_tests ASSET_DIR [cargo test args...]: the wasm tests in headless Chromium with
# the model and ASSET_DIR's files served to them. Callers trap stop_asset_server on EXIT.
run_wasm_tests() {
  local dir="$1"
  shift
  ln -sf "$LECTERN_MODEL_DIR/model-compact.lcm" "$LECTERN_MODEL_DIR/tokenizer.json" "$dir/"
  start_asset_server "$dir"
  WASM_BINDGEN_TEST_WEBDRIVER_JSON="$(webdriver_json)" WASM_BINDGEN_TEST_TIMEOUT=300 \
    LECTERN_TEST_ASSETS="$ASSET_URL" \
    cargo test --profile wasm --target wasm32-unknown-unknown -p lectern "$@"
  stop_asset_server
}

# corpus_site NAME: the site folder of a labelled corpus (tests/eval/questions/NAME.jsonl):
# the sample site, or a real Docusaurus tree in ../shared/corpora ($LECTERN_CORPORA). A name
# NAME.LOCALE (kcl-lang.zh-CN) is the questions of that locale of the site (scripts/eval.sh).
corpus_site() {
  local corpora="${LECTERN_CORPORA:-$LECTERN_ROOT/../shared/corpora}"
  case "$1" in
    sample) echo "www/example" ;;
    physical-ai-textbook) echo "$corpora/physical-ai-textbook" ;;
    jest) echo "$corpora/jest/website" ;;
    typescript-eslint) echo "$corpora/typescript-eslint/packages/website" ;;
    kcl-lang | kcl-lang.*) echo "$corpora/kcl-lang" ;;
    *) return 1 ;;
  esac
}
