// The runtime's one error shape, {code, message, suggestion, detail}, in its two forms: a plain
// object (what crosses postMessage: structured clone keeps only an Error's name and message)
// and LecternError (what the page's API rejects with). The suggestion always comes from the
// core's table (error-codes.js, generated from src/wasm/errors.rs), never from here.

import { SUGGESTIONS } from "./error-codes.js";

/** The suggestion a reader can act on for `code`, from the core's table. */
const suggestionFor = (code) => SUGGESTIONS[code] ?? "";

/** Every failure of this API: `code` is stable (the core's codes plus ABORTED, WORKER_CRASHED,
 * MODEL_MISMATCH, TEXT_UNAVAILABLE, INVALID_OPTIONS, INVALID_ARGUMENT, INTERNAL). A
 * superseded or aborted query has name "AbortError" and code "ABORTED". */
export class LecternError extends Error {
  constructor({ code, message, suggestion, detail, ...extra }) {
    super(message);
    this.name = code === "ABORTED" ? "AbortError" : "LecternError";
    this.code = code;
    this.suggestion = suggestion ?? suggestionFor(code);
    if (detail !== undefined) this.detail = detail;
    Object.assign(this, extra);
  }

  /** The error as JSON: {error: true, message, code, suggestion, detail?}. */
  toJSON() {
    return { error: true, message: this.message, code: this.code, suggestion: this.suggestion, ...(this.detail ? { detail: this.detail } : {}) };
  }
}

/** A new error as a plain object; `extra` adds fields such as `file` or `shard`. */
export function codedError(code, message, detail, extra) {
  return { code, message, suggestion: suggestionFor(code), ...(detail ? { detail } : {}), ...extra };
}

/** The fields besides the four that a failure may carry (a result's failed shard or file). */
const EXTRA = ["shard", "file", "part", "id"];

/** Any thrown value as a plain error object: a coded one keeps its fields, anything else
 * becomes INTERNAL. */
export function plain(e) {
  if (e && typeof e === "object" && typeof e.code === "string") {
    const { code, message, suggestion, detail } = e;
    const out = { code, message: String(message ?? code), suggestion: suggestion ?? suggestionFor(code), ...(detail ? { detail } : {}) };
    for (const key of EXTRA) if (e[key] !== undefined) out[key] = e[key];
    return out;
  }
  return codedError("INTERNAL", String(e?.message ?? e));
}
