#!/usr/bin/env bash
# The keyless proxy's abuse limits under load (issue 27, point 7; BENCHMARKS.md "The keyless
# proxy under load"): 200 concurrent clients stream answers through the Worker in
# `wrangler dev --local` to scripts/llm-server for 60 s, all on 127.0.0.1, once with the
# abuse protection off and once on (the ratio is its cost); every stream must end complete
# or refused with its code, each limit (per-minute rate, daily quota, token budget) must
# refuse exactly the requests it should, and the protection must add no memory growth.
# Bounded in time and count. Not part of scripts/test.sh (it takes both cores for about
# three minutes); the same limits are tested briefly by proxy/cloudflare-worker/test.sh.
#
#   scripts/bench/proxy-load.sh [--readers 200] [--seconds 60] [--quota 12] [--rate 20]
#        [--budget-answers 1800] [--answer-tokens 32] [--delay 25] [--only on|off|both]
#        [--json FILE]   (all options: the header of scripts/bench/proxy-load.mjs)
#
# Installs the proxy's pinned wrangler (npm ci in proxy/cloudflare-worker) when missing.
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"
case "${1:-}" in -h | --help) sed -n '2,15p' "$0"; exit 0 ;; esac
npm_ci proxy/cloudflare-worker
exec node scripts/bench/proxy-load.mjs "$@"
