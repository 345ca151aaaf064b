// How the navbar reaches the chat panel. The search box's "Ask AI" row and the navbar
// launcher ask for the panel here; the widget mounted on the page takes the request. A docs
// page's widget (DocsRoot) registers itself; a page without one (the search page, a blog
// post) gets one from the SearchBar instead — so a page has one widget and one panel.

let docsWidgets = 0;
/** @typedef {{question?: string, scope?: import('../LecternSearch/scope').ScopeChoice}} PanelRequest */
/** @type {PanelRequest | null} */
let pending = null;
/** @type {Set<() => void>} */
const listeners = new Set();

// Array.from, not a spread: a site without a browserslist gets Babel's loose spread, which
// turns a Set into a one-element array (the fixture of tests/e2e/versioned.test.mjs is one).
const notify = () => {
  Array.from(listeners).forEach((listener) => listener());
};

/** @param {() => void} listener @returns {() => void} */
export function subscribe(listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** How many docs pages' widgets are mounted (0: the SearchBar mounts one). */
export const docsWidgetCount = () => docsWidgets;

/** A docs page's widget is mounted; the returned function says it is gone. */
export function registerDocsWidget() {
  docsWidgets += 1;
  notify();
  return () => {
    docsWidgets -= 1;
    notify();
  };
}

/**
 * Opens the panel; with `question`, asks it, in `scope` (the reader's choice in the search
 * box: null follows the page's docs version, 'all' widens, a list pins versions).
 * @param {PanelRequest} [request]
 */
export function requestPanel(request = {}) {
  pending = request;
  notify();
}

/** The request not yet taken, taken now (by one widget only). */
export function takeRequest() {
  const request = pending;
  pending = null;
  return request;
}
