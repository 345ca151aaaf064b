// What every route of the proxy shares on the HTTP side: the JSON error body (one shape for
// all of them, so the page reads every refusal the same way), CORS headers for an allowed
// origin, and reading a request body under a byte cap.

import { RETRY_AFTER_HEADER } from "./core-contract.mjs";

export function json(status, value, headers = {}) {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** The proxy's error body: the shape of OpenAI's, with one of Lectern's stable codes. */
export function error(status, code, message, headers = {}) {
  return json(status, { error: { message, code } }, headers);
}

/** CORS headers for a response to an allowed origin (echoed, never "*" with a real list). */
export function corsHeaders(origin, config) {
  return {
    "access-control-allow-origin": config.allowedOrigins.has("*") ? "*" : origin,
    // The page reads how long a refused question waits.
    "access-control-expose-headers": RETRY_AFTER_HEADER,
    vary: "Origin",
  };
}

/** Reads at most `max` bytes of the body; null if it is longer (then nothing more is read). */
export async function readCapped(request, max) {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > max) return null; // refused before reading
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return null; // a chunked body without Content-Length is capped here
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
