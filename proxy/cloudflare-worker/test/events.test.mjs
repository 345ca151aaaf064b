// Tests of the usage-event sink (src/events.mjs) through the proxy's handler: the route
// exists only with a bound sink, what is written to an Analytics Engine dataset and to KV,
// that a reader's text is dropped unless the operator opts in, the bounds on every field
// and batch, the origin check and the route's own rate limit. The bindings are recorders
// with the runtime's method names (writeDataPoint, put); wrangler-dev.test.mjs writes to a
// real local KV namespace.
// Run: ./test.sh, or node --test test/events.test.mjs (from proxy/cloudflare-worker)
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createProxy, COMPLETIONS_PATH } from "../src/proxy.mjs";
import { EVENTS_PATH, TEXT_FIELDS } from "../src/events.mjs";

const SITE = "https://book.example.org";
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const baseEnv = { UPSTREAM_URL: "http://127.0.0.1:9/v1/chat/completions", API_KEY: "sk-test-events-0123456789", ALLOWED_ORIGINS: SITE };

function dataset() {
  const points = [];
  return { points, writeDataPoint: (p) => void points.push(structuredClone(p)) };
}
function kv({ fail = false } = {}) {
  const puts = [];
  return {
    puts,
    async put(key, value, options) {
      if (fail) throw new Error("KV unavailable");
      puts.push({ key, value, options });
    },
  };
}

async function send(proxy, { env, body, raw, method = "POST", origin = SITE, ip = "203.0.113.7", headers = {} }) {
  const h = new Headers(headers);
  if (origin) h.set("origin", origin);
  if (ip) h.set("cf-connecting-ip", ip);
  const init = { method, headers: h };
  if (raw !== undefined) init.body = raw;
  else if (body !== undefined) init.body = JSON.stringify(body);
  const res = await proxy.fetch(new Request("https://proxy.example" + EVENTS_PATH, init), { ...baseEnv, ...env }, {});
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch {}
  return { status: res.status, headers: res.headers, json, code: json?.error?.code, text };
}

const answered = {
  kind: "answered",
  page: "/docs/kinematics",
  confidence: "high",
  sources: ["/docs/kinematics#forward", "/docs/intro"],
  question: "what does forward kinematics compute?",
  latencyMs: 1234,
};

describe("the events route", () => {
  test("is a 404 NOT_FOUND when no sink is bound (as any other path)", async () => {
    const r = await send(createProxy(), { env: {}, body: { events: [answered] } });
    assert.equal(r.status, 404);
    assert.equal(r.code, "NOT_FOUND");
  });

  test("writes one Analytics Engine data point per event: kind, page, origin, the event as JSON", async () => {
    const EVENTS_DATASET = dataset();
    const r = await send(createProxy({ now: () => T0 }), {
      env: { EVENTS_DATASET },
      body: { events: [answered, { kind: "feedback", page: "/docs/intro", helpful: false, comment: "too short" }] },
    });
    assert.equal(r.status, 204);
    assert.equal(r.headers.get("access-control-allow-origin"), SITE);
    assert.equal(EVENTS_DATASET.points.length, 2);
    const [p] = EVENTS_DATASET.points;
    assert.deepEqual(p.indexes, ["answered"]);
    assert.deepEqual(p.blobs.slice(0, 3), ["answered", "/docs/kinematics", SITE]);
    assert.deepEqual(JSON.parse(p.blobs[3]), {
      kind: "answered",
      page: "/docs/kinematics",
      confidence: "high",
      sources: ["/docs/kinematics#forward", "/docs/intro"],
      latencyMs: 1234,
      time: "2026-11-25T12:00:00.000Z",
      origin: SITE,
    }, "the question text is not stored by default");
    assert.deepEqual(JSON.parse(EVENTS_DATASET.points[1].blobs[3]).comment, undefined);
  });

  test("writes a batch to KV as JSON Lines under events:<day>:<ms>:<random>, with the TTL", async () => {
    const EVENTS_KV = kv();
    const proxy = createProxy({ now: () => T0 });
    assert.equal((await send(proxy, { env: { EVENTS_KV }, body: { events: [answered, { kind: "citation_clicked", url: "/docs/intro" }] } })).status, 204);
    assert.equal((await send(proxy, { env: { EVENTS_KV, EVENTS_KV_TTL_DAYS: "0" }, body: { events: [{ kind: "refused" }] } })).status, 204);
    const [first, second] = EVENTS_KV.puts;
    assert.match(first.key, /^events:2026-11-25:1795608000000:[0-9a-f]{8}$/);
    assert.notEqual(first.key, second.key);
    const lines = first.value.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((e) => e.kind), ["answered", "citation_clicked"]);
    assert.equal(first.options.expirationTtl, 90 * 86400);
    assert.equal(second.options.expirationTtl, undefined);
  });

  test("keeps a reader's text only with EVENTS_STORE_TEXT", async () => {
    const EVENTS_DATASET = dataset();
    const typed = { kind: "asked", question: "q?", query: "kinematics", selection: "sel", comment: "c", answer: "a", text: "t", Question: "Q" };
    await send(createProxy(), { env: { EVENTS_DATASET }, body: { events: [typed] } });
    await send(createProxy(), { env: { EVENTS_DATASET, EVENTS_STORE_TEXT: "true" }, body: { events: [typed] } });
    const [without, withText] = EVENTS_DATASET.points.map((p) => JSON.parse(p.blobs[3]));
    for (const f of TEXT_FIELDS) {
      assert.equal(without[f], undefined, `${f} dropped`);
      assert.equal(withText[f], typed[f], `${f} kept when opted in`);
    }
    assert.equal(without.Question, undefined, "text field names match in any case");
  });

  test("stores no IP and no header; bounds every field; drops nested objects (a list keeps flat records); the proxy's own fields win", async () => {
    const EVENTS_DATASET = dataset();
    const r = await send(createProxy({ now: () => T0 }), {
      env: { EVENTS_DATASET },
      headers: { "user-agent": "Bot/1.0", cookie: "s=1" },
      body: {
        events: [{
          kind: "error",
          code: "LLM_TIMEOUT",
          detail: "x".repeat(1000),
          nested: { ip: "1.2.3.4" },
          list: ["a", { b: 1, deep: { ip: "1.2.3.4" }, "no field": 2 }, { deep: [1] }, 2, ...Array(20).fill("z")],
          sources: [{ url: "/docs/a#b", title: "A › B" }, { url: "/docs/c", title: "t".repeat(400), n: 2, x: true }],
          "not a field": 1,
          time: "forged",
          origin: "https://forged.example",
        }],
      },
    });
    assert.equal(r.status, 204);
    const e = JSON.parse(EVENTS_DATASET.points[0].blobs[3]);
    assert.equal(e.detail.length, 300);
    assert.equal(e.nested, undefined);
    assert.deepEqual(e.list, ["a", { b: 1 }, 2, ...Array(7).fill("z")]);
    assert.deepEqual(e.sources, [{ url: "/docs/a#b", title: "A › B" }, { url: "/docs/c", title: "t".repeat(300), n: 2 }], "an answer's sources, as the widget sends them");
    assert.equal(e.time, "2026-11-25T12:00:00.000Z");
    assert.equal(e.origin, SITE);
    assert.equal("not a field" in e, false);
    assert.doesNotMatch(EVENTS_DATASET.points[0].blobs.join(), /203\.0\.113\.7|Bot\/1\.0|s=1/);
  });

  test("refuses what is not a batch of events: 400 BAD_REQUEST, nothing written", async () => {
    const EVENTS_DATASET = dataset();
    const proxy = createProxy();
    for (const body of [{}, { events: [] }, { events: Array(21).fill({ kind: "asked" }) }, { events: [{ kind: "Asked" }] }, { events: [{ page: "/" }] }, { events: [{ kind: "asked", comment: "é".repeat(1000), sources: Array(10).fill("s".repeat(300)), more: "m".repeat(300) }] }]) {
      const r = await send(proxy, { env: { EVENTS_DATASET, EVENTS_STORE_TEXT: "1" }, body });
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(r.code, "BAD_REQUEST");
    }
    assert.equal((await send(proxy, { env: { EVENTS_DATASET }, raw: "{nope" })).code, "BAD_REQUEST");
    assert.equal((await send(proxy, { env: { EVENTS_DATASET }, raw: "x".repeat(17000) })).code, "PAYLOAD_TOO_LARGE");
    assert.equal(EVENTS_DATASET.points.length, 0);
  });

  test("checks the origin, answers the preflight, accepts a text/plain body (sendBeacon)", async () => {
    const EVENTS_DATASET = dataset();
    const proxy = createProxy();
    assert.equal((await send(proxy, { env: { EVENTS_DATASET }, origin: "https://evil.example", body: { events: [answered] } })).code, "ORIGIN_NOT_ALLOWED");
    const pre = await send(proxy, { env: { EVENTS_DATASET }, method: "OPTIONS", headers: { "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    assert.equal(pre.status, 204);
    assert.equal((await send(proxy, { env: { EVENTS_DATASET }, method: "GET" })).status, 405);
    const beacon = await send(proxy, { env: { EVENTS_DATASET }, headers: { "content-type": "text/plain;charset=UTF-8" }, raw: JSON.stringify({ events: [answered] }) });
    assert.equal(beacon.status, 204);
    assert.equal(EVENTS_DATASET.points.length, 1);
  });

  test("has its own per-client window (EVENTS_PER_MINUTE), apart from the questions'", async () => {
    let t = T0;
    const EVENTS_DATASET = dataset();
    const proxy = createProxy({ now: () => t });
    const env = { EVENTS_DATASET, EVENTS_PER_MINUTE: "2", RATE_LIMIT_PER_MINUTE: "1" };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send(proxy, { env, body: { events: [answered] } })).status);
    assert.deepEqual(statuses, [204, 204, 429]);
    const limited = await send(proxy, { env, body: { events: [answered] } });
    assert.equal(limited.code, "RATE_LIMITED");
    assert.equal(limited.headers.get("retry-after"), "60");
    assert.equal((await send(proxy, { env, ip: "198.51.100.1", body: { events: [answered] } })).status, 204);
    // The questions' window is untouched by events (their own request fails upstream, which is fine here).
    const q = await proxy.fetch(new Request("https://proxy.example" + COMPLETIONS_PATH, {
      method: "POST",
      headers: { origin: SITE, "cf-connecting-ip": "203.0.113.7" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    }), { ...baseEnv, ...env }, {});
    assert.notEqual(q.status, 429);
    t += 60_001;
    assert.equal((await send(proxy, { env, body: { events: [answered] } })).status, 204);
  });

  test("a sink that fails is a 503 EVENTS_UNAVAILABLE", async () => {
    const r = await send(createProxy(), { env: { EVENTS_KV: kv({ fail: true }) }, body: { events: [answered] } });
    assert.equal(r.status, 503);
    assert.equal(r.code, "EVENTS_UNAVAILABLE");
  });
});
