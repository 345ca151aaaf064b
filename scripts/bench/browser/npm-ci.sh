#!/usr/bin/env bash
# npm ci of the browser benches' packages (transformers.js, playwright-core), only when the
# lockfile changed since the last install. --ignore-scripts: only onnxruntime-web's files are
# used; the native packages that transformers.js also depends on (onnxruntime-node, sharp)
# need not install anything.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
stamp="$here/node_modules/.lectern-lock.sha256"
want="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  (cd "$here" && NO_UPDATE_NOTIFIER=1 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  echo "$want" >"$stamp"
fi
