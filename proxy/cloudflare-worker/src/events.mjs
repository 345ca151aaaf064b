// The usage-event sink: `POST /v1/events` takes a batch of the widget's typed events
// (question asked, answered, refused, error, feedback, citation clicked, search-box query
// and click) and writes them to the site owner's own Cloudflare storage: an Analytics
// Engine dataset (EVENTS_DATASET) and/or a KV namespace (EVENTS_KV). The route exists only
// when one of them is bound; it has its own per-client rate limit (EVENTS_PER_MINUTE), so
// events never use up a reader's questions.
//
// Privacy first: the proxy stores no IP address and no header, only the event's own flat
// fields plus the time and the page's origin; the fields that can hold what a reader typed
// (TEXT_FIELDS) are dropped unless the operator sets EVENTS_STORE_TEXT — and the widget
// sends them only when the site opted in. README.md documents the body and the storage.

import { MAX_EVENTS_BODY_BYTES, MAX_EVENTS_PER_BATCH, RATE_LIMITED, RETRY_AFTER_HEADER } from "./core-contract.mjs";
import { error, readCapped } from "./respond.mjs";
import { utcDay } from "./ledger.mjs";
import { utf8Length } from "./usage.mjs";

export const EVENTS_PATH = "/v1/events";
const MAX_EVENT_BYTES = 4096; // one event's stored JSON; Analytics Engine takes 16 KB of blobs
const MAX_FIELDS = 24;
const MAX_STRING_CHARS = 300;
const MAX_TEXT_CHARS = 1000;
const MAX_LIST_ITEMS = 10;
const MAX_ITEM_FIELDS = 4;
const KIND = /^[a-z][a-z0-9_.:-]{0,39}$/;
const FIELD = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
/** Fields that may carry text a reader typed or selected: stored only with EVENTS_STORE_TEXT. */
export const TEXT_FIELDS = new Set(["question", "query", "selection", "comment", "answer", "text"]);
/** Fields the proxy sets itself. */
const OWN_FIELDS = new Set(["time", "origin"]);

export function eventsEnabled(config) {
  return Boolean(config.events.dataset || config.events.kv);
}

function cleanString(s, max) {
  return s.length > max ? s.slice(0, max) : s;
}

const plain = (v, max) => (typeof v === "string" ? cleanString(v, max) : typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** A list's item: a plain value, or a record of plain values (at most MAX_ITEM_FIELDS); else undefined. */
function cleanItem(item, max) {
  if (!item || typeof item !== "object" || Array.isArray(item)) return plain(item, max);
  const out = {};
  for (const [name, value] of Object.entries(item)) {
    const clean = FIELD.test(name) ? plain(value, max) : undefined;
    if (clean === undefined) continue;
    out[name] = clean;
    if (Object.keys(out).length >= MAX_ITEM_FIELDS) break;
  }
  return Object.keys(out).length ? out : undefined;
}

/** A flat, bounded copy of an event, or null when it is not one (no valid `kind`). */
export function cleanEvent(event, { storeText }) {
  if (!event || typeof event !== "object" || Array.isArray(event)) return null;
  if (typeof event.kind !== "string" || !KIND.test(event.kind)) return null;
  const out = {};
  let fields = 0;
  for (const [name, value] of Object.entries(event)) {
    if (!FIELD.test(name) || OWN_FIELDS.has(name)) continue;
    const isText = TEXT_FIELDS.has(name.toLowerCase());
    if (isText && !storeText) continue;
    const max = isText ? MAX_TEXT_CHARS : MAX_STRING_CHARS;
    let clean;
    if (typeof value === "string") clean = cleanString(value, max);
    else if (typeof value === "number") clean = Number.isFinite(value) ? value : undefined;
    else if (typeof value === "boolean" || value === null) clean = value;
    else if (Array.isArray(value)) {
      // Lists of plain values, or of flat records of them (an answer's sources: {url, title});
      // anything deeper is left out.
      clean = value
        .map((v) => cleanItem(v, max))
        .filter((v) => v !== undefined)
        .slice(0, MAX_LIST_ITEMS);
    }
    if (clean === undefined) continue;
    out[name] = clean;
    if (++fields >= MAX_FIELDS) break;
  }
  return out;
}

/** Handles `POST /v1/events` (origin and preflight already checked by the caller). */
export async function acceptEvents(request, config, { cors, client, origin, at, window }) {
  const wait = window(client, config.events.perMinute);
  if (wait !== null) {
    return error(429, RATE_LIMITED, "Too many requests. Please wait before sending more events.", { ...cors, [RETRY_AFTER_HEADER]: String(wait) });
  }
  const raw = await readCapped(request, MAX_EVENTS_BODY_BYTES);
  if (raw === null) return error(413, "PAYLOAD_TOO_LARGE", `The request is larger than ${MAX_EVENTS_BODY_BYTES} bytes.`, cors);
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    return error(400, "BAD_REQUEST", "The request body is not JSON.", cors);
  }
  const list = body?.events;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_EVENTS_PER_BATCH) {
    return error(400, "BAD_REQUEST", `The request needs an \`events\` array of 1 to ${MAX_EVENTS_PER_BATCH} events.`, cors);
  }
  const time = new Date(at).toISOString();
  const records = [];
  for (const [i, event] of list.entries()) {
    const clean = cleanEvent(event, config.events);
    if (!clean) return error(400, "BAD_REQUEST", `Event ${i} has no valid \`kind\` (lowercase, e.g. "answered").`, cors);
    const record = { ...clean, time, origin };
    const line = JSON.stringify(record);
    if (utf8Length(line) > MAX_EVENT_BYTES) return error(400, "BAD_REQUEST", `Event ${i} is larger than ${MAX_EVENT_BYTES} bytes.`, cors);
    records.push({ record, line });
  }

  try {
    if (config.events.dataset) {
      // One data point per event. blob1 kind, blob2 page, blob3 origin, blob4 the event as
      // JSON; the index (the sampling key) is the kind. README.md has the SQL to read them.
      for (const { record, line } of records) {
        config.events.dataset.writeDataPoint({
          indexes: [record.kind],
          blobs: [record.kind, typeof record.page === "string" ? record.page : "", origin, line],
        });
      }
    }
    if (config.events.kv) {
      // One key per batch (KV allows one write per second per key and bills per write):
      // events:<UTC day>:<ms>:<random>, the value JSON Lines, one event per line.
      const key = `events:${utcDay(at)}:${String(at).padStart(13, "0")}:${crypto.randomUUID().slice(0, 8)}`;
      const ttl = config.events.kvTtlDays > 0 ? { expirationTtl: config.events.kvTtlDays * 86400 } : {};
      await config.events.kv.put(key, records.map((r) => r.line).join("\n") + "\n", ttl);
    }
  } catch {
    return error(503, "EVENTS_UNAVAILABLE", "The events could not be stored. Try again later.", { ...cors, [RETRY_AFTER_HEADER]: "60" });
  }
  return new Response(null, { status: 204, headers: { ...cors, "cache-control": "no-store" } });
}
