// Lectern's embedder alone: the embedder module's `Embedder` (tokenizer + tract + pooling) in a
// module worker, timed inside the worker. `?pkg=/pkg/` picks the package (e.g. /pkg-relaxed/).
import "./wasm-hook.js";

const pkg = new URL(self.location.href).searchParams.get("pkg") ?? "/pkg/";
let embedder = null;

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

const handlers = {
  async init({ modelUrl, tokenizerUrl }) {
    const t0 = performance.now();
    const { default: initWasm, Embedder } = await import(`${pkg}lectern_embed.js`);
    const { EMBED_WASM_FILE: WASM_FILE } = await import(`${pkg}wasm-file.js`);
    await initWasm({ module_or_path: fetch(`${pkg}${WASM_FILE}`) });
    const t1 = performance.now();
    const [onnx, tokenizer] = await Promise.all([fetchBytes(modelUrl), fetchBytes(tokenizerUrl)]);
    const t2 = performance.now();
    embedder = new Embedder(onnx, tokenizer);
    const t3 = performance.now();
    return { runtimeMs: t1 - t0, fetchMs: t2 - t1, initMs: t3 - t2, wasm: WASM_FILE, fingerprint: embedder.fingerprint };
  },
  embed({ texts }) {
    const out = [];
    for (const text of texts) {
      const t0 = performance.now();
      const v = embedder.embed(text);
      out.push({ ms: performance.now() - t0, vector: Array.from(v) });
    }
    return out;
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
