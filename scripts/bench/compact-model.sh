#!/usr/bin/env bash
# The compact model's candidate schemes, measured side by side (BENCHMARKS.md, "A compact
# model on the wire"): per scheme the file size raw and brotli (q11), parity with
# sentence-transformers on tests/fixtures/embeddings/reference.json and with the f32 model on
# real sections of every corpus, then `lectern eval` in every mode on every labelled corpus.
#
#   scripts/bench/compact-model.sh [--no-eval] [SCHEME...]     (default: the candidates below)
#
# Each candidate's eval runs with its own LECTERN_CACHE (under $LECTERN_CACHE/compact-model/),
# so re-runs reuse its vectors and the shared eval cache is left alone.
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"

eval_too=1
if [ "${1:-}" = --no-eval ]; then eval_too=0; shift; fi
schemes=("$@")
[ ${#schemes[@]} -gt 0 ] || schemes=(
  words=q6g32,positions=q8,layers=q8
  words=q8,positions=q8,layers=q8
  words=q4g32,positions=q8,layers=q8
  words=q4g64,positions=q8,layers=q8
  words=q6g64,positions=q8,layers=q8
  words=q4g32,positions=q8,layers=q4g32
  words=q4g64,positions=q8,layers=q4g64
  words=q4g32,positions=q8,layers=q6g64
  words=q3g32,positions=q8,layers=q4g32
)
work="$LECTERN_CACHE/compact-model"
mkdir -p "$work"

step "compact model: lectern CLI and the sections of every corpus"
[ -x "$LECTERN_BIN" ] || cargo build --release -p index-build
: >"$work/sections.jsonl"
for questions in tests/eval/questions/*.jsonl; do
  site="$(corpus_site "$(basename "$questions" .jsonl)")" || continue
  [ ! -d "$site" ] || "$LECTERN_BIN" chunks "$site" --json >>"$work/sections.jsonl"
done
echo "$(wc -l <"$work/sections.jsonl") sections"

step "compact model: size and parity"
scheme_args=()
for s in "${schemes[@]}"; do scheme_args+=(--scheme "$s"); done
"$LECTERN_BIN" compact-model --compare --sections "$work/sections.jsonl" --limit 400 --out "$work/candidates" \
  "${scheme_args[@]}" | tee "$work/parity.md"
node -e '
  const fs = require("fs"), zlib = require("zlib"), path = require("path");
  const dir = process.argv[1];
  console.log("| candidate | raw bytes | brotli q11 bytes |\n|---|---|---|");
  for (const c of fs.readdirSync(dir).sort()) {
    const file = fs.readdirSync(path.join(dir, c)).find((f) => f.startsWith("model-"));
    const bytes = fs.readFileSync(path.join(dir, c, file));
    const br = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    console.log(`| ${c} | ${bytes.length} | ${br.length} |`);
  }' "$work/candidates" | tee "$work/sizes.md"

[ "$eval_too" = 1 ] || exit 0
step "compact model: retrieval (lectern eval, every mode)"
for candidate in "$work"/candidates/*/; do
  name="$(basename "$candidate")"
  for questions in tests/eval/questions/*.jsonl; do
    corpus="$(basename "$questions" .jsonl)"
    site="$(corpus_site "$corpus")" || continue
    [ -d "$site" ] || continue
    echo "== $name / $corpus"
    LECTERN_CACHE="$work/cache/$name" "$LECTERN_BIN" eval "$site" --questions "$questions" --mode all \
      --model-dir "$candidate" --report "$work/eval-$name-$corpus.json" | tail -n 9
  done
done
