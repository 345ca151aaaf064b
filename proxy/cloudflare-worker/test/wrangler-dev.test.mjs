// End-to-end: the Worker in Cloudflare's own runtime (workerd, via `wrangler dev --local`),
// forwarding to scripts/llm-server on this machine. Checks what the handler tests cannot:
// that the runtime accepts the module, reads wrangler.toml's vars, streams the SSE body
// through, that a [[ratelimits]] binding reaches the code as env.RATE_LIMITER, and that the
// abuse limits work on a real Durable Object (test/wrangler.limits.toml): Turnstile pass and
// fail with its documented test secrets (against test/siteverify-server.mjs, a local
// stand-in for siteverify: no internet here) and the verdict remembered, the daily quota,
// the token budget under concurrent answers, and events written to a local KV namespace.
// Skipped (with a message) when wrangler is not installed: run ./test.sh, which installs it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startLlmServer } from "../../../scripts/llm-server/server.mjs";
import { promptTokens } from "../src/usage.mjs";
import { TURNSTILE_HEADER } from "../src/core-contract.mjs";
import { startSiteverify, DUMMY_TOKEN, PASS_SECRET, FAIL_SECRET } from "./siteverify-server.mjs";
import { HAVE_WRANGLER, startWrangler as start, localKvKeys, localKvGet } from "./start-wrangler.mjs";

const KEY = "sk-test-WRANGLER-0123456789abcdef";
const SITE = "http://localhost:3000";
const PROMPT = "[1] Robotics › Kinematics\nForward kinematics maps joint angles to a pose.";

let upstream;
let siteverify;
let stateDir;
before(async () => {
  upstream = await startLlmServer({ tokenDelayMs: 30 });
  siteverify = await startSiteverify();
  stateDir = mkdtempSync(path.join(os.tmpdir(), "lectern-wrangler-"));
});
after(async () => {
  await upstream?.close();
  await siteverify?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

/** wrangler dev with its state in this file's temporary folder unless told otherwise. */
const startWrangler = ({ persistTo = stateDir, ...options } = {}) => start({ persistTo, ...options });

const post = (url, { origin = SITE, body, ip = "203.0.113.9", token } = {}) =>
  fetch(url + "/v1/chat/completions", {
    method: "POST",
    headers: {
      origin,
      "content-type": "application/json",
      "cf-connecting-ip": ip,
      ...(token === undefined ? {} : { [TURNSTILE_HEADER]: token }),
    },
    body: JSON.stringify(body ?? { stream: true, messages: [{ role: "user", content: PROMPT }] }),
  });

/** Status, error code and the streamed answer's text of a response read to its end. */
async function outcome(res) {
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, code: JSON.parse(text).error.code, retryAfter: res.headers.get("retry-after") };
  const data = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
  const content = data.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d).choices[0].delta.content ?? "").join("");
  return { status: 200, content, done: data.at(-1) === "[DONE]" };
}

const ANSWER = "Forward kinematics maps joint angles to a pose [1].";
const SKIP = !HAVE_WRANGLER && "wrangler is not installed (run ./test.sh)";

test("wrangler dev: one streamed request end to end, key added, CORS and origin checks", { skip: !HAVE_WRANGLER && "wrangler is not installed (run ./test.sh)", timeout: 120_000 }, async () => {
  const w = await startWrangler({
    vars: { UPSTREAM_URL: upstream.endpoint, API_KEY: KEY, ALLOWED_ORIGINS: SITE },
  });
  try {
    upstream.reset();
    const t0 = performance.now();
    const res = await post(w.url);
    assert.equal(res.status, 200, w.output());
    assert.match(res.headers.get("content-type"), /^text\/event-stream/);
    assert.equal(res.headers.get("access-control-allow-origin"), SITE);

    // Read incrementally, noting when each chunk arrives: with a 30 ms upstream delay per
    // token, a streamed body arrives over time, a buffered one all at once.
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let text = "";
    const arrivals = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      arrivals.push(performance.now() - t0);
      text += dec.decode(value, { stream: true });
    }
    const data = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
    assert.equal(data.at(-1), "[DONE]");
    const content = data.slice(0, -1).map((d) => JSON.parse(d).choices[0].delta.content ?? "").join("");
    assert.equal(content, "Forward kinematics maps joint angles to a pose [1].");
    assert.ok(arrivals.length > 3, `body came in ${arrivals.length} reads`);
    assert.ok(arrivals.at(-1) - arrivals[0] > 150, `arrivals spread over ${arrivals.at(-1) - arrivals[0]} ms`);
    assert.ok(!text.includes(KEY));

    const [seen] = upstream.requests();
    assert.equal(seen.headers.authorization, `Bearer ${KEY}`);
    assert.equal(seen.body.max_tokens, 1024);
    assert.equal(seen.body.model, "gpt-4o-mini", "wrangler.toml's MODEL var applies");

    const bad = await post(w.url, { origin: "https://evil.example" });
    assert.equal(bad.status, 403);
    assert.equal((await bad.json()).error.code, "ORIGIN_NOT_ALLOWED");
    assert.equal(upstream.requests().length, 1);
  } finally {
    await w.stop();
  }
});

test("wrangler dev: a [[ratelimits]] binding reaches the Worker as env.RATE_LIMITER", { skip: !HAVE_WRANGLER && "wrangler is not installed (run ./test.sh)", timeout: 120_000 }, async () => {
  // test/wrangler.ratelimit.toml binds RATE_LIMITER (2 a minute) and turns the in-isolate
  // window off, so a third request can only be refused by the binding.
  const w = await startWrangler({
    config: "test/wrangler.ratelimit.toml",
    vars: { UPSTREAM_URL: upstream.endpoint, API_KEY: KEY, ALLOWED_ORIGINS: SITE },
  });
  try {
    upstream.reset();
    const body = { messages: [{ role: "user", content: PROMPT }] };
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const r = await post(w.url, { body });
      statuses.push(r.status);
      await r.arrayBuffer();
    }
    assert.deepEqual(statuses, [200, 200, 429], w.output());
    assert.equal(upstream.requests().length, 2);
  } finally {
    await w.stop();
  }
});

test("wrangler dev: Turnstile pass, verdict remembered in the Durable Object, daily quota, events to KV", { skip: SKIP, timeout: 120_000 }, async () => {
  const persistTo = mkdtempSync(path.join(stateDir, "limits-"));
  const w = await startWrangler({
    config: "test/wrangler.limits.toml",
    persistTo,
    vars: {
      UPSTREAM_URL: upstream.endpoint,
      API_KEY: KEY,
      ALLOWED_ORIGINS: SITE,
      TURNSTILE_SECRET: PASS_SECRET,
      TURNSTILE_VERIFY_URL: siteverify.url,
      DAILY_QUOTA_PER_CLIENT: "3",
    },
  });
  try {
    upstream.reset();
    siteverify.reset();
    assert.deepEqual(await outcome(await post(w.url)), { status: 403, code: "TURNSTILE_REQUIRED", retryAfter: null }, w.output());
    assert.equal((await outcome(await post(w.url, { token: "not-a-turnstile-token" }))).code, "TURNSTILE_FAILED");
    assert.deepEqual(await outcome(await post(w.url, { token: DUMMY_TOKEN })), { status: 200, content: ANSWER, done: true });
    for (let i = 0; i < 2; i++) assert.equal((await outcome(await post(w.url))).status, 200, "the verdict is remembered");
    assert.deepEqual(siteverify.calls().map((c) => [c.response, c.remoteip, c.success]), [
      ["not-a-turnstile-token", "203.0.113.9", false],
      [DUMMY_TOKEN, "203.0.113.9", true],
    ]);
    const over = await outcome(await post(w.url));
    assert.equal(over.code, "DAILY_QUOTA");
    assert.ok(Number(over.retryAfter) > 0 && Number(over.retryAfter) <= 86400, over.retryAfter);
    assert.equal((await outcome(await post(w.url, { ip: "198.51.100.20", token: DUMMY_TOKEN }))).status, 200);
    assert.equal(upstream.requests().length, 4);

    const events = await fetch(w.url + "/v1/events", {
      method: "POST",
      headers: { origin: SITE, "content-type": "application/json", "cf-connecting-ip": "203.0.113.9" },
      body: JSON.stringify({ events: [{ kind: "answered", page: "/docs/intro", confidence: "high", question: "private" }] }),
    });
    assert.equal(events.status, 204, await events.clone().text());
  } finally {
    await w.stop();
  }
  // What the Worker wrote to its local KV namespace, read back with wrangler's own CLI.
  const where = { binding: "EVENTS_KV", config: "test/wrangler.limits.toml", persistTo };
  const keys = await localKvKeys(where);
  assert.equal(keys.length, 1, keys.join());
  assert.match(keys[0], /^events:\d{4}-\d{2}-\d{2}:\d{13}:[0-9a-f]{8}$/);
  const stored = JSON.parse((await localKvGet({ ...where, key: keys[0] })).trim());
  assert.equal(stored.kind, "answered");
  assert.equal(stored.origin, SITE);
  assert.equal(stored.question, undefined, "no reader text without EVENTS_STORE_TEXT");
});

test("wrangler dev: Turnstile's always-fail test secret refuses the dummy token", { skip: SKIP, timeout: 120_000 }, async () => {
  const w = await startWrangler({
    config: "test/wrangler.limits.toml",
    persistTo: mkdtempSync(path.join(stateDir, "fail-")),
    vars: { UPSTREAM_URL: upstream.endpoint, API_KEY: KEY, ALLOWED_ORIGINS: SITE, TURNSTILE_SECRET: FAIL_SECRET, TURNSTILE_VERIFY_URL: siteverify.url },
  });
  try {
    upstream.reset();
    siteverify.reset();
    assert.deepEqual(await outcome(await post(w.url, { token: DUMMY_TOKEN })), { status: 403, code: "TURNSTILE_FAILED", retryAfter: null }, w.output());
    assert.equal((await outcome(await post(w.url))).code, "TURNSTILE_REQUIRED", "a failure is not remembered as a pass");
    assert.deepEqual(siteverify.calls().map((c) => [c.secret, c.success]), [[FAIL_SECRET, false]]);
    assert.equal(upstream.requests().length, 0);
  } finally {
    await w.stop();
  }
});

test("wrangler dev: the token budget admits exactly what fits while answers stream at once, then what settles frees", { skip: SKIP, timeout: 120_000 }, async () => {
  const maxTokens = 40;
  const body = { stream: true, messages: [{ role: "user", content: PROMPT }] };
  const reserve = promptTokens(body) + maxTokens; // the proxy's own rule
  const used = promptTokens(body) + Math.ceil(Buffer.byteLength(ANSWER) / 4);
  const budget = 4 * reserve + reserve - 1; // room for four answers at once, not five
  const w = await startWrangler({
    config: "test/wrangler.limits.toml",
    persistTo: mkdtempSync(path.join(stateDir, "budget-")),
    vars: { UPSTREAM_URL: upstream.endpoint, API_KEY: KEY, ALLOWED_ORIGINS: SITE, MAX_TOKENS: String(maxTokens), DAILY_TOKEN_BUDGET: String(budget) },
  });
  try {
    upstream.reset();
    // Ten readers at once; each answer streams for ~0.4 s, so all ten are asked while the
    // first four are still open.
    const first = await Promise.all(Array.from({ length: 10 }, (_, i) => post(w.url, { body, ip: `198.51.100.${i + 1}` }).then(outcome)));
    const admitted = first.filter((o) => o.status === 200);
    assert.equal(admitted.length, 4, JSON.stringify(first));
    assert.ok(admitted.every((o) => o.content === ANSWER && o.done));
    assert.deepEqual(first.filter((o) => o.status !== 200).map((o) => o.code), Array(6).fill("SITE_BUDGET_EXHAUSTED"));

    // Settled (an answer's body closes once its charge is told), the four were charged
    // `used` each; asked one at a time, exactly as many more fit as the ledger's rule
    // allows, then the budget refuses.
    let charged = 4 * used;
    let fits = 0;
    while (charged + reserve <= budget) {
      charged += used;
      fits++;
    }
    const next = [];
    for (let i = 0; i < fits + 1; i++) next.push((await outcome(await post(w.url, { body }))).status);
    assert.deepEqual(next, [...Array(fits).fill(200), 429]);
    assert.equal(upstream.requests().length, 4 + fits);
  } finally {
    await w.stop();
  }
});
