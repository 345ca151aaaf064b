// The proxy's configuration: reads the Worker's variables and bindings (wrangler.toml's
// [vars], its secrets and its bindings) once per request into one plain object, with the
// defaults, so every other module reads `config.x` and never `env.X`. Every variable is
// described in README.md beside this folder.

const DEFAULTS = {
  MAX_BODY_BYTES: 32768,
  MAX_TOKENS: 1024,
  RATE_LIMIT_PER_MINUTE: 20,
  UPSTREAM_TIMEOUT_MS: 30000,
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
        .filter((h) => !SECRET_HEADER.test(h)),
      rateLimiter: typeof env.RATE_LIMITER?.limit === "function" ? env.RATE_LIMITER : null,
    },
  };
}
