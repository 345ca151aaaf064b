#!/usr/bin/env python3
"""Write all-MiniLM-L6-v2 as ONNX from the sentence-transformers safetensors weights.

No registry package ships an f32 ONNX of this model, and exporting through torch needs a
3 GB install. The encoder is a plain 6-layer BERT, so this script writes the graph
directly with the `onnx` helper API from the weights (numpy only): the result is
deterministic (same bytes on every run; checked against scripts/model/checksums.sha256),
and shaped for tract:

- inputs `input_ids`, `attention_mask` (int64 [batch, sequence]), output
  `last_hidden_state` (f32 [batch, sequence, 384]); pooling and normalisation are the
  embedder's job, so the graph stays the standard BERT encoder contract;
- the token-type-0 embedding is folded into the position table (single-segment input);
- LayerNorm is spelled out with ReduceMean/Sqrt so any opset-17 runtime runs it;
- the int8 variant quantises weights only (compute stays f32): MatMul weights per output
  channel, the word-embedding table per row, and it gathers int8 rows *before*
  dequantising so the 11.7 MB table is never expanded to f32 at run time.

Usage: export_onnx.py <model.safetensors> <out-dir>
Writes <out-dir>/model-f32.onnx and <out-dir>/model-int8.onnx.
"""

import json
import struct
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HIDDEN = 384
HEADS = 12
HEAD_DIM = HIDDEN // HEADS
LAYERS = 6
LN_EPS = 1e-12
# Added to attention scores of padding positions; exp() of it underflows to exactly 0 in f32.
MASK_BIAS = -10000.0
OPSET = 17


def read_safetensors(path: Path) -> dict:
    data = path.read_bytes()
    (header_len,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + header_len])
    base = 8 + header_len
    dtypes = {"F32": np.float32, "I64": np.int64}
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        array = np.frombuffer(data[base + start : base + end], dtype=dtypes[info["dtype"]])
        tensors[name] = array.reshape(info["shape"]).copy()
    return tensors


class Graph:
    """Accumulates nodes and initializers with deterministic names."""

    def __init__(self, quantize: bool):
        self.quantize = quantize
        self.nodes = []
        self.initializers = []
        self.counter = 0

    def name(self, hint: str) -> str:
        self.counter += 1
        return f"{hint}_{self.counter}"

    def const(self, hint: str, array: np.ndarray) -> str:
        name = self.name(hint)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def op(self, op_type: str, inputs: list, hint: str, **attrs) -> str:
        out = self.name(hint)
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def weight(self, hint: str, w_in_out: np.ndarray) -> str:
        """A MatMul weight [in, out]; int8 per output channel when quantising."""
        if not self.quantize:
            return self.const(hint, w_in_out.astype(np.float32))
        scale = np.abs(w_in_out).max(axis=0) / 127.0
        scale[scale == 0] = 1.0
        q = np.clip(np.round(w_in_out / scale), -127, 127).astype(np.int8)
        q_name = self.const(hint + "_q", q)
        s_name = self.const(hint + "_scale", scale.astype(np.float32).reshape(1, -1))
        as_f32 = self.op("Cast", [q_name], hint + "_f32", to=TensorProto.FLOAT)
        return self.op("Mul", [as_f32, s_name], hint + "_deq")

    def linear(self, x: str, hint: str, w_out_in: np.ndarray, bias: np.ndarray) -> str:
        w = self.weight(hint + "_w", np.ascontiguousarray(w_out_in.T))
        y = self.op("MatMul", [x, w], hint + "_mm")
        return self.op("Add", [y, self.const(hint + "_b", bias.astype(np.float32))], hint)

    def layer_norm(self, x: str, hint: str, gamma: np.ndarray, beta: np.ndarray) -> str:
        mean = self.op("ReduceMean", [x], hint + "_mean", axes=[-1], keepdims=1)
        centered = self.op("Sub", [x, mean], hint + "_centered")
        squared = self.op("Mul", [centered, centered], hint + "_sq")
        var = self.op("ReduceMean", [squared], hint + "_var", axes=[-1], keepdims=1)
        eps = self.const(hint + "_eps", np.array(LN_EPS, dtype=np.float32))
        std = self.op("Sqrt", [self.op("Add", [var, eps], hint + "_vareps")], hint + "_std")
        normed = self.op("Div", [centered, std], hint + "_normed")
        scaled = self.op("Mul", [normed, self.const(hint + "_gamma", gamma)], hint + "_scaled")
        return self.op("Add", [scaled, self.const(hint + "_beta", beta)], hint)

    def word_embeddings(self, ids: str, table: np.ndarray) -> str:
        if not self.quantize:
            return self.op("Gather", [self.const("word_emb", table), ids], "word", axis=0)
        scale = np.abs(table).max(axis=1, keepdims=True) / 127.0
        scale[scale == 0] = 1.0
        q = np.clip(np.round(table / scale), -127, 127).astype(np.int8)
        rows = self.op("Gather", [self.const("word_emb_q", q), ids], "word_rows_q", axis=0)
        rows_f32 = self.op("Cast", [rows], "word_rows_f32", to=TensorProto.FLOAT)
        row_scale = self.op(
            "Gather", [self.const("word_emb_scale", scale.astype(np.float32)), ids], "word_scale", axis=0
        )
        return self.op("Mul", [rows_f32, row_scale], "word")


def build(weights: dict, quantize: bool) -> onnx.ModelProto:
    g = Graph(quantize)
    w = lambda key: weights[key].astype(np.float32)  # noqa: E731

    # Embeddings: word rows + (position rows with the type-0 row folded in).
    word = g.word_embeddings("input_ids", w("embeddings.word_embeddings.weight"))
    pos_table = w("embeddings.position_embeddings.weight") + w("embeddings.token_type_embeddings.weight")[0]
    shape = g.op("Shape", ["input_ids"], "ids_shape")
    seq_len = g.op("Gather", [shape, g.const("one", np.array(1, dtype=np.int64))], "seq_len", axis=0)
    positions = g.op(
        "Range",
        [g.const("zero", np.array(0, dtype=np.int64)), seq_len, g.const("step", np.array(1, dtype=np.int64))],
        "positions",
    )
    pos = g.op("Gather", [g.const("pos_emb", pos_table), positions], "pos", axis=0)
    x = g.op("Add", [word, pos], "emb_sum")
    x = g.layer_norm(x, "emb_ln", w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"))

    # Additive attention bias [batch, 1, 1, sequence]: 0 for tokens, MASK_BIAS for padding.
    mask = g.op("Cast", ["attention_mask"], "mask_f32", to=TensorProto.FLOAT)
    mask = g.op("Unsqueeze", [mask, g.const("mask_axes", np.array([1, 2], dtype=np.int64))], "mask_4d")
    inverted = g.op("Sub", [g.const("ones", np.array(1.0, dtype=np.float32)), mask], "mask_inv")
    bias = g.op("Mul", [inverted, g.const("mask_bias", np.array(MASK_BIAS, dtype=np.float32))], "mask_bias")

    split_heads = g.const("split_heads", np.array([0, 0, HEADS, HEAD_DIM], dtype=np.int64))
    merge_heads = g.const("merge_heads", np.array([0, 0, HIDDEN], dtype=np.int64))
    inv_sqrt_d = g.const("inv_sqrt_d", np.array(1.0 / np.sqrt(HEAD_DIM), dtype=np.float32))
    inv_sqrt2 = g.const("inv_sqrt2", np.array(1.0 / np.sqrt(2.0), dtype=np.float32))
    half = g.const("half", np.array(0.5, dtype=np.float32))
    one = g.const("one_f", np.array(1.0, dtype=np.float32))

    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        h = f"l{i}"

        def heads(name: str, perm: list) -> str:
            y = g.linear(x, f"{h}_{name}", w(p + f"attention.self.{name}.weight"), w(p + f"attention.self.{name}.bias"))
            y = g.op("Reshape", [y, split_heads], f"{h}_{name}_split")
            return g.op("Transpose", [y], f"{h}_{name}_t", perm=perm)

        q = heads("query", [0, 2, 1, 3])  # [B, H, S, D]
        k = heads("key", [0, 2, 3, 1])  # [B, H, D, S]
        v = heads("value", [0, 2, 1, 3])  # [B, H, S, D]
        scores = g.op("Mul", [g.op("MatMul", [q, k], f"{h}_qk"), inv_sqrt_d], f"{h}_scaled")
        scores = g.op("Add", [scores, bias], f"{h}_masked")
        probs = g.op("Softmax", [scores], f"{h}_probs", axis=-1)
        ctx = g.op("MatMul", [probs, v], f"{h}_ctx")
        ctx = g.op("Transpose", [ctx], f"{h}_ctx_t", perm=[0, 2, 1, 3])
        ctx = g.op("Reshape", [ctx, merge_heads], f"{h}_ctx_merged")
        attn = g.linear(ctx, f"{h}_attn_out", w(p + "attention.output.dense.weight"), w(p + "attention.output.dense.bias"))
        x = g.layer_norm(
            g.op("Add", [attn, x], f"{h}_attn_res"),
            f"{h}_attn_ln",
            w(p + "attention.output.LayerNorm.weight"),
            w(p + "attention.output.LayerNorm.bias"),
        )
        # Exact (erf) GELU, as BERT's "gelu".
        up = g.linear(x, f"{h}_ffn_up", w(p + "intermediate.dense.weight"), w(p + "intermediate.dense.bias"))
        erf = g.op("Erf", [g.op("Mul", [up, inv_sqrt2], f"{h}_gelu_div")], f"{h}_gelu_erf")
        gate = g.op("Mul", [g.op("Add", [erf, one], f"{h}_gelu_add"), half], f"{h}_gelu_half")
        act = g.op("Mul", [up, gate], f"{h}_gelu")
        down = g.linear(act, f"{h}_ffn_down", w(p + "output.dense.weight"), w(p + "output.dense.bias"))
        x = g.layer_norm(
            g.op("Add", [down, x], f"{h}_ffn_res"),
            f"{h}_ffn_ln",
            w(p + "output.LayerNorm.weight"),
            w(p + "output.LayerNorm.bias"),
        )

    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))
    int_input = lambda name: helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])  # noqa: E731
    graph = helper.make_graph(
        g.nodes,
        "all-MiniLM-L6-v2" + ("-int8" if quantize else ""),
        [int_input("input_ids"), int_input("attention_mask")],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", HIDDEN])],
        g.initializers,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="lectern-export",
        producer_version="1",
        ir_version=8,
    )
    onnx.checker.check_model(model)
    return model


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    weights = read_safetensors(Path(sys.argv[1]))
    out_dir = Path(sys.argv[2])
    out_dir.mkdir(parents=True, exist_ok=True)
    for quantize, name in [(False, "model-f32.onnx"), (True, "model-int8.onnx")]:
        model = build(weights, quantize)
        tmp = out_dir / (name + ".tmp")
        tmp.write_bytes(model.SerializeToString())
        tmp.replace(out_dir / name)
        print(f"wrote {out_dir / name} ({(out_dir / name).stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
