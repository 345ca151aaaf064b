// The core module on the page's own thread, started once per page: the chat runs its rules
// there (chat.js), and the search box asks it where a result's text holds the query's words
// (typeahead.js). It is compiled once for the page and the worker (runtime.js coreModule).

import initCore, * as core from "./lectern_core.js";
import { coreModule } from "./runtime.js";

/** @type {Promise<typeof core> | null} */
let started = null;

/** The core module's exports, once it runs on this thread. */
export function pageCore() {
  started ??= coreModule()
    .then((module) => initCore({ module_or_path: module }))
    .then(
      () => core,
      (e) => {
        started = null; // a later call tries again
        throw e;
      },
    );
  return started;
}
