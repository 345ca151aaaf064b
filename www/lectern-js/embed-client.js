// The search worker's side of the embedder's worker (embed-worker.js): one request at a time
// by id, each answered or failed; a trap there ends that worker, which fails what is pending
// and every later request and reports `model-failed` if it was the live embedder.

import { state, lectError, progress } from "./worker-support.js";

/** The embedder's worker (embed-worker.js): `request(type, payload, transfer)` by id. A trap
 * there (the worker ends) fails what is pending and every later request. */
export function startEmbedWorker() {
  const worker = new Worker(new URL("./embed-worker.js", import.meta.url), { type: "module", name: "lectern-embed" });
  const pending = new Map();
  let nextId = 1;
  let dead = null;
  const fail = (error) => {
    dead = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    worker.terminate();
    if (state.embedder?.worker === worker) {
      state.embedder = null;
      progress({ phase: "model-failed", loaded: 0, total: 0, error });
    }
  };
  worker.onmessage = ({ data }) => {
    if (data.type === "failed") return fail(data.error);
    const p = pending.get(data.id);
    pending.delete(data.id);
    if (data.ok) p?.resolve(data.result);
    else p?.reject(data.error);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    fail(lectError("MODEL_UNAVAILABLE", `The embedding worker failed: ${event.message || "it did not start"}`, "RUNTIME"));
  };
  const request = (type, payload = {}, transfer = []) =>
    dead
      ? Promise.reject(dead)
      : new Promise((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject });
          worker.postMessage({ id, type, ...payload }, transfer);
        });
  return { worker, request, terminate: () => fail(lectError("MODEL_UNAVAILABLE", "The embedding worker was stopped", "STOPPED")) };
}

