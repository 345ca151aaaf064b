// Loads the Lectern runtime (retrieval worker + wasm, then the chat layer) from the files the
// plugin put on the site, once per page: the panel may unmount (the reader leaves the docs)
// and mount again without downloading anything twice. The runtime is plain ES modules
// served as they are, so webpack must not touch these imports (webpackIgnore).
//
// A session is {subscribe, getState, ready}: state = {phase, index, model, …} below.

/**
 * @typedef {object} Runtime
 * @property {import('lectern').Lectern} lectern
 * @property {import('lectern/chat').LecternChat} chat
 * @property {readonly import('lectern/chat').Persona[]} personas
 * @property {{refusalSuggestion?: string, slow?: string}} texts
 * @property {{question: number, selectionMin: number, selectionMax: number}} limits
 */
/**
 * @typedef {object} SessionState
 * @property {'loading' | 'ready' | 'error'} phase
 * @property {{loaded: number, total: number} | null} index
 * @property {'waiting' | 'downloading' | 'initialising' | 'ready' | 'failed'} model
 * @property {{loaded: number, total: number} | null} modelProgress
 * @property {unknown} modelError
 * @property {{code: string, message: string, suggestion: string} | null} error
 */
/**
 * @typedef {object} Session
 * @property {Promise<Runtime>} ready
 * @property {() => SessionState} getState
 * @property {(listener: (state: SessionState) => void) => () => void} subscribe
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
  };
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
        set({ model: "failed", modelError: e.error ?? null });
        break;
      default:
    }
  };

  const ready = (async () => {
    if (!config.bundleUrl) {
      const error = /** @type {Error & {code?: string}} */ (new Error("This site was started without its search index (the plugin's indexInDev option is false)."));
      error.code = "INDEX_UNAVAILABLE";
      throw error;
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
  ready.catch((error) => set({ phase: "error", error: { code: error?.code ?? "INDEX_UNAVAILABLE", message: String(error?.message ?? error), suggestion: error?.suggestion ?? "" } }));

  return {
    ready,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
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
