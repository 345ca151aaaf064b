// The embedder's own worker, started by the search worker (embed-client.js): building the
// model takes seconds (more on a phone), and here it never holds up a keyword search. It owns
// the embedder module (the compact model's decoder, tract, the tokenizer). Its requests
// (rpc.js), with their payloads:
//
//   start {cacheName}          compile the module (while the model downloads)
//   load {weights, tokenizer}  keep the model's bytes (the compact model file, decoded by
//                              the module when built); result: their fingerprint
//   build                      build the embedder from them; result: ms
//   missingWords {text}        the word-table shards `text` needs that are not added yet
//                              (indices into the bundle's words catalog; none for a whole file)
//   addWord {index, bytes}     add one shard (checked against the model: MODEL_CORRUPT if not)
//   embed {text}               result: the unit vector (Float32Array, moved)
//
// A trap (Rust panic) poisons the module: rpc.js ends this worker and the search worker's
// side fails what is pending.

import initEmbed, { Embedder, modelFingerprint } from "./lectern_embed.js";
import { compileWasm, embedWasmUrl, moduleLoadError } from "./runtime.js";
import { codedError } from "./errors.js";
import { move, serve } from "./rpc.js";

let embedder = null;
let started = null;

function start(cacheName) {
  started ??= compileWasm(embedWasmUrl(), cacheName).then(
    (module) => initEmbed({ module_or_path: module }),
    (e) => {
      throw moduleLoadError("MODEL_UNAVAILABLE", "embedding module", embedWasmUrl(), e);
    },
  );
  return started;
}

let model = null;

function built() {
  if (!embedder) throw codedError("MODEL_UNAVAILABLE", "The embedding model is not built yet", "NOT_LOADED");
  return embedder;
}

serve(
  {
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
      if (!model) throw codedError("MODEL_UNAVAILABLE", "No model was loaded", "NOT_LOADED");
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
      return move(new Float32Array(built().embed(text)));
    },
  },
  { module: "embedding module" },
);
