// The embedder's own worker, started by the search worker (worker.js): building the model
// takes seconds (more on a phone), and here it never holds up a keyword search. It owns the
// embedder module (the compact model's decoder, tract, the tokenizer). Requests {id, type, ...} -> {id, ok, result | error}:
//
//   start {cacheName}          compile the module (while the model downloads)
//   load {weights, tokenizer}  keep the model's bytes (the compact model file, decoded by
//                              the module when built); result: their fingerprint
//   build                      build the embedder from them; result: ms
//   missingWords {text}        the word-table shards `text` needs that are not added yet
//                              (indices into the bundle's words catalog; none for a whole file)
//   addWord {index, bytes}     add one shard (checked against the model: MODEL_CORRUPT if not)
//   embed {text}               result: the unit vector (Float32Array)
//
// Errors cross as plain objects {code, message, suggestion, detail}. A trap (Rust panic)
// poisons the module: the worker says so ({type: "failed", error}) and ends.

import initEmbed, { Embedder, modelFingerprint } from "./lectern_embed.js";
import { compileWasm, embedWasmUrl } from "./runtime.js";
import { lectError, plain } from "./worker-support.js";

let embedder = null;
let started = null;

function start(cacheName) {
  started ??= compileWasm(embedWasmUrl(), cacheName).then(
    (module) => initEmbed({ module_or_path: module }),
    (e) => {
      const detail = e?.status ? `HTTP_${e.status}` : "RUNTIME";
      throw lectError("MODEL_UNAVAILABLE", `Could not load the embedding module ${embedWasmUrl()}: ${e?.message ?? e}`, detail);
    },
  );
  return started;
}

function trapped(e) {
  if (!(e instanceof WebAssembly.RuntimeError)) return false;
  self.postMessage({ type: "failed", error: lectError("WORKER_CRASHED", `The embedding module crashed: ${e.message}`) });
  self.close();
  return true;
}

let model = null;

function built() {
  if (!embedder) throw lectError("MODEL_UNAVAILABLE", "The embedding model is not built yet", "NOT_LOADED");
  return embedder;
}

const handlers = {
  /** Starts the module (a cache name, or null for no Cache API), compiling while the model downloads. */
  start({ cacheName }) {
    return start(cacheName).then(() => true);
  },
  /** Keeps the model's bytes and answers with their fingerprint, to check before building. */
  async load({ weights, tokenizer, cacheName }) {
    await start(cacheName);
    model = { weights, tokenizer };
    return modelFingerprint(weights, tokenizer);
  },
  /** Builds the embedder from the loaded bytes (seconds: why it has this worker); its ms. */
  build() {
    if (!model) throw lectError("MODEL_UNAVAILABLE", "No model was loaded", "NOT_LOADED");
    const t0 = performance.now();
    embedder = new Embedder(model.weights, model.tokenizer);
    model = null;
    return Math.round(performance.now() - t0);
  },
  missingWords({ text }) {
    return Array.from(built().missingWordShards(text));
  },
  addWord({ index, bytes }) {
    built().addWordShard(index, bytes);
    return true;
  },
  embed({ text }) {
    return new Float32Array(built().embed(text));
  },
};

self.onmessage = async ({ data: msg }) => {
  try {
    const result = await handlers[msg.type](msg);
    self.postMessage({ id: msg.id, ok: true, result }, result instanceof Float32Array ? [result.buffer] : []);
  } catch (e) {
    if (!trapped(e)) self.postMessage({ id: msg.id, ok: false, error: plain(e) });
  }
};
