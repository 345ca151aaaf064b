#!/usr/bin/env bash
# Sets up and runs Lectern on the bundled example textbook (www/example): builds the `lectern`
# CLI and the browser runtime, starts the local streaming LLM server (scripts/llm-server),
# builds the site with docusaurus-plugin-lectern — which indexes the textbook and adds the
# chat widget to every docs page — and serves it on http://127.0.0.1:3000/. Offline.
#
#   scripts/demo.sh [--extractive] [--no-serve] [--port N] [--llm-port N]
#
#   --extractive   no LLM: answers are the best sentences of the best sections, cited
#   --no-serve     build everything, then stop
#   --port N       serve the site on port N (default 3000)
#   --llm-port N   run the LLM server on port N (default: a free port)
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$LECTERN_ROOT"

serve=1
port=3000
llm=1
llm_port=""
usage="usage: scripts/demo.sh [--extractive] [--no-serve] [--port N] [--llm-port N]"
while [ $# -gt 0 ]; do
  case "$1" in
    --extractive) llm=0 ;;
    --no-serve) serve=0 ;;
    --port) port="${2:?$usage}"; shift ;;
    --llm-port) llm_port="${2:?$usage}"; shift ;;
    -h | --help) echo "$usage"; exit 0 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done

step "setup"
scripts/setup.sh rust wasm model node

step "build the lectern CLI"
cargo build --release -p index-build
export LECTERN_BIN

step "build the browser runtime (pkg/)"
scripts/build-pkg.sh

LLM_PID=""
cleanup() { [ -z "$LLM_PID" ] || kill "$LLM_PID" 2>/dev/null || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM

endpoint=""
if [ "$llm" = 1 ]; then
  step "start the local streaming LLM server (scripts/llm-server)"
  [ -n "$llm_port" ] || llm_port="$(free_port)"
  llm_log="$(mktemp "${TMPDIR:-/tmp}/lectern-llm.XXXXXX")"
  node scripts/llm-server/server.mjs --host 127.0.0.1 --port "$llm_port" >"$llm_log" 2>&1 &
  LLM_PID=$!
  wait_for_url "http://127.0.0.1:$llm_port/health" 10 || { cat "$llm_log"; exit 1; }
  head -n 1 "$llm_log"
  endpoint="http://127.0.0.1:$llm_port/v1/chat/completions"
else
  echo "extractive mode: no LLM; answers quote the best sections"
fi

step "build the example site (the plugin indexes the textbook and adds the widget)"
(cd www/example && LECTERN_ENDPOINT="$endpoint" NO_UPDATE_NOTIFIER=1 npx docusaurus build)

step "ask the index a question from the command line (retrieval only)"
"$LECTERN_BIN" search --index www/example/build/lectern/bundle "How do I see the messages published on /cmd_vel?"

if [ "$serve" = 1 ]; then
  step "serving the example site on http://127.0.0.1:$port/ (Ctrl+C stops)"
  echo "open http://127.0.0.1:$port/docs/intro and press Ctrl+I (or the Ask button), or select text and choose \"Ask about this\""
  (cd www/example && NO_UPDATE_NOTIFIER=1 npx docusaurus serve --host 127.0.0.1 --port "$port" --no-open)
fi
