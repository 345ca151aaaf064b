// Records every WebAssembly.Memory a module in this realm exports or imports, so the bench can
// read the wasm heap (buffer.byteLength) of any engine without reaching into its internals.
// Import it before the engine.
const memories = new Set();
globalThis.__benchWasmMemories = memories;

function note(result, imports) {
  const instance = result instanceof WebAssembly.Instance ? result : result?.instance;
  for (const value of Object.values(instance?.exports ?? {})) if (value instanceof WebAssembly.Memory) memories.add(value);
  for (const ns of Object.values(imports ?? {})) {
    for (const value of Object.values(ns ?? {})) if (value instanceof WebAssembly.Memory) memories.add(value);
  }
  return result;
}

const { instantiate, instantiateStreaming } = WebAssembly;
WebAssembly.instantiate = async (source, imports, ...rest) => note(await instantiate.call(WebAssembly, source, imports, ...rest), imports);
if (instantiateStreaming) {
  WebAssembly.instantiateStreaming = async (source, imports, ...rest) =>
    note(await instantiateStreaming.call(WebAssembly, source, imports, ...rest), imports);
}

/** Bytes of wasm linear memory held by the modules seen so far. */
globalThis.__benchWasmHeap = () => {
  let bytes = 0;
  for (const m of memories) bytes += m.buffer.byteLength;
  return { bytes, memories: memories.size };
};
