// The search worker's side of the embedder's worker (embed-worker.js): one request at a time
// by id, each answered or failed; a trap there ends that worker, which fails what is pending
// and every later request and reports `model-failed` if it was the live embedder. The
// model's word table comes in shards: before a text is embedded, the shards of its word
// pieces (the embedder names them) are fetched here, once each, and handed over.

import { state, lectError, progress, fetchFile, evict, DAMAGED } from "./worker-support.js";

/** The unit vector of `text`, from the live embedder, after fetching the word-table shards
 * it needs (`state.words`: the bundle's words catalog, in table order). */
export async function embedText(text) {
  const embedder = state.embedder;
  if (!embedder) throw lectError("MODEL_UNAVAILABLE", "The embedding model is not loaded yet", "NOT_LOADED");
  const missing = await embedder.request("missingWords", { text });
  await Promise.all(missing.map((index) => addWord(embedder, index)));
  return embedder.request("embed", { text });
}

/** Fetches shard `index` and adds it to `embedder`, once: concurrent questions share it. A
 * damaged cached copy is fetched again, once. */
function addWord(embedder, index) {
  let pending = embedder.words.get(index);
  if (!pending) {
    const file = state.words?.[index];
    if (!file) {
      return Promise.reject(lectError("MODEL_UNAVAILABLE", `The model needs word-table shard ${index}, which the search index does not list`, "WORDS_MISSING"));
    }
    const url = new URL(file.name, state.manifestUrl).href;
    const add = async (got) => embedder.request("addWord", { index, bytes: got.bytes }, [got.bytes.buffer]);
    pending = (async () => {
      const got = await fetchFile(url, "MODEL_UNAVAILABLE", null);
      try {
        await add(got);
      } catch (e) {
        if (!(DAMAGED.has(e?.detail) && got.fromCache)) throw e;
        await evict([got]);
        await add(await fetchFile(url, "MODEL_UNAVAILABLE", null));
      }
    })();
    pending.catch(() => embedder.words.delete(index)); // a later question retries
    embedder.words.set(index, pending);
  }
  return pending;
}

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
  // words: shard index -> Promise of its addition to this embedder.
  return { worker, request, words: new Map(), terminate: () => fail(lectError("MODEL_UNAVAILABLE", "The embedding worker was stopped", "STOPPED")) };
}

