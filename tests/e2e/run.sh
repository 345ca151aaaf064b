#!/usr/bin/env bash
# End-to-end tests of the Lectern widget and Docusaurus plugin (issue 7). Builds what they
# need — the lectern CLI, the browser runtime (pkg/), the example site with the plugin (and,
# for the page-weight test, without it; and with Turnstile on: protected.config.mjs), the
# small versioned fixture (versioned-site/) and the translated one (../fixtures/i18n-site) —
# then runs the plugin's unit tests and the
# Playwright tests in headless Chromium. Idempotent. Screenshots: tests/e2e/artifacts/.
#
#   tests/e2e/run.sh [node --test args...]       e.g. --test-name-pattern=selection
#   LECTERN_E2E_SKIP_BUILD=1 tests/e2e/run.sh    reuse the last site builds
#   LECTERN_SKIP_PKG_BUILD=1 tests/e2e/run.sh    reuse pkg/ as it is
#   LECTERN_E2E_WORK=/tmp/e2e tests/e2e/run.sh   build the sites there (default ~/.cache/lectern/e2e)
#   LECTERN_E2E_TESTS=tests/e2e/faults.test.mjs tests/e2e/run.sh   only these test files
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/common.sh"
cd "$LECTERN_ROOT"
here=tests/e2e
# LECTERN_E2E_WORK: where the builds go (default in the cache; a worktree of its own when
# several run side by side).
work="${LECTERN_E2E_WORK:-$LECTERN_CACHE/e2e}"
site="$work/site"
baseline="$work/baseline"
# The example with Turnstile on and the selection button renamed (protected.config.mjs).
protected="$work/protected"
artifacts="$LECTERN_ROOT/$here/artifacts"
# A value that must never reach an emitted file (the built-site check looks for it).
canary="sk-lectern-e2e-canary-$(date +%s)-do-not-ship"
mkdir -p "$work" "$artifacts"

step "e2e: setup"
scripts/setup.sh rust wasm browser model node
cargo build --release -p index-build
export LECTERN_BIN

if [ "${LECTERN_SKIP_PKG_BUILD:-}" != 1 ] || [ ! -f pkg/chat.js ]; then scripts/build-pkg.sh; fi

npm_ci "$here"

build_site() { # OUT_DIR LOG [docusaurus args...]
  local out="$1" log="$2"
  shift 2
  # The endpoint is the site's own proxy path (tests/e2e/server.mjs forwards it to the LLM
  # server); the canary stands for a key in the build machine's environment.
  if ! (cd www/example && LECTERN_ENDPOINT=/api/llm/v1/chat/completions OPENAI_API_KEY="$canary" \
    LECTERN_LLM_API_KEY="$canary" NO_UPDATE_NOTIFIER=1 npx docusaurus build --out-dir "$out" "$@") >"$log" 2>&1; then
    cat "$log"
    exit 1
  fi
}

versioned="$work/versioned"
i18n="$work/i18n"
# A small fixture site built by Docusaurus with the plugin: Docusaurus and the plugin come
# from the example site's node_modules (linked into the fixture's, ignored by git), the
# runtime from pkg/. The versioned fixture (tests/e2e/versioned-site) and the translated one
# (tests/fixtures/i18n-site, with tests/e2e/i18n.config.mjs: every locale in one build).
build_fixture() { # SITE_DIR OUT_DIR LOG [docusaurus args...]
  local dir="$1" out="$2" log="$3"
  shift 3
  # Docusaurus resolves React from the site's folder: a node_modules of links to the
  # example's packages (a folder of its own, for the caches Docusaurus and the plugin keep).
  local modules="$LECTERN_ROOT/$dir/node_modules"
  mkdir -p "$modules"
  for entry in "$LECTERN_ROOT"/www/example/node_modules/* "$LECTERN_ROOT"/www/example/node_modules/.bin; do
    ln -sfn "$entry" "$modules/$(basename "$entry")"
  done
  # Built from its own folder, so that Docusaurus keeps its caches there, apart from the
  # example's.
  if ! (cd "$dir" && LECTERN_ENDPOINT=/api/llm/v1/chat/completions LECTERN_RUNTIME_DIR="$LECTERN_ROOT/pkg" NO_UPDATE_NOTIFIER=1 \
    npx docusaurus build --out-dir "$out" "$@") >"$log" 2>&1; then
    cat "$log"
    exit 1
  fi
  grep -h '^\[lectern\]' "$log" || true
}

if [ "${LECTERN_E2E_SKIP_BUILD:-}" = 1 ] && [ -f "$site/index.html" ] && [ -f "$work/canary" ] && [ -f "$versioned/404.html" ] && [ -f "$i18n/zh-CN/404.html" ] && [ -f "$protected/index.html" ]; then
  canary="$(cat "$work/canary")"
else
  step "e2e: docusaurus build of the example site, with the plugin"
  start=$SECONDS
  build_site "$site" "$work/site-build.log"
  echo "$canary" >"$work/canary"
  grep -h '^\[lectern\]' "$work/site-build.log" || true
  echo "  built in $((SECONDS - start)) s"

  step "e2e: docusaurus build of the example site with Turnstile on and the selection button renamed"
  start=$SECONDS
  build_site "$protected" "$work/protected-build.log" --config "$LECTERN_ROOT/$here/protected.config.mjs"
  echo "  built in $((SECONDS - start)) s"

  step "e2e: docusaurus build of the versioned fixture"
  start=$SECONDS
  build_fixture "$here/versioned-site" "$versioned" "$work/versioned-build.log"
  echo "  built in $((SECONDS - start)) s"

  step "e2e: docusaurus build of the translated fixture (English and Chinese)"
  start=$SECONDS
  build_fixture tests/fixtures/i18n-site "$i18n" "$work/i18n-build.log" --config "$LECTERN_ROOT/$here/i18n.config.mjs"
  echo "  built in $((SECONDS - start)) s"

  # The baseline does not depend on the widget: rebuilt only when the example site changes.
  inputs="$(cat www/example/docusaurus.config.js www/example/sidebars.js www/example/package-lock.json "$here/baseline.config.mjs" \
    <(find www/example/docs www/example/src www/example/static -type f -print0 | sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-16)"
  if [ "$(cat "$baseline/.inputs" 2>/dev/null)" != "$inputs" ]; then
    step "e2e: docusaurus build of the example site without the plugin (page-weight baseline)"
    build_site "$baseline" "$work/baseline-build.log" --config "$LECTERN_ROOT/$here/baseline.config.mjs"
    echo "$inputs" >"$baseline/.inputs"
  fi
fi

step "e2e: Playwright in headless Chromium"
LECTERN_E2E_SITE="$site" LECTERN_E2E_PROTECTED="$protected" LECTERN_E2E_BASELINE="$baseline" LECTERN_E2E_VERSIONED="$versioned" LECTERN_E2E_I18N="$i18n" LECTERN_E2E_ARTIFACTS="$artifacts" \
  LECTERN_E2E_CANARY="$canary" node --test --test-concurrency=1 "$@" ${LECTERN_E2E_TESTS:-"$here"/*.test.mjs}
echo "e2e: screenshots and page-weight.json in $artifacts"
