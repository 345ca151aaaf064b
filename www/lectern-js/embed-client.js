// The search worker's side of the embedder's worker (embed-worker.js), over rpc.js: a crash
// there (the worker ends) fails what is pending and every later request, and reports
// `model-failed` if it was the live embedder. The model's word table comes in shards: before
// a text is embedded, the shards of its word pieces (the embedder names them) are fetched
// here, once each (a failed one once more), and handed over. A shard that cannot be had ends
// this embedder the same way: semantic search is reported unavailable once, and nothing is
// fetched again until the reader retries (`loadModel`).

import { connect } from "./rpc.js";
import { codedError } from "./errors.js";
import { state, fileUrl } from "./worker-state.js";
import { modelFailed } from "./progress.js";
import { onceMore, shared, withFiles } from "./downloads.js";

/** The unit vector of `text`, from the live embedder, after fetching the word-table shards
 * it needs (`state.words`: the bundle's words catalog, in table order). */
export async function embedText(text) {
  const embedder = state.embedder;
  if (!embedder) throw codedError("MODEL_UNAVAILABLE", "The embedding model is not loaded yet", "NOT_LOADED");
  const missing = await embedder.request("missingWords", { text });
  try {
    await Promise.all(missing.map((index) => addWord(embedder, index)));
  } catch (e) {
    embedder.fail(e);
    throw e;
  }
  return embedder.request("embed", { text });
}

/** Fetches shard `index` and adds it to `embedder`, once: concurrent questions share it. A
 * damaged cached copy is fetched again, once. */
function addWord(embedder, index) {
  const file = state.words?.[index];
  if (!file) {
    return Promise.reject(codedError("MODEL_UNAVAILABLE", `The model needs word-table shard ${index}, which the search index does not list`, "WORDS_MISSING"));
  }
  // The shard's bytes move to the embedder's worker (no copy).
  return shared(embedder.words, index, () =>
    onceMore(() => withFiles([fileUrl(file)], "MODEL_UNAVAILABLE", null, (bytes) => embedder.request("addWord", { index, bytes }, { transfer: [bytes.buffer] }))),
  );
}

/** The embedder's worker for model attempt `attempt`: `request(type, payload, {transfer})`
 * (rpc.js), `words` (shard index -> Promise of its addition to this embedder), `fail(error)`
 * (it cannot go on: ends it, reported as `error`) and `terminate()`. */
export function startEmbedWorker(attempt) {
  const worker = new Worker(new URL("./embed-worker.js", import.meta.url), { type: "module", name: "lectern-embed" });
  const embedder = { words: new Map() };
  const ended = (error) => {
    if (state.embedder !== embedder) return;
    state.embedder = null;
    state.model = null; // loadModel() loads it again
    modelFailed(error, attempt);
  };
  const rpc = connect(worker, { name: "embedding worker", onCrash: ended });
  embedder.request = rpc.request;
  embedder.fail = (error) => {
    rpc.close(error);
    ended(error);
  };
  embedder.terminate = () => embedder.fail(codedError("MODEL_UNAVAILABLE", "The embedding worker was stopped", "STOPPED"));
  return embedder;
}
