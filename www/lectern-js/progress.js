// The search worker's progress events to the page, sent from here only: what the page is
// told about loading (each phase's bytes, lexical-ready, model-init, hybrid-ready,
// model-failed) passes through this one path.

import { emit } from "./rpc.js";
import { plain } from "./errors.js";

/** Tells the page about `event` ({phase, loaded, total, ...}: index.d.ts ProgressEvent). */
export function progress(event) {
  emit("progress", event);
}

/** The model cannot be loaded (or the embedder stopped): keyword search goes on. */
export function modelFailed(e) {
  progress({ phase: "model-failed", loaded: 0, total: 0, error: plain(e) });
}

/** Counts downloaded bytes of one phase and reports them, at most every 50 ms. */
export function tracker(phase, total) {
  let loaded = 0;
  let last = 0;
  return (bytes, fromCache, file) => {
    loaded += bytes;
    const now = performance.now();
    if (now - last >= 50 || loaded >= total) {
      last = now;
      progress({ phase, loaded: Math.min(loaded, total || loaded), total: total || loaded, file, fromCache });
    }
  };
}
