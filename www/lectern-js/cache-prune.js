// The Cache API's housekeeping for the search worker: after a bundle is opened, cached files
// it no longer names go (a rebuilt bundle invalidates exactly what changed).

import { coreWasmUrl, embedWasmUrl, isRuntimeFile, searchWasmUrl } from "./runtime.js";
import { state } from "./worker-state.js";
import { openCache } from "./downloads.js";

/** Drops cached files of this bundle (and older wasm modules) that the current manifest
 * and runtime no longer name: a rebuilt bundle invalidates exactly what changed. Shards are
 * named by catalog pages: those of the current pages that are cached are kept; chunk shards
 * by number, by the core. */
export async function prune() {
  const cache = await openCache();
  if (!cache) return;
  // Only what was cached before this point is judged: shards that searches cache meanwhile
  // may belong to pages not read below.
  const cachedBefore = await cache.keys();
  const base = new URL(".", state.manifestUrl).href;
  const m = state.manifest;
  const keep = new Set([state.manifestUrl, searchWasmUrl(), coreWasmUrl(), embedWasmUrl()]);
  const pages = [...m.files.terms, ...(m.files.chunks ?? []), ...(m.files.dense_parts ?? []), ...(m.model.words ? [m.model.words] : [])];
  for (const f of [m.files.chunk_table, m.files.pages, m.files.dense, ...pages, m.model.weights, m.model.tokenizer]) {
    if (f) keep.add(new URL(f.name, base).href);
  }
  for (const page of pages) {
    const cached = await cache.match(new URL(page.name, base).href).catch(() => undefined);
    const shards = cached ? await cached.json().catch(() => []) : [];
    for (const shard of Array.isArray(shards) ? shards : []) {
      for (const name of [shard?.name, shard?.meta?.name, shard?.text?.name]) if (typeof name === "string") keep.add(new URL(name, base).href);
    }
  }
  // Files no manifest entry or catalog page lists (format 5); the core says which are this
  // bundle's. Chunk shards by number; and a dense index's parts, which its head lists: while
  // the same head (content-addressed) is cached, so are its parts, and a new head drops them.
  const numbered = (url) => url.startsWith(base) && Boolean(state.retriever?.namesNumberedFile(url.slice(base.length)));
  const denseHead = m.files.dense ? new URL(m.files.dense.name, base).href : null;
  const sameHead = denseHead !== null && cachedBefore.some((request) => request.url === denseHead);
  const densePart = (url) => sameHead && url.startsWith(base) && Boolean(state.retriever?.namesDensePart(url.slice(base.length)));
  for (const request of cachedBefore) {
    const url = request.url;
    const ours = url.startsWith(base) || isRuntimeFile(url);
    if (ours && !keep.has(url) && !numbered(url) && !densePart(url) && !isModelOverride(url)) await cache.delete(request);
  }
}

function isModelOverride(url) {
  return url === state.options.modelUrl || url === state.options.tokenizerUrl;
}

