#!/usr/bin/env bash
# Type check and lint of the JavaScript in www/: `tsc --checkJs` over the Docusaurus plugin
# and the browser runtime (www/lectern-js), against their .d.ts files and the declarations
# build-pkg.sh generates from the Rust types of the wasm boundary (pkg/lectern-types.d.ts,
# pkg/lectern_search.d.ts, pkg/lectern_core.d.ts), and ESLint with React's hooks rules over both. The tools are pinned
# in scripts/lint/package-lock.json and installed there with `npm ci` when the lock changes.
# Idempotent. Needs pkg/ (scripts/build-pkg.sh) for the generated declarations.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$LECTERN_ROOT"
tools=scripts/lint

if [ ! -f pkg/lectern-types.d.ts ] || [ ! -f pkg/lectern_search.d.ts ] || [ ! -f pkg/lectern_core.d.ts ]; then
  echo "lint-www: pkg/*.d.ts missing: run scripts/build-pkg.sh first (the type check reads the generated declarations)" >&2
  exit 1
fi

npm_ci "$tools"

step "lint-www: tsc --checkJs (www/docusaurus-plugin-lectern/src, then www/lectern-js)"
"$tools/node_modules/.bin/tsc" -p "$tools/tsconfig.json"
"$tools/node_modules/.bin/tsc" -p "$tools/tsconfig.runtime.json"
echo "  no type errors"

step "lint-www: eslint (www/docusaurus-plugin-lectern/src, www/lectern-js)"
# --config makes the working directory (the repository root) ESLint's base path.
"$tools/node_modules/.bin/eslint" --config "$tools/eslint.config.js" --max-warnings 0 \
  www/docusaurus-plugin-lectern/src www/lectern-js
echo "  no lint errors"
