// The usage events a site owner gets from the widget: a question asked, answered (confidence,
// sources), refused, an error's code, a reader's feedback, a citation followed, a search-box
// query (once it has settled) and a search result followed. Each is a UsageEvent, the core's
// type (src/usage.rs, declared for JS in the runtime's lectern-types.d.ts): the panel and the
// search box hand `recordUsage` one with what they know; this module adds when and where
// (`time`, `page`), leaves out what a reader typed (`question`, `query`) unless the site
// opted in (`eventsIncludeText`), and delivers the same object to
//   - a `lectern:<kind>` CustomEvent on window, the event as its `detail` (events.js);
//   - the site's `onEvent` module, its default export (the plugin resolves the module at
//     build time: `@lectern/usage-options`, written by the plugin's src/usage-module.js,
//     holds it and these options);
//   - with `eventsToAnalytics`, Google Analytics (`gtag`), Plausible (`plausible`) and Umami
//     (`umami.track`) when the page has them, as the event `lectern_<kind>` with its fields
//     flattened (sources as their URLs);
//   - with `eventsEndpoint`, the proxy's `POST /v1/events` (proxy/cloudflare-worker/src/events.mjs):
//     in batches within its limits (lectern/contract: 20 events, 16 KB), by navigator.sendBeacon a few seconds
//     after a batch's first event, when a batch is full, and when the page is hidden or left.
// It is loaded with the panel or the search dialog, never with the page (its weight).
import { onEvent, options } from '@lectern/usage-options';
import { MAX_EVENTS_BODY_BYTES, MAX_EVENTS_PER_BATCH } from 'lectern/contract';
import { emit } from './events';

/** @typedef {import('lectern/chat').UsageEvent} UsageEvent */

/** The fields that hold what a reader typed: sent only when the site opts in. */
const TEXT_FIELDS = ['question', 'query'];
/** What a proxy takes in one request (the core's contract); a batch keeps a margin of bytes. */
const BATCH_EVENTS = MAX_EVENTS_PER_BATCH;
const BATCH_BYTES = MAX_EVENTS_BODY_BYTES - 384;
const BATCH_DELAY_MS = 4000;
/** Google Analytics keeps parameter values up to 100 characters. */
const ANALYTICS_VALUE_CHARS = 100;

/** @type {UsageEvent[]} */
let queue = [];
let endpoint = /** @type {string | null} */ (null);
let timer = /** @type {ReturnType<typeof setTimeout> | null} */ (null);
let leaving = false;

/**
 * Delivers one event (see the header). `event`: a UsageEvent without `time` and `page`.
 * @param {UsageEvent} event
 */
export function recordUsage(event) {
  if (typeof window === 'undefined') return;
  /** @type {Record<string, any>} */
  const full = { ...event, time: new Date().toISOString(), page: window.location.pathname };
  for (const [name, value] of Object.entries(full)) {
    if (value === undefined || (!options.includeText && TEXT_FIELDS.includes(name))) delete full[name];
  }
  const usage = /** @type {UsageEvent} */ (full);
  emit(usage.kind, usage);
  if (onEvent) deliver('onEvent', () => onEvent(usage));
  if (options.analytics) toAnalytics(usage);
  if (options.endpoint) toProxy(options.endpoint, usage);
}

/** Calls `send`; a site's hook or analytics that throws is reported and stops nothing. */
function deliver(/** @type {string} */ to, /** @type {() => void} */ send) {
  try {
    send();
  } catch (e) {
    console.error(`lectern: the usage event could not be given to ${to}`, e);
  }
}

function toAnalytics(/** @type {UsageEvent} */ event) {
  const name = `lectern_${event.kind}`;
  /** @type {Record<string, string | number | boolean>} */
  const props = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === 'kind' || value === null) continue;
    const flat = Array.isArray(value) ? value.map((s) => s.url).join(' ') : value;
    props[key] = typeof flat === 'string' ? flat.slice(0, ANALYTICS_VALUE_CHARS) : flat;
  }
  const w = /** @type {any} */ (window);
  if (typeof w.gtag === 'function') deliver('gtag', () => w.gtag('event', name, props));
  if (typeof w.plausible === 'function') deliver('plausible', () => w.plausible(name, { props }));
  if (typeof w.umami?.track === 'function') deliver('umami', () => w.umami.track(name, props));
}

function toProxy(/** @type {string} */ url, /** @type {UsageEvent} */ event) {
  if (endpoint !== url) flush();
  endpoint = url;
  queue.push(event);
  if (!leaving) {
    leaving = true;
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
  }
  if (queue.length >= BATCH_EVENTS) flush();
  else timer ??= setTimeout(flush, BATCH_DELAY_MS);
}

/** Sends what waits, in as many requests as the proxy's limits need. */
function flush() {
  if (timer) clearTimeout(timer);
  timer = null;
  while (queue.length && endpoint) {
    let n = Math.min(queue.length, BATCH_EVENTS);
    let body = new Blob([JSON.stringify({ events: queue.slice(0, n) })], { type: 'text/plain' });
    while (n > 1 && body.size > BATCH_BYTES) {
      n = Math.ceil(n / 2);
      body = new Blob([JSON.stringify({ events: queue.slice(0, n) })], { type: 'text/plain' });
    }
    queue = queue.slice(n);
    // text/plain (the proxy reads it as JSON): a simple request, no preflight, so it also
    // goes out while the page unloads.
    navigator.sendBeacon?.(endpoint, body);
  }
}
