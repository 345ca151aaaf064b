// The search worker's state: what it has opened, fetched and built, in one object shared by
// its files (worker.js, model-load.js, embed-client.js, downloads.js, cache-prune.js), so
// what the worker holds is listed in one place.

let receiveSearch;
export const state = {
  options: null,
  /** The search module the page compiled (null: compile it here), sent after `open`. */
  searchModule: new Promise((resolve) => {
    receiveSearch = resolve;
  }),
  receiveSearch: (module) => receiveSearch(module),
  /** Cache | null (no Cache API, or disabled); undefined until opened. */
  cache: undefined,
  retriever: null,
  /** Whether semantic search suits the index's language (the core says, at open): when not,
   * the model is never loaded. */
  semantic: false,
  /** The embedder's worker (embed-client.js startEmbedWorker) once the model is built:
   * semantic search works. */
  embedder: null,
  words: null, // the model's word-table shards (FileEntry[], the bundle's words catalog)
  manifest: null,
  manifestUrl: null,
  parts: new Map(), // "part:id" of a catalog page or shard -> Promise of its attachment
  model: null, // Promise of the model load in progress or done
  modelAttempts: 0, // model loads started (model-load.js): the number of the last attempt
  startModel: null, // starts the deferred model load (model-load.js deferModel), until it has started
};

/** The URL of a file the manifest lists (a FileEntry): next to the manifest. */
export const fileUrl = (entry) => new URL(entry.name, state.manifestUrl).href;

/** The Cache API's cache name, or null when the page turned the cache off. */
export const cacheName = () => (state.options.cache === false ? null : state.options.cacheName);
