#!/usr/bin/env bash
# Retrieval quality on every labelled corpus (tests/eval/questions/*.jsonl): `lectern eval`
# per corpus, every mode, dev and held-out apart; a file NAME.LOCALE.jsonl asks in that
# locale of the site (`--locale`). Corpora missing from ../shared/corpora are skipped.
# Extra arguments go to every `lectern eval` (e.g. --mode hybrid, tuning flags).
#
#   scripts/eval.sh [--out DIR] [lectern eval options...]
#
# --out DIR also writes each corpus's JSON report to DIR/<corpus>.json (what
# scripts/eval/calibrate.py reads).
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$LECTERN_ROOT"

out=""
if [ "${1:-}" = --out ]; then out="$2"; shift 2; mkdir -p "$out"; fi
[ -x "$LECTERN_BIN" ] || cargo build --release -p index-build

for questions in tests/eval/questions/*.jsonl; do
  name="$(basename "$questions" .jsonl)"
  site="$(corpus_site "$name")" || { echo "eval: no site known for $questions" >&2; exit 1; }
  if [ ! -d "$site" ]; then
    echo "== $name: $site is not here; skipped"
    continue
  fi
  echo "== $name"
  report=()
  [ -z "$out" ] || report=(--report "$out/$name.json")
  # NAME.LOCALE.jsonl: questions in that locale of the site (its translated pages).
  locale=()
  case "$name" in *.*) locale=(--locale "${name#*.}") ;; esac
  "$LECTERN_BIN" eval "$site" --questions "$questions" "${locale[@]}" "${report[@]}" "$@"
done
