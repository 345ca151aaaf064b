// The Lectern worker: owns the wasm core and every download. The page talks to it only
// through index.js; nothing here touches the DOM, and nothing here blocks the page.
//
// Protocol (page -> worker): {id, type, ...}; (worker -> page): {id, ok, result | error}
// for requests, and {type: "progress" | "fatal", ...} events. Errors cross as plain
// objects {code, message, suggestion, detail}: structured clone would drop their fields.

import initCore, { Retriever } from "./lectern_core.js";
import { coreWasmUrl, embedWasmUrl, isRuntimeFile, compileWasm } from "./runtime.js";
import { DAMAGED, state, lectError, plain, wasm, progress, tracker, openCache, fetchFile, evict, withFiles, fetchManifest } from "./worker-support.js";

const cacheName = () => (state.options.cache === false ? null : state.options.cacheName);

/** Starts the core module: the one the page compiled, or (if that failed) compiled here. */
async function startCore(compiled) {
  const url = coreWasmUrl();
  let module = compiled;
  if (!(module instanceof WebAssembly.Module)) {
    try {
      module = await compileWasm(url, cacheName());
    } catch (e) {
      const detail = e?.status ? `HTTP_${e.status}` : "RUNTIME";
      throw lectError("INDEX_UNAVAILABLE", `Could not load the search module ${url}: ${e?.message ?? e}`, detail);
    }
  }
  try {
    await initCore({ module_or_path: module });
  } catch (e) {
    throw lectError("INDEX_UNAVAILABLE", `The search module could not start: ${e?.message ?? e}`, "RUNTIME");
  }
  progress({ phase: "runtime", loaded: 1, total: 1, file: url.slice(url.lastIndexOf("/") + 1) });
}

/** Drops cached files of this bundle (and older wasm modules) that the current manifest
 * and runtime no longer name: a rebuilt bundle invalidates exactly what changed. */
async function prune() {
  const cache = await openCache();
  if (!cache) return;
  const base = new URL(".", state.manifestUrl).href;
  const m = state.manifest;
  const keep = new Set([state.manifestUrl, coreWasmUrl(), embedWasmUrl()]);
  for (const f of [m.files.chunks, m.files.lexical, m.files.dense, ...m.files.text, m.model.weights, m.model.tokenizer]) {
    if (f) keep.add(new URL(f.name, base).href);
  }
  for (const request of await cache.keys()) {
    const url = request.url;
    const ours = url.startsWith(base) || isRuntimeFile(url);
    if (ours && !keep.has(url) && !isModelOverride(url)) await cache.delete(request);
  }
}

function isModelOverride(url) {
  return url === state.options.modelUrl || url === state.options.tokenizerUrl;
}

// ---- the requests ---------------------------------------------------------------------

const fileUrl = (entry) => new URL(entry.name, state.manifestUrl).href;

async function open(options) {
  state.options = options;
  const bundle = new URL(options.bundleUrl, options.pageUrl);
  state.manifestUrl = bundle.pathname.endsWith(".json") ? bundle.href : new URL("manifest.json", bundle.href.replace(/\/?$/, "/")).href;
  if (options.modelUrl) options.modelUrl = new URL(options.modelUrl, options.pageUrl).href;
  if (options.tokenizerUrl) options.tokenizerUrl = new URL(options.tokenizerUrl, options.pageUrl).href;
  const started = performance.now();
  const [, manifestBytes] = await Promise.all([state.coreModule.then(startCore), fetchManifest(state.manifestUrl)]);
  const retriever = wasm(() => new Retriever(manifestBytes));
  const manifest = wasm(() => retriever.manifest());
  state.manifest = manifest;
  const { chunks, lexical } = manifest.files;
  await withFiles([fileUrl(chunks), fileUrl(lexical)], "INDEX_UNAVAILABLE", tracker("index", chunks.bytes + lexical.bytes), (c, l) =>
    retriever.loadLexical(c, l),
  );
  state.retriever = retriever;
  const ms = Math.round(performance.now() - started);
  progress({ phase: "lexical-ready", loaded: 1, total: 1, ms });
  prune().catch(() => {});
  if (options.loadModel !== false) loadModel().catch(() => {});
  return {
    chunks: manifest.counts.chunks,
    pages: manifest.counts.pages,
    fingerprint: manifest.model.fingerprint,
    formatVersion: manifest.format_version,
    cache: Boolean(state.cache),
    ms,
  };
}

/** The embedder's worker (embed-worker.js): `request(type, payload, transfer)` by id. A trap
 * there (the worker ends) fails what is pending and every later request. */
function startEmbedWorker() {
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
  return { worker, request, terminate: () => fail(lectError("MODEL_UNAVAILABLE", "The embedding worker was stopped", "STOPPED")) };
}

/** The embedder (its module and the model, in a worker of its own) and the dense index, in
 * the background: keyword searches go on meanwhile, even while the model is being built.
 * Reports `model-failed` or `hybrid-ready`; may be called again after a failure. */
function loadModel() {
  if (state.model) return state.model;
  let embedWorker = null;
  state.model = (async () => {
    const started = performance.now();
    const { model, files } = state.manifest;
    const modelUrl = state.options.modelUrl ?? (model.weights && fileUrl(model.weights));
    const tokenizerUrl = state.options.tokenizerUrl ?? (model.tokenizer && fileUrl(model.tokenizer));
    if (!modelUrl || !tokenizerUrl) {
      throw lectError("MODEL_UNAVAILABLE", "The search index does not carry the model: pass modelUrl and tokenizerUrl to Lectern.open", "NO_MODEL");
    }
    const sizeOf = (override, entry) => (override ? 0 : entry?.bytes ?? 0);
    const total = files.dense.bytes + sizeOf(state.options.modelUrl, model.weights) + sizeOf(state.options.tokenizerUrl, model.tokenizer);
    const track = tracker("model", total);
    const get = (url) => fetchFile(url, "MODEL_UNAVAILABLE", track);
    const denseUrl = fileUrl(files.dense);
    embedWorker = startEmbedWorker();
    // The module compiles there while the model downloads here.
    embedWorker.request("start", { cacheName: cacheName() }).catch(() => {});
    let [weights, tokenizer, dense] = await Promise.all([get(modelUrl), get(tokenizerUrl), fetchFile(denseUrl, "INDEX_UNAVAILABLE", track)]);
    const r = state.retriever;
    // The bytes move to the embedder's worker (no copy); the fingerprint comes back.
    const check = async () => {
      const fingerprint = await embedWorker.request("load", { weights: weights.bytes, tokenizer: tokenizer.bytes, cacheName: cacheName() }, [
        weights.bytes.buffer,
        tokenizer.bytes.buffer,
      ]);
      wasm(() => r.checkModel(fingerprint));
    };
    try {
      await check();
    } catch (e) {
      // A stale cached copy of a model served under a fixed URL: fetch it again, once.
      if (e?.code !== "MODEL_MISMATCH" || !(weights.fromCache || tokenizer.fromCache)) throw e;
      await evict([weights, tokenizer]);
      [weights, tokenizer] = await Promise.all([get(modelUrl), get(tokenizerUrl)]);
      await check();
    }
    try {
      wasm(() => r.attachDense(dense.bytes));
    } catch (e) {
      if (!(DAMAGED.has(e?.detail) && dense.fromCache)) throw e;
      await evict([dense]);
      dense = await fetchFile(denseUrl, "INDEX_UNAVAILABLE", track);
      wasm(() => r.attachDense(dense.bytes));
    }
    progress({ phase: "model-init", loaded: 0, total: 1 });
    const initMs = await embedWorker.request("build");
    state.embedder = embedWorker;
    progress({ phase: "hybrid-ready", loaded: 1, total: 1, ms: Math.round(performance.now() - started), initMs });
  })();
  state.model.catch((e) => {
    embedWorker?.terminate();
    state.model = null; // a later loadModel() retries
    progress({ phase: "model-failed", loaded: 0, total: 0, error: plain(e) });
  });
  return state.model;
}

function loadShard(shard) {
  let pending = state.shards.get(shard);
  if (!pending) {
    const entry = state.manifest.files.text[shard];
    pending = withFiles([fileUrl(entry)], "TEXT_UNAVAILABLE", null, (bytes) => state.retriever.attachText(shard, bytes));
    pending.catch(() => state.shards.delete(shard)); // a later search retries
    state.shards.set(shard, pending);
  }
  return pending;
}

/** Flattens wasm's hits into SPEC.md's RetrievedChunk. */
function retrievedChunk(hit) {
  return { ...hit.chunk, text: hit.text, score: hit.score, scores: { dense: hit.dense, lexical: hit.lexical, fused: hit.fused }, index: hit.index };
}

async function search(id, msg) {
  // Let a cancel that is already queued behind this request arrive first.
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (state.cancelled.delete(id)) throw lectError("ABORTED", "The search was superseded by a newer one", "SUPERSEDED");
  const r = state.retriever;
  if (!r) throw lectError("INDEX_UNAVAILABLE", "The search index is not loaded", "NOT_LOADED");
  const selected = msg.type === "searchSelection";
  // The vector comes from the embedder's worker, when the search would use one and the
  // model is built; until then the search is by keywords.
  const text = wasm(() => r.vectorQuery(msg.question, selected ? msg.selection : undefined, msg.options));
  const vector = text !== undefined && state.embedder ? await state.embedder.request("embed", { text }).catch(() => undefined) : undefined;
  if (state.cancelled.delete(id)) throw lectError("ABORTED", "The search was superseded by a newer one", "SUPERSEDED");
  const found = wasm(() => (selected ? r.searchSelection(msg.selection, msg.question, msg.options, vector) : r.search(msg.question, msg.options, vector)));
  const errors = [];
  if (found.missing_shards.length) {
    await Promise.all(found.missing_shards.map((shard) => loadShard(shard).catch((e) => errors.push({ ...plain(e), shard }))));
    if (state.cancelled.delete(id)) throw lectError("ABORTED", "The search was superseded by a newer one", "SUPERSEDED");
    for (const hit of found.hits) {
      if (hit.text === null && !errors.some((e) => e.shard === hit.shard)) hit.text = wasm(() => r.text(hit.index));
    }
  }
  return {
    mode: found.mode,
    question: found.question,
    ...(found.selection !== undefined ? { selection: found.selection } : {}),
    confidence: found.confidence,
    mode_used: found.mode_used,
    chunks_retrieved: found.hits.length,
    chunks: found.hits.map(retrievedChunk),
    errors,
  };
}

async function handle(msg) {
  switch (msg.type) {
    case "open":
      return open(msg.options);
    case "search":
    case "searchSelection":
      return search(msg.id, msg);
    case "embed":
      if (!state.embedder) throw lectError("MODEL_UNAVAILABLE", "The embedding model is not loaded yet", "NOT_LOADED");
      return state.embedder.request("embed", { text: msg.text });
    case "loadModel":
      if (!state.retriever) throw lectError("INDEX_UNAVAILABLE", "The search index is not loaded", "NOT_LOADED");
      await loadModel();
      return true;
    case "crashForTesting":
      if (msg.kind === "trap") {
        // What a panic looks like from here: the module call throws a RuntimeError.
        return wasm(() => {
          throw new WebAssembly.RuntimeError("unreachable executed (crash requested by a test)");
        });
      }
      // An uncaught error outside any handler: what a real worker failure looks like.
      setTimeout(() => {
        throw new Error("worker crash requested by a test");
      });
      return new Promise(() => {});
    default:
      throw lectError("INTERNAL", `unknown request ${msg.type}`);
  }
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === "core") {
    state.receiveCore(msg.module);
    return;
  }
  if (msg.type === "cancel") {
    if (state.active.has(msg.id)) state.cancelled.add(msg.id);
    return;
  }
  state.active.add(msg.id);
  try {
    const result = await handle(msg);
    self.postMessage({ id: msg.id, ok: true, result }, result instanceof Float32Array ? [result.buffer] : []);
  } catch (e) {
    self.postMessage({ id: msg.id, ok: false, error: plain(e) });
  } finally {
    state.active.delete(msg.id);
    state.cancelled.delete(msg.id);
  }
};
