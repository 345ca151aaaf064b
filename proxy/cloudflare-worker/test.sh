#!/usr/bin/env bash
# Runs every test of the reference proxy and of the local LLM server it is tested against:
#   1. scripts/llm-server/server.test.mjs  - the OpenAI-compatible test server, every mode
#   2. test/proxy.test.mjs                 - the Worker's handler, against that server
#   3. test/ledger.test.mjs                - the abuse limits' daily ledger on its own
#   4. test/abuse.test.mjs                 - Turnstile, daily quota and token budget via the handler
#   5. test/events.test.mjs                - the usage-event sink via the handler
#   6. test/wrangler-dev.test.mjs          - the Worker in workerd via `wrangler dev --local`
# Installs the pinned wrangler (npm ci) only when node_modules is missing or older than the
# lockfile, so a second run installs nothing. Needs Node >= 20.3 and, for step 6 on a first
# run, the npm registry.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

if [[ ! -x node_modules/.bin/wrangler || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "test.sh: installing the pinned wrangler (npm ci)" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi

# One file at a time: the timing assertions (streaming is incremental, timeouts fire) are
# kinder to a 2-core machine when wrangler's start-up is not competing with them.
exec node --test --test-concurrency=1 \
  ../../scripts/llm-server/server.test.mjs \
  test/proxy.test.mjs \
  test/ledger.test.mjs \
  test/abuse.test.mjs \
  test/events.test.mjs \
  test/wrangler-dev.test.mjs
