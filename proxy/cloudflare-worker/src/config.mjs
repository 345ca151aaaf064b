// The proxy's configuration: reads the Worker's variables and bindings (wrangler.toml's
// [vars], its secrets and its bindings) once per request into one plain object, with the
// defaults, so every other module reads `config.x` and never `env.X`. Every variable is
// described in README.md beside this folder.

import { TURNSTILE_HEADER } from "./core-contract.mjs";

export const SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

const DEFAULTS = {
  MAX_BODY_BYTES: 32768,
  MAX_TOKENS: 1024,
  RATE_LIMIT_PER_MINUTE: 20,
  UPSTREAM_TIMEOUT_MS: 30000,
  TURNSTILE_CACHE_SECONDS: 1800,
  DAILY_QUOTA_PER_CLIENT: 0,
  DAILY_TOKEN_BUDGET: 0,
  EVENTS_PER_MINUTE: 60,
  EVENTS_KV_TTL_DAYS: 90,
};

// Headers that carry credentials. They are never forwarded upstream (even if listed in
// FORWARD_HEADERS) and never allowed in a CORS preflight.
export const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|api-key|x-api-key|openai-organization|openai-project)$|key|token|secret|auth|session|password/i;


/** "https://Example.com/" and "https://example.com" are the same origin. */
export function normalizeOrigin(o) {
  if (o === "*") return o;
  try {
    return new URL(o).origin;
  } catch {
    return o.toLowerCase().replace(/\/+$/, "");
  }
}

function httpUrl(raw) {
  try {
    const url = new URL(raw);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/** Reads the Worker's variables once per request; returns {config} or {error}. */
export function readConfig(env) {
  const missing = ["UPSTREAM_URL", "API_KEY", "ALLOWED_ORIGINS"].filter((k) => !env?.[k]);
  if (missing.length) return { error: `The proxy is not configured: ${missing.join(", ")} not set.` };
  const upstream = httpUrl(env.UPSTREAM_URL);
  if (!upstream) return { error: "The proxy is not configured: UPSTREAM_URL is not an http(s) URL." };
  const int = (name) => {
    const raw = env[name];
    if (raw === undefined || raw === null || raw === "") return DEFAULTS[name];
    const n = Number(raw);
    return Number.isFinite(n) && n >= 0 ? Math.floor(n) : DEFAULTS[name];
  };
  const list = (raw) => String(raw ?? "").split(",").map((s) => s.trim()).filter(Boolean);

  // Abuse protection (all off unless configured). The daily limits must be exact across
  // Cloudflare's isolates and locations, which only the LIMITS Durable Object gives: a
  // limit that silently counted per isolate would promise a cap it does not keep.
  const turnstileVerifyUrl = httpUrl(env.TURNSTILE_VERIFY_URL || SITEVERIFY_URL);
  if (!turnstileVerifyUrl) return { error: "The proxy is not configured: TURNSTILE_VERIFY_URL is not an http(s) URL." };
  const limits = typeof env.LIMITS?.idFromName === "function" && typeof env.LIMITS?.get === "function" ? env.LIMITS : null;
  const dailyQuota = int("DAILY_QUOTA_PER_CLIENT");
  const dailyTokenBudget = int("DAILY_TOKEN_BUDGET");
  for (const [name, value] of [["DAILY_QUOTA_PER_CLIENT", dailyQuota], ["DAILY_TOKEN_BUDGET", dailyTokenBudget]]) {
    if (value > 0 && !limits) {
      return { error: `The proxy is not configured: ${name} needs the LIMITS Durable Object binding (see README.md).` };
    }
  }
  const truthy = (raw) => /^(1|true|yes|on)$/i.test(String(raw ?? "").trim());

  return {
    config: {
      upstream: upstream.href,
      apiKey: String(env.API_KEY),
      allowedOrigins: new Set(list(env.ALLOWED_ORIGINS).map(normalizeOrigin)),
      maxBodyBytes: int("MAX_BODY_BYTES"),
      maxTokens: Math.max(1, int("MAX_TOKENS")),
      ratePerMinute: int("RATE_LIMIT_PER_MINUTE"),
      upstreamTimeoutMs: int("UPSTREAM_TIMEOUT_MS"),
      model: env.MODEL ? String(env.MODEL) : null,
      authHeader: env.AUTH_HEADER ? String(env.AUTH_HEADER) : "Authorization",
      forwardHeaders: list(env.FORWARD_HEADERS)
        .map((h) => h.toLowerCase())
        // The Turnstile header (its name avoids the words of SECRET_HEADER, so a preflight
        // allows it) proves something to this proxy only: a provider has no use for it.
        .filter((h) => !SECRET_HEADER.test(h) && h !== TURNSTILE_HEADER),
      rateLimiter: typeof env.RATE_LIMITER?.limit === "function" ? env.RATE_LIMITER : null,
      turnstile: env.TURNSTILE_SECRET
        ? { secret: String(env.TURNSTILE_SECRET), verifyUrl: turnstileVerifyUrl.href, cacheMs: int("TURNSTILE_CACHE_SECONDS") * 1000 }
        : null,
      limits,
      dailyQuota,
      dailyTokenBudget,
      events: {
        dataset: typeof env.EVENTS_DATASET?.writeDataPoint === "function" ? env.EVENTS_DATASET : null,
        kv: typeof env.EVENTS_KV?.put === "function" ? env.EVENTS_KV : null,
        perMinute: int("EVENTS_PER_MINUTE"),
        storeText: truthy(env.EVENTS_STORE_TEXT),
        kvTtlDays: int("EVENTS_KV_TTL_DAYS"),
      },
    },
  };
}
