// Loads the Lectern runtime (retrieval worker + wasm, then the chat layer) from the files the
// plugin put on the site, once per page: the panel may unmount (the reader leaves the docs)
// and mount again without downloading anything twice, and the search box shares it. The
// runtime is plain ES modules served as they are, so webpack must not touch these imports
// (webpackIgnore).
//
// A session is {subscribe, getState, lectern, ready, startModel, retryModel}: `lectern` is the
// retrieval API alone (what the search box needs: the core, manifest and chunk table), `ready`
// adds the chat layer on first use (the panel). The model waits for startModel(): the search
// box calls it once its first results are drawn, the panel a second after it has the runtime
// (by then the reader is typing a question), so the model never shares the link with the
// index. state = {phase, index, model, online, …} below. Errors in it are the runtime's coded
// errors ({code, message, suggestion, action, detail, technical}: what the reader is told
// comes from the core's advice table).

/**
 * @typedef {object} Runtime
 * @property {import('lectern').Lectern} lectern
 * @property {import('lectern/chat').LecternChat} chat
 * @property {readonly import('lectern/chat').Persona[]} personas
 * @property {{refusalSuggestion?: string, slow?: string}} texts
 * @property {readonly string[]} retryActions the actions with which an answer offers Retry
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
 * @property {Promise<import('lectern').Lectern>} lectern the retrieval API (search box)
 * @property {Promise<Runtime>} ready the retrieval API and the chat layer (panel), started on first use
 * @property {() => void} startModel starts the model's download (once per session)
 * @property {() => SessionState} getState
 * @property {(listener: (state: SessionState) => void) => () => void} subscribe
 * @property {() => void} retryModel loads the model again after a failure
 * @property {() => void} retryModelIfOffline the same, if it failed while offline
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

  const failed = (error) => {
    // The retrieval API's failure reaches both the search box's promise and the panel's.
    if (state.phase === "error") return;
    const shown = shownError(error);
    console.error("Lectern: the search index could not be loaded:", shown.code, shown.detail ?? "", shown.technical ?? "");
    set({ phase: "error", error: shown });
  };
  const runtime = config.bundleUrl ? absolute(config.runtimeUrl) : null;

  /** @type {Promise<import('lectern').Lectern>} */
  const lectern = (async () => {
    if (!runtime) {
      throw { code: "INDEX_UNAVAILABLE", action: "contact_site", detail: "NO_INDEX", technical: "This site was started without its search index (the plugin's indexInDev option is false)." };
    }
    /** @type {typeof import('lectern')} */
    const api = await import(/* webpackIgnore: true */ `${runtime}index.js`);
    return api.Lectern.open({ bundleUrl: absolute(config.bundleUrl), onProgress, loadModel: false });
  })();
  lectern.catch(failed);

  let modelStarted = false;
  const loadModel = () => {
    modelStarted = true;
    set({ model: "downloading", modelProgress: null, modelError: null });
    lectern.then((l) => l.loadModel()).catch(() => {}); // the outcome arrives as progress events
  };
  const startModel = () => {
    lectern.then(
      (l) => {
        // An index the model does not suit (its language) is searched by keywords only.
        if (!modelStarted && !l.state.hybrid && l.info?.semantic !== false) loadModel();
      },
      () => {},
    );
  };
  // After a failure: the same retrieval API loads the model again (started or not before).
  const retryModel = () => {
    failedOffline = false;
    loadModel();
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
      if (!api.state.hybrid && !modelStarted && api.info?.semantic !== false) set({ model: "downloading" });
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
        retryActions: rules.messages.retryActions,
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
    current.session.lectern.then((l) => l.close(), () => {});
    current = null;
  }
}
