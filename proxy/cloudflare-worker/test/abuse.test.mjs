// Tests of the abuse limits through the proxy's handler, called with real Request objects
// as the Workers runtime calls it: Turnstile (against test/siteverify-server.mjs, a local
// stand-in for Cloudflare's siteverify that answers as documented for Turnstile's test
// secret keys: this machine has no internet), the per-client daily quota and the site's
// daily token budget (the LIMITS Durable Object's class, src/limits-object.mjs, run
// in-process on a MemoryStorage; the real Durable Object is in wrangler-dev.test.mjs), the
// answer meter, and that all of it is off by default.
// Run: ./test.sh, or node --test test/abuse.test.mjs (from proxy/cloudflare-worker)
import { test, describe, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { startLlmServer } from "../../../scripts/llm-server/server.mjs";
import { createProxy, COMPLETIONS_PATH } from "../src/proxy.mjs";
import { REFUSAL_CODES, RATE_LIMITED, TURNSTILE_HEADER } from "../src/core-contract.mjs";
import { REFUSALS } from "../src/limits.mjs";
import { limitsBinding } from "./limits-binding.mjs";
import { estimateTokens, promptTokens, charge, utf8Length, meterBody } from "../src/usage.mjs";
import { startSiteverify, DUMMY_TOKEN, PASS_SECRET, FAIL_SECRET, SPENT_SECRET } from "./siteverify-server.mjs";

const KEY = "sk-test-SECRET-0123456789abcdef";
const SITE = "https://book.example.org";
const PROMPT = "[1] Robotics › Kinematics\nForward kinematics maps joint angles to a pose.\n\nQuestion: what is it?";
const ANSWER = "Forward kinematics maps joint angles to a pose [1].";
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);

let upstream;
let siteverify;
let baseEnv;
before(async () => {
  upstream = await startLlmServer({ tokenDelayMs: 2 });
  siteverify = await startSiteverify();
  baseEnv = {
    UPSTREAM_URL: upstream.endpoint,
    API_KEY: KEY,
    ALLOWED_ORIGINS: SITE,
    RATE_LIMIT_PER_MINUTE: "1000",
    TURNSTILE_VERIFY_URL: siteverify.url,
  };
});
after(async () => {
  await upstream.close();
  await siteverify.close();
});
beforeEach(() => {
  upstream.reset();
  siteverify.reset();
});

const chat = (extra = {}) => ({ stream: true, messages: [{ role: "user", content: PROMPT }], ...extra });

/**
 * Calls the handler and reads the whole response; awaits what the handler handed to
 * ctx.waitUntil (the settlements), as the runtime keeps the Worker alive for them.
 */
async function call(proxy, { env = {}, ip = "203.0.113.7", token, headers = {}, body = chat(), origin = SITE } = {}) {
  const h = new Headers({ "content-type": "application/json", ...headers });
  if (origin) h.set("origin", origin);
  if (ip) h.set("cf-connecting-ip", ip);
  if (token !== undefined) h.set(TURNSTILE_HEADER, token);
  const pending = [];
  const ctx = { waitUntil: (p) => pending.push(p) };
  const res = await proxy.fetch(
    new Request("https://proxy.example" + COMPLETIONS_PATH, { method: "POST", headers: h, body: JSON.stringify(body) }),
    { ...baseEnv, ...env },
    ctx,
  );
  const text = await res.text();
  await Promise.all(pending);
  assert.ok(!text.includes(KEY), "the key is not in the body");
  let json = null;
  try { json = JSON.parse(text); } catch {}
  return { res, status: res.status, headers: res.headers, text, json, code: json?.error?.code };
}

function sseContent(text) {
  return text.split("\n").filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => { try { return JSON.parse(l.slice(6)).choices?.[0]?.delta?.content ?? ""; } catch { return ""; } })
    .join("");
}

describe("off by default", () => {
  test("no Turnstile, quota or budget unless configured: no token needed, no ledger asked", async () => {
    const LIMITS = limitsBinding();
    const proxy = createProxy();
    for (let i = 0; i < 3; i++) assert.equal((await call(proxy, { env: { LIMITS } })).status, 200);
    assert.equal(LIMITS.names.length, 0, "the Durable Object is not called when no limit is on");
    assert.equal(siteverify.calls().length, 0);
    assert.equal(upstream.requests().length, 3);
  });
});

describe("Turnstile", () => {
  const env = { TURNSTILE_SECRET: PASS_SECRET };

  test("without a token or a remembered verdict: 403 TURNSTILE_REQUIRED, nothing sent upstream", async () => {
    const r = await call(createProxy(), { env });
    assert.equal(r.status, 403);
    assert.equal(r.code, "TURNSTILE_REQUIRED");
    assert.match(r.json.error.message, /not a robot/);
    assert.equal(r.headers.get("access-control-allow-origin"), SITE, "the page can read why");
    assert.equal(upstream.requests().length, 0);
    assert.equal(siteverify.calls().length, 0);
  });

  test("a valid token is verified once (with the client's IP); the verdict then covers the next questions", async () => {
    const proxy = createProxy();
    const first = await call(proxy, { env, token: DUMMY_TOKEN });
    assert.equal(first.status, 200);
    assert.equal(sseContent(first.text), ANSWER);
    assert.deepEqual(siteverify.calls(), [{ secret: PASS_SECRET, response: DUMMY_TOKEN, remoteip: "203.0.113.7", success: true }]);
    for (let i = 0; i < 3; i++) assert.equal((await call(proxy, { env })).status, 200, "no token needed within the cache time");
    assert.equal(siteverify.calls().length, 1, "siteverify was asked once");
    assert.equal((await call(proxy, { env, ip: "198.51.100.1" })).code, "TURNSTILE_REQUIRED", "the verdict is per client");
    assert.equal(upstream.requests().length, 4);
  });

  test("a token siteverify refuses is 403 TURNSTILE_FAILED (always-fail key, spent token, wrong token, oversized)", async () => {
    for (const [secret, token] of [[FAIL_SECRET, DUMMY_TOKEN], [SPENT_SECRET, DUMMY_TOKEN], [PASS_SECRET, "forged.token"]]) {
      const r = await call(createProxy(), { env: { TURNSTILE_SECRET: secret }, token });
      assert.equal(r.status, 403, secret);
      assert.equal(r.code, "TURNSTILE_FAILED");
      assert.equal(r.headers.get("access-control-allow-origin"), SITE);
    }
    assert.deepEqual(siteverify.calls().map((c) => c.success), [false, false, false]);
    const long = await call(createProxy(), { env, token: "x".repeat(2049) });
    assert.equal(long.code, "TURNSTILE_FAILED");
    assert.equal(siteverify.calls().length, 3, "a token longer than Turnstile's 2048 characters is not sent");
    assert.equal(upstream.requests().length, 0);
  });

  test("a failed token does not cancel a remembered verdict's refusal: without a token it is still required", async () => {
    const proxy = createProxy();
    assert.equal((await call(proxy, { env: { TURNSTILE_SECRET: FAIL_SECRET }, token: DUMMY_TOKEN })).code, "TURNSTILE_FAILED");
    assert.equal((await call(proxy, { env: { TURNSTILE_SECRET: FAIL_SECRET } })).code, "TURNSTILE_REQUIRED");
  });

  test("the verdict expires after TURNSTILE_CACHE_SECONDS; 0 verifies every question", async () => {
    let t = T0;
    const proxy = createProxy({ now: () => t });
    const short = { ...env, TURNSTILE_CACHE_SECONDS: "60" };
    assert.equal((await call(proxy, { env: short, token: DUMMY_TOKEN })).status, 200);
    t += 59_000;
    assert.equal((await call(proxy, { env: short })).status, 200);
    t += 2_000;
    assert.equal((await call(proxy, { env: short })).code, "TURNSTILE_REQUIRED");
    assert.equal((await call(proxy, { env: short, token: DUMMY_TOKEN })).status, 200);

    const every = { ...env, TURNSTILE_CACHE_SECONDS: "0" };
    const other = { ip: "192.0.2.44" };
    assert.equal((await call(proxy, { env: every, ...other, token: DUMMY_TOKEN })).status, 200);
    assert.equal((await call(proxy, { env: every, ...other })).code, "TURNSTILE_REQUIRED");
  });

  test("the default cache time is 30 minutes", async () => {
    let t = T0;
    const proxy = createProxy({ now: () => t });
    await call(proxy, { env, token: DUMMY_TOKEN });
    t += 30 * 60_000 - 1;
    assert.equal((await call(proxy, { env })).status, 200);
    t += 1;
    assert.equal((await call(proxy, { env })).code, "TURNSTILE_REQUIRED");
  });

  test("without LIMITS the verdict is per isolate; with it, every isolate shares it", async () => {
    const [a, b] = [createProxy(), createProxy()];
    assert.equal((await call(a, { env, token: DUMMY_TOKEN })).status, 200);
    assert.equal((await call(b, { env })).code, "TURNSTILE_REQUIRED");
    const LIMITS = limitsBinding();
    const [c, d] = [createProxy(), createProxy()];
    assert.equal((await call(c, { env: { ...env, LIMITS }, token: DUMMY_TOKEN })).status, 200);
    assert.equal((await call(d, { env: { ...env, LIMITS } })).status, 200);
    assert.deepEqual(LIMITS.names, ["site", "site"], "one ledger for the whole deployment");
  });

  test("siteverify unreachable: 502 TURNSTILE_UNAVAILABLE; a secret it rejects: 500 PROXY_MISCONFIGURED", async () => {
    const closed = http.createServer();
    await new Promise((r) => closed.listen(0, "127.0.0.1", r));
    const port = closed.address().port;
    await new Promise((r) => closed.close(r));
    let r = await call(createProxy(), { env: { ...env, TURNSTILE_VERIFY_URL: `http://127.0.0.1:${port}/turnstile/v0/siteverify` }, token: DUMMY_TOKEN });
    assert.equal(r.status, 502);
    assert.equal(r.code, "TURNSTILE_UNAVAILABLE");
    r = await call(createProxy(), { env: { TURNSTILE_SECRET: "0x-not-a-secret" }, token: DUMMY_TOKEN });
    assert.equal(r.status, 500);
    assert.equal(r.code, "PROXY_MISCONFIGURED");
    assert.doesNotMatch(r.text, /0x-not-a-secret/, "the secret is not echoed");
    r = await call(createProxy(), { env: { ...env, TURNSTILE_VERIFY_URL: "ftp://x" }, token: DUMMY_TOKEN });
    assert.equal(r.code, "PROXY_MISCONFIGURED");
    assert.equal(upstream.requests().length, 0);
  });

  test("the token header is never sent upstream, even if listed in FORWARD_HEADERS; a preflight allows it", async () => {
    await call(createProxy(), { env: { ...env, FORWARD_HEADERS: `${TURNSTILE_HEADER}, x-lectern-fault` }, token: DUMMY_TOKEN });
    const [seen] = upstream.requests();
    assert.equal(seen.headers[TURNSTILE_HEADER], undefined);
    const pre = await createProxy().fetch(new Request("https://proxy.example" + COMPLETIONS_PATH, {
      method: "OPTIONS",
      headers: { origin: SITE, "access-control-request-method": "POST", "access-control-request-headers": `content-type, ${TURNSTILE_HEADER}` },
    }), { ...baseEnv, ...env }, {});
    assert.equal(pre.headers.get("access-control-allow-headers"), `content-type, ${TURNSTILE_HEADER}`);
  });
});

test("every refusal the core knows (core-contract.mjs) has the proxy's status and text", () => {
  // RATE_LIMITED is answered where each limiter refuses (proxy.mjs, events.mjs).
  assert.deepEqual(Object.keys(REFUSALS).sort(), REFUSAL_CODES.filter((c) => c !== RATE_LIMITED).sort());
  for (const { status, message } of Object.values(REFUSALS)) {
    assert.ok(status >= 400 && status <= 599 && message.length > 20, message);
  }
});

describe("the per-client daily quota", () => {
  test("needs the LIMITS binding: without it every request is a 500 PROXY_MISCONFIGURED naming it", async () => {
    for (const name of ["DAILY_QUOTA_PER_CLIENT", "DAILY_TOKEN_BUDGET"]) {
      const r = await call(createProxy(), { env: { [name]: "5" } });
      assert.equal(r.status, 500);
      assert.equal(r.code, "PROXY_MISCONFIGURED");
      assert.match(r.json.error.message, new RegExp(`${name} needs the LIMITS`));
    }
    assert.equal(upstream.requests().length, 0);
  });

  test("admits DAILY_QUOTA_PER_CLIENT questions per client a UTC day, then 429 DAILY_QUOTA until midnight", async () => {
    let t = T0;
    const LIMITS = limitsBinding();
    const env = { LIMITS, DAILY_QUOTA_PER_CLIENT: "2" };
    // Two isolates: the count is the Durable Object's, shared.
    const [a, b] = [createProxy({ now: () => t }), createProxy({ now: () => t })];
    assert.equal((await call(a, { env })).status, 200);
    assert.equal((await call(b, { env })).status, 200);
    const r = await call(a, { env });
    assert.equal(r.status, 429);
    assert.equal(r.code, "DAILY_QUOTA");
    assert.match(r.json.error.message, /today's limit/);
    assert.equal(r.headers.get("retry-after"), String(12 * 3600));
    assert.equal(r.headers.get("access-control-allow-origin"), SITE);
    assert.equal((await call(b, { env, ip: "198.51.100.1" })).status, 200, "another client has its own quota");
    assert.equal(upstream.requests().length, 3);
    t = Date.UTC(2026, 10, 26, 0, 0, 1);
    assert.equal((await call(a, { env })).status, 200, "a new UTC day");
  });

  test("a question the LLM never answered (provider error, unreachable) does not count", async () => {
    const LIMITS = limitsBinding();
    const env = { LIMITS, DAILY_QUOTA_PER_CLIENT: "1" };
    const proxy = createProxy();
    upstream.setFault("status:500");
    assert.equal((await call(proxy, { env })).status, 500);
    assert.equal((await call(proxy, { env })).status, 200);
    assert.equal((await call(proxy, { env })).code, "DAILY_QUOTA");
  });

  test("the ledger failing refuses the question: 503 PROXY_ERROR, nothing sent upstream", async () => {
    const r = await call(createProxy(), { env: { LIMITS: limitsBinding({ fail: true }), DAILY_QUOTA_PER_CLIENT: "5" } });
    assert.equal(r.status, 503);
    assert.equal(r.code, "PROXY_ERROR");
    assert.equal(r.headers.get("retry-after"), "5");
    assert.equal(upstream.requests().length, 0);
  });

  test("Turnstile is checked before the quota, and a refused question uses no quota", async () => {
    const LIMITS = limitsBinding();
    const env = { LIMITS, DAILY_QUOTA_PER_CLIENT: "1", TURNSTILE_SECRET: PASS_SECRET };
    const proxy = createProxy();
    assert.equal((await call(proxy, { env })).code, "TURNSTILE_REQUIRED");
    assert.equal((await call(proxy, { env, token: DUMMY_TOKEN })).status, 200);
    assert.equal((await call(proxy, { env })).code, "DAILY_QUOTA");
  });
});

describe("the site's daily token budget", () => {
  const prompt = estimateTokens(PROMPT);
  const answerTokens = Math.ceil(utf8Length(ANSWER) / 4);

  test("reserves prompt + max_tokens per question, charges what the answer used, refuses past the budget", async () => {
    const LIMITS = limitsBinding();
    const reserve = prompt + 100;
    const used = prompt + answerTokens;
    // Room for exactly two reservations at once.
    const env = { LIMITS, MAX_TOKENS: "100", DAILY_TOKEN_BUDGET: String(2 * reserve + 1) };
    const proxy = createProxy({ now: () => T0 });

    // Two answers held open (each waits 300 ms before its first token): both reserved.
    upstream.setFault("slow:300", 2);
    const held = [call(proxy, { env }), call(proxy, { env })];
    await new Promise((r) => setTimeout(r, 100));
    const third = await call(proxy, { env, ip: "198.51.100.1" });
    assert.equal(third.status, 429);
    assert.equal(third.code, "SITE_BUDGET_EXHAUSTED");
    assert.equal(third.json.error.message, "This site's assistant has reached its limit for today. It resets at midnight UTC.");
    assert.equal(third.headers.get("retry-after"), String(12 * 3600));
    for (const r of await Promise.all(held)) assert.equal(sseContent(r.text), ANSWER);

    // Settled: each charged its prompt and its answer, so the freed room takes more.
    assert.equal(await LIMITS.storage.get("b:2026-11-25"), 2 * used);
    const fits = Math.floor((2 * reserve + 1 - 2 * used - reserve) / used) + 1;
    const statuses = [];
    for (let i = 0; i < fits + 1; i++) statuses.push((await call(proxy, { env })).status);
    assert.deepEqual(statuses, [...Array(fits).fill(200), 429]);
    assert.equal(upstream.requests().length, 2 + fits);
  });

  test("a non-stream answer is counted from its JSON (the local server's all-zero usage ignored); a provider's reported usage wins", async () => {
    let LIMITS = limitsBinding();
    const env = { MAX_TOKENS: "100", DAILY_TOKEN_BUDGET: "100000" };
    await call(createProxy({ now: () => T0 }), { env: { ...env, LIMITS }, body: chat({ stream: false }) });
    assert.equal(await LIMITS.storage.get("b:2026-11-25"), prompt + answerTokens);

    const reporting = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Hi." } }] })}\n\n`);
      res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 30, completion_tokens: 2, total_tokens: 32 } })}\n\n`);
      res.end("data: [DONE]\n\n");
    });
    await new Promise((r) => reporting.listen(0, "127.0.0.1", r));
    try {
      LIMITS = limitsBinding();
      const r = await call(createProxy({ now: () => T0 }), {
        env: { ...env, LIMITS, UPSTREAM_URL: `http://127.0.0.1:${reporting.address().port}/v1/chat/completions` },
      });
      assert.equal(sseContent(r.text), "Hi.");
      assert.equal(await LIMITS.storage.get("b:2026-11-25"), 32);
    } finally {
      reporting.close();
    }
  });

  test("a provider error gives the whole reservation back", async () => {
    const LIMITS = limitsBinding();
    upstream.setFault("status:503");
    const r = await call(createProxy({ now: () => T0 }), { env: { LIMITS, DAILY_TOKEN_BUDGET: "100000" } });
    assert.equal(r.status, 503);
    assert.equal(await LIMITS.storage.get("b:2026-11-25"), 0);
  });

  test("a reader who stops reading is charged what had streamed", async () => {
    const LIMITS = limitsBinding();
    const pending = [];
    const slow = await startLlmServer({ tokenDelayMs: 40 });
    try {
      const res = await createProxy({ now: () => T0 }).fetch(
        new Request("https://proxy.example" + COMPLETIONS_PATH, {
          method: "POST",
          headers: { origin: SITE, "content-type": "application/json", "cf-connecting-ip": "203.0.113.7" },
          body: JSON.stringify(chat()),
        }),
        { ...baseEnv, UPSTREAM_URL: slow.endpoint, LIMITS, MAX_TOKENS: "100", DAILY_TOKEN_BUDGET: "100000" },
        { waitUntil: (p) => pending.push(p) },
      );
      const reader = res.body.getReader();
      let text = "";
      while (!sseContent(text).length) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      await Promise.all(pending);
      const charged = await LIMITS.storage.get("b:2026-11-25");
      assert.ok(charged >= prompt + 1 && charged < prompt + answerTokens, `charged ${charged}`);
    } finally {
      await slow.close();
    }
  });

  test("the metered answer still streams: chunks arrive before the upstream finishes, bytes unchanged", async () => {
    const slow = await startLlmServer({ tokenDelayMs: 40 });
    try {
      const env = { ...baseEnv, UPSTREAM_URL: slow.endpoint, LIMITS: limitsBinding(), DAILY_TOKEN_BUDGET: "100000" };
      const t0 = performance.now();
      const res = await createProxy().fetch(
        new Request("https://proxy.example" + COMPLETIONS_PATH, {
          method: "POST",
          headers: { origin: SITE, "content-type": "application/json" },
          body: JSON.stringify(chat()),
        }),
        env,
        {},
      );
      const reader = res.body.getReader();
      const first = await reader.read();
      const firstAt = performance.now() - t0;
      let text = new TextDecoder().decode(first.value);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      const endAt = performance.now() - t0;
      assert.ok(endAt > 400 && firstAt < endAt / 2, `first chunk ${firstAt} ms, end ${endAt} ms`);
      assert.equal(sseContent(text), ANSWER);
      assert.match(text, /data: \[DONE\]\n\n$/);
    } finally {
      await slow.close();
    }
  });
});

describe("token estimates", () => {
  test("one token per 4 bytes of UTF-8, rounded up; every message's text counts", () => {
    assert.equal(estimateTokens(""), 0);
    assert.equal(estimateTokens("abcd"), 1);
    assert.equal(estimateTokens("abcde"), 2);
    assert.equal(utf8Length("é"), 2);
    assert.equal(utf8Length("機"), 3);
    assert.equal(utf8Length("🤖"), 4);
    assert.equal(utf8Length("a🤖é"), Buffer.byteLength("a🤖é"));
    const body = { messages: [{ role: "system", content: "abcd" }, { role: "user", content: [{ type: "text", text: "abcdefgh" }] }] };
    assert.equal(promptTokens(body), 3);
  });

  test("the charge: the provider's total when reported, else prompt + answer capped at max_tokens", () => {
    assert.equal(charge({ prompt: 10, cap: 5, completionBytes: 8 }), 12);
    assert.equal(charge({ prompt: 10, cap: 5, completionBytes: 400 }), 15);
    assert.equal(charge({ prompt: 10, cap: 5, completionBytes: 400, reportedTotal: 99 }), 99);
    assert.equal(charge({ prompt: 10, cap: 5, completionBytes: 8, reportedTotal: 0 }), 12, "a zero total is not believed");
  });

  test("the meter counts split SSE lines and ends exactly once", async () => {
    const parts = ['data: {"choices":[{"delta":{"content":"ab', 'c"}}]}\n\ndata: {"choices":[{"delta":{"content":"é"}}]}\n', "\ndata: [DONE]\n\n"];
    const ends = [];
    const source = new ReadableStream({ start(c) { for (const p of parts) c.enqueue(new TextEncoder().encode(p)); c.close(); } });
    const out = await new Response(meterBody(source, { sse: true, onEnd: (e) => ends.push(e) })).text();
    assert.equal(out, parts.join(""));
    assert.deepEqual(ends, [{ completionBytes: 5, reportedTotal: undefined, how: "done" }]);
  });
});
