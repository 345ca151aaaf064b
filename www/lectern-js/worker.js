// The Lectern worker: owns the wasm core and every download. The page talks to it only
// through index.js; nothing here touches the DOM, and nothing here blocks the page.
//
// Protocol (page -> worker): {id, type, ...}; (worker -> page): {id, ok, result | error}
// for requests, and {type: "progress" | "fatal", ...} events. Errors cross as plain
// objects {code, message, suggestion, detail}: structured clone would drop their fields.

import initCore, { Retriever } from "./lectern_core.js";
import { coreWasmUrl, compileWasm } from "./runtime.js";
import { prune } from "./cache-prune.js";
import { startEmbedWorker, embedText } from "./embed-client.js";
import { DAMAGED, state, lectError, plain, wasm, progress, tracker, fetchFile, evict, withFiles, fetchManifest } from "./worker-support.js";

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
  // The chunk table is all keyword search needs up front; each question then fetches the
  // term shards of its terms, each result its chunk shard. A small site's catalog pages come
  // with the table (the core says which), saving each question a round trip.
  const table = manifest.files.chunk_table;
  const pages = wasm(() => retriever.filesAtOpen());
  const bytes = pages.reduce((n, p) => n + p.bytes, table.bytes);
  await withFiles([table, ...pages].map(fileUrl), "INDEX_UNAVAILABLE", tracker("index", bytes), (t, ...pageBytes) => {
    retriever.loadTable(t);
    pages.forEach((p, i) => retriever.attach(p.part, p.id, pageBytes[i]));
  });
  state.retriever = retriever;
  const ms = Math.round(performance.now() - started);
  progress({ phase: "lexical-ready", loaded: 1, total: 1, ms });
  prune().catch(() => {});
  if (options.loadModel !== false) deferModel();
  return {
    chunks: manifest.counts.chunks,
    pages: manifest.counts.pages,
    fingerprint: manifest.model.fingerprint,
    formatVersion: manifest.format_version,
    cache: Boolean(state.cache),
    ms,
  };
}

/** The model is megabytes, a question's keyword answer kilobytes: on a slow link they would
 * share it and the first answer would wait for the model. So the model starts when the first
 * search has its results, or once the worker has been idle for a moment after opening. */
const MODEL_AFTER_IDLE_MS = 1000;
function deferModel() {
  let timer = 0;
  const start = () => {
    clearTimeout(timer);
    state.startModel = null;
    loadModel().catch(() => {});
  };
  state.startModel = start;
  timer = setTimeout(() => state.active.size === 0 && start(), MODEL_AFTER_IDLE_MS);
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
    const total = files.dense.bytes + sizeOf(state.options.modelUrl, model.weights) + sizeOf(state.options.tokenizerUrl, model.tokenizer) + (model.words?.bytes ?? 0);
    const track = tracker("model", total);
    const get = (url) => fetchFile(url, "MODEL_UNAVAILABLE", track);
    const denseUrl = fileUrl(files.dense);
    embedWorker = startEmbedWorker();
    // The module compiles there while the model downloads here.
    embedWorker.request("start", { cacheName: cacheName() }).catch(() => {});
    const r = state.retriever;
    // The word table's catalog: its shards are fetched per question, for its word pieces.
    const words = model.words ? withFiles([fileUrl(model.words)], "MODEL_UNAVAILABLE", track, (page) => r.wordFiles(page)) : null;
    let [weights, tokenizer, dense, wordFiles] = await Promise.all([get(modelUrl), get(tokenizerUrl), fetchFile(denseUrl, "INDEX_UNAVAILABLE", track), words]);
    state.words = wordFiles;
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

/** Fetches and attaches one part the core named (a catalog page or a shard), once: searches
 * running side by side share the download. */
function loadPart(file, code) {
  const key = `${file.part}:${file.id}`;
  let pending = state.parts.get(key);
  if (!pending) {
    pending = withFiles([fileUrl(file)], code, null, (bytes) => state.retriever.attach(file.part, file.id, bytes));
    pending.catch(() => state.parts.delete(key)); // a later search retries
    state.parts.set(key, pending);
  }
  return pending;
}

/** Attaches what `need()` names until it names nothing: catalog pages first, then the
 * shards they list (the core decides both; two rounds). Without `failures` the first error
 * is thrown; with it, failed parts are recorded there and not asked for again. */
async function fetchParts(need, code, failures) {
  for (let round = 0; round < 3; round++) {
    const failed = (f) => failures?.some((x) => x.part === f.part && x.id === f.id);
    const files = wasm(need).filter((f) => !failed(f));
    if (!files.length) return;
    await Promise.all(
      files.map((f) =>
        loadPart(f, code).catch((e) => {
          if (!failures) throw e;
          failures.push({ ...plain(e), part: f.part, id: f.id, file: f.name });
        }),
      ),
    );
  }
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
  const embedding = text !== undefined && state.embedder ? embedText(text).catch(() => undefined) : undefined;
  // Meanwhile, the term shards of the question's words (the core names them; nothing else
  // of the keyword index is downloaded).
  const terms = fetchParts(() => r.filesFor(msg.question, selected ? msg.selection : undefined, msg.options), "INDEX_UNAVAILABLE");
  const [vector] = await Promise.all([embedding, terms]);
  if (state.cancelled.delete(id)) throw lectError("ABORTED", "The search was superseded by a newer one", "SUPERSEDED");
  const found = wasm(() => (selected ? r.searchSelection(msg.selection, msg.question, msg.options, vector) : r.search(msg.question, msg.options, vector)));
  const errors = [];
  if (found.missing.length) {
    // The chunk shards of the results: their metadata and text.
    const indices = Uint32Array.from(found.hits.map((hit) => hit.index));
    const failures = [];
    await fetchParts(() => r.filesForChunks(indices), "TEXT_UNAVAILABLE", failures);
    if (state.cancelled.delete(id)) throw lectError("ABORTED", "The search was superseded by a newer one", "SUPERSEDED");
    // A result whose text failed keeps its link (text null); its failure is in `errors`.
    const attempt = (fn) => {
      try {
        return wasm(fn);
      } catch {
        return null;
      }
    };
    for (const hit of found.hits) {
      hit.shard ??= attempt(() => r.shardOf(hit.index));
      hit.chunk ??= attempt(() => r.chunk(hit.index));
      hit.text ??= attempt(() => r.text(hit.index));
    }
    for (const failure of failures) errors.push(failure.part === "meta" || failure.part === "text" ? { ...failure, shard: failure.id } : failure);
  }
  // A result whose metadata could not be fetched cannot be cited: it is left out (its
  // failure is in `errors`).
  const hits = found.hits.filter((hit) => hit.chunk !== null);
  return {
    mode: found.mode,
    question: found.question,
    ...(found.selection !== undefined ? { selection: found.selection } : {}),
    confidence: found.confidence,
    mode_used: found.mode_used,
    chunks_retrieved: hits.length,
    chunks: hits.map(retrievedChunk),
    errors,
  };
}

async function handle(msg) {
  switch (msg.type) {
    case "open":
      return open(msg.options);
    case "search":
    case "searchSelection":
      try {
        return await search(msg.id, msg);
      } finally {
        state.startModel?.(); // the first answer's files are in: the model's turn
      }
    case "embed":
      return embedText(msg.text);
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
