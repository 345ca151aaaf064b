// Generated from Lectern's core by scripts/build-pkg.sh (src/wasm/typescript.rs): what a
// proxy and the page must agree on. Do not edit; a Rust test fails when it is stale.

/** The request header that carries a Cloudflare Turnstile token from the page. */
export const TURNSTILE_HEADER = "x-lectern-turnstile";

/** The response header whose whole seconds say how long a refused question waits; the page
 * reads it, so the CORS headers expose it. */
export const RETRY_AFTER_HEADER = "retry-after";

// The refusals the page tells a reader in its own words (its advice table), by these codes.
export const RATE_LIMITED = "RATE_LIMITED";
export const TURNSTILE_REQUIRED = "TURNSTILE_REQUIRED";
export const TURNSTILE_FAILED = "TURNSTILE_FAILED";
export const TURNSTILE_UNAVAILABLE = "TURNSTILE_UNAVAILABLE";
export const DAILY_QUOTA = "DAILY_QUOTA";
export const SITE_BUDGET_EXHAUSTED = "SITE_BUDGET_EXHAUSTED";

/** Every refusal code above. */
export const REFUSAL_CODES = Object.freeze(["RATE_LIMITED","TURNSTILE_REQUIRED","TURNSTILE_FAILED","TURNSTILE_UNAVAILABLE","DAILY_QUOTA","SITE_BUDGET_EXHAUSTED"]);

/** The most usage events one `POST /v1/events` request carries. */
export const MAX_EVENTS_PER_BATCH = 20;

/** The largest body of a `POST /v1/events` request, in bytes. */
export const MAX_EVENTS_BODY_BYTES = 16384;
