// The chat module on the page's own thread, started once per page when the chat is used: it
// runs the chat's rules (chat.js). The search box never loads it (page-search.js).

import initCore, * as core from "./lectern_core.js";
import { coreModule, startedOnce } from "./runtime.js";

/** The chat module's exports, once it runs on this thread. */
export const pageCore = startedOnce(coreModule, initCore, core);
