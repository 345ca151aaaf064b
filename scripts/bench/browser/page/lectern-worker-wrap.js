// pkg's own worker, with wasm-hook.js loaded first so the bench can read its wasm memory
// (globalThis.__benchWasmHeap(), evaluated over CDP). Nothing else changes.
import "./wasm-hook.js";
import "/pkg/worker.js";
