// transformers.js (onnxruntime-web, wasm backend) in a module worker: the same model-int8.onnx
// and tokenizer.json from this server as a Hugging Face folder (/models/all-minilm-l6-v2/), no
// remote models, onnxruntime-web's files from /ort/. Timed inside the worker.
import "./wasm-hook.js";
import { env, pipeline } from "/tjs/transformers.min.js";

let extractor = null;

const handlers = {
  async init({ threads = 1, ortVariant = "asyncify", browserCache = false }) {
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = "/models/";
    // Off by default: a fresh context has an empty cache anyway; keep runs alike. On for a
    // second visit (first-seconds.mjs): transformers.js's own Cache API use, as a site gets it.
    env.useBrowserCache = browserCache;
    const suffix = ortVariant === "plain" ? "" : `.${ortVariant}`;
    env.backends.onnx.wasm.wasmPaths = {
      mjs: new URL(`/ort/ort-wasm-simd-threaded${suffix}.mjs`, self.location.href).href,
      wasm: new URL(`/ort/ort-wasm-simd-threaded${suffix}.wasm`, self.location.href).href,
    };
    env.backends.onnx.wasm.numThreads = threads;
    const t0 = performance.now();
    extractor = await pipeline("feature-extraction", "all-minilm-l6-v2", { device: "wasm", dtype: "q8" });
    const t1 = performance.now();
    return {
      initMs: t1 - t0,
      threadsAsked: threads,
      threadsUsed: env.backends.onnx.wasm.numThreads,
      crossOriginIsolated: self.crossOriginIsolated,
      ortVersion: env.backends.onnx.versions?.web ?? null,
      tjsVersion: env.version,
    };
  },
  async embed({ texts }) {
    const out = [];
    for (const text of texts) {
      const t0 = performance.now();
      const t = await extractor(text, { pooling: "mean", normalize: true });
      out.push({ ms: performance.now() - t0, vector: Array.from(t.data) });
    }
    return out;
  },
  async tokens({ texts }) {
    return texts.map((text) => extractor.tokenizer(text).input_ids.dims);
  },
  memory() {
    return { wasm: globalThis.__benchWasmHeap() };
  },
};

self.onmessage = async ({ data: { id, type, ...args } }) => {
  try {
    self.postMessage({ id, ok: true, result: await handlers[type](args) });
  } catch (e) {
    self.postMessage({ id, ok: false, error: String(e?.stack ?? e?.message ?? e) });
  }
};
