// Tests of the proxy's handler, called directly with real Request objects (as the Workers
// runtime calls it), forwarding over real HTTP to scripts/llm-server as the upstream. So
// streaming passthrough, key injection and error mapping are exercised for real; only the
// Workers runtime itself is not (test/wrangler-dev.test.mjs covers that).
// Run: ./test.sh, or node --test test/proxy.test.mjs (from proxy/cloudflare-worker)
import { test, describe, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { startLlmServer } from "../../../scripts/llm-server/server.mjs";
import { createProxy, limitBody, COMPLETIONS_PATH } from "../src/proxy.mjs";
import worker from "../src/worker.mjs";

const KEY = "sk-test-SECRET-0123456789abcdef";
const SITE = "https://book.example.org";
const PROMPT = "[1] Robotics › Kinematics\nForward kinematics maps joint angles to a pose.\n\nQuestion: what is it?";
const ANSWER = "Forward kinematics maps joint angles to a pose [1].";

let upstream;
let baseEnv;
before(async () => {
  upstream = await startLlmServer({ tokenDelayMs: 5 });
  baseEnv = {
    UPSTREAM_URL: upstream.endpoint,
    API_KEY: KEY,
    ALLOWED_ORIGINS: `${SITE}, http://localhost:3000`,
    RATE_LIMIT_PER_MINUTE: "1000",
  };
});
after(() => upstream.close());
beforeEach(() => upstream.reset());

/**
 * Calls the handler like the runtime would and reads the whole response. Every response
 * is checked here for the key, in headers and body: the client must never see it.
 */
async function call(proxy, { env = {}, method = "POST", path = COMPLETIONS_PATH, origin = SITE, ip = "203.0.113.7", headers = {}, body, raw } = {}) {
  const h = new Headers(headers);
  if (origin) h.set("origin", origin);
  if (ip) h.set("cf-connecting-ip", ip);
  if (body !== undefined || raw !== undefined) h.set("content-type", "application/json");
  const init = { method, headers: h };
  if (raw !== undefined) init.body = raw;
  else if (body !== undefined) init.body = JSON.stringify(body);
  if (init.body instanceof ReadableStream) init.duplex = "half";
  const res = await proxy.fetch(new Request("https://proxy.example" + path, init), { ...baseEnv, ...env }, {});
  const text = await res.text();
  assertNoKey(res, text);
  let json = null;
  try { json = JSON.parse(text); } catch {}
  return { res, status: res.status, headers: res.headers, text, json };
}

function assertNoKey(res, text) {
  assert.ok(!text.includes(KEY) && !text.includes(KEY.slice(-12)), "the key is not in the body");
  for (const [name, value] of res.headers) {
    assert.ok(!value.includes(KEY.slice(-12)), `the key is not in header ${name}`);
  }
}

const chat = (extra = {}) => ({ stream: true, messages: [{ role: "user", content: PROMPT }], ...extra });

/** Content of an SSE text: the joined deltas, whether [DONE] came, the raw data lines. */
function sse(text) {
  const data = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
  const content = data
    .filter((d) => d !== "[DONE]")
    .map((d) => { try { return JSON.parse(d).choices?.[0]?.delta?.content ?? ""; } catch { return ""; } })
    .join("");
  return { data, content, done: data.at(-1) === "[DONE]" };
}

describe("streaming passthrough", () => {
  test("a streamed answer comes back as the upstream sent it, with CORS for the site", async () => {
    const r = await call(createProxy(), { body: chat() });
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type"), /^text\/event-stream/);
    assert.equal(r.headers.get("access-control-allow-origin"), SITE);
    assert.equal(r.headers.get("vary"), "Origin");
    assert.equal(r.headers.get("cache-control"), "no-store");
    const s = sse(r.text);
    assert.equal(s.content, ANSWER);
    assert.equal(s.done, true);
    assert.ok(s.data.length > 10, "many chunks");
  });

  test("the body is not buffered: the Response is handed back before the upstream finishes", async () => {
    const slow = await startLlmServer({ tokenDelayMs: 40 });
    try {
      const t0 = performance.now();
      const res = await createProxy().fetch(
        new Request("https://proxy.example" + COMPLETIONS_PATH, {
          method: "POST",
          headers: { origin: SITE, "content-type": "application/json" },
          body: JSON.stringify(chat()),
        }),
        { ...baseEnv, UPSTREAM_URL: slow.endpoint },
        {},
      );
      const headersAt = performance.now() - t0;
      const reader = res.body.getReader();
      const first = await reader.read();
      const firstAt = performance.now() - t0;
      let rest = "";
      const dec = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest += dec.decode(value, { stream: true });
      }
      const endAt = performance.now() - t0;
      // ~13 tokens at 40 ms each: the whole stream takes > 400 ms, the first bytes do not.
      assert.ok(endAt > 400, `stream took ${endAt} ms`);
      assert.ok(headersAt < endAt / 2 && firstAt < endAt / 2, `headers ${headersAt} ms, first chunk ${firstAt} ms, end ${endAt} ms`);
      assert.match(dec.decode(first.value) + rest, /\[DONE\]/);
    } finally {
      await slow.close();
    }
  });

  test("mid-stream upstream faults pass through unchanged (cut, malformed, error event)", async () => {
    const proxy = createProxy();
    upstream.setFault("cut");
    let s = sse((await call(proxy, { body: chat() })).text);
    assert.equal(s.done, false, "no [DONE] invented");
    assert.ok(s.content.length > 0 && ANSWER.startsWith(s.content));

    upstream.setFault("malformed");
    s = sse((await call(proxy, { body: chat() })).text);
    assert.ok(s.data.includes("{not json"), "the malformed line reaches the client as is");

    upstream.setFault("error-event");
    s = sse((await call(proxy, { body: chat() })).text);
    assert.ok(s.data.some((d) => d.startsWith('{"error"')));
  });

  test("a non-stream request gets the upstream's JSON", async () => {
    const r = await call(createProxy(), { body: chat({ stream: false }) });
    assert.equal(r.status, 200);
    assert.equal(r.json.choices[0].message.content, ANSWER);
  });

  test("the upstream timeout covers only the wait for headers, not a slow stream", async () => {
    upstream.setFault("slow:300"); // headers at once, first token after 300 ms
    const r = await call(createProxy(), { env: { UPSTREAM_TIMEOUT_MS: "100" }, body: chat() });
    assert.equal(r.status, 200);
    assert.equal(sse(r.text).done, true);
  });

  test("the default export is a ready proxy", async () => {
    const r = await call(worker, { body: chat() });
    assert.equal(r.status, 200);
  });
});

describe("the key", () => {
  test("is added as a Bearer token; client credentials and other headers are dropped", async () => {
    await call(createProxy(), {
      headers: {
        authorization: "Bearer attacker-key",
        "x-api-key": "attacker",
        cookie: "session=1",
        "openai-organization": "org-attacker",
        "x-lectern-fault": "status:500", // not forwarded by default
      },
      body: chat(),
    });
    const [seen] = upstream.requests();
    assert.equal(seen.headers.authorization, `Bearer ${KEY}`);
    for (const h of ["x-api-key", "cookie", "openai-organization", "x-lectern-fault", "origin", "cf-connecting-ip"]) {
      assert.equal(seen.headers[h], undefined, `${h} not forwarded`);
    }
    assert.equal(seen.fault, null, "the client's fault header did not reach the upstream");
  });

  test("AUTH_HEADER=api-key sends the raw key in api-key (Azure) and no Authorization", async () => {
    await call(createProxy(), { env: { AUTH_HEADER: "api-key" }, body: chat() });
    const [seen] = upstream.requests();
    assert.equal(seen.headers["api-key"], KEY);
    assert.equal(seen.headers.authorization, undefined);
  });

  test("FORWARD_HEADERS passes listed x-* headers, never credential headers", async () => {
    const r = await call(createProxy(), {
      env: { FORWARD_HEADERS: "x-lectern-fault, authorization, x-api-key" },
      headers: { "x-lectern-fault": "status:503", authorization: "Bearer attacker", "x-api-key": "attacker" },
      body: chat(),
    });
    assert.equal(r.status, 503);
    const [seen] = upstream.requests();
    assert.equal(seen.headers["x-lectern-fault"], "status:503");
    assert.equal(seen.headers.authorization, `Bearer ${KEY}`);
    assert.equal(seen.headers["x-api-key"], undefined);
  });

  test("an upstream error message quoting the key is scrubbed", async () => {
    const leaky = http.createServer((req, res) => {
      req.resume();
      res.writeHead(400, { "content-type": "application/json", "openai-organization": "org-secret" });
      res.end(JSON.stringify({ error: { message: `Invalid request with key ${KEY} and sk-proj-abcdef123456` } }));
    });
    await new Promise((r) => leaky.listen(0, "127.0.0.1", r));
    try {
      const r = await call(createProxy(), { env: { UPSTREAM_URL: `http://127.0.0.1:${leaky.address().port}/v1/chat/completions` }, body: chat() });
      assert.equal(r.status, 400);
      assert.equal(r.json.error.code, "LLM_UNAVAILABLE");
      assert.equal(r.json.error.message, "Invalid request with key [redacted] and [redacted]");
      assert.equal(r.headers.get("openai-organization"), null);
    } finally {
      leaky.close();
    }
  });
});

describe("request limits", () => {
  test("max_tokens is set when absent and clamped when too high; n is forced to 1", async () => {
    const proxy = createProxy();
    await call(proxy, { body: chat() });
    await call(proxy, { body: chat({ max_tokens: 5000, n: 4 }) });
    await call(proxy, { body: chat({ max_tokens: 10 }) });
    await call(proxy, { body: chat({ max_tokens: "lots" }) });
    await call(proxy, { env: { MAX_TOKENS: "256" }, body: chat({ max_tokens: 300 }) });
    const seen = upstream.requests().map((r) => r.body);
    assert.deepEqual(seen.map((b) => b.max_tokens), [1024, 1024, 10, 1024, 256]);
    assert.ok(seen.every((b) => b.n === 1));
  });

  test("max_completion_tokens alone is clamped without adding max_tokens", () => {
    assert.deepEqual(limitBody({ messages: [], max_completion_tokens: 9999 }, { maxTokens: 1024 }), { messages: [], max_completion_tokens: 1024, n: 1 });
  });

  test("MODEL forces the model; without it the client's model is kept", async () => {
    await call(createProxy(), { env: { MODEL: "forced-model" }, body: chat({ model: "gpt-4-expensive" }) });
    await call(createProxy(), { body: chat({ model: "client-model" }) });
    assert.deepEqual(upstream.requests().map((r) => r.body.model), ["forced-model", "client-model"]);
  });

  test("a body over MAX_BODY_BYTES is a 413, by Content-Length or while reading a chunked body", async () => {
    const big = chat({ messages: [{ role: "user", content: "x".repeat(40000) }] });
    let r = await call(createProxy(), { body: big });
    assert.equal(r.status, 413);
    assert.equal(r.json.error.code, "PAYLOAD_TOO_LARGE");
    assert.equal(r.headers.get("access-control-allow-origin"), SITE, "the page can read why");

    // No Content-Length: the body arrives in pieces and is cut off once over the cap.
    const piece = new TextEncoder().encode("x".repeat(1000));
    let sent = 0;
    const stream = new ReadableStream({
      pull(c) {
        if (sent++ < 10) c.enqueue(piece);
        else c.close();
      },
    });
    r = await call(createProxy(), { env: { MAX_BODY_BYTES: "4000" }, raw: stream });
    assert.equal(r.status, 413);
    assert.ok(sent < 10, `reading stopped early (${sent} pieces pulled)`);

    r = await call(createProxy(), { env: { MAX_BODY_BYTES: String(Buffer.byteLength(JSON.stringify(chat()))) }, body: chat() });
    assert.equal(r.status, 200, "a body of exactly the cap passes");
    assert.equal(upstream.requests().length, 1);
  });

  test("a body that is not JSON, or has no messages, is a 400 and never reaches the upstream", async () => {
    let r = await call(createProxy(), { raw: "{nope" });
    assert.equal(r.status, 400);
    assert.equal(r.json.error.code, "BAD_REQUEST");
    r = await call(createProxy(), { body: { stream: true, prompt: "hi" } });
    assert.equal(r.status, 400);
    r = await call(createProxy(), { body: { messages: [] } });
    assert.equal(r.status, 400);
    assert.equal(upstream.requests().length, 0);
  });
});

describe("origins and CORS", () => {
  test("a disallowed origin gets a 403 JSON without CORS, and nothing is forwarded", async () => {
    const r = await call(createProxy(), { origin: "https://evil.example", body: chat() });
    assert.equal(r.status, 403);
    assert.equal(r.json.error.code, "ORIGIN_NOT_ALLOWED");
    assert.equal(r.headers.get("access-control-allow-origin"), null);
    assert.equal(upstream.requests().length, 0);
  });

  test("a request without Origin (not a browser) is refused", async () => {
    const r = await call(createProxy(), { origin: null, body: chat() });
    assert.equal(r.status, 403);
  });

  test("origins compare as origins: case and a trailing slash in the list do not matter", async () => {
    const r = await call(createProxy(), { env: { ALLOWED_ORIGINS: "HTTPS://Book.Example.org/" }, body: chat() });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("access-control-allow-origin"), SITE);
    const other = await call(createProxy(), { origin: "http://localhost:3000", body: chat() });
    assert.equal(other.headers.get("access-control-allow-origin"), "http://localhost:3000");
    const port = await call(createProxy(), { origin: "http://localhost:3001", body: chat() });
    assert.equal(port.status, 403, "another port is another origin");
  });

  test("ALLOWED_ORIGINS=* allows any origin (for local development only)", async () => {
    const r = await call(createProxy(), { env: { ALLOWED_ORIGINS: "*" }, origin: "https://anything.example", body: chat() });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("access-control-allow-origin"), "*");
  });

  test("preflight: 204 for the site, POST only, content-type and non-secret x-* headers", async () => {
    const r = await call(createProxy(), {
      method: "OPTIONS",
      headers: {
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization, x-api-key, x-lectern-site, x-auth-token",
      },
    });
    assert.equal(r.status, 204);
    assert.equal(r.headers.get("access-control-allow-origin"), SITE);
    assert.equal(r.headers.get("access-control-allow-methods"), "POST, OPTIONS");
    assert.equal(r.headers.get("access-control-allow-headers"), "content-type, x-lectern-site");
    assert.equal(r.headers.get("access-control-max-age"), "86400");
    const bad = await call(createProxy(), { method: "OPTIONS", origin: "https://evil.example" });
    assert.equal(bad.status, 403);
    assert.equal(upstream.requests().length + upstream.preflights().length, 0);
  });
});

describe("routing", () => {
  test("other paths are 404 and other methods 405, none forwarded", async () => {
    const proxy = createProxy();
    let r = await call(proxy, { path: "/v1/embeddings", body: chat() });
    assert.equal(r.status, 404);
    assert.equal(r.json.error.code, "NOT_FOUND");
    r = await call(proxy, { path: "/", method: "GET" });
    assert.equal(r.status, 404);
    r = await call(proxy, { method: "GET" });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get("allow"), "POST, OPTIONS");
    r = await call(proxy, { method: "PUT", body: chat() });
    assert.equal(r.status, 405);
    assert.equal(upstream.requests().length, 0);
  });
});

describe("rate limiting", () => {
  test("the in-isolate window allows RATE_LIMIT_PER_MINUTE per IP, then 429 with Retry-After", async () => {
    let t = 1_000_000;
    const proxy = createProxy({ now: () => t });
    const env = { RATE_LIMIT_PER_MINUTE: "3" };
    for (let i = 0; i < 3; i++) {
      assert.equal((await call(proxy, { env, body: chat({ stream: false }) })).status, 200);
      t += 10_000;
    }
    // At t0+30 s: the first request leaves the window at t0+60 s, so wait 30 s.
    let r = await call(proxy, { env, body: chat() });
    assert.equal(r.status, 429);
    assert.equal(r.json.error.code, "RATE_LIMITED");
    assert.equal(r.headers.get("retry-after"), "30");
    assert.equal(r.headers.get("access-control-allow-origin"), SITE, "the page can read the 429");
    assert.equal(upstream.requests().length, 3, "the limited request was not forwarded");

    // Another client is not affected.
    assert.equal((await call(proxy, { env, ip: "198.51.100.1", body: chat({ stream: false }) })).status, 200);
    // A refused request does not extend the wait; after the window slides, one more fits.
    t += 30_000;
    assert.equal((await call(proxy, { env, body: chat({ stream: false }) })).status, 200);
    r = await call(proxy, { env, body: chat({ stream: false }) });
    assert.equal(r.status, 429);
    assert.equal(r.headers.get("retry-after"), "10");
  });

  test("RATE_LIMIT_PER_MINUTE=0 turns the in-isolate window off", async () => {
    const proxy = createProxy();
    for (let i = 0; i < 5; i++) {
      assert.equal((await call(proxy, { env: { RATE_LIMIT_PER_MINUTE: "0" }, body: chat({ stream: false }) })).status, 200);
    }
  });

  test("the default is 20 a minute", async () => {
    const proxy = createProxy({ now: () => 5_000_000 });
    const env = { RATE_LIMIT_PER_MINUTE: undefined };
    const statuses = [];
    for (let i = 0; i < 21; i++) statuses.push((await call(proxy, { env, body: chat({ stream: false }) })).status);
    assert.deepEqual(statuses, [...Array(20).fill(200), 429]);
  });

  test("a RATE_LIMITER binding is asked with the client IP as key and can refuse", async () => {
    const keys = [];
    const RATE_LIMITER = { async limit({ key }) { keys.push(key); return { success: keys.length <= 2 }; } };
    const proxy = createProxy();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(proxy, { env: { RATE_LIMITER }, body: chat({ stream: false }) })).status);
    assert.deepEqual(statuses, [200, 200, 429]);
    assert.deepEqual(keys, ["203.0.113.7", "203.0.113.7", "203.0.113.7"]);
  });

  test("a failing RATE_LIMITER binding does not take the chat down", async () => {
    const RATE_LIMITER = { async limit() { throw new Error("binding unavailable"); } };
    const r = await call(createProxy(), { env: { RATE_LIMITER }, body: chat({ stream: false }) });
    assert.equal(r.status, 200);
  });
});

describe("upstream failures", () => {
  test("an unreachable upstream is a 502 {error: {message, code: LLM_UNAVAILABLE}}", async () => {
    const closed = http.createServer();
    await new Promise((r) => closed.listen(0, "127.0.0.1", r));
    const port = closed.address().port;
    await new Promise((r) => closed.close(r));
    const r = await call(createProxy(), { env: { UPSTREAM_URL: `http://127.0.0.1:${port}/v1/chat/completions` }, body: chat() });
    assert.equal(r.status, 502);
    assert.equal(r.json.error.code, "LLM_UNAVAILABLE");
    assert.equal(typeof r.json.error.message, "string");
    assert.equal(r.headers.get("access-control-allow-origin"), SITE);
  });

  test("an upstream that sends no headers within UPSTREAM_TIMEOUT_MS is a 504 LLM_TIMEOUT", async () => {
    upstream.setFault("slow-headers:1000");
    const t0 = performance.now();
    const r = await call(createProxy(), { env: { UPSTREAM_TIMEOUT_MS: "150" }, body: chat() });
    assert.equal(r.status, 504);
    assert.equal(r.json.error.code, "LLM_TIMEOUT");
    assert.ok(performance.now() - t0 < 900);
  });

  test("upstream 500 and 503 keep their status, with a JSON error", async () => {
    for (const s of [500, 503]) {
      upstream.setFault(`status:${s}`);
      const r = await call(createProxy(), { body: chat() });
      assert.equal(r.status, s);
      assert.equal(r.json.error.code, "LLM_UNAVAILABLE");
      assert.equal(r.json.error.upstream_status, s);
    }
  });

  test("upstream 429 stays 429 and keeps its Retry-After", async () => {
    upstream.setFault("status:429");
    const r = await call(createProxy(), { body: chat() });
    assert.equal(r.status, 429);
    assert.equal(r.headers.get("retry-after"), "2");
  });

  test("upstream 401 (the proxy's own key is wrong) becomes a 502 without the provider's text", async () => {
    upstream.setFault("status:401");
    const r = await call(createProxy(), { body: chat() });
    assert.equal(r.status, 502);
    assert.equal(r.json.error.code, "LLM_UNAVAILABLE");
    assert.equal(r.json.error.upstream_status, 401);
    assert.doesNotMatch(r.text, /Incorrect API key/);
  });
});

describe("configuration", () => {
  test("a missing API_KEY, UPSTREAM_URL or ALLOWED_ORIGINS is a 500 PROXY_MISCONFIGURED", async () => {
    for (const missing of ["API_KEY", "UPSTREAM_URL", "ALLOWED_ORIGINS"]) {
      const r = await call(createProxy(), { env: { [missing]: "" }, body: chat() });
      assert.equal(r.status, 500);
      assert.equal(r.json.error.code, "PROXY_MISCONFIGURED");
      assert.match(r.json.error.message, new RegExp(missing));
    }
    const r = await call(createProxy(), { env: { UPSTREAM_URL: "ftp://x" }, body: chat() });
    assert.equal(r.json.error.code, "PROXY_MISCONFIGURED");
    assert.equal(upstream.requests().length, 0);
  });
});
