// Cloudflare Turnstile, the server half: asks the siteverify API whether the token a page
// sent is a real, unspent Turnstile token for this site's widget. The page gets the token
// invisibly (README.md, "Turnstile"); the proxy verifies it once and then remembers the
// verdict for the client (ledger.mjs), so not every question needs a new token.
//
// A verdict is one of:
//   "pass"          - siteverify said success;
//   "fail"          - siteverify said no (forged, expired, already spent, wrong site), or the
//                     token cannot be one (empty, longer than Turnstile's 2048 characters);
//   "misconfigured" - siteverify rejected the proxy's own secret: nothing a reader can fix;
//   "unavailable"   - siteverify could not be asked or did not answer with its JSON.

export const MAX_TOKEN_CHARS = 2048;
const VERIFY_TIMEOUT_MS = 10_000;
const SECRET_ERRORS = new Set(["missing-input-secret", "invalid-input-secret"]);

/** Verifies `token`; resolves to {verdict, codes} (codes: siteverify's error-codes). */
export async function verifyTurnstile({ fetch, url, secret, token, remoteip }) {
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_CHARS) {
    return { verdict: "fail", codes: ["invalid-input-response"] };
  }
  const form = new URLSearchParams({ secret, response: token });
  if (remoteip) form.set("remoteip", remoteip);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), VERIFY_TIMEOUT_MS);
  let outcome;
  try {
    const res = await fetch(url, { method: "POST", body: form, signal: controller.signal });
    outcome = res.ok ? await res.json() : null;
  } catch {
    outcome = null;
  } finally {
    clearTimeout(timer);
  }
  if (!outcome || typeof outcome !== "object" || typeof outcome.success !== "boolean") {
    return { verdict: "unavailable", codes: [] };
  }
  const codes = Array.isArray(outcome["error-codes"]) ? outcome["error-codes"].map(String) : [];
  if (outcome.success) return { verdict: "pass", codes };
  if (codes.some((c) => SECRET_ERRORS.has(c))) return { verdict: "misconfigured", codes };
  if (codes.includes("internal-error")) return { verdict: "unavailable", codes };
  return { verdict: "fail", codes };
}
