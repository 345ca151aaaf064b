// Loads the Lectern runtime (retrieval worker + wasm, then the chat layer) from the files the
// plugin put on the site, once per page: the panel may unmount (the reader leaves the docs)
// and mount again without downloading anything twice. The runtime is plain ES modules
// served as they are, so webpack must not touch these imports (webpackIgnore).
//
// A session is {subscribe, getState, ready, retryModel}: state = {phase, index, model, online,
// …} below. Errors in it are the runtime's coded errors ({code, message, suggestion, action,
// detail, technical}: what the reader is told comes from the core's advice table).

/**
 * @typedef {object} Runtime
 * @property {import('lectern').Lectern} lectern
 * @property {import('lectern/chat').LecternChat} chat
 * @property {readonly import('lectern/chat').Persona[]} personas
 * @property {{refusalSuggestion?: string, slow?: string}} texts
 * @property {{question: number, selectionMin: number, selectionMax: number}} limits
 */
/**
 * A failure as the panel shows it: the reader's words (absent when the runtime never
 * loaded: the panel's own then), the action that helps, and the site owner's detail.
 * @typedef {{code: string, message?: string, suggestion?: string, action?: string, detail?: string, technical?: string}} ShownError
 */
/**
 * @typedef {object} SessionState
 * @property {'loading' | 'ready' | 'error'} phase
 * @property {{loaded: number, total: number} | null} index
 * @property {'waiting' | 'downloading' | 'initialising' | 'ready' | 'failed'} model
 * @property {{loaded: number, total: number} | null} modelProgress
 * @property {ShownError | null} modelError
 * @property {ShownError | null} error
 * @property {boolean} online whether the browser says it is online (navigator.onLine)
 */
/**
 * @typedef {object} Session
 * @property {Promise<Runtime>} ready
 * @property {() => SessionState} getState
 * @property {(listener: (state: SessionState) => void) => () => void} subscribe
 * @property {() => void} retryModel loads the model again after a failure
 * @property {() => void} retryModelIfOffline the same, if it failed while offline
 */

/** @type {{key: string, session: Session} | null} */
let current = null;

const absolute = (url) => new URL(url, window.location.href).href;

/**
 * @param {import('docusaurus-plugin-lectern').ClientOptions} config
 * @returns {Session}
 */
function createSession(config) {
  /** @type {Set<(state: SessionState) => void>} */
  const listeners = new Set();
  /** @type {SessionState} */
  let state = {
    /** "loading" → "ready" (keyword search works) | "error". */
    phase: "loading",
    /** Index download before lexical-ready: {loaded, total} or null. */
    index: null,
    /** The model: "waiting" | "downloading" | "initialising" | "ready" | "failed". */
    model: "waiting",
    modelProgress: null,
    modelError: null,
    error: null,
    online: typeof navigator === "undefined" || navigator.onLine !== false,
  };
  let failedOffline = false;
  const set = (patch) => {
    state = { ...state, ...patch };
    for (const l of listeners) l(state);
  };

  const onProgress = (e) => {
    switch (e.phase) {
      case "index":
        set({ index: { loaded: e.loaded, total: e.total } });
        break;
      case "model":
        set({ model: "downloading", modelProgress: { loaded: e.loaded, total: e.total } });
        break;
      case "model-init":
        set({ model: "initialising" });
        break;
      case "hybrid-ready":
        set({ model: "ready", modelError: null });
        break;
      case "model-failed":
        // Offline, it is loaded again once the browser is back (retryModelIfOffline).
        failedOffline = navigator.onLine === false;
        set({ model: "failed", modelError: e.error ?? { code: "MODEL_UNAVAILABLE" } });
        if (e.error) console.warn("Lectern: semantic search is unavailable:", e.error.code, e.error.detail ?? "", e.error.technical ?? "");
        break;
      default:
    }
  };
  // The browser's word for whether it is online: the panel names it, and retries then.
  const onLine = () => set({ online: navigator.onLine !== false });
  window.addEventListener("online", onLine);
  window.addEventListener("offline", onLine);

  const ready = (async () => {
    if (!config.bundleUrl) {
      throw { code: "INDEX_UNAVAILABLE", action: "contact_site", detail: "NO_INDEX", technical: "This site was started without its search index (the plugin's indexInDev option is false)." };
    }
    const runtime = absolute(config.runtimeUrl);
    // Both modules download in parallel; the chat layer waits for the retrieval API below.
    /** @type {[typeof import('lectern'), typeof import('lectern/chat')]} */
    const [api, chatModule] = await Promise.all([
      import(/* webpackIgnore: true */ `${runtime}index.js`),
      import(/* webpackIgnore: true */ `${runtime}chat.js`),
    ]);
    const lectern = await api.Lectern.open({ bundleUrl: absolute(config.bundleUrl), onProgress });
    if (!lectern.state.hybrid && !lectern.state.modelError) set({ model: state.model === "waiting" ? "downloading" : state.model });
    const chatOptions = { ...config.chat, lectern };
    if (chatOptions.endpoint) chatOptions.endpoint = absolute(chatOptions.endpoint);
    const LecternChat = chatModule.LecternChat ?? chatModule.default;
    const [chat, rules] = await Promise.all([LecternChat.create(chatOptions), chatModule.chatRules()]);
    const result = {
      lectern,
      chat,
      personas: rules.personas,
      texts: { refusalSuggestion: rules.messages.refusalSuggestion, slow: rules.messages.slow },
      limits: { question: rules.limits.questionMaxChars, selectionMin: rules.limits.selectionMinChars, selectionMax: rules.limits.selectionMaxChars },
    };
    set({ phase: "ready" });
    return result;
  })();
  ready.catch((error) => {
    const shown = shownError(error);
    console.error("Lectern: the search index could not be loaded:", shown.code, shown.detail ?? "", shown.technical ?? "");
    set({ phase: "error", error: shown });
  });

  const retryModel = () => {
    failedOffline = false;
    set({ model: "downloading", modelProgress: null, modelError: null });
    ready.then((rt) => rt.lectern.loadModel()).catch(() => {}); // the outcome arrives as progress events
  };

  return {
    ready,
    retryModel,
    retryModelIfOffline() {
      if (failedOffline && state.model === "failed") retryModel();
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * A failure as the panel shows it: a coded error keeps what the core told the reader; any
 * other (the runtime's files could not be imported) has only its technical text, and the
 * panel says it in its own words.
 * @returns {ShownError}
 */
function shownError(error) {
  if (typeof error?.code === "string") {
    const { code, message, suggestion, action, detail, technical } = error;
    return { code, message: action ? message : undefined, suggestion, action, detail, technical: technical ?? (action ? undefined : message) };
  }
  return { code: "INDEX_UNAVAILABLE", action: "retry", technical: String(error?.message ?? error) };
}

/**
 * The page's session for this configuration, created on first use.
 * @param {import('docusaurus-plugin-lectern').ClientOptions} config
 */
export function getSession(config) {
  const key = `${config.runtimeUrl}|${config.bundleUrl}|${JSON.stringify(config.chat)}`;
  if (!current || current.key !== key) current = { key, session: createSession(config) };
  return current.session;
}

/** Forgets a failed session so the next getSession() tries again. */
export function resetSession() {
  if (current) {
    current.session.ready.then((s) => s.lectern.close(), () => {});
    current = null;
  }
}
