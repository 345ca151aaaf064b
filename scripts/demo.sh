#!/usr/bin/env bash
# Sets up and runs Lectern on the bundled example textbook (www/example):
# fetches the model, builds the `lectern` CLI, embeds a sample question, indexes the
# textbook into a static bundle and searches it, builds the site and serves it on 127.0.0.1.
#
#   scripts/demo.sh [--no-serve] [--port N]
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$LECTERN_ROOT"

serve=1
port=3000
while [ $# -gt 0 ]; do
  case "$1" in
    --no-serve) serve=0 ;;
    --port) port="$2"; shift ;;
    *) echo "usage: scripts/demo.sh [--no-serve] [--port N]" >&2; exit 2 ;;
  esac
  shift
done

step "setup"
scripts/setup.sh rust model node

step "build the lectern CLI"
cargo build --release -p index-build

step "embed a sample question"
"$LECTERN_BIN" embed "How do ROS 2 nodes discover each other?"

step "index the example textbook"
bundle="$LECTERN_CACHE/example-bundle"
"$LECTERN_BIN" build www/example --out "$bundle"

step "ask it a question (retrieval only)"
"$LECTERN_BIN" search --index "$bundle" "How do I see the messages published on /cmd_vel?"

step "build the example site"
(cd www/example && NO_UPDATE_NOTIFIER=1 npx docusaurus build)

if [ "$serve" = 1 ]; then
  step "serving the example site on http://127.0.0.1:$port/ (Ctrl+C stops)"
  cd www/example && exec npx docusaurus serve --host 127.0.0.1 --port "$port" --no-open
fi
