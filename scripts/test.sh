#!/usr/bin/env bash
# Sets up and runs every test: formatting, lints, native tests, the retrieval quality gate
# (lectern eval), wasm tests in headless Chromium, the Docusaurus harness self-test, and chunk URLs checked against real Docusaurus
# builds of the sample site and the shared corpora, the JS API and chat in Chromium, the
# local LLM server and the proxy, the widget end to end on the built example site, and a
# new user's Docusaurus site with only the npm packages (scripts/pack.sh).
# Idempotent; safe to re-run.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$LECTERN_ROOT"

step "setup"
scripts/setup.sh

step "format and lints"
cargo fmt --all -- --check
cargo clippy --release --workspace --all-targets -- -D warnings
cargo clippy --profile wasm --target wasm32-unknown-unknown -p lectern --all-targets -- -D warnings
# The browser's three modules are the same crate with other features (scripts/build-pkg.sh).
cargo clippy --profile wasm --target wasm32-unknown-unknown -p lectern --lib --no-default-features --features search -- -D warnings
cargo clippy --profile wasm --target wasm32-unknown-unknown -p lectern --lib --no-default-features --features chat -- -D warnings
cargo clippy --profile wasm --target wasm32-unknown-unknown -p lectern --lib --no-default-features --features embed -- -D warnings

step "native tests"
cargo build --release --workspace
cargo test --release --workspace -- --show-output

step "wasm tests in headless Chromium"
assets="$(mktemp -d "${TMPDIR:-/tmp}/lectern-assets.XXXXXX")"
trap 'stop_asset_server; rm -rf "$assets"' EXIT
ln -s "$LECTERN_ROOT/tests/fixtures/embeddings/reference.json" "$assets/"
# The native vectors of the same texts, for the wasm-equals-native check.
python3 -c 'import json,sys; [print(json.dumps(e["text"])) for e in json.load(open(sys.argv[1]))["entries"] if e["vector"]]' \
  tests/fixtures/embeddings/reference.json >"$assets/texts.jsonl"
"$LECTERN_BIN" embed --json --file "$assets/texts.jsonl" >"$assets/native-compact.jsonl"
# The sample bundle and its native search results, for tests/wasm_retrieval.rs.
"$LECTERN_BIN" build www/example --out "$assets/bundle" >"$assets/bundle-build.log" 2>&1
for mode in lexical hybrid; do
  "$LECTERN_BIN" search --index "$assets/bundle" --json --k 5 --mode "$mode" \
    "How do ROS 2 nodes discover each other?" >"$assets/native-search-$mode.json"
done

step "retrieval quality gate (lectern eval on labelled questions)"
# Thresholds sit a little under what the current ranking reaches (BENCHMARKS.md), so a
# change that makes retrieval worse fails here; no timing is measured.
"$LECTERN_BIN" eval "$assets/bundle" --questions tests/eval/questions/sample.jsonl --mode all \
  --require 'hybrid.hit_at_3>=0.92' --require 'dense.hit_at_3>=0.80' --require 'lexical.hit_at_3>=0.75' \
  --require 'hybrid.mrr>=0.82' --require 'hybrid.selection_hits>=9' --require 'hybrid.off_topic_refused>=4' \
  --require 'hybrid.false_refusals<=0' --require 'lexical.false_refusals<=0' \
  --require 'hybrid.follow_up_hit_at_3>=0.93' --require 'hybrid.follow_up_refused<=0' \
  --require 'hybrid.context_recall>=0.97' --require 'hybrid.high_right_first>=0.85'
textbook="$LECTERN_ROOT/../shared/corpora/physical-ai-textbook"
if [ -d "$textbook" ]; then
  "$LECTERN_BIN" eval "$textbook" --questions tests/eval/questions/physical-ai-textbook.jsonl --mode all \
    --require 'hybrid.hit_at_3>=0.86' --require 'dense.hit_at_3>=0.80' --require 'lexical.hit_at_3>=0.65' \
    --require 'hybrid.mrr>=0.78' --require 'hybrid.selection_hits>=12' --require 'hybrid.off_topic_refused>=4' \
    --require 'hybrid.near_miss_refused>=4' --require 'hybrid.false_refusals<=0' --require 'lexical.false_refusals<=0' \
    --require 'hybrid.follow_up_hit_at_3>=0.81' --require 'hybrid.follow_up_refused<=0' \
    --require 'hybrid.context_recall>=0.97' --require 'hybrid.high_right_first>=0.85'
else
  echo "no $textbook: the real-textbook gate is skipped (the sample site's gate ran)"
fi
run_wasm_tests "$assets" -- --nocapture

step "Docusaurus harness self-test"
node --test tests/docusaurus/selftest.test.mjs

step "the browser package (pkg/)"
# Before the example site's build: its plugin copies pkg/ into the site.
scripts/build-pkg.sh

step "unit tests of the npm launcher and the plugin (node --test; the plugin checks chat options with pkg/'s core)"
node --test npm/
node --test www/docusaurus-plugin-lectern/test/

step "type check and lint of www/ (tsc --checkJs, ESLint with the React hooks rules)"
scripts/lint-www.sh

step "chunk URLs against the real Docusaurus build"
(cd www/example && NO_UPDATE_NOTIFIER=1 npx docusaurus build >"$assets/example-build.log" 2>&1) ||
  { cat "$assets/example-build.log"; exit 1; }
"$LECTERN_BIN" chunks www/example --json >"$assets/example-chunks.jsonl"
node tests/docusaurus/check-urls.mjs --build www/example/build --base-url / \
  --chunks "$assets/example-chunks.jsonl" --min-pct 100
# The plugin wrote the llms files into the build: llms.txt's format, every URL lands, and its
# sections are the categories of the sidebars Docusaurus loaded (sidebars.js), in order.
node tests/docusaurus/check-llms.mjs --build www/example/build --llms www/example/build \
  --sidebars www/example/node_modules/.cache/lectern/default/sidebars.json
# The real Docusaurus trees in ../shared/corpora, when present (skipped otherwise).
LECTERN_BIN="$LECTERN_BIN" LECTERN_MIN_PCT=99 tests/docusaurus/run-corpora.sh

step "JS API and chat (pkg/) in headless Chromium"
LECTERN_SKIP_PKG_BUILD=1 tests/browser/run.sh

step "local LLM server and the keyless proxy (node --test, wrangler dev)"
proxy/cloudflare-worker/test.sh

step "the widget and the plugin end to end (Playwright on the built example site)"
LECTERN_SKIP_PKG_BUILD=1 tests/e2e/run.sh

step "one rule in one place: the site build and the browser agree on every chat configuration of tests/config/cases.json"
node --test tests/config/

step "a new user's site: create-docusaurus (JS and TS), only the npm tarballs, build, start, ask in Chromium"
tests/new-user/run.sh
