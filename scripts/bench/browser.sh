#!/usr/bin/env bash
# Browser benchmark: Lectern (pkg/, tract in wasm) against transformers.js (onnxruntime-web,
# wasm backend) in one headless Chromium session, everything served from 127.0.0.1 — warm
# query embedding, end-to-end search, cold start, bytes transferred, wasm and JS heap
# (BENCHMARKS.md, "Browser: Lectern vs transformers.js"). Idempotent; build output goes to a
# log that is printed only on failure.
#
#   scripts/bench/browser.sh [--relaxed] [--patch FILE] [--profile] [--json FILE]
#
#   --relaxed     also build the core with +relaxed-simd (its own target dir,
#                 $LECTERN_CACHE/target-relaxed; a cold build of tract takes 10-25 min) and
#                 measure it beside pkg/ in the same page
#   --patch FILE  also build the core from HEAD with FILE applied (git apply, in a worktree
#                 at $LECTERN_CACHE/bench-browser/src-patched, removed afterwards; target dir
#                 $LECTERN_CACHE/target-bench) and measure it; with
#                 --relaxed, the patched core with +relaxed-simd too
#                 (e.g. scripts/bench/browser/assert-sequence.patch)
#   --profile     also profile: tract's and onnxruntime's native per-op profiles of the model
#                 (examples/profile_ops.rs, scripts/bench/browser/ort_profile.py), and V8's
#                 CPU profile of Lectern's embedder in Chromium (browser/wasm_profile.mjs, on
#                 the cores before wasm-opt, which would strip the function names)
#   --json FILE   keep every sample as JSON
#
#   LECTERN_SKIP_PKG_BUILD=1   reuse pkg/ as it is (else scripts/build-pkg.sh builds it)
#   BENCH_PASSES (2), BENCH_WARMUP (10), BENCH_COLD_RUNS (5)   see browser/bench.mjs
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"
here=scripts/bench/browser

relaxed=0
patch=""
profile=0
json=""
while [ $# -gt 0 ]; do
  case "$1" in
    --relaxed) relaxed=1 ;;
    --patch)
      [ -n "${2:-}" ] && [ -f "$2" ] || { echo "bench/browser: --patch needs a patch file" >&2; exit 2; }
      patch="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
      shift ;;
    --profile) profile=1 ;;
    --json)
      [ -n "${2:-}" ] || { echo "bench/browser: --json needs a file name" >&2; exit 2; }
      json="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
      shift ;;
    *) echo "bench/browser: unknown argument $1 (--relaxed, --patch FILE, --profile, --json FILE)" >&2; exit 2 ;;
  esac
  shift
done

work="$(mktemp -d "${TMPDIR:-/tmp}/lectern-bench-browser.XXXXXX")"
patched_src=""
cleanup() {
  if [ -n "$patched_src" ]; then git worktree remove --force "$patched_src" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

LOG_DIR="$work" # for logged (common.sh)

step "browser bench: setup (wasm-bindgen, Chromium, model)"
logged setup scripts/setup.sh wasm browser model
[ -f "$LECTERN_MODEL_DIR/model-int8.onnx" ] || { echo "bench/browser: no model in $LECTERN_MODEL_DIR" >&2; exit 1; }

step "browser bench: lectern CLI and sample bundle"
logged cli cargo build --release -p index-build
logged bundle "$LECTERN_BIN" build www/example --out "$work/bundle"

profile_pkgs=()
if [ "${LECTERN_SKIP_PKG_BUILD:-}" != 1 ] || [ ! -f pkg/wasm-file.js ]; then
  if [ "$profile" = 1 ]; then
    step "browser bench: pkg/ without wasm-opt, for the profile (scripts/build-pkg.sh --no-opt)"
    logged pkg-no-opt scripts/build-pkg.sh --no-opt
    cp -r pkg "$work/names-pkg"
    profile_pkgs+=("pkg=$work/names-pkg")
  fi
  step "browser bench: pkg/ (scripts/build-pkg.sh)"
  logged pkg scripts/build-pkg.sh
fi

# ---- variants of the core: relaxed SIMD, a patch --------------------------------------------

BINARYEN_VERSION=132.0.0 # as scripts/build-pkg.sh
WASM_OPT="$LECTERN_CACHE/binaryen-$BINARYEN_VERSION/node_modules/.bin/wasm-opt"
# RUSTFLAGS replaces the wasm32 rustflags of .cargo/config.toml, so the relaxed build repeats
# them; the other builds leave RUSTFLAGS unset and get the config's.
RELAXED_FLAGS='-C target-feature=+simd128,+relaxed-simd --cfg getrandom_backend="wasm_js"'
grep -q 'rustflags = \["-C", "target-feature=+simd128", "--cfg", "getrandom_backend=\\"wasm_js\\""\]' .cargo/config.toml ||
  echo "bench/browser: warning: .cargo/config.toml's wasm32 rustflags changed; the relaxed build uses $RELAXED_FLAGS" >&2

# build_variant NAME SRC_DIR TARGET_DIR [RUSTFLAGS]: builds the embedder module in SRC_DIR and
# assembles $work/pkg-NAME: pkg/'s JS and core module with that embedder (wasm-bindgen, wasm-opt -Oz as build-pkg.sh does;
# wasm-opt's output is kept by input hash in $LECTERN_CACHE/bench-browser/wasm-opt).
build_variant() {
  local name="$1" src="$2" target="$3" flags="${4:-}" out="$work/pkg-$1" opt_cache="$LECTERN_CACHE/bench-browser/wasm-opt"
  local rustflags=(-u RUSTFLAGS)
  [ -z "$flags" ] || rustflags=(RUSTFLAGS="$flags")
  step "browser bench: core variant '$name' (target dir $target)"
  # Rebuild the core itself every time (a minute or two; the dependencies stay): cargo names
  # the cdylib deps/lectern.wasm whatever the checkout, and leaves a stale one in place when
  # it finds the build fresh.
  rm -rf "$target/wasm32-unknown-unknown/wasm/.fingerprint/lectern-"*
  logged "cargo-$name" env -C "$src" "${rustflags[@]}" CARGO_TARGET_DIR="$target" \
    cargo build --profile wasm --target wasm32-unknown-unknown -p lectern --lib --no-default-features --features embed
  logged "bindgen-$name" wasm-bindgen --target web --out-dir "$work/bindgen-$name" --out-name lectern_embed \
    "$target/wasm32-unknown-unknown/wasm/lectern.wasm"
  if [ ! -x "$WASM_OPT" ]; then
    logged binaryen npm install --no-audit --no-fund --loglevel=error --no-save \
      --prefix "$LECTERN_CACHE/binaryen-$BINARYEN_VERSION" "binaryen@$BINARYEN_VERSION"
  fi
  mkdir -p "$opt_cache"
  local opt
  opt="$opt_cache/$(sha256sum "$work/bindgen-$name/lectern_embed_bg.wasm" | cut -c1-32)-Oz.wasm"
  if [ ! -s "$opt" ]; then
    echo "  wasm-opt -Oz (a few minutes; kept for reruns)"
    logged "wasm-opt-$name" "$WASM_OPT" -Oz --strip-debug --strip-producers "$work/bindgen-$name/lectern_embed_bg.wasm" -o "$opt.tmp"
    mv "$opt.tmp" "$opt"
    ls -t "$opt_cache"/*.wasm | tail -n +7 | xargs -r rm -f
  fi
  mkdir -p "$out"
  cp pkg/*.js pkg/*.d.ts pkg/lectern_core_bg.*.wasm "$out/"
  cp "$work/bindgen-$name/lectern_embed.js" "$out/"
  local hash
  hash="$(sha256sum "$opt" | cut -c1-12)"
  cp "$opt" "$out/lectern_embed_bg.$hash.wasm"
  embed_file_js() { # HASH: pkg/'s wasm-file.js with this variant's embedder
    sed "s/lectern_embed_bg\.[0-9a-f]*\.wasm/lectern_embed_bg.$1.wasm/" pkg/wasm-file.js
  }
  embed_file_js "$hash" >"$out/wasm-file.js"
  printf '  %-28s %10d bytes\n' "lectern_embed_bg.$hash.wasm" "$(stat -c %s "$opt")"
  variants+=("$name=$out")
  # The same before wasm-opt (function names kept), for --profile.
  cp -r "$out" "$work/names-$name"
  rm -f "$work/names-$name"/lectern_embed_bg.*.wasm
  hash="$(sha256sum "$work/bindgen-$name/lectern_embed_bg.wasm" | cut -c1-12)"
  cp "$work/bindgen-$name/lectern_embed_bg.wasm" "$work/names-$name/lectern_embed_bg.$hash.wasm"
  embed_file_js "$hash" >"$work/names-$name/wasm-file.js"
  profile_pkgs+=("$name=$work/names-$name")
}

variants=()
if [ "$relaxed" = 1 ]; then
  build_variant relaxed "$LECTERN_ROOT" "$LECTERN_CACHE/target-relaxed" "$RELAXED_FLAGS"
fi
if [ -n "$patch" ]; then
  # A fixed path: the wasm embeds source paths, so the same patch gives the same bytes and
  # wasm-opt's cached output is reused.
  patched_src="$LECTERN_CACHE/bench-browser/src-patched"
  git worktree remove --force "$patched_src" >/dev/null 2>&1 || rm -rf "$patched_src"
  git worktree prune
  logged worktree git worktree add --detach "$patched_src" HEAD
  label="$(basename "$patch" .patch)"
  if git -C "$patched_src" apply --reverse --check "$patch" >/dev/null 2>&1; then
    echo "bench/browser: HEAD already contains $label; measuring pkg/ only" >&2
  else
    logged "git-apply" git -C "$patched_src" apply "$patch"
    build_variant "$label" "$patched_src" "$LECTERN_CACHE/target-bench"
    if [ "$relaxed" = 1 ]; then
      build_variant "relaxed+$label" "$patched_src" "$LECTERN_CACHE/target-relaxed" "$RELAXED_FLAGS"
    fi
  fi
fi

# ---- the two stacks in Chromium ------------------------------------------------------------

step "browser bench: npm ci (transformers.js, playwright-core)"
# --ignore-scripts: only onnxruntime-web's files are used; the native packages that
# transformers.js also depends on (onnxruntime-node, sharp) need not install anything.
logged npm-ci npm_ci "$here" --ignore-scripts

if [ "$profile" = 1 ]; then
  step "browser bench: native per-op profile, tract (examples/profile_ops.rs)"
  logged profile-build cargo build --release --example profile_ops
  cargo run --quiet --release --example profile_ops
  step "browser bench: native per-op profile, onnxruntime (1 thread)"
  venv="$LECTERN_CACHE/bench-venv"
  if ! "$venv/bin/python" -c "import onnxruntime, tokenizers" 2>/dev/null; then
    logged venv sh -c "python3 -m venv '$venv' && '$venv/bin/pip' install --quiet -r scripts/bench/requirements.txt"
  fi
  "$venv/bin/python" "$here/ort_profile.py" "$LECTERN_MODEL_DIR/model-int8.onnx" "$LECTERN_MODEL_DIR/tokenizer.json" examples/bench/texts.json
  if [ ${#profile_pkgs[@]} -gt 0 ]; then
    step "browser bench: V8 CPU profile of Lectern's embedder in Chromium"
    LECTERN_PROFILE_PKGS="$(IFS=,; echo "${profile_pkgs[*]}")" node "$here/wasm_profile.mjs"
  else
    echo "bench/browser: no core without wasm-opt to profile in Chromium (LECTERN_SKIP_PKG_BUILD=1 and no variant)" >&2
  fi
fi

step "browser bench: Lectern vs transformers.js in headless Chromium ($(nproc) cores)"
LECTERN_PKG_DIR="$LECTERN_ROOT/pkg" LECTERN_BENCH_BUNDLE="$work/bundle" LECTERN_VARIANTS="$(IFS=,; echo "${variants[*]}")" \
  LECTERN_BENCH_OUT="$json" node "$here/bench.mjs"
