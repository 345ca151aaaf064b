// Every download of the search worker: the bundle's content-addressed files, cached forever
// under their URLs with the Cache API, and the manifest, always revalidated. A cached copy
// that turns out damaged is dropped and fetched again, once (refetchIfDamaged).

import { codedError } from "./errors.js";
import { state } from "./worker-state.js";

/** Details that mean "these bytes are damaged": a cached copy is dropped and fetched again. */
const DAMAGED = new Set(["WRONG_SIZE", "CHECKSUM_MISMATCH", "CORRUPT", "MODEL_CORRUPT"]);
const isDamaged = (e) => DAMAGED.has(e?.detail);

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

/** GETs `url` (a content-addressed file: cached forever under its URL): {bytes, fromCache,
 * url}. Fails with `code` (detail NETWORK or HTTP_<status>); `track` counts the bytes. */
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
    throw codedError(code, `Could not download ${url}: ${e.message}`, "NETWORK", { file: name });
  }
  if (!response.ok) {
    throw codedError(code, `Could not download ${url}: HTTP ${response.status}`, `HTTP_${response.status}`, { file: name });
  }
  let bytes;
  try {
    bytes = await readBody(response, (n) => track?.(n, false, name));
  } catch (e) {
    throw codedError(code, `The download of ${url} broke off: ${e.message}`, "NETWORK", { file: name });
  }
  if (cache) {
    const type = response.headers.get("Content-Type") ?? "application/octet-stream";
    // Quota errors leave the file uncached; the next visit downloads it again.
    await cache.put(url, new Response(bytes, { headers: { "Content-Type": type } })).catch(() => {});
  }
  return { bytes, fromCache: false, url };
}

/**
 * Hands the bytes of `files` (fetchFile's results) to `use` and returns what it returns.
 * When `use` fails because a cached copy is damaged (`damaged(e)`: by default a detail
 * such as CHECKSUM_MISMATCH) and one of them came from the cache, the cached copies are
 * dropped and `use` runs once more on fresh downloads (`code`, `track` as fetchFile's).
 */
export async function refetchIfDamaged(files, { code, track, damaged = isDamaged }, use) {
  try {
    return await use(...files.map((f) => f.bytes));
  } catch (e) {
    if (!(damaged(e) && files.some((f) => f.fromCache))) throw e;
    const cache = await openCache();
    if (cache) await Promise.all(files.filter((f) => f.fromCache).map((f) => cache.delete(f.url)));
    const fresh = await Promise.all(files.map((f) => fetchFile(f.url, code, track)));
    return use(...fresh.map((f) => f.bytes));
  }
}

/** `start()`'s promise, kept in `map` under `key` so that concurrent callers share one
 * download; a failure is forgotten, so a later call tries again. */
export function shared(map, key, start) {
  let pending = map.get(key);
  if (!pending) {
    pending = start();
    pending.catch(() => map.delete(key));
    map.set(key, pending);
  }
  return pending;
}

/** `start()`'s promise; if it fails, `start()` once more (a file that failed to download or
 * to verify is asked for again before its failure counts). */
export async function onceMore(start) {
  try {
    return await start();
  } catch {
    return start();
  }
}

/** Fetches `urls` and hands their bytes to `use`, fetching a damaged cached copy again. */
export async function withFiles(urls, code, track, use) {
  const files = await Promise.all(urls.map((u) => fetchFile(u, code, track)));
  return refetchIfDamaged(files, { code, track }, use);
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
    throw codedError("INDEX_UNAVAILABLE", `Could not download the search index ${url}: ${e.message}`, "NETWORK");
  }
  if (!response.ok) {
    throw codedError("INDEX_UNAVAILABLE", `Could not download the search index ${url}: HTTP ${response.status}`, `HTTP_${response.status}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (cache) await cache.put(url, new Response(bytes, { headers: { "Content-Type": "application/json" } })).catch(() => {});
  return bytes;
}
