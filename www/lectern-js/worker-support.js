// What the Lectern worker (worker.js) stands on: its state, its error objects, progress
// events, and every download (content-addressed files cached forever with the Cache API,
// the manifest revalidated). Split from worker.js so each file reads as one idea.

import { SUGGESTIONS } from "./error-codes.js";

/** Details that mean "these bytes are damaged": a cached copy is dropped and fetched again. */
export const DAMAGED = new Set(["WRONG_SIZE", "CHECKSUM_MISMATCH", "CORRUPT", "MODEL_CORRUPT"]);

let receiveCore;
export const state = {
  options: null,
  /** The core module the page compiled (null: compile it here), sent after `open`. */
  coreModule: new Promise((resolve) => {
    receiveCore = resolve;
  }),
  receiveCore: (module) => receiveCore(module),
  /** Cache | null (no Cache API, or disabled); undefined until opened. */
  cache: undefined,
  /** @type {import("./lectern_core.js").Retriever | null} */
  retriever: null,
  /** The embedder's worker (worker.js startEmbedWorker) once the model is built: semantic
   * search works. */
  embedder: null,
  words: null, // the model's word-table shards (FileEntry[], the bundle's words catalog)
  manifest: null,
  manifestUrl: null,
  parts: new Map(), // "part:id" of a catalog page or shard -> Promise of its attachment
  model: null, // Promise of the model load in progress or done
  startModel: null, // starts the deferred model load (worker.js deferModel), until it has started
  active: new Set(), // ids of searches in progress
  cancelled: new Set(), // ids of searches in progress that the page gave up on
};

export function lectError(code, message, detail, extra) {
  return { code, message, suggestion: SUGGESTIONS[code] ?? "", ...(detail ? { detail } : {}), ...extra };
}

/** Any thrown value as a plain error object. */
export function plain(e) {
  if (e && typeof e === "object" && typeof e.code === "string") {
    const { code, message, suggestion, detail } = e;
    return { code, message: String(message ?? code), suggestion: suggestion ?? SUGGESTIONS[code] ?? "", ...(detail ? { detail } : {}), ...pick(e, ["shard", "file", "part", "id"]) };
  }
  return lectError("INTERNAL", String(e?.message ?? e));
}

function pick(o, keys) {
  const out = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** Runs a wasm call; a trap (Rust panic) poisons the module, so the worker ends itself and
 * the page starts a new one.
 * @template T
 * @param {() => T} fn
 * @returns {T} */
export function wasm(fn) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      self.postMessage({ type: "fatal", error: lectError("WORKER_CRASHED", `The search module crashed: ${e.message}`) });
      self.close();
    }
    throw e;
  }
}

// ---- progress -------------------------------------------------------------------------

export function progress(event) {
  self.postMessage({ type: "progress", event });
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

// ---- fetching, with the Cache API -------------------------------------------------------

export async function openCache() {
  if (state.cache !== undefined) return state.cache;
  state.cache = null;
  if (state.options.cache !== false && typeof caches !== "undefined") {
    try {
      state.cache = await caches.open(state.options.cacheName);
    } catch {
      // Storage blocked (private mode, quota): work uncached.
    }
  }
  return state.cache;
}

async function readBody(response, onBytes) {
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    onBytes?.(bytes.length);
    return bytes;
  }
  const reader = response.body.getReader();
  const parts = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    length += value.length;
    onBytes?.(value.length);
  }
  if (parts.length === 1) return parts[0];
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

/** GETs `url` (a content-addressed file: cached forever under its URL). */
export async function fetchFile(url, code, track) {
  const name = url.slice(url.lastIndexOf("/") + 1);
  const cache = await openCache();
  if (cache) {
    try {
      const hit = await cache.match(url);
      if (hit) {
        const bytes = new Uint8Array(await hit.arrayBuffer());
        track?.(bytes.length, true, name);
        return { bytes, fromCache: true, url };
      }
    } catch {
      // A broken cache entry is a miss.
    }
  }
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw lectError(code, `Could not download ${url}: ${e.message}`, "NETWORK", { file: name });
  }
  if (!response.ok) {
    throw lectError(code, `Could not download ${url}: HTTP ${response.status}`, `HTTP_${response.status}`, { file: name });
  }
  let bytes;
  try {
    bytes = await readBody(response, (n) => track?.(n, false, name));
  } catch (e) {
    throw lectError(code, `The download of ${url} broke off: ${e.message}`, "NETWORK", { file: name });
  }
  if (cache) {
    const type = response.headers.get("Content-Type") ?? "application/octet-stream";
    // Quota errors leave the file uncached; the next visit downloads it again.
    await cache.put(url, new Response(bytes, { headers: { "Content-Type": type } })).catch(() => {});
  }
  return { bytes, fromCache: false, url };
}

export async function evict(files) {
  const cache = await openCache();
  if (cache) await Promise.all(files.filter((f) => f.fromCache).map((f) => cache.delete(f.url)));
}

/** Fetches `urls` and hands their bytes to `use`; when a cached copy turns out damaged,
 * drops the cached copies and tries once more from the network. */
export async function withFiles(urls, code, track, use) {
  const files = await Promise.all(urls.map((u) => fetchFile(u, code, track)));
  try {
    return wasm(() => use(...files.map((f) => f.bytes)));
  } catch (e) {
    if (!(DAMAGED.has(e?.detail) && files.some((f) => f.fromCache))) throw e;
    await evict(files);
    const fresh = await Promise.all(urls.map((u) => fetchFile(u, code, track)));
    return wasm(() => use(...fresh.map((f) => f.bytes)));
  }
}

/** The manifest is the one file without a hash in its name: always revalidated, and the
 * cached copy is used only when the network fails (offline reading keeps working). */
export async function fetchManifest(url) {
  const cache = await openCache();
  let response;
  try {
    response = await fetch(url, { cache: "no-cache" });
  } catch (e) {
    const cached = cache && (await cache.match(url).catch(() => undefined));
    if (cached) return new Uint8Array(await cached.arrayBuffer());
    throw lectError("INDEX_UNAVAILABLE", `Could not download the search index ${url}: ${e.message}`, "NETWORK");
  }
  if (!response.ok) {
    throw lectError("INDEX_UNAVAILABLE", `Could not download the search index ${url}: HTTP ${response.status}`, `HTTP_${response.status}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (cache) await cache.put(url, new Response(bytes, { headers: { "Content-Type": "application/json" } })).catch(() => {});
  return bytes;
}
