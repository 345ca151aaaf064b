// The wasm modules, downloaded once and kept in the Cache API under their content-hashed
// names. The search module (keyword and vector search, no chat) is what a search box needs
// first: it is compiled once on the page (which highlights the rows with it) and handed to
// the worker with the open request, so the reader pays for it once. The chat module (the
// chat's rules) comes only when the chat is used, and the embedder module only once the
// worker loads the model: keyword answers wait for neither.

import { CORE_WASM_FILE, EMBED_WASM_FILE, SEARCH_WASM_FILE } from "./wasm-file.js";
import { codedError } from "./errors.js";

export const DEFAULT_CACHE_NAME = "lectern-v1";

/** The modules' URLs, next to this file (`pkg/` or wherever the site serves it). */
export const searchWasmUrl = () => new URL(`./${SEARCH_WASM_FILE}`, import.meta.url).href;
export const coreWasmUrl = () => new URL(`./${CORE_WASM_FILE}`, import.meta.url).href;
export const embedWasmUrl = () => new URL(`./${EMBED_WASM_FILE}`, import.meta.url).href;

/** Is `url` one of our modules (this version's or an older one's)? For pruning the cache. */
export const isRuntimeFile = (url) => /\/lectern(_[a-z]+)?_bg\.[0-9a-f]+\.wasm$/.test(url);

async function openCache(cacheName) {
  if (cacheName === null || typeof caches === "undefined") return null;
  try {
    return await caches.open(cacheName);
  } catch {
    return null; // storage blocked (private mode, quota): work uncached
  }
}

/**
 * Compiles the module at `url`: from the Cache API when it is there, else from the network
 * while it streams (a copy is cached for the next visit). `cacheName` null: no cache.
 * Throws a plain Error with `status` for HTTP errors; the callers wrap it in their own code.
 */
export async function compileWasm(url, cacheName = DEFAULT_CACHE_NAME) {
  const cache = await openCache(cacheName);
  const cached = cache && (await cache.match(url).catch(() => undefined));
  if (cached) {
    try {
      return await WebAssembly.compile(await cached.arrayBuffer());
    } catch {
      await cache.delete(url).catch(() => {}); // a damaged copy: fetch it again
    }
  }
  const response = await fetch(url);
  if (!response.ok) throw Object.assign(new Error(`HTTP ${response.status}`), { status: response.status });
  const copy = cache ? response.clone() : null;
  // Streaming compilation needs `application/wasm`; some hosts serve .wasm as something else.
  const streams = response.headers.get("Content-Type")?.startsWith("application/wasm");
  const module = await (streams ? WebAssembly.compileStreaming(response) : response.arrayBuffer().then((b) => WebAssembly.compile(b)));
  if (copy) {
    copy.arrayBuffer().then(
      (body) => cache.put(url, new Response(body, { headers: { "Content-Type": "application/wasm" } })).catch(() => {}),
      () => {},
    );
  }
  return module;
}

/** compileWasm's failure as a worker's coded error: `code`, with detail HTTP_<status> or RUNTIME. */
export function moduleLoadError(code, what, url, e) {
  return codedError(code, `Could not load the ${what} ${url}: ${e?.message ?? e}`, e?.status ? `HTTP_${e.status}` : "RUNTIME");
}

/** @type {Map<string, Promise<WebAssembly.Module>>} */
const compiled = new Map();
/** The module at `url`, compiled once per page (the first caller's cache settings count). */
function compileOnce(url, { cache = true, cacheName = DEFAULT_CACHE_NAME } = {}) {
  if (!compiled.has(url)) {
    const module = compileWasm(url, cache === false ? null : cacheName);
    compiled.set(url, module);
    module.catch(() => compiled.delete(url)); // a later call tries again
  }
  return /** @type {Promise<WebAssembly.Module>} */ (compiled.get(url));
}

/** The search module (the worker's and the search box's), compiled once per page. */
export const searchModule = (options = {}) => compileOnce(searchWasmUrl(), options);
/** The chat module (the chat's rules), compiled once per page. */
export const coreModule = (options = {}) => compileOnce(coreWasmUrl(), options);

/**
 * A function that starts a module's wasm-bindgen glue (`init`) on `compile()`'s module once
 * on this thread and resolves with its `exports`; a failure lets a later call try again.
 * @template T
 * @param {() => Promise<WebAssembly.Module>} compile
 * @param {(init: {module_or_path: WebAssembly.Module}) => Promise<unknown>} init
 * @param {T} exports
 * @returns {() => Promise<T>}
 */
export function startedOnce(compile, init, exports) {
  /** @type {Promise<T> | null} */
  let started = null;
  return () => {
    started ??= compile()
      .then((module) => init({ module_or_path: module }))
      .then(
        () => exports,
        (e) => {
          started = null;
          throw e;
        },
      );
    return started;
  };
}
