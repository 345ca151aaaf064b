// The search worker's progress events to the page, sent from here only: what the page is
// told about loading (each phase's bytes, lexical-ready, model-init, hybrid-ready,
// model-failed) passes through this one path, and through the core's loading machine
// (src/loading.rs, `Loading`) first: an event that cannot come now — a late byte count of a
// model download that already failed, an event of an earlier attempt — is not sent. The
// index is told each new state too: the core decides from it whether a weak keyword answer
// promises a better one (only while semantic search is coming).

import { Loading } from "./lectern_search.js";
import { emit, inWasm } from "./rpc.js";
import { plain } from "./errors.js";
import { state } from "./worker-state.js";

/** The machine, made once the search module has started (the first event comes after that). */
let loading = null;

/** Tells the page about `event` ({phase, loaded, total, attempt?, ...}: index.d.ts
 * ProgressEvent) if the loading machine takes it; returns whether it was told. */
export function progress(event) {
  loading ??= new Loading();
  let next;
  try {
    next = loading.apply(event.phase, event.attempt);
  } catch (e) {
    console.debug("Lectern: a progress event out of order was dropped", event, e?.technical ?? e);
    return false;
  }
  // Opened before lexical-ready, so the index hears every state from keyword on.
  if (state.retriever) inWasm(() => state.retriever.setLoadState(next));
  emit("progress", event);
  return true;
}

/** Model attempt `attempt` failed (or its embedder stopped): keyword search goes on. */
export function modelFailed(e, attempt) {
  const error = plain(e);
  const told = progress({ phase: "model-failed", loaded: 0, total: 0, attempt, error });
  if (told) console.warn("Lectern: semantic search is unavailable:", error.code, error.detail ?? "", error.technical ?? error.message);
  return told;
}

/** Counts downloaded bytes of one phase (of model attempt `attempt`, for "model") and
 * reports them, at most every 50 ms. */
export function tracker(phase, total, attempt) {
  let loaded = 0;
  let last = 0;
  return (bytes, fromCache, file) => {
    loaded += bytes;
    const now = performance.now();
    if (now - last >= 50 || loaded >= total) {
      last = now;
      progress({ phase, loaded: Math.min(loaded, total || loaded), total: total || loaded, file, fromCache, ...(attempt ? { attempt } : {}) });
    }
  };
}
