// The Lectern worker: owns the wasm core and every download. The page talks to it only
// through index.js, over rpc.js (requests: open, search, searchSelection, followUps, embed, loadModel,
// crashForTesting; events: the page's compiled search module in, progress out). Nothing here
// touches the DOM, and nothing here blocks the page. The model loads in model-load.js, which
// is imported only when the model is wanted (nothing of it is fetched before the first results).

import initSearch, { Retriever } from "./lectern_search.js";
import { searchWasmUrl, compileWasm, moduleLoadError } from "./runtime.js";
import { prune } from "./cache-prune.js";
import { codedError, plain } from "./errors.js";
import { inWasm, move, serve } from "./rpc.js";
import { state, fileUrl, cacheName } from "./worker-state.js";
import { modelFailed, progress, tracker } from "./progress.js";
import { fetchManifest, onceMore, shared, withFiles } from "./downloads.js";

/** Starts the search module: the one the page compiled, or (if that failed) compiled here. */
async function startSearch(compiled) {
  const url = searchWasmUrl();
  let module = compiled;
  if (!(module instanceof WebAssembly.Module)) {
    try {
      module = await compileWasm(url, cacheName());
    } catch (e) {
      throw moduleLoadError("INDEX_UNAVAILABLE", "search module", url, e);
    }
  }
  try {
    await initSearch({ module_or_path: module });
  } catch (e) {
    throw codedError("INDEX_UNAVAILABLE", `The search module could not start: ${e?.message ?? e}`, "RUNTIME");
  }
  progress({ phase: "runtime", loaded: 1, total: 1, file: url.slice(url.lastIndexOf("/") + 1) });
}

// ---- the model's stage, imported when the model is wanted --------------------------------

/** model-load.js (and embed-client.js, which it imports). A failed import is a model attempt
 * that failed before its first byte: reported, and a later loadModel tries again. */
async function modelStage() {
  try {
    return await import("./model-load.js");
  } catch (e) {
    const error = codedError("MODEL_UNAVAILABLE", `Could not load the model loader: ${e?.message ?? e}`, "RUNTIME");
    modelFailed(error, ++state.modelAttempts);
    throw error;
  }
}

/** The unit vector of `text` from the live embedder (embed-client.js). */
const embedText = async (text) => (await import("./embed-client.js")).embedText(text);

/** The model is megabytes, a question's keyword answer kilobytes: on a slow link they would
 * share it and the first answer would wait for the model. So the model starts when the first
 * search has its results (`state.startModel`), or once the worker has been idle (`busy()`
 * false) for a moment after opening. */
const MODEL_AFTER_IDLE_MS = 1000;
function deferModel(busy) {
  let timer = 0;
  const start = () => {
    clearTimeout(timer);
    state.startModel = null;
    modelStage().then((stage) => stage.loadModel()).catch(() => {});
  };
  state.startModel = start;
  timer = setTimeout(() => !busy() && start(), MODEL_AFTER_IDLE_MS);
}

// ---- the requests ---------------------------------------------------------------------

async function open(options) {
  state.options = options;
  const bundle = new URL(options.bundleUrl, options.pageUrl);
  state.manifestUrl = bundle.pathname.endsWith(".json") ? bundle.href : new URL("manifest.json", bundle.href.replace(/\/?$/, "/")).href;
  if (options.modelUrl) options.modelUrl = new URL(options.modelUrl, options.pageUrl).href;
  if (options.tokenizerUrl) options.tokenizerUrl = new URL(options.tokenizerUrl, options.pageUrl).href;
  const started = performance.now();
  const [, manifestBytes] = await Promise.all([state.searchModule.then(startSearch), fetchManifest(state.manifestUrl)]);
  const retriever = inWasm(() => new Retriever(manifestBytes));
  const manifest = inWasm(() => retriever.manifest());
  state.manifest = manifest;
  // The chunk table is all keyword search needs up front; each question then fetches the
  // term shards of its terms, each result its chunk shard. A small site's catalog pages come
  // with the table (the core says which), saving each question a round trip.
  const table = manifest.files.chunk_table;
  const pages = inWasm(() => retriever.filesAtOpen());
  const bytes = pages.reduce((n, p) => n + p.bytes, table.bytes);
  await withFiles([table, ...pages].map(fileUrl), "INDEX_UNAVAILABLE", tracker("index", bytes), (t, ...pageBytes) =>
    inWasm(() => {
      retriever.loadTable(t);
      pages.forEach((p, i) => retriever.attach(p.part, p.id, pageBytes[i]));
    }),
  );
  state.retriever = retriever;
  // The model is English: an index in another language is searched by keywords only, and
  // the model never downloads for it (the core's rule, search::semantic_search_fits).
  state.semantic = inWasm(() => retriever.semanticSearchFits());
  const ms = Math.round(performance.now() - started);
  progress({ phase: "lexical-ready", loaded: 1, total: 1, ms });
  prune().catch(() => {});
  if (options.loadModel !== false && state.semantic) deferModel(server.busy);
  return {
    semantic: state.semantic,
    chunks: manifest.counts.chunks,
    pages: manifest.counts.pages,
    fingerprint: manifest.model.fingerprint,
    formatVersion: manifest.format_version,
    cache: Boolean(state.cache),
    ms,
  };
}

/** Fetches and attaches one part the core named (a catalog page or a shard), once: searches
 * running side by side share the download. A part that fails is asked for once more before
 * its failure counts. */
function loadPart(file, code) {
  return shared(state.parts, `${file.part}:${file.id}`, () =>
    onceMore(() => withFiles([fileUrl(file)], code, null, (bytes) => inWasm(() => state.retriever.attach(file.part, file.id, bytes)))),
  );
}

/**
 * Attaches what `need()` names until it names nothing: catalog pages first, then the
 * shards they list (the core decides both; two rounds, three for a dense index in parts, a
 * fourth when a filter widens its probe). A part that failed is recorded in `failures`
 * (with `giveUp(part)` told of it) and not asked for again in this call.
 * @param {() => any[]} need
 * @param {string} code
 * @param {any[]} failures
 * @param {(file: any) => void} [giveUp]
 */
async function fetchParts(need, code, failures, giveUp = () => {}) {
  for (let round = 0; round < 5; round++) {
    const failed = (f) => failures.some((x) => x.part === f.part && x.id === f.id);
    const files = inWasm(need).filter((f) => !failed(f));
    if (!files.length) return;
    await Promise.all(
      files.map((f) =>
        loadPart(f, code).catch((e) => {
          failures.push({ ...plain(e), part: f.part, id: f.id, file: f.name });
          giveUp(f);
        }),
      ),
    );
  }
}

/** Flattens wasm's hits into a retrieved chunk (docs/DESIGN.md §2.3). */
function retrievedChunk(hit) {
  return {
    ...hit.chunk,
    text: hit.text,
    score: hit.score,
    scores: { dense: hit.dense, lexical: hit.lexical, fused: hit.fused },
    index: hit.index,
    ...(hit.part ? { part: hit.part } : {}),
  };
}

/** A search (`selected`: searchSelection). Stops between steps once `signal` says the page
 * gave up on it (a newer search superseded it, or the reader aborted). `withChunks` false:
 * the results' metadata and text are not fetched (only the confidence is wanted). */
async function search(msg, signal, selected, withChunks = true) {
  const cancelled = () => {
    if (signal.aborted) throw codedError("ABORTED", "The search was superseded by a newer one", "SUPERSEDED");
  };
  // Let a cancel that is already queued behind this request arrive first.
  await new Promise((resolve) => setTimeout(resolve, 0));
  cancelled();
  const r = state.retriever;
  if (!r) throw codedError("INDEX_UNAVAILABLE", "The search index is not loaded", "NOT_LOADED");
  // The vectors come from the embedder's worker, when the search would use them and the
  // model is built; until then the search is by keywords. A follow-up (options.earlier) has
  // two: the question's and its text in context's (the core names both texts). Without its
  // vectors (the embedder failed: reported as model-failed) the search is by keywords.
  const texts = inWasm(() => r.vectorQuery(msg.question, selected ? msg.selection : undefined, msg.options));
  const embed = (text) => (text !== undefined && state.embedder ? embedText(text).catch(() => undefined) : undefined);
  const embeddings = Promise.all([embed(texts?.text), embed(texts?.in_context)]);
  // Meanwhile, the term shards of the question's words (the core names them; nothing else
  // of the keyword index is downloaded). One that cannot be had is marked unavailable: the
  // question is scored from the others, and the results say so (`partial`).
  const errors = [];
  const terms = fetchParts(() => r.filesFor(msg.question, selected ? msg.selection : undefined, msg.options), "INDEX_UNAVAILABLE", errors, (f) =>
    inWasm(() => r.markUnavailable(f.part, f.id)),
  );
  const [[vector, contextVector]] = await Promise.all([embeddings, terms]);
  cancelled();
  // A large site's dense index comes in parts: those the vectors need (the core names them).
  // One that cannot be had is marked unavailable, and the question is answered by keywords
  // (modeUsed "lexical", at most low confidence, the failure in `errors`).
  if (vector) {
    await fetchParts(() => r.filesForVector(vector, contextVector, msg.options), "INDEX_UNAVAILABLE", errors, (f) => inWasm(() => r.markUnavailable(f.part, f.id)));
    cancelled();
  }
  const found = inWasm(() =>
    selected ? r.searchSelection(msg.selection, msg.question, msg.options, vector) : r.search(msg.question, msg.options, vector, contextVector),
  );
  if (found.missing.length && withChunks) {
    // The chunk shards of the results: their metadata and text.
    const indices = Uint32Array.from(found.hits.map((hit) => hit.index));
    const failures = [];
    await fetchParts(() => r.filesForChunks(indices), "TEXT_UNAVAILABLE", failures);
    cancelled();
    // A result whose text failed keeps its link (text null); its failure is in `errors`.
    const attempt = (fn) => {
      try {
        return inWasm(fn);
      } catch {
        return null;
      }
    };
    for (const hit of found.hits) {
      hit.shard ??= attempt(() => r.shardOf(hit.index));
      hit.chunk ??= attempt(() => r.chunk(hit.index));
      hit.text ??= attempt(() => r.text(hit.index));
    }
    for (const failure of failures) errors.push(["meta", "text", "chunks"].includes(failure.part) ? { ...failure, shard: failure.id } : failure);
  }
  // A result whose metadata could not be fetched cannot be cited: it is left out (its
  // failure is in `errors`).
  const hits = found.hits.filter((hit) => hit.chunk !== null);
  // A result whose chunk took in short sections links to the one the question matched.
  if (!selected) for (const hit of hits) if (hit.chunk.parts?.length && hit.text !== null) hit.part = inWasm(() => r.matchedPart(hit.index, found.question));
  return {
    mode: found.mode,
    question: found.question,
    ...(found.selection !== undefined ? { selection: found.selection } : {}),
    confidence: found.confidence,
    mode_used: found.mode_used,
    chunks_retrieved: hits.length,
    chunks: hits.map(retrievedChunk),
    partial: found.unavailable.length > 0,
    provisional: found.provisional,
    errors,
  };
}

/**
 * Follow-up suggestions after an answer (the core decides each step): fetch the metadata of the
 * cited sections' neighbours, search each candidate question as the follow-up a click would
 * ask (after `earlier`), and return the ones the core chooses — never one it would refuse.
 * `retrieved`: the answer's chunk indices; `cited`: its sources' URLs.
 */
async function followUps(msg, signal) {
  const r = state.retriever;
  if (!r) throw codedError("INDEX_UNAVAILABLE", "The search index is not loaded", "NOT_LOADED");
  const retrieved = Uint32Array.from(msg.retrieved ?? []);
  const cited = (msg.cited ?? []).map(String);
  const earlier = (msg.earlier ?? []).map(String);
  await fetchParts(() => r.followUpFiles(retrieved, cited), "TEXT_UNAVAILABLE", []);
  const candidates = inWasm(() => r.followUpCandidates(retrieved, cited, earlier));
  const confidences = [];
  for (const candidate of candidates) {
    try {
      const found = await search({ question: candidate.question, options: { ...msg.options, k: 1, earlier } }, signal, false, false);
      // A search that went without part of the index is not one to trust for a suggestion.
      confidences.push(found.partial ? null : found.confidence);
    } catch (e) {
      if (signal.aborted) throw e;
      confidences.push(null);
    }
  }
  return inWasm(() => r.chooseFollowUps(candidates, confidences));
}

const server = serve(
  {
    open: ({ options }) => open(options),
    search: (msg, { signal }) => searchThenModel(msg, signal, false),
    searchSelection: (msg, { signal }) => searchThenModel(msg, signal, true),
    followUps: (msg, { signal }) => followUps(msg, signal),
    embed: async ({ text }) => move(await embedText(text)),
    async loadModel() {
      if (!state.retriever) throw codedError("INDEX_UNAVAILABLE", "The search index is not loaded", "NOT_LOADED");
      if (!state.semantic) throw codedError("MODEL_UNAVAILABLE", "The model is English and this index is not: it is searched by keywords", "LANGUAGE");
      await (await modelStage()).loadModel();
      return true;
    },
    crashForTesting({ kind }) {
      if (kind === "trap") {
        // What a panic looks like from here: the module call throws a RuntimeError.
        return inWasm(() => {
          throw new WebAssembly.RuntimeError("unreachable executed (crash requested by a test)");
        });
      }
      // An uncaught error outside any handler: what a real worker failure looks like.
      setTimeout(() => {
        throw new Error("worker crash requested by a test");
      });
      return new Promise(() => {});
    },
  },
  { module: "search module", on: { search: (module) => state.receiveSearch(module) } },
);

/** A search, then the deferred model's turn: the first answer's files are in. */
async function searchThenModel(msg, signal, selected) {
  try {
    return await search(msg, signal, selected);
  } finally {
    state.startModel?.();
  }
}
