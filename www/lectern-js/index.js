// Lectern's JS API: retrieval over a site's static index, run in a dedicated module worker
// (worker.js) so the page never blocks. No framework, no bundler: an ES module.
//
//   const lectern = await Lectern.open({ bundleUrl: "/lectern/", onProgress });
//   const { confidence, chunks } = await lectern.search("How do ROS 2 nodes discover each other?");
//   await lectern.searchAsYouType("dock", { onUpdate: (r) => draw(r.pages) });   // a search box
//
// `open` resolves once keyword (lexical) search works; the model loads in the background
// and search switches to hybrid when it is ready (`whenHybrid()`, progress events).

import { DEFAULT_CACHE_NAME, searchModule } from "./runtime.js";
import { LecternError, lecternError } from "./errors.js";
import { connect } from "./rpc.js";
import { searchAsYouType } from "./typeahead.js";

export { LecternError };

// The length limits (docs/DESIGN.md §3.1) are the core's: the worker validates, and a UI reads them
// from `chatRules()` (chat.js) or, in the Docusaurus plugin, from its global data.

/** How often a crashed worker is restarted before searches fail for good. */
const MAX_RESTARTS = 3;

const aborted = (technical, detail) => lecternError("ABORTED", technical, detail);

export class Lectern {
  /**
   * Loads the runtime, manifest, chunk metadata and lexical index; resolves when keyword
   * search works. Rejects with INDEX_UNAVAILABLE (detail e.g. HTTP_404, WRONG_VERSION).
   */
  static async open(options) {
    const lectern = new Lectern(options);
    try {
      await lectern.#ensureWorker();
    } catch (e) {
      lectern.close();
      throw e;
    }
    return lectern;
  }

  #options;
  #workerUrl;
  #onProgress;
  /** The connection to the current worker (rpc.js). */
  #rpc = null;
  /** Promise of the open request of the current worker (resolves at lexical-ready). */
  #ready = null;
  /** The AbortController of the query in flight, per slot (see #runQuery). */
  #queries = new Map();
  #restarts = 0;
  #closed = false;
  #hybridWaiters = [];
  #modelLoading = false;
  /** The bundle summary the worker reported on open. */
  info = null;
  /** Whether keyword / semantic search work now, and why the model failed if it did. */
  state = { lexical: false, hybrid: false, modelError: null };

  constructor({ bundleUrl, modelUrl, tokenizerUrl, onProgress, loadModel = true, cache = true, cacheName = DEFAULT_CACHE_NAME, workerUrl } = {}) {
    if (typeof bundleUrl !== "string" || !bundleUrl) {
      throw lecternError("INVALID_ARGUMENT", "Lectern.open needs a bundleUrl (the folder `lectern build` wrote)");
    }
    this.#options = { bundleUrl, modelUrl, tokenizerUrl, loadModel, cache, cacheName };
    this.#workerUrl = workerUrl ?? new URL("./worker.js", import.meta.url);
    this.#onProgress = typeof onProgress === "function" ? onProgress : null;
  }

  /**
   * Finds the chunks that answer `question` (global mode). Options: k (1–50, default 3),
   * mode ("hybrid" | "lexical" | "dense"), filters {modules, versions}, minScore, page (the
   * address the reader asks from: its sections rank higher) and pageOnly (only them), signal.
   * A newer search or searchSelection supersedes this one: its promise rejects with ABORTED.
   */
  search(question, options = {}) {
    const { signal, ...rest } = options ?? {};
    return this.#runQuery("search", signal, (request) => request("search", { question: String(question ?? ""), options: rest }));
  }

  /**
   * Selected-text mode (docs/DESIGN.md §2.2): `selectedText` (10–5000 characters) is the primary
   * context; retrieval runs on question + selection and returns related sections. With
   * `selectionOnly: true` nothing is retrieved.
   */
  searchSelection(selectedText, question, options = {}) {
    const { signal, ...rest } = options ?? {};
    const payload = { selection: String(selectedText ?? ""), question: String(question ?? ""), options: rest };
    return this.#runQuery("search", signal, (request) => request("searchSelection", payload));
  }

  /**
   * Up to three follow-up questions after an answer, which the index answers (never one it
   * would refuse): made by the core from the neighbours of the sections the answer cited.
   * `retrieved`: the answer's retrieved chunks' `index`; `cited`: its sources' URLs;
   * `earlier`: the conversation's questions, the answered one last. Options: filters, signal.
   * It has a query slot of its own: a newer followUps supersedes it (ABORTED).
   */
  followUps({ retrieved = [], cited = [], earlier = [] } = {}, options = {}) {
    const { signal, ...rest } = options ?? {};
    const payload = { retrieved: Array.from(retrieved, Number), cited: Array.from(cited, String), earlier: Array.from(earlier, String), options: rest };
    return this.#runQuery("followUps", signal, (request) => request("followUps", payload));
  }

  /**
   * A search box's query, as the reader types it (typeahead.js): keyword results at once
   * (searched with expandWords: "dock" finds "docker", "dcoker" too), grouped by page, with snippets and the ranges of the query's words to highlight; then,
   * when semantic search works and the reader pauses, the sections found by meaning appended
   * below them. Options: k (keyword rows, default 8), semanticK (rows the semantic pass may
   * add, default 3; 0: none), semanticDelayMs (default 150), filters {modules, versions},
   * signal, onUpdate(results) (called with the keyword results, then with the merged ones).
   * Resolves with the last results. It has a query slot of its own: a newer searchAsYouType
   * supersedes it (ABORTED), a search or the chat's retrieval does not.
   */
  searchAsYouType(query, options = {}) {
    const { signal, onUpdate, ...rest } = options ?? {};
    return this.#runQuery("typeahead", signal, (request, stopped) =>
      searchAsYouType({ query: String(query ?? ""), options: rest, onUpdate, request, stopped, hybrid: () => this.state.hybrid }),
    );
  }

  /** Resolves when semantic search works; rejects with the model's error if loading failed. */
  whenHybrid() {
    if (this.state.hybrid) return Promise.resolve();
    if (this.state.modelError && !this.#modelLoading) return Promise.reject(new LecternError(this.state.modelError));
    return new Promise((resolve, reject) => this.#hybridWaiters.push({ resolve, reject }));
  }

  /** (Re)starts loading the model, e.g. after a failure; resolves when hybrid search works. */
  async loadModel() {
    this.state.modelError = null;
    this.#modelLoading = true;
    const done = this.whenHybrid();
    await this.#ensureWorker();
    // An index in a language the model does not suit is searched by keywords only.
    if (this.info?.semantic === false) {
      this.#settleHybrid(lecternError("MODEL_UNAVAILABLE", "The model is English and this index is not: it is searched by keywords", "LANGUAGE"));
      return done;
    }
    this.#request("loadModel", {}).catch(() => {}); // the outcome arrives as progress events
    return done;
  }

  /** The question's embedding with the bundle's model (waits for the model). */
  async embed(text) {
    await this.whenHybrid();
    await this.#ensureWorker();
    return this.#request("embed", { text: String(text ?? "") });
  }

  /** Ends the worker; pending and later calls reject with ABORTED. */
  close() {
    this.#closed = true;
    this.#stopWorker(aborted("Lectern was closed", "CLOSED"));
  }

  /** Test hook: makes the worker fail as a crash would ("error": an uncaught error;
   * "trap": a wasm trap, which is what a Rust panic becomes, inside a module call). */
  crashWorkerForTesting(kind = "error") {
    return this.#request("crashForTesting", { kind });
  }

  // ---- worker management --------------------------------------------------------------

  #ensureWorker() {
    if (this.#closed) return Promise.reject(aborted("Lectern was closed", "CLOSED"));
    if (this.#restarts > MAX_RESTARTS) {
      return Promise.reject(lecternError("WORKER_CRASHED", `The search worker crashed ${this.#restarts} times`, "TOO_MANY_RESTARTS"));
    }
    if (this.#ready) return this.#ready;
    const worker = new Worker(this.#workerUrl, { type: "module", name: "lectern" });
    const rpc = connect(worker, {
      name: "search worker",
      toError: (init) => new LecternError(init),
      onEvent: (type, event) => type === "progress" && this.#progress(event),
      onCrash: (error) => {
        if (rpc !== this.#rpc) return;
        this.#restarts += 1;
        this.#stopWorker(error);
      },
    });
    this.#rpc = rpc;
    this.#modelLoading = this.#options.loadModel !== false;
    const options = { ...this.#options, pageUrl: globalThis.location?.href ?? import.meta.url };
    this.#ready = this.#request("open", { options }).then((info) => {
      this.info = info;
      this.state.lexical = true;
      return info;
    });
    // The page compiles the search module (the search box highlights with it too) and hands
    // it over while the worker fetches the manifest: one download. If that fails here, the
    // worker fetches it itself and reports the error.
    searchModule(this.#options).then(
      (module) => rpc.notify("search", module),
      () => rpc.notify("search", null),
    );
    this.#ready.catch(() => {
      // A failed open leaves no worker behind; the next call tries again.
      if (this.#rpc === rpc) this.#stopWorker(null);
    });
    return this.#ready;
  }

  /** Ends the current worker; what is pending rejects with `reason` (if any). */
  #stopWorker(reason) {
    const rpc = this.#rpc;
    this.#rpc = null;
    this.#ready = null;
    this.state.lexical = false;
    this.state.hybrid = false;
    rpc?.close(reason);
    if (reason) this.#settleHybrid(reason);
  }

  /** Settles every whenHybrid() waiter: resolved without `error`, rejected with it. */
  #settleHybrid(error) {
    this.#modelLoading = false;
    const waiters = this.#hybridWaiters;
    this.#hybridWaiters = [];
    for (const w of waiters) {
      if (error) w.reject(error);
      else w.resolve();
    }
  }

  #progress(event) {
    if (event.phase === "hybrid-ready") {
      this.state.hybrid = true;
      this.state.modelError = null;
      this.#settleHybrid(null);
    } else if (event.phase === "model-failed") {
      // Semantic search stops (also once it worked: the embedder ended): keyword search goes on.
      this.state.hybrid = false;
      this.state.modelError = event.error;
      this.#settleHybrid(new LecternError(event.error));
    }
    if (this.#onProgress) {
      try {
        this.#onProgress(event);
      } catch (e) {
        console.error("Lectern: onProgress threw", e);
      }
    }
  }

  #request(type, payload, signal) {
    if (!this.#rpc) return Promise.reject(lecternError("WORKER_CRASHED", "The search worker is not running"));
    try {
      return this.#rpc.request(type, payload, { signal });
    } catch (e) {
      // Options holding functions or DOM objects cannot be sent to the worker.
      return Promise.reject(lecternError("INVALID_OPTIONS", `invalid search options: ${e.message}`));
    }
  }

  /** One query at a time per slot ("search": search and searchSelection, which the chat
   * uses; "typeahead": searchAsYouType): a newer one rejects the older one's promise with
   * ABORTED, at once (the worker is told, and stops). `run(request, stopped)` sends its
   * worker requests through `request`; `stopped` rejects when the query is superseded. */
  #runQuery(slot, signal, run) {
    this.#queries.get(slot)?.abort(aborted("The search was superseded by a newer one", "SUPERSEDED"));
    const query = new AbortController();
    this.#queries.set(slot, query);
    const onAbort = () => query.abort(aborted("The search was aborted", "SIGNAL"));
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    /** @type {Promise<never>} */
    const stopped = new Promise((_, reject) => {
      if (query.signal.aborted) reject(query.signal.reason);
      query.signal.addEventListener("abort", () => reject(query.signal.reason), { once: true });
    });
    stopped.catch(() => {}); // only raced against
    const request = async (type, payload) => {
      if (query.signal.aborted) throw query.signal.reason;
      await Promise.race([this.#ensureWorker(), stopped]);
      return this.#request(type, payload, query.signal);
    };
    return Promise.resolve()
      .then(() => run(request, stopped))
      .finally(() => {
        if (this.#queries.get(slot) === query) this.#queries.delete(slot);
        signal?.removeEventListener("abort", onAbort);
      });
  }
}

export default Lectern;
