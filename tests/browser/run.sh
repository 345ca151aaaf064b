#!/usr/bin/env bash
# The JS API (pkg/) in headless Chromium: builds what it needs — the lectern CLI, the
# sample bundle, pkg/ (scripts/build-pkg.sh), native reference results — then runs the
# Playwright tests (node --test). Idempotent.
#
#   tests/browser/run.sh [node --test args...]     e.g. --test-name-pattern=cache
#   LECTERN_SKIP_PKG_BUILD=1 tests/browser/run.sh  reuse pkg/ as it is
#   LECTERN_PKG_NO_OPT=1 tests/browser/run.sh      build pkg/ without wasm-opt (saves ~5 min
#                                                  after a core change; not the shipped module)
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/common.sh"
cd "$LECTERN_ROOT"
here=tests/browser

step "browser tests: lectern CLI and sample bundle"
cargo build --release -p index-build
assets="$(mktemp -d "${TMPDIR:-/tmp}/lectern-browser.XXXXXX")"
trap 'rm -rf "$assets"' EXIT
"$LECTERN_BIN" build www/example --out "$assets/bundle" >"$assets/build.log" 2>&1 || { cat "$assets/build.log"; exit 1; }
# The same site with its dense index in parts, as a site above 2,500 vectors has it.
"$LECTERN_BIN" build www/example --out "$assets/bundle-parts" --dense-parts always >"$assets/build.log" 2>&1 || { cat "$assets/build.log"; exit 1; }
# A translated site, every locale: the English bundle, and the Chinese one in zh-CN/.
"$LECTERN_BIN" build tests/fixtures/i18n-site --out "$assets/bundle-i18n" >"$assets/build.log" 2>&1 || { cat "$assets/build.log"; exit 1; }

step "browser tests: native reference results"
mkdir -p "$assets/native"
# One `lectern search --json` per question (and follow-up) and mode, and one embedding per
# text: what the browser must reproduce.
python3 - "$here/questions.json" "$assets" "$LECTERN_BIN" <<'PY'
import json, subprocess, sys
questions, assets, lectern = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
results = []
for mode in ("lexical", "hybrid"):
    for q in questions["search"]:
        out = subprocess.run([lectern, "search", "--index", f"{assets}/bundle", "--json", "--k", "5", "--mode", mode, q],
                             check=True, capture_output=True, text=True).stdout
        results.append({"question": q, "mode": mode, "result": json.loads(out)})
    # Follow-ups, searched in their conversation's context (the chat's `earlier`).
    for f in questions["follow_up"]:
        previous = [a for p in f["previous"] for a in ("--previous", p)]
        out = subprocess.run([lectern, "search", "--index", f"{assets}/bundle", "--json", "--k", "5", "--mode", mode, *previous,
                              "--", f["question"]], check=True, capture_output=True, text=True).stdout
        results.append({"question": f["question"], "previous": f["previous"], "mode": mode, "result": json.loads(out)})
# A search box's queries: keywords, the last word a prefix, misspelt words their neighbours.
for q in questions["typeahead"]:
    out = subprocess.run([lectern, "search", "--index", f"{assets}/bundle", "--json", "--k", "5", "--mode", "lexical",
                          "--expand-words", "--", q], check=True, capture_output=True, text=True).stdout
    results.append({"question": q, "mode": "lexical", "expandWords": True, "result": json.loads(out)})
json.dump(results, open(f"{assets}/native/search.json", "w"))
# The questions in hybrid mode on the bundle whose dense index is in parts.
parts = []
for q in questions["search"]:
    out = subprocess.run([lectern, "search", "--index", f"{assets}/bundle-parts", "--json", "--k", "5", "--mode", "hybrid", q],
                         check=True, capture_output=True, text=True).stdout
    parts.append({"question": q, "mode": "hybrid", "result": json.loads(out)})
json.dump(parts, open(f"{assets}/native/search-parts.json", "w"))
with open(f"{assets}/native/texts.jsonl", "w") as f:
    for text in questions["embed"]:
        f.write(json.dumps(text) + "\n")
PY
"$LECTERN_BIN" embed --json --file "$assets/native/texts.jsonl" >"$assets/native/embed.jsonl"

if [ "${LECTERN_SKIP_PKG_BUILD:-}" != 1 ] || [ ! -f pkg/wasm-file.js ]; then
  if [ "${LECTERN_PKG_NO_OPT:-}" = 1 ]; then scripts/build-pkg.sh --no-opt; else scripts/build-pkg.sh; fi
fi

step "browser tests: npm ci"
npm_ci "$here"

step "browser tests: Playwright in headless Chromium"
LECTERN_BROWSER_ASSETS="$assets" LECTERN_PKG_DIR="$LECTERN_ROOT/pkg" \
  node --test --test-concurrency=1 "$@" "$here"/*.test.mjs
