// The search module on the page's own thread, started once per page: the search box asks it
// where a result's text holds the query's words (typeahead.js). It is compiled once for the
// page and the worker (runtime.js searchModule), which runs it for every search.

import initSearch, * as search from "./lectern_search.js";
import { searchModule, startedOnce } from "./runtime.js";

/** The search module's exports, once it runs on this thread. */
export const pageSearch = startedOnce(searchModule, initSearch, search);
