// Lectern's reference keyless proxy, as a Cloudflare Worker: the handler. worker.mjs is the
// Worker's entry point (the runtime takes every named export of the entry module as an
// entry point, so the helpers exported here for tests live in this separate module).
//
// The browser must never hold an LLM API key, so Lectern's chat client talks to this Worker
// instead of the LLM provider. The Worker:
//   - accepts only `POST /v1/chat/completions` (and its CORS preflight) from the site's own
//     origins (ALLOWED_ORIGINS);
//   - rate-limits each client IP (an in-isolate sliding window, plus Cloudflare's
//     rate-limiting binding RATE_LIMITER when one is bound);
//   - optionally, guards the site's LLM bill against scripts: a Cloudflare Turnstile check
//     (turnstile.mjs; the verdict remembered per client), a per-client daily question quota
//     and a site-wide daily token budget, decided by one ledger (ledger.mjs) that lives in
//     the LIMITS Durable Object (limits-object.mjs) so its counts are exact;
//   - caps the request body (MAX_BODY_BYTES) and the answer length (MAX_TOKENS), forces
//     n = 1 and, optionally, the model (MODEL), so a visitor cannot run up the bill;
//   - drops every client header (so no client-supplied credential reaches the provider) and
//     adds the key (API_KEY, a Wrangler secret) itself;
//   - streams the provider's SSE body back unchanged, without buffering;
//   - turns provider failures into JSON errors that never carry the key;
//   - optionally, takes the widget's usage events at /v1/events into the owner's Analytics
//     Engine dataset or KV namespace (events.mjs).
// Every variable is described in README.md beside this folder.

import { readConfig, normalizeOrigin, SECRET_HEADER } from "./config.mjs";
import { RATE_LIMITED, RETRY_AFTER_HEADER, TURNSTILE_FAILED, TURNSTILE_HEADER, TURNSTILE_UNAVAILABLE } from "./core-contract.mjs";
import { json, error, corsHeaders, readCapped } from "./respond.mjs";
import { createSlidingWindow } from "./sliding-window.mjs";
import { verifyTurnstile } from "./turnstile.mjs";
import { isolateLedger, ledgerFor, REFUSALS } from "./limits.mjs";
import { promptTokens, completionCap, charge, meterBody } from "./usage.mjs";
import { acceptEvents, eventsEnabled, EVENTS_PATH } from "./events.mjs";

export const COMPLETIONS_PATH = "/v1/chat/completions";

/** Removes the key, and anything shaped like a provider key, from a text shown to clients. */
function scrub(text, apiKey) {
  let t = String(text ?? "");
  if (apiKey) t = t.split(apiKey).join("[redacted]");
  return t.replace(/\b(sk|pk|rk|gsk|key)[-_][A-Za-z0-9_*.\-]{6,}/g, "[redacted]").slice(0, 500);
}

/**
 * Clamps the answer length and fan-out. `max_tokens` is set or clamped; a client that uses
 * OpenAI's newer `max_completion_tokens` (and not `max_tokens`) gets that one clamped
 * instead, since some models refuse `max_tokens`.
 */
export function limitBody(body, { maxTokens, model }) {
  const out = { ...body };
  const clamp = (v) => (Number.isInteger(v) && v > 0 ? Math.min(v, maxTokens) : maxTokens);
  if ("max_completion_tokens" in out && !("max_tokens" in out)) {
    out.max_completion_tokens = clamp(out.max_completion_tokens);
  } else {
    out.max_tokens = clamp(out.max_tokens);
    if ("max_completion_tokens" in out) out.max_completion_tokens = clamp(out.max_completion_tokens);
  }
  out.n = 1; // several choices would multiply the cost and Lectern reads only the first
  if (model) out.model = model;
  return out;
}

/**
 * Builds a proxy. `fetch` (every outbound fetch: the provider and Turnstile's siteverify)
 * and `now` are injectable for tests; the rate-limit windows and, without the LIMITS
 * binding, the Turnstile verdicts live in this closure, i.e. per isolate.
 */
export function createProxy({ fetch: fetchOut = (...a) => globalThis.fetch(...a), now = () => Date.now() } = {}) {
  const slidingWindow = createSlidingWindow({ now });
  const eventsWindow = createSlidingWindow({ now });
  const ownLedger = isolateLedger();

  async function handle(request, env, ctx) {
    const url = new URL(request.url);
    const route = url.pathname === COMPLETIONS_PATH ? "completions" : url.pathname === EVENTS_PATH ? "events" : null;
    if (!route) {
      return error(404, "NOT_FOUND", `Not found. This proxy serves only POST ${COMPLETIONS_PATH}.`);
    }
    const { config, error: configError } = readConfig(env);
    // The events route exists only where a sink is bound: otherwise it is any other path.
    if (route === "events" && (configError || !eventsEnabled(config))) {
      return error(404, "NOT_FOUND", `Not found. This proxy serves only POST ${COMPLETIONS_PATH}.`);
    }
    if (request.method !== "POST" && request.method !== "OPTIONS") {
      return error(405, "METHOD_NOT_ALLOWED", "Use POST.", { allow: "POST, OPTIONS" });
    }
    if (configError) return error(500, "PROXY_MISCONFIGURED", configError);

    // Browsers send Origin on every cross-origin request and on same-origin POSTs, so a
    // missing Origin means a non-browser client, which this proxy does not serve. Origin
    // is trivial to forge outside a browser: the rate limit and the caps are what bound
    // abuse; the origin check keeps other websites from using the proxy from their pages.
    const origin = request.headers.get("origin");
    const allowed = origin && (config.allowedOrigins.has("*") || config.allowedOrigins.has(normalizeOrigin(origin)));
    if (!allowed) {
      return error(403, "ORIGIN_NOT_ALLOWED", "This origin may not use this proxy.");
    }
    const cors = corsHeaders(origin, config);

    if (request.method === "OPTIONS") {
      // Only content-type and non-secret x-* headers may be sent: a browser then cannot
      // even attempt to send Authorization or an api-key header to this proxy.
      const asked = (request.headers.get("access-control-request-headers") ?? "")
        .split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
      const headers = ["content-type", ...asked.filter((h) => h.startsWith("x-") && !SECRET_HEADER.test(h))];
      return new Response(null, {
        status: 204,
        headers: {
          ...cors,
          "access-control-allow-methods": "POST, OPTIONS",
          "access-control-allow-headers": [...new Set(headers)].join(", "),
          "access-control-max-age": "86400",
        },
      });
    }

    const client = request.headers.get("cf-connecting-ip") ?? "anonymous";
    if (route === "events") {
      return acceptEvents(request, config, { cors, client, origin, at: now(), window: eventsWindow });
    }
    return completions(request, config, { cors, client, ctx });
  }

  async function completions(request, config, { cors, client, ctx }) {
    // Rate limit before reading the body, so a flood costs as little as possible.
    const wait = slidingWindow(client, config.ratePerMinute);
    if (wait !== null) {
      return error(429, RATE_LIMITED, "Too many requests. Please wait before asking again.", { ...cors, [RETRY_AFTER_HEADER]: String(wait) });
    }
    if (config.rateLimiter) {
      // Cloudflare's binding counts across isolates and locations, which the in-isolate
      // window cannot. If the binding itself fails, the request goes on (the in-isolate
      // window still applies) rather than taking the chat down.
      let outcome = { success: true };
      try {
        outcome = await config.rateLimiter.limit({ key: client });
      } catch {}
      if (!outcome?.success) {
        return error(429, RATE_LIMITED, "Too many requests. Please wait before asking again.", { ...cors, [RETRY_AFTER_HEADER]: "60" });
      }
    }

    // A Turnstile token is verified when one is sent (the page sends one with its first
    // question, and again when told TURNSTILE_REQUIRED); without one, the client's
    // remembered verdict decides, in the ledger, below.
    const refuse = (code, headers = {}) => error(REFUSALS[code].status, code, REFUSALS[code].message, { ...cors, ...headers });
    let turnstilePassed = false;
    const token = request.headers.get(TURNSTILE_HEADER);
    if (config.turnstile && token) {
      const { verdict } = await verifyTurnstile({
        fetch: fetchOut,
        url: config.turnstile.verifyUrl,
        secret: config.turnstile.secret,
        token,
        remoteip: client === "anonymous" ? undefined : client,
      });
      if (verdict === "misconfigured") {
        return error(500, "PROXY_MISCONFIGURED", "The proxy is not configured: siteverify rejects TURNSTILE_SECRET.", cors);
      }
      if (verdict === "unavailable") return refuse(TURNSTILE_UNAVAILABLE);
      if (verdict === "fail") return refuse(TURNSTILE_FAILED);
      turnstilePassed = true;
    }

    const raw = await readCapped(request, config.maxBodyBytes);
    if (raw === null) {
      return error(413, "PAYLOAD_TOO_LARGE", `The request is larger than ${config.maxBodyBytes} bytes.`, cors);
    }
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      return error(400, "BAD_REQUEST", "The request body is not JSON.", cors);
    }
    if (!body || typeof body !== "object" || Array.isArray(body) || !Array.isArray(body.messages) || body.messages.length === 0) {
      return error(400, "BAD_REQUEST", "The request needs a non-empty `messages` array.", cors);
    }
    const upstreamBody = limitBody(body, config);

    // The daily limits and the Turnstile verdict, decided in one call to the ledger. Its
    // failure refuses the question: the limits guard the site's bill, so they fail closed.
    const ledger = ledgerFor(config, ownLedger);
    const prompt = promptTokens(upstreamBody);
    const cap = completionCap(upstreamBody);
    const reserved = config.dailyTokenBudget > 0 ? prompt + cap : 0;
    let admission = null;
    if (ledger) {
      try {
        admission = await ledger.admit({
          client,
          at: now(),
          turnstile: config.turnstile ? { passed: turnstilePassed, cacheMs: config.turnstile.cacheMs } : null,
          quota: config.dailyQuota,
          budget: config.dailyTokenBudget,
          reserve: reserved,
        });
      } catch {
        return error(503, "PROXY_ERROR", "The proxy could not check its limits. Try again in a moment.", { ...cors, [RETRY_AFTER_HEADER]: "5" });
      }
      if (!admission.admitted) {
        const retry = admission.retryAfter ? { [RETRY_AFTER_HEADER]: String(admission.retryAfter) } : {};
        return refuse(admission.code, retry);
      }
    }
    // What an admitted question finally costs, told to the ledger once (never throws).
    const counted = config.dailyQuota > 0 || config.dailyTokenBudget > 0; // (then LIMITS is bound)
    const settle = ({ used, refundQuestion }) => {
      if (!counted) return undefined;
      const done = ledger.settle({ client, day: admission.day, reserved, used, refundQuestion }).catch(() => {});
      ctx?.waitUntil?.(done);
      return done;
    };

    const { upstream, failure } = await forward(request, config, upstreamBody, cors);
    if (failure) {
      settle({ used: 0, refundQuestion: true }); // the provider answered nothing
      return failure;
    }

    // The body is handed over as a stream: each SSE event reaches the browser as soon as the
    // provider sends it. Only the content type is copied from the provider's headers. Under
    // a token budget it passes through a meter that counts the answer as it goes by.
    const contentType = upstream.headers.get("content-type") ?? "text/event-stream";
    let answer = upstream.body;
    if (config.dailyTokenBudget > 0) {
      const onEnd = ({ completionBytes, reportedTotal }) => settle({ used: charge({ prompt, cap, completionBytes, reportedTotal }) });
      if (answer) answer = meterBody(answer, { sse: /event-stream/i.test(contentType), onEnd });
      else onEnd({ completionBytes: 0 });
    }
    return new Response(answer, {
      status: upstream.status,
      headers: { ...cors, "content-type": contentType, "cache-control": "no-store" },
    });
  }

  /** Sends the question to the provider: {upstream} its successful Response, or {failure} the error Response to return. */
  async function forward(request, config, upstreamBody, cors) {
    // A fresh header set: nothing the client sent reaches the provider except the
    // allow-listed FORWARD_HEADERS, and the key is added here, server-side.
    const headers = new Headers({
      "content-type": "application/json",
      accept: upstreamBody.stream === true ? "text/event-stream" : "application/json",
    });
    for (const name of config.forwardHeaders) {
      const v = request.headers.get(name);
      if (v !== null) headers.set(name, v);
    }
    headers.set(config.authHeader, /^authorization$/i.test(config.authHeader) ? `Bearer ${config.apiKey}` : config.apiKey);

    // The timeout covers only the wait for the provider's response headers; once the
    // stream has started, it runs as long as the provider keeps sending.
    const controller = new AbortController();
    const timer = config.upstreamTimeoutMs > 0 ? setTimeout(() => controller.abort(), config.upstreamTimeoutMs) : null;
    let upstream;
    try {
      upstream = await fetchOut(config.upstream, {
        method: "POST",
        headers,
        body: JSON.stringify(upstreamBody),
        signal: controller.signal,
      });
    } catch {
      if (controller.signal.aborted) {
        return { failure: error(504, "LLM_TIMEOUT", "The language model service did not answer in time.", cors) };
      }
      return { failure: error(502, "LLM_UNAVAILABLE", "The language model service could not be reached.", cors) };
    } finally {
      if (timer) clearTimeout(timer);
    }
    if (upstream.ok) return { upstream };

    // Provider error bodies can quote the key (even partly masked), the organisation or
    // the account's limits: only a scrubbed message and the status go back.
    let message = "The language model service returned an error.";
    try {
      const text = await upstream.text();
      const parsed = JSON.parse(text);
      const m = parsed?.error?.message ?? parsed?.message;
      if (typeof m === "string" && m) message = scrub(m, config.apiKey);
    } catch {}
    const s = upstream.status;
    const extra = {};
    const retryAfter = upstream.headers.get(RETRY_AFTER_HEADER);
    if (s === 429 && retryAfter) extra[RETRY_AFTER_HEADER] = retryAfter;
    // 401/403/404 mean the proxy's own key, model or URL is wrong: nothing the visitor
    // can fix, and the provider's text about it is for the operator only.
    if (s === 401 || s === 403 || s === 404) {
      return { failure: json(502, { error: { message: "The language model service rejected the proxy's request.", code: "LLM_UNAVAILABLE", upstream_status: s } }, cors) };
    }
    return { failure: json(s >= 400 && s <= 599 ? s : 502, { error: { message, code: "LLM_UNAVAILABLE", upstream_status: s } }, { ...cors, ...extra }) };
  }

  return {
    async fetch(request, env, ctx) {
      try {
        return await handle(request, env, ctx);
      } catch {
        // Last resort: never let an exception page (which could hold request data) out.
        return error(500, "PROXY_ERROR", "The proxy failed to handle the request.");
      }
    },
  };
}
