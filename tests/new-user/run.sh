#!/usr/bin/env bash
# The new-user test (issue 14): a site owner with only Node creates a Docusaurus site,
# `npm install`s Lectern's published tarballs (dist/, from scripts/pack.sh) and adds one
# `plugins:` line. For the JavaScript and the TypeScript template: `docusaurus build`,
# `docusaurus serve`, then in Chromium open a docs page, Ctrl+I, ask about it, and follow
# the answer's citations to their sections; type into the navbar's search box the plugin
# added and follow a result. Then `docusaurus start` on the JS site: it
# indexes, serves the widget, and re-indexes an edited page. Last, the portable CLI: with
# the platform binary gone and @lectern/cli-wasm32-wasi installed, `npx lectern build` and
# `docusaurus build` still index the site.
#
# The site's commands run with a fresh HOME, a PATH without cargo, rustc or python, no
# LECTERN_* variables and — where the kernel allows a private mount namespace — the
# repository's model (.models/), runtime (pkg/) and cargo target folder hidden behind
# empty mounts; the plugin's log must show the CLI, the model and the runtime coming from
# the site's node_modules.
#
#   tests/new-user/run.sh [js|ts|dev|wasi ...]      default: all four
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/common.sh"
cd "$LECTERN_ROOT"
here="$LECTERN_ROOT/tests/new-user"
work="$LECTERN_CACHE/new-user"
CREATE_DOCUSAURUS=3.10.2 # pinned so the test does not change under us; users take @latest
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(js ts dev wasi)

step "new user: the npm packages (scripts/pack.sh --wasi)"
scripts/pack.sh --wasi
npm_ci tests/e2e # its playwright-core drives Chromium

rm -rf "$work"
mkdir -p "$work/bin" "$work/home" "$work/tarballs"
cp dist/*.tgz "$work/tarballs/"
# A PATH with everything the machine has except Rust and Python.
for dir in /usr/local/bin /usr/bin /bin; do
  for tool in "$dir"/*; do
    name="$(basename "$tool")"
    case "$name" in cargo* | rustc* | rustup* | rustdoc* | python* | pip* | pydoc*) continue ;; esac
    [ -e "$work/bin/$name" ] || ln -s "$tool" "$work/bin/$name"
  done
done
# The machine's npm network settings (the registry's CA), as a user's own ~/.npmrc would have.
cafile="$(npm config get cafile 2>/dev/null || true)"
if [ -n "$cafile" ] && [ "$cafile" != null ] && [ "$cafile" != undefined ]; then echo "cafile=$cafile" >"$work/home/.npmrc"; fi

hidden=("$LECTERN_ROOT/.models" "$LECTERN_ROOT/pkg" "$CARGO_TARGET_DIR")
isolation="fresh HOME and PATH (no cargo, no python)"
if unshare -m true 2>/dev/null; then
  isolation="$isolation; ${hidden[*]} hidden by a private mount namespace"
else
  echo "new user: no private mount namespace here; the log checks below still require every part from node_modules"
fi

# as_user DIR CMD...: runs CMD in DIR as the new user would, with the repository hidden.
as_user() {
  local dir="$1"
  shift
  local masks=""
  if unshare -m true 2>/dev/null; then
    for path in "${hidden[@]}"; do [ -e "$path" ] && masks+="mount -t tmpfs -o size=1m none '$path' && "; done
  fi
  env -i HOME="$work/home" PATH="$work/bin" LANG=C.UTF-8 TERM=dumb CI="${CI:-}" NO_UPDATE_NOTIFIER=1 \
    ${masks:+unshare -m --propagation private} sh -c "${masks}cd '$dir' && exec \"\$@\"" as_user "$@"
}

# The answer comes from the local LLM server (scripts/llm-server), called by the widget
# directly: the site's `endpoint` is its URL.
llm_port="$(free_port)"
node scripts/llm-server/server.mjs --port "$llm_port" --delay 5 >"$work/llm.log" 2>&1 &
llm_pid=$!
site_pid=""
site_port=""
# Stops the served site: the background job, and the Node processes under it.
stop_site() {
  [ -n "$site_pid" ] || return 0
  kill "$site_pid" 2>/dev/null || true
  pkill -f -- "--port $site_port --host 127.0.0.1" 2>/dev/null || true
  wait "$site_pid" 2>/dev/null || true
  site_pid=""
}
trap 'stop_site; kill $llm_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening on" "$work/llm.log" && break; sleep 0.1; done
endpoint="http://127.0.0.1:$llm_port/v1/chat/completions"
plugin_line="plugins: [['docusaurus-plugin-lectern', {endpoint: '$endpoint'}]],"

report="$work/report.txt"
: >"$report"
timed() { # LABEL CMD...: runs CMD, appends "LABEL: N s" to the report
  local label="$1" start=$SECONDS
  shift
  "$@"
  echo "$label: $((SECONDS - start)) s" | tee -a "$report"
}

# create_site VARIANT: a new classic site with Lectern installed and configured.
create_site() {
  local variant="$1" site="$work/$1-site" config
  step "new user ($variant): create-docusaurus@$CREATE_DOCUSAURUS, npm install, the tarballs, one config line"
  as_user "$work" npx --yes "create-docusaurus@$CREATE_DOCUSAURUS" "$variant-site" classic "--$([ "$variant" = ts ] && echo typescript || echo javascript)" --skip-install >"$work/$variant-create.log" 2>&1 ||
    { cat "$work/$variant-create.log"; exit 1; }
  local cache="empty npm cache"
  [ -z "${installed_once:-}" ] || cache="npm cache warm from the site before"
  installed_once=1
  timed "$variant: npm install of the new site ($cache)" as_user "$site" npm install --no-audit --no-fund --loglevel=error
  # Only the tarballs, from a folder outside the repository: what `npm install
  # docusaurus-plugin-lectern` fetches from the registry.
  # (All but the portable CLI, which a user installs only when told to.)
  timed "$variant: npm install of Lectern's tarballs" as_user "$site" sh -c 'npm install --no-audit --no-fund --loglevel=error $(ls ../tarballs/*.tgz | grep -v wasm32-wasi)'
  du -sk "$site/node_modules/docusaurus-plugin-lectern" "$site/node_modules/lectern" "$site/node_modules/@lectern/"* |
    awk '{printf "  %6.1f MB  %s\n", $1/1024, $2}' | sed "s|$site/||" | tee -a "$report"
  # The CLI on its own, as `npx lectern` (no Docusaurus involved).
  as_user "$site" npx lectern --version
  as_user "$site" npx lectern chunks . | tail -1
  config="$site/docusaurus.config.$([ "$variant" = ts ] && echo ts || echo js)"
  # The one line, next to the template's presets.
  grep -q "^  presets: \[" "$config" || { echo "new user: no '  presets: [' line in $config" >&2; exit 1; }
  sed -i "s|^  presets: \[|  $plugin_line\n  presets: [|" "$config"
  grep -n "docusaurus-plugin-lectern" "$config"
}

# check_log LOG: the plugin used the installed packages, nothing of the repository.
check_log() {
  local log="$1" site="$2"
  grep '^\[lectern\]' "$log" | sed 's/^/  /'
  grep -q "^\[lectern\] CLI: $site/node_modules/@lectern/cli-[a-z0-9-]*/bin/lectern (@lectern/cli-[a-z0-9-]*); model: $site/node_modules/@lectern/model-all-minilm-l6-v2\$" "$log" ||
    { echo "new user: the CLI or the model did not come from $site/node_modules" >&2; exit 1; }
  grep -q "^\[lectern\] browser runtime: $site/node_modules/lectern\$" "$log" ||
    { echo "new user: the browser runtime did not come from $site/node_modules/lectern" >&2; exit 1; }
  if grep -q "$LECTERN_ROOT\|$CARGO_TARGET_DIR" "$log"; then
    echo "new user: the build log names the repository or its cargo target:" >&2
    grep "$LECTERN_ROOT\|$CARGO_TARGET_DIR" "$log" >&2
    exit 1
  fi
}

ask() { # ORIGIN PAGE LABEL
  LECTERN_NU_ORIGIN="$1" LECTERN_NU_PAGE="$2" LECTERN_NU_LABEL="$3" LECTERN_NU_ARTIFACTS="$work/artifacts" \
    node --test "$here/ask.test.mjs"
}

for variant in js ts; do
  [[ " ${parts[*]} " == *" $variant "* ]] || continue
  site="$work/$variant-site"
  config="$site/docusaurus.config.$variant"
  create_site "$variant"
  step "new user ($variant): docusaurus build, serve, ask in Chromium"
  timed "$variant: docusaurus build (cold: indexes the site)" as_user "$site" npx docusaurus build >"$work/$variant-build.log" 2>&1 ||
    { cat "$work/$variant-build.log"; exit 1; }
  check_log "$work/$variant-build.log" "$site"
  if [ "$variant" = js ]; then
    # A chat option the browser would refuse fails the build, with the browser's message.
    cp "$config" "$config.good"
    sed -i "s|{endpoint: '$endpoint'}|{endpoint: '$endpoint', slowAfterMs: 0}|" "$config"
    if as_user "$site" npx docusaurus build --out-dir "$work/refused-build" >"$work/refused.log" 2>&1; then
      echo "new user: a config with slowAfterMs: 0 was built" >&2
      exit 1
    fi
    grep -o '\[docusaurus-plugin-lectern\] "slowAfterMs" must be an integer from 1 to 600000; got 0 (INVALID_CONFIG)' "$work/refused.log" | head -1 | sed 's/^/  refused as the browser would: /'
    grep -q '"slowAfterMs" must be an integer from 1 to 600000; got 0' "$work/refused.log" || { cat "$work/refused.log"; exit 1; }
    mv "$config.good" "$config"
  fi
  port="$(free_port)"
  site_port="$port"
  as_user "$site" npx docusaurus serve --port "$port" --host 127.0.0.1 --no-open >"$work/$variant-serve.log" 2>&1 &
  site_pid=$!
  wait_for_url "http://127.0.0.1:$port/docs/intro" 60
  ask "http://127.0.0.1:$port" /docs/intro "$variant-build"
  stop_site
done

if [[ " ${parts[*]} " == *" dev "* ]]; then
  site="$work/js-site"
  [ -d "$site/node_modules/docusaurus-plugin-lectern" ] || create_site js
  step "new user (js): docusaurus start indexes, serves the widget, re-indexes an edited page"
  port="$(free_port)"
  site_port="$port"
  as_user "$site" npx docusaurus start --port "$port" --host 127.0.0.1 --no-open >"$work/dev.log" 2>&1 &
  site_pid=$!
  wait_for_url "http://127.0.0.1:$port/docs/intro" 180
  check_log "$work/dev.log" "$site"
  ask "http://127.0.0.1:$port" /docs/intro dev
  before="$(grep -c '^\[lectern\] indexed' "$work/dev.log")"
  # A new section with a word no page has; the dev server must index it without a restart.
  intro="$(ls "$site"/docs/intro.md* | head -1)"
  printf '\n## Gravitational origami\n\nThe zorbulent fold keeps the paper crane airborne for a whole afternoon, as long as nobody opens a window.\n' >>"$intro"
  for _ in $(seq 120); do
    [ "$(grep -c '^\[lectern\] indexed' "$work/dev.log")" -gt "$before" ] && break
    sleep 0.5
  done
  grep '^\[lectern\] indexed' "$work/dev.log" | tail -1 | sed 's/^/  re-indexed: /'
  node "$here/bundle-has.mjs" "http://127.0.0.1:$port/lectern/bundle/" "/docs/intro#gravitational-origami" "zorbulent"
  stop_site
fi

if [[ " ${parts[*]} " == *" wasi "* ]]; then
  site="$work/js-site"
  [ -d "$site/node_modules/docusaurus-plugin-lectern" ] || create_site js
  step "new user (js): no binary for the platform, the portable CLI installed instead"
  as_user "$site" sh -c 'npm install --no-audit --no-fund --loglevel=error ../tarballs/lectern-cli-wasm32-wasi-*.tgz'
  rm -rf "$site"/node_modules/@lectern/cli-linux-* "$site"/node_modules/@lectern/cli-darwin-* "$site"/node_modules/@lectern/cli-win32-*
  as_user "$site" npx lectern --version
  timed "js: docusaurus build with the portable CLI (wasm32-wasip1 on Node; all sections embedded again)" \
    as_user "$site" sh -c 'rm -rf node_modules/.cache/lectern && npx docusaurus build' >"$work/wasi-build.log" 2>&1 ||
    { cat "$work/wasi-build.log"; exit 1; }
  grep '^\[lectern\]' "$work/wasi-build.log" | sed 's/^/  /'
  grep -q "^\[lectern\] CLI: .*(@lectern/cli-wasm32-wasi)" "$work/wasi-build.log" ||
    { echo "new user: the build did not use @lectern/cli-wasm32-wasi" >&2; exit 1; }
  grep -q "^\[lectern\] indexed 9 pages" "$work/wasi-build.log" || { echo "new user: the portable CLI did not index the site" >&2; exit 1; }
fi

step "new user: figures ($isolation)"
ls -l dist/*.tgz | awk '{printf "  %6.2f MB  %s\n", $5/1e6, $NF}'
cat "$report"
