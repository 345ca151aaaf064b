#!/usr/bin/env bash
# Builds the npm package in pkg/: the three wasm modules (wasm32, wasm-bindgen --target web,
# wasm-opt -Oz) — the search module (keyword and vector search, for the worker and the search
# box: what a reader needs first), the chat module (`lectern_core`: the chat's rules, for the
# page once the chat is used) and the embedder (tract + tokenizer, loaded by the worker
# afterwards) — the JS API, its worker and the chat API (www/lectern-js/), the TypeScript
# declarations and error table generated from the Rust types, and prints the sizes.
# Idempotent; installs the pinned wasm-opt (npm binaryen) into the cache folder once.
#
#   scripts/build-pkg.sh [--no-opt]     --no-opt: skip wasm-opt (a minute or more)
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$LECTERN_ROOT"

# npm's binaryen, pinned: Debian's binaryen 108 was seen to produce a module that crashes
# in Chromium.
BINARYEN_VERSION=132.0.0
BINARYEN_DIR="$LECTERN_CACHE/binaryen-$BINARYEN_VERSION"
WASM_OPT="$BINARYEN_DIR/node_modules/.bin/wasm-opt"

# npm's esbuild, pinned: minifies the runtime's JavaScript in pkg/. A site serves these files
# as they are (they are not the site's webpack bundle), and the search box fetches ~42 KB of
# them (brotli) before its first results: minified, about half (BENCHMARKS.md).
ESBUILD_VERSION=0.25.0
ESBUILD_DIR="$LECTERN_CACHE/esbuild-$ESBUILD_VERSION"
ESBUILD="$ESBUILD_DIR/node_modules/.bin/esbuild"

optimise=1
for arg in "$@"; do
  case "$arg" in
    --no-opt) optimise=0 ;;
    *) echo "build-pkg: unknown argument $arg (--no-opt)" >&2; exit 2 ;;
  esac
done

# npm_tool PACKAGE@VERSION DIR: installs a pinned npm tool into DIR (its own node_modules).
npm_tool() {
  echo "build-pkg: installing $1 into $2"
  mkdir -p "$2"
  (cd "$2" && NO_UPDATE_NOTIFIER=1 npm install --no-audit --no-fund --loglevel=error --no-save --prefix "$2" "$1")
}

setup_wasm_opt() {
  if [ ! -x "$WASM_OPT" ] || [ "$("$WASM_OPT" --version 2>/dev/null | grep -o 'version [0-9]*')" != "version ${BINARYEN_VERSION%%.*}" ]; then
    npm_tool "binaryen@$BINARYEN_VERSION" "$BINARYEN_DIR"
  fi
}

setup_esbuild() {
  if [ ! -x "$ESBUILD" ] || [ "$("$ESBUILD" --version 2>/dev/null)" != "$ESBUILD_VERSION" ]; then
    npm_tool "esbuild@$ESBUILD_VERSION" "$ESBUILD_DIR"
  fi
}

size_line() { # LABEL FILE
  printf '  %-28s %10d bytes raw  %9d bytes gzip -9\n' "$1" "$(stat -c %s "$2")" "$(gzip -9c "$2" | wc -c)"
}

out="$(mktemp -d "${TMPDIR:-/tmp}/lectern-pkg.XXXXXX")"
trap 'rm -rf "$out"' EXIT
wasm="$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm/lectern.wasm"

# optimise NAME: wasm-opt -Oz of $out/NAME_bg.wasm, cached by input hash (minutes for the
# core, so a rebuild with an unchanged module costs nothing); prints the result's path.
optimise() {
  local input="$out/$1_bg.wasm"
  if [ "$optimise" = 0 ]; then echo "$input"; return; fi
  local opt_cache="$LECTERN_CACHE/wasm-opt"
  local result
  result="$opt_cache/$(sha256sum "$input" | cut -c1-32)-$BINARYEN_VERSION-Oz.wasm"
  if [ -s "$result" ]; then
    echo "  $1: unchanged input, reusing $result" >&2
  else
    setup_wasm_opt >&2
    mkdir -p "$opt_cache"
    local start=$SECONDS
    # Features are read from the module's target_features section (why `strip` stays off).
    "$WASM_OPT" -Oz --strip-debug --strip-producers "$input" -o "$result.tmp"
    mv "$result.tmp" "$result"
    echo "  wasm-opt $1: $((SECONDS - start)) s" >&2
    # Keep the last few results only.
    ls -t "$opt_cache"/*.wasm | tail -n +7 | xargs -r rm -f
  fi
  echo "$result"
}

# The search and chat modules build in target dirs of their own: a cdylib's output file has
# no hash in its name, so two feature sets in one target dir would overwrite each other's
# lectern.wasm and a fresh (not relinked) build would hand over the other module. Their
# dependencies are small (about a minute cold); the embedder's (tract) stay in the shared
# target dir. Both use the `wasm-small` profile (Cargo.toml: opt-level "z").
# small_module NAME FEATURES: one of the two small modules, built in
# $LECTERN_CACHE/target-<NAME without "lectern_">, then wasm-bindgen into $out as NAME.
small_module() {
  local name="$1" features="$2" start=$SECONDS
  local target="$LECTERN_CACHE/target-${name#lectern_}"
  cargo build --profile wasm-small --target wasm32-unknown-unknown -p lectern --lib --no-default-features --features "$features" \
    --target-dir "$target"
  echo "  cargo: $((SECONDS - start)) s"
  wasm-bindgen --target web --out-dir "$out" --out-name "$name" "$target/wasm32-unknown-unknown/wasm-small/lectern.wasm"
}
step "wasm32 build of the search module (keyword and vector search: the worker's and the search box's first module)"
small_module lectern_search search

step "wasm32 build of the chat module (the chat's rules: the page's, once the chat is used)"
small_module lectern_core chat

step "wasm32 build of the embedder module (tract + WordPiece tokenizer: the worker's second module)"
start=$SECONDS
cargo build --profile wasm --target wasm32-unknown-unknown -p lectern --lib --no-default-features --features embed
echo "  cargo: $((SECONDS - start)) s"
wasm-bindgen --target web --out-dir "$out" --out-name lectern_embed "$wasm"
size_line "search, wasm-bindgen output" "$out/lectern_search_bg.wasm"
size_line "chat, wasm-bindgen output" "$out/lectern_core_bg.wasm"
size_line "embedder, wasm-bindgen output" "$out/lectern_embed_bg.wasm"

if [ "$optimise" = 1 ]; then step "wasm-opt -Oz (binaryen $BINARYEN_VERSION)"; fi
search_final="$(optimise lectern_search)"
core_final="$(optimise lectern_core)"
embed_final="$(optimise lectern_embed)"

step "assemble pkg/"
# Each wasm is named by its content hash so it can be cached forever (Cache API, HTTP);
# wasm-file.js tells the JS the names.
search_hash="$(sha256sum "$search_final" | cut -c1-12)"
core_hash="$(sha256sum "$core_final" | cut -c1-12)"
embed_hash="$(sha256sum "$embed_final" | cut -c1-12)"
find pkg -mindepth 1 -maxdepth 1 ! -name README.md ! -name package.json -exec rm -rf {} +
cp "$search_final" "pkg/lectern_search_bg.$search_hash.wasm"
cp "$core_final" "pkg/lectern_core_bg.$core_hash.wasm"
cp "$embed_final" "pkg/lectern_embed_bg.$embed_hash.wasm"
cp "$out/lectern_search.js" "$out/lectern_search.d.ts" "$out/lectern_core.js" "$out/lectern_core.d.ts" "$out/lectern_embed.js" "$out/lectern_embed.d.ts" pkg/
printf '// Generated by scripts/build-pkg.sh: the content-hashed names of the wasm modules.\nexport const SEARCH_WASM_FILE = "lectern_search_bg.%s.wasm";\nexport const CORE_WASM_FILE = "lectern_core_bg.%s.wasm";\nexport const EMBED_WASM_FILE = "lectern_embed_bg.%s.wasm";\n' \
  "$search_hash" "$core_hash" "$embed_hash" >pkg/wasm-file.js
cp www/lectern-js/*.js www/lectern-js/*.d.ts pkg/
# What JS reads of the boundary, generated from the Rust types on every build so it cannot go
# stale: lectern-types.d.ts (the TypeScript declarations of everything that crosses, which
# lectern_core.d.ts, index.d.ts and chat.d.ts import), error-codes.js (the core's table of
# error codes and suggestions) and contract.js (what the page and a proxy agree on: the
# Turnstile header, the refusal codes, Retry-After, the usage events' request limits). A native
# program (ts-rs): nothing of it is in a wasm module. The same run rewrites the reference
# proxy's copy of the contract, core-contract.mjs, which is committed so the proxy deploys
# without a Rust build; a Rust test fails when it is stale.
step "TypeScript declarations, error-codes.js, contract.js and the proxy's core-contract.mjs from the Rust types (examples/typescript.rs)"
cargo run --release --quiet -p lectern --no-default-features --features search --example typescript -- pkg \
  --proxy proxy/cloudflare-worker/src/core-contract.mjs
# Every module of the runtime minified, file by file (no bundling: each keeps its imports, its
# exports' names and, with --keep-names, its functions' and classes' names). The readable
# sources are www/lectern-js/ and the generators above.
step "minify the runtime's JavaScript (esbuild $ESBUILD_VERSION)"
setup_esbuild
# wasm-file.js stays as written: the plugin reads the modules' names from its text (assets.js).
for f in pkg/*.js; do
  [ "$f" = pkg/wasm-file.js ] && continue
  "$ESBUILD" "$f" --minify --keep-names --format=esm --log-level=warning --allow-overwrite --outfile="$f"
done
size_line "pkg/lectern_search_bg.$search_hash.wasm" "pkg/lectern_search_bg.$search_hash.wasm"
size_line "pkg/lectern_core_bg.$core_hash.wasm" "pkg/lectern_core_bg.$core_hash.wasm"
size_line "pkg/lectern_embed_bg.$embed_hash.wasm" "pkg/lectern_embed_bg.$embed_hash.wasm"
js_total=0
for f in pkg/*.js; do js_total=$((js_total + $(stat -c %s "$f"))); done
echo "  JS (glue, API, worker, chat): $js_total bytes raw"
echo "pkg/ is ready: $(ls pkg | tr '\n' ' ')"
