// The runtime's one error shape, {code, message, suggestion, action, detail, technical}, in its
// two forms: a plain object (what crosses postMessage: structured clone keeps only an Error's
// name and message) and LecternError (what the page's API rejects with). What the reader is
// told — message, suggestion, action — always comes from the core's advice table
// (error-codes.js, generated from src/advice.rs), never from here; what a site owner needs
// (the URL, the file, the browser's own words) is `technical`.

import { adviceFor } from "./error-codes.js";

/** Every failure of this API: `code` is stable (the core's codes plus ABORTED, WORKER_CRASHED,
 * MODEL_MISMATCH, TEXT_UNAVAILABLE, INVALID_OPTIONS, INVALID_ARGUMENT, INTERNAL); `message`,
 * `suggestion` and `action` are for the reader, `detail` and `technical` for whoever fixes it.
 * A superseded or aborted query has name "AbortError" and code "ABORTED". */
export class LecternError extends Error {
  constructor({ code, message, suggestion, action, detail, technical, ...extra }) {
    const advice = adviceFor(code, detail);
    super(message || advice.message);
    this.name = code === "ABORTED" ? "AbortError" : "LecternError";
    this.code = code;
    this.suggestion = suggestion ?? advice.suggestion;
    this.action = action ?? advice.action;
    if (detail !== undefined) this.detail = detail;
    if (technical !== undefined) this.technical = technical;
    Object.assign(this, extra);
  }

  /** The error as JSON: {error: true, message, code, suggestion, action, detail?, technical?}. */
  toJSON() {
    return {
      error: true,
      message: this.message,
      code: this.code,
      suggestion: this.suggestion,
      action: this.action,
      ...(this.detail ? { detail: this.detail } : {}),
      ...(this.technical ? { technical: this.technical } : {}),
    };
  }
}

/** A new error as a plain object, told as the advice table says for `code` and `detail`;
 * `technical` is for the site owner; `extra` adds fields such as `file` or `shard`. */
export function codedError(code, technical, detail, extra) {
  const { message, suggestion, action } = adviceFor(code, detail);
  return { code, message, suggestion, action, ...(detail ? { detail } : {}), ...(technical ? { technical } : {}), ...extra };
}

/** A new LecternError (see codedError). */
export const lecternError = (code, technical, detail) => new LecternError(codedError(code, technical, detail));

/** The fields besides the six that a failure may carry (a result's failed shard or file). */
const EXTRA = ["shard", "file", "part", "id"];

/** Any thrown value as a plain error object: a coded one keeps its fields, anything else
 * becomes INTERNAL (its own message the technical text). */
export function plain(e) {
  if (e && typeof e === "object" && typeof e.code === "string") {
    const { code, message, suggestion, action, detail, technical } = e;
    const advice = adviceFor(code, detail);
    const out = {
      code,
      message: String(message || advice.message),
      suggestion: suggestion ?? advice.suggestion,
      action: action ?? advice.action,
      ...(detail ? { detail } : {}),
      ...(technical ? { technical } : {}),
    };
    for (const key of EXTRA) if (e[key] !== undefined) out[key] = e[key];
    return out;
  }
  return codedError("INTERNAL", String(e?.message ?? e));
}
