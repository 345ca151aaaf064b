// Loads the Lectern runtime (retrieval worker + wasm, then the chat layer) from the files the
// plugin put on the site, once per page: the panel may unmount (the reader leaves the docs)
// and mount again without downloading anything twice, and the search box shares it. The
// runtime is plain ES modules served as they are, so webpack must not touch these imports
// (webpackIgnore).
//
// A session is {subscribe, getState, lectern, ready, startModel}: `lectern` is the retrieval
// API alone (what the search box needs: the core, manifest and chunk table), `ready` adds the
// chat layer on first use (the panel). The model waits for startModel(): the search box calls
// it once its first results are drawn, the panel a second after it has the runtime (by
// then the reader is typing a question), so the model never shares the link with the index.
// state = {phase, index, model, …} below.

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
 * @property {Promise<import('lectern').Lectern>} lectern the retrieval API (search box)
 * @property {Promise<Runtime>} ready the retrieval API and the chat layer (panel), started on first use
 * @property {() => void} startModel starts the model's download (once per session)
 * @property {() => SessionState} getState
 * @property {(listener: (state: SessionState) => void) => () => void} subscribe
 */

/** The panel starts the model this long after it has the runtime (the search box: at once
 * after its first results). */
const PANEL_MODEL_DELAY_MS = 1000;

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

  const failed = (error) => set({ phase: "error", error: { code: error?.code ?? "INDEX_UNAVAILABLE", message: String(error?.message ?? error), suggestion: error?.suggestion ?? "" } });
  const runtime = config.bundleUrl ? absolute(config.runtimeUrl) : null;

  /** @type {Promise<import('lectern').Lectern>} */
  const lectern = (async () => {
    if (!runtime) {
      const error = /** @type {Error & {code?: string}} */ (new Error("This site was started without its search index (the plugin's indexInDev option is false)."));
      error.code = "INDEX_UNAVAILABLE";
      throw error;
    }
    /** @type {typeof import('lectern')} */
    const api = await import(/* webpackIgnore: true */ `${runtime}index.js`);
    return api.Lectern.open({ bundleUrl: absolute(config.bundleUrl), onProgress, loadModel: false });
  })();
  lectern.catch(failed);

  let modelStarted = false;
  const startModel = () => {
    lectern.then(
      (l) => {
        if (modelStarted || l.state.hybrid) return;
        modelStarted = true;
        set({ model: "downloading", modelError: null });
        l.loadModel().catch(() => {}); // the outcome arrives as progress events
      },
      () => {},
    );
  };

  /** @type {Promise<Runtime> | null} */
  let chatReady = null;
  const startChat = () =>
    (async () => {
      // The chat layer downloads while the retrieval API opens.
      const chatModulePromise = lectern.then(() => import(/* webpackIgnore: true */ `${runtime}chat.js`));
      // When the retrieval API fails, `await lectern` below throws first and this promise
      // is never awaited: its rejection (the same error) must not surface as unhandled.
      chatModulePromise.catch(() => {});
      const api = await lectern;
      // The panel shows the model as on its way from here (its first question's keyword
      // answer does not wait for it).
      if (!api.state.hybrid && !modelStarted) set({ model: "downloading" });
      setTimeout(startModel, PANEL_MODEL_DELAY_MS);
      /** @type {typeof import('lectern/chat')} */
      const chatModule = await chatModulePromise;
      const chatOptions = { ...config.chat, lectern: api };
      if (chatOptions.endpoint) chatOptions.endpoint = absolute(chatOptions.endpoint);
      const LecternChat = chatModule.LecternChat ?? chatModule.default;
      const [chat, rules] = await Promise.all([LecternChat.create(chatOptions), chatModule.chatRules()]);
      /** @type {Runtime} */
      const result = {
        lectern: api,
        chat,
        personas: rules.personas,
        texts: { refusalSuggestion: rules.messages.refusalSuggestion, slow: rules.messages.slow },
        limits: { question: rules.limits.questionMaxChars, selectionMin: rules.limits.selectionMinChars, selectionMax: rules.limits.selectionMaxChars },
      };
      set({ phase: "ready" });
      return result;
    })();

  return {
    lectern,
    get ready() {
      if (!chatReady) {
        chatReady = startChat();
        chatReady.catch(failed);
      }
      return chatReady;
    },
    startModel,
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
    current.session.lectern.then((l) => l.close(), () => {});
    current = null;
  }
}
