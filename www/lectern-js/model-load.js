// The search worker's second stage: the embedder (its module and the model, in a worker of
// its own) and the dense index, loaded in the background after keyword search works (the
// worker imports this file when it starts the model: worker.js deferModel). Keyword searches
// go on meanwhile, even while the model is being built.

import { codedError } from "./errors.js";
import { inWasm } from "./rpc.js";
import { state, fileUrl, cacheName } from "./worker-state.js";
import { progress, modelFailed, tracker } from "./progress.js";
import { fetchFile, refetchIfDamaged, withFiles } from "./downloads.js";
import { startEmbedWorker } from "./embed-client.js";

/** Loads the model and the dense index. Reports `model-failed` or `hybrid-ready`; may be
 * called again after a failure: each call is an attempt of its own (numbered), so the
 * loading machine (progress.js) keeps a failed attempt's late events out. */
export function loadModel() {
  if (state.model) return state.model;
  let embedWorker = null;
  const attempt = ++state.modelAttempts;
  state.model = (async () => {
    const started = performance.now();
    const { model, files } = state.manifest;
    // An index in a language the model does not suit has no dense index (never asked for:
    // the worker does not load the model for it).
    if (!files.dense) throw codedError("MODEL_UNAVAILABLE", "The index has no dense index: its language is searched by keywords", "LANGUAGE");
    const modelUrl = state.options.modelUrl ?? (model.weights && fileUrl(model.weights));
    const tokenizerUrl = state.options.tokenizerUrl ?? (model.tokenizer && fileUrl(model.tokenizer));
    if (!modelUrl || !tokenizerUrl) {
      throw codedError("MODEL_UNAVAILABLE", "The search index does not carry the model: pass modelUrl and tokenizerUrl to Lectern.open", "NO_MODEL");
    }
    const sizeOf = (override, entry) => (override ? 0 : entry?.bytes ?? 0);
    const total = files.dense.bytes + sizeOf(state.options.modelUrl, model.weights) + sizeOf(state.options.tokenizerUrl, model.tokenizer) + (model.words?.bytes ?? 0);
    const track = tracker("model", total, attempt);
    const get = (url, code = "MODEL_UNAVAILABLE") => fetchFile(url, code, track);
    embedWorker = startEmbedWorker(attempt);
    // The module compiles there while the model downloads here.
    embedWorker.request("start", { cacheName: cacheName() }).catch(() => {});
    const r = state.retriever;
    // The word table's catalog: its shards are fetched per question, for its word pieces.
    const words = model.words ? withFiles([fileUrl(model.words)], "MODEL_UNAVAILABLE", track, (page) => inWasm(() => r.wordFiles(page))) : null;
    const [weights, tokenizer, dense, wordFiles] = await Promise.all([get(modelUrl), get(tokenizerUrl), get(fileUrl(files.dense), "INDEX_UNAVAILABLE"), words]);
    state.words = wordFiles;
    // The bytes move to the embedder's worker (no copy); the fingerprint comes back. A
    // mismatch from the cache may be a stale copy of a model served under a fixed URL.
    const stale = (e) => e?.code === "MODEL_MISMATCH";
    await refetchIfDamaged([weights, tokenizer], { code: "MODEL_UNAVAILABLE", track, damaged: stale }, async (w, t) => {
      const fingerprint = await embedWorker.request("load", { weights: w, tokenizer: t, cacheName: cacheName() }, { transfer: [w.buffer, t.buffer] });
      inWasm(() => r.checkModel(fingerprint));
    });
    await refetchIfDamaged([dense], { code: "INDEX_UNAVAILABLE", track }, (bytes) => inWasm(() => r.attachDense(bytes)));
    progress({ phase: "model-init", loaded: 0, total: 1, attempt });
    const initMs = await embedWorker.request("build");
    state.embedder = embedWorker;
    progress({ phase: "hybrid-ready", loaded: 1, total: 1, attempt, ms: Math.round(performance.now() - started), initMs });
  })();
  state.model.catch((e) => {
    embedWorker?.terminate();
    state.model = null; // a later loadModel() retries
    modelFailed(e, attempt);
  });
  return state.model;
}
