// Tests of the local LLM server, through real HTTP: fetch, and the response body read as a
// stream the way the browser client reads it.
// Run: node --test scripts/llm-server/server.test.mjs
import { test, describe, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  startLlmServer, parseContextBlocks, parseFault, buildAnswer, tokenize, NO_CONTEXT_ANSWER,
} from "./server.mjs";

const SERVER = fileURLToPath(new URL("./server.mjs", import.meta.url));

// A prompt laid out the way Lectern's client lays it out: numbered blocks, each opened by
// `[n] <heading path>`, then the question.
const PROMPT = [
  "Answer only from the numbered context.",
  "",
  "[1] Robotics › Kinematics › Forward kinematics",
  "Forward kinematics computes the pose of the end effector from the joint angles. It is a chain of transforms.",
  "",
  "[2] Robotics › Sensors",
  "## Cameras",
  "A depth camera measures the distance to every pixel in its view.",
  "",
  "[3] Robotics › Actuators",
  "Servo motors hold a commanded angle.",
  "",
  "Question: What does forward kinematics compute?",
].join("\n");
const EXPECTED =
  "Forward kinematics computes the pose of the end effector from the joint angles [1]. " +
  "A depth camera measures the distance to every pixel in its view [2].";

const messages = (content = PROMPT) => [
  { role: "system", content: "You are a helpful assistant for a textbook." },
  { role: "user", content },
];

/**
 * Reads an SSE response body incrementally. Returns {events, data, done, error, times}:
 * `data` holds each `data:` payload as a string, `events` the parsed JSON ones, `done`
 * whether [DONE] came, `error` a read error (a torn connection), `times` the arrival time
 * of each data line.
 */
async function readSse(res, { timeoutMs } = {}) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const out = { events: [], data: [], done: false, error: null, times: [], timedOut: false };
  let buf = "";
  let timer;
  const timeout = timeoutMs
    ? new Promise((r) => { timer = setTimeout(() => r({ timeout: true }), timeoutMs); })
    : null;
  try {
    for (;;) {
      const r = await (timeout ? Promise.race([reader.read(), timeout]) : reader.read());
      if (r.timeout) {
        out.timedOut = true;
        await reader.cancel();
        break;
      }
      if (r.done) break;
      buf += decoder.decode(r.value, { stream: true });
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i).replace(/\r$/, "");
        buf = buf.slice(i + 1);
        if (!line.startsWith("data:")) continue;
        const payload = line.slice(5).trim();
        out.data.push(payload);
        out.times.push(performance.now());
        if (payload === "[DONE]") { out.done = true; continue; }
        try { out.events.push(JSON.parse(payload)); } catch { /* kept in data only */ }
      }
    }
  } catch (e) {
    out.error = e;
  } finally {
    clearTimeout(timer);
  }
  out.content = out.events.map((e) => e.choices?.[0]?.delta?.content ?? "").join("");
  return out;
}

let srv;
const post = (body, headers = {}, path = "/v1/chat/completions") =>
  fetch(srv.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const stream = (headers = {}, content) => post({ model: "m", stream: true, messages: messages(content) }, headers);

before(async () => { srv = await startLlmServer({ tokenDelayMs: 5 }); });
after(async () => { await srv.close(); });
beforeEach(() => srv.reset());

describe("command line", () => {
  test("prints exactly one ready line with the URL, then serves /health", async () => {
    const child = spawn(process.execPath, [SERVER, "--port", "0", "--host", "127.0.0.1"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      let out = "";
      const url = await new Promise((resolve, reject) => {
        child.stdout.on("data", (d) => {
          out += d;
          const m = /^lectern-llm-server listening on (http:\/\/127\.0\.0\.1:(\d+))\n/.exec(out);
          if (m) resolve(m[1]);
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      const health = await (await fetch(url + "/health")).json();
      assert.equal(health.ok, true);
      const res = await fetch(url + "/v1/chat/completions", { method: "POST", body: JSON.stringify({ stream: true, messages: messages() }) });
      const sse = await readSse(res);
      assert.equal(sse.content, EXPECTED);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(out.split("\n").filter(Boolean).length, 1, "one stdout line only");
    } finally {
      child.kill("SIGTERM");
    }
  });

  test("--canned answers with the given text; a bad flag exits 2 with usage", async () => {
    const child = spawn(process.execPath, [SERVER, "--port=0", "--canned", "Fixed answer [1].", "--delay", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise((resolve) => {
        child.stdout.on("data", (d) => resolve(/listening on (\S+)/.exec(String(d))[1]));
      });
      const res = await fetch(url + "/v1/chat/completions", { method: "POST", body: JSON.stringify({ stream: true, messages: messages() }) });
      assert.equal((await readSse(res)).content, "Fixed answer [1].");
    } finally {
      child.kill("SIGTERM");
    }
    const bad = spawn(process.execPath, [SERVER, "--nope"], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    bad.stderr.on("data", (d) => { err += d; });
    const code = await new Promise((r) => bad.on("exit", r));
    assert.equal(code, 2);
    assert.match(err, /unknown argument --nope/);
  });
});

describe("normal answers", () => {
  test("streams OpenAI chunks: role first, small content deltas, stop, [DONE]", async () => {
    const res = await stream();
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type"), /^text\/event-stream/);
    const sse = await readSse(res);
    assert.equal(sse.error, null);
    assert.equal(sse.done, true);
    assert.equal(sse.data.at(-1), "[DONE]");
    const [first, ...rest] = sse.events;
    assert.deepEqual(first.choices[0].delta, { role: "assistant", content: "" });
    for (const e of sse.events) {
      assert.equal(e.object, "chat.completion.chunk");
      assert.match(e.id, /^chatcmpl-/);
      assert.equal(e.model, "m");
      assert.equal(e.choices[0].index, 0);
    }
    const last = rest.at(-1);
    assert.equal(last.choices[0].finish_reason, "stop");
    assert.deepEqual(last.choices[0].delta, {});
    const contentChunks = rest.slice(0, -1);
    assert.ok(contentChunks.length > 10, "many small tokens");
    for (const e of contentChunks) {
      assert.equal(e.choices[0].finish_reason, null);
      assert.ok(e.choices[0].delta.content.trim().length <= 4);
    }
    assert.equal(sse.content, EXPECTED);
  });

  test("tokens arrive spread over time (streaming is visible), per tokenDelayMs", async () => {
    const slow = await startLlmServer({ tokenDelayMs: 25 });
    try {
      const res = await fetch(slow.endpoint, { method: "POST", body: JSON.stringify({ stream: true, messages: messages() }) });
      const sse = await readSse(res);
      const tokens = sse.events.length - 2;
      const spread = sse.times.at(-1) - sse.times[0];
      assert.ok(spread >= tokens * 25 * 0.8, `spread ${spread} ms for ${tokens} tokens`);
    } finally {
      await slow.close();
    }
  });

  test("a non-stream request gets a chat.completion JSON", async () => {
    const res = await post({ messages: messages() });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.object, "chat.completion");
    assert.equal(body.choices[0].message.role, "assistant");
    assert.equal(body.choices[0].message.content, EXPECTED);
    assert.equal(body.choices[0].finish_reason, "stop");
  });

  test("without numbered context the answer says the context does not contain it", async () => {
    const sse = await readSse(await stream({}, "What is the capital of France?"));
    assert.equal(sse.content, NO_CONTEXT_ANSWER);
    assert.equal(sse.done, true);
  });

  test("context in the system message is found too; one block gives one sentence", async () => {
    const res = await post({
      stream: true,
      messages: [
        { role: "system", content: "Context:\n[1] Intro › Welcome\nThis book teaches humanoid robotics from scratch." },
        { role: "user", content: "What does the book teach?" },
      ],
    });
    assert.equal((await readSse(res)).content, "This book teaches humanoid robotics from scratch [1].");
  });

  test("in-process canned mode and a custom context pattern", async () => {
    const canned = await startLlmServer({ canned: "Always this [1].", tokenDelayMs: 0 });
    const custom = await startLlmServer({ contextPattern: /^Source (\d+): (.*)$/, tokenDelayMs: 0 });
    try {
      let res = await fetch(canned.endpoint, { method: "POST", body: JSON.stringify({ stream: true, messages: messages() }) });
      assert.equal((await readSse(res)).content, "Always this [1].");
      res = await fetch(custom.endpoint, {
        method: "POST",
        body: JSON.stringify({ stream: true, messages: [{ role: "user", content: "Source 4: A › B\nGrippers pick up parts from the bin." }] }),
      });
      assert.equal((await readSse(res)).content, "Grippers pick up parts from the bin [4].");
    } finally {
      await canned.close();
      await custom.close();
    }
  });
});

describe("validation and CORS", () => {
  test("a body that is not JSON is a 400 with an OpenAI-style error", async () => {
    const res = await post("{oops");
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.error.type, "invalid_request_error");
    assert.match(body.error.message, /JSON/);
  });

  test("a body without a messages array is a 400", async () => {
    const res = await post({ stream: true, prompt: "hi" });
    assert.equal(res.status, 400);
    assert.match((await res.json()).error.message, /messages/);
  });

  test("GET on the completions path is a 405; unknown paths are 404", async () => {
    assert.equal((await fetch(srv.endpoint)).status, 405);
    assert.equal((await fetch(srv.url + "/nope")).status, 404);
  });

  test("preflight allows any origin, content-type and x-* headers, never Authorization", async () => {
    const res = await fetch(srv.endpoint, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:3000",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-lectern-fault, x-site, authorization",
      },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const allowed = res.headers.get("access-control-allow-headers").split(", ");
    assert.deepEqual(allowed, ["content-type", "x-lectern-fault", "x-site"]);
    assert.match(res.headers.get("access-control-allow-methods"), /POST/);
    assert.equal(res.headers.get("access-control-expose-headers"), "retry-after");
    // Preflights are not completion requests: the log stays empty unless asked for them.
    assert.equal((await (await fetch(srv.url + "/__requests")).json()).length, 0);
    assert.equal((await (await fetch(srv.url + "/__requests?preflight=1")).json())[0].method, "OPTIONS");
  });

  test("responses carry CORS headers, errors included", async () => {
    const res = await stream({ "x-lectern-fault": "status:500" });
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    await res.arrayBuffer();
  });
});

describe("faults", () => {
  test("status:500 is a 500 with an OpenAI-style server_error body", async () => {
    const res = await stream({ "x-lectern-fault": "status:500" });
    assert.equal(res.status, 500);
    const body = await res.json();
    assert.equal(body.error.type, "server_error");
    assert.equal(typeof body.error.message, "string");
  });

  test("status:429 has Retry-After: 2 and a rate_limit_error body", async () => {
    const res = await stream({ "x-lectern-fault": "status:429" });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "2");
    const body = await res.json();
    assert.equal(body.error.type, "rate_limit_error");
    assert.equal(body.error.code, "rate_limit_exceeded");
  });

  test("status:401 is an invalid_api_key error", async () => {
    const res = await stream({ "x-lectern-fault": "status:401" });
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error.code, "invalid_api_key");
  });

  test("slow:<ms> delays the first token, then streams normally", async () => {
    const t0 = performance.now();
    const res = await stream({ "x-lectern-fault": "slow:400" });
    const headersAt = performance.now() - t0;
    assert.ok(headersAt < 300, `headers came at once (${headersAt} ms)`);
    const sse = await readSse(res);
    const firstTokenAt = sse.times[0] - t0;
    assert.ok(firstTokenAt >= 380, `first data after ${firstTokenAt} ms`);
    assert.equal(sse.content, EXPECTED);
    assert.equal(sse.done, true);
  });

  test("slow-headers:<ms> delays the response itself", async () => {
    const t0 = performance.now();
    const res = await stream({ "x-lectern-fault": "slow-headers:300" });
    assert.ok(performance.now() - t0 >= 280);
    assert.equal((await readSse(res)).done, true);
  });

  test("hang sends headers and then nothing until the client gives up", async () => {
    const res = await stream({ "x-lectern-fault": "hang" });
    assert.equal(res.status, 200);
    const sse = await readSse(res, { timeoutMs: 500 });
    assert.equal(sse.timedOut, true);
    assert.equal(sse.data.length, 0);
    // The server is still fine after the client cancelled.
    assert.equal((await readSse(await stream())).done, true);
  });

  test("cut sends some tokens, then ends the body without finish_reason or [DONE]", async () => {
    const sse = await readSse(await stream({ "x-lectern-fault": "cut" }));
    assert.equal(sse.error, null, "a clean end of body, not a network error");
    assert.equal(sse.done, false);
    assert.ok(EXPECTED.startsWith(sse.content), "a prefix of the answer");
    assert.ok(sse.content.length > 0 && sse.content.length < EXPECTED.length);
    assert.ok(sse.events.every((e) => e.choices[0].finish_reason === null));
  });

  test("cut:<n> cuts after n content tokens", async () => {
    const sse = await readSse(await stream({ "x-lectern-fault": "cut:1" }));
    assert.equal(sse.events.length, 2); // the role delta and one token
    assert.equal(sse.done, false);
  });

  test("abort tears the connection down mid-body: the reader errors", async () => {
    const sse = await readSse(await stream({ "x-lectern-fault": "abort" }));
    assert.ok(sse.error, "reading the body failed");
    assert.ok(sse.content.length > 0);
    assert.equal(sse.done, false);
  });

  test("malformed puts a `data: {not json` line after a few tokens", async () => {
    const sse = await readSse(await stream({ "x-lectern-fault": "malformed" }));
    const bad = sse.data.indexOf("{not json");
    assert.ok(bad > 1, "after some tokens");
    assert.equal(sse.done, true, "the stream goes on, so the client must notice by itself");
  });

  test("empty sends the role delta, finish and [DONE], no content", async () => {
    const sse = await readSse(await stream({ "x-lectern-fault": "empty" }));
    assert.equal(sse.content, "");
    assert.equal(sse.events.length, 2);
    assert.equal(sse.events[1].choices[0].finish_reason, "stop");
    assert.equal(sse.done, true);
  });

  test("error-event sends an {error} event mid-stream and ends without [DONE]", async () => {
    const sse = await readSse(await stream({ "x-lectern-fault": "error-event" }));
    const errors = sse.events.filter((e) => e.error);
    assert.equal(errors.length, 1);
    assert.equal(typeof errors[0].error.message, "string");
    assert.ok(sse.content.length > 0, "some tokens came first");
    assert.equal(sse.done, false);
  });

  test("stall:<ms> pauses mid-stream, then finishes", async () => {
    const sse = await readSse(await stream({ "x-lectern-fault": "stall:400" }));
    const gaps = sse.times.slice(1).map((t, i) => t - sse.times[i]);
    assert.ok(Math.max(...gaps) >= 380, `largest gap ${Math.max(...gaps)} ms`);
    assert.ok(gaps.indexOf(Math.max(...gaps)) >= 2, "the pause comes after some tokens");
    assert.equal(sse.content, EXPECTED);
    assert.equal(sse.done, true);
  });

  test("faults combine: slow and cut", async () => {
    const t0 = performance.now();
    const sse = await readSse(await stream({ "x-lectern-fault": "slow:200,cut" }));
    assert.ok(sse.times[0] - t0 >= 180);
    assert.equal(sse.done, false);
  });

  test("an unknown fault in the header is a 400 naming it", async () => {
    const res = await stream({ "x-lectern-fault": "explode" });
    assert.equal(res.status, 400);
    assert.match((await res.json()).error.message, /explode/);
  });

  test("non-stream requests honour status and slow faults", async () => {
    const res = await post({ messages: messages() }, { "x-lectern-fault": "status:503" });
    assert.equal(res.status, 503);
    await res.arrayBuffer();
  });
});

describe("control API", () => {
  const control = (body) => fetch(srv.url + "/__control", { method: "POST", body: JSON.stringify(body) });

  test("POST /__control sets the next n requests' fault; the header wins without using it up", async () => {
    const set = await control({ fault: "status:500", times: 2 });
    assert.deepEqual(await set.json(), { ok: true, fault: "status:500", times: 2 });
    const viaHeader = await stream({ "x-lectern-fault": "status:429" });
    assert.equal(viaHeader.status, 429);
    await viaHeader.arrayBuffer();
    for (let i = 0; i < 2; i++) {
      const r = await stream();
      assert.equal(r.status, 500);
      await r.arrayBuffer();
    }
    const ok = await stream();
    assert.equal(ok.status, 200);
    assert.equal((await readSse(ok)).done, true);
  });

  test("times defaults to 1; a bad spec is a 400 and changes nothing", async () => {
    assert.equal((await control({ fault: "bogus:1" })).status, 400);
    await control({ fault: "empty" });
    assert.equal((await readSse(await stream())).content, "");
    assert.equal((await readSse(await stream())).content, EXPECTED);
  });

  test("GET /__requests lists method, path, headers, parsed body, time and fault", async () => {
    await readSse(await stream({ "x-site": "demo", "x-lectern-fault": "empty" }));
    const log = await (await fetch(srv.url + "/__requests")).json();
    assert.equal(log.length, 1);
    const [r] = log;
    assert.equal(r.method, "POST");
    assert.equal(r.path, "/v1/chat/completions");
    assert.equal(r.headers["x-site"], "demo");
    assert.equal(r.body.stream, true);
    assert.equal(r.body.messages[1].content, PROMPT);
    assert.ok(!Number.isNaN(Date.parse(r.time)));
    assert.equal(r.fault, "empty");
  });

  test("POST /__reset clears the log and queued faults", async () => {
    await control({ fault: "status:500", times: 5 });
    await (await stream()).arrayBuffer();
    await fetch(srv.url + "/__reset", { method: "POST" });
    assert.deepEqual(await (await fetch(srv.url + "/__requests")).json(), []);
    const r = await stream();
    assert.equal(r.status, 200);
    await r.arrayBuffer();
  });

  test("in-process: setFault(), requests() and reset()", async () => {
    srv.setFault("status:401");
    const r = await stream();
    assert.equal(r.status, 401);
    await r.arrayBuffer();
    assert.equal(srv.requests().length, 1);
    assert.equal(srv.requests()[0].fault, "status:401");
    srv.reset();
    assert.equal(srv.requests().length, 0);
    assert.throws(() => srv.setFault("nope"), /unknown fault/);
  });

  test("GET /health", async () => {
    const res = await fetch(srv.url + "/health");
    assert.equal(res.status, 200);
    assert.equal((await res.json()).ok, true);
  });
});

describe("parsing helpers", () => {
  test("context blocks: [n] lines, [n]: and Source [n] forms, closing lines", () => {
    const text = [
      "Context:",
      "[1] A › B",
      "First body line.",
      "Second body line.",
      "[2]: C › D",
      "Body two.",
      "Source [3] - E",
      "Body three.",
      "</context>",
      "Question: not part of block three",
    ].join("\n");
    const blocks = parseContextBlocks(text);
    assert.deepEqual(blocks.map((b) => [b.n, b.heading, b.text]), [
      [1, "A › B", "First body line.\nSecond body line."],
      [2, "C › D", "Body two."],
      [3, "E", "Body three."],
    ]);
  });

  test("a one-line block ([1] text) is its own text; markdown headings stay inside blocks", () => {
    assert.deepEqual(parseContextBlocks("[1] Robots walk on two legs.").map((b) => b.text), ["Robots walk on two legs."]);
    const b = parseContextBlocks("[1] A\n## Sub\nBody text here.\n[2] B\nMore.");
    assert.equal(b[0].text, "## Sub\nBody text here.");
    assert.equal(buildAnswer({ messages: [{ role: "user", content: "[1] A\n## Sub\nBody text here, long enough.\n" }] }), "Body text here, long enough [1].");
  });

  test("parseFault parses, combines and rejects", () => {
    assert.deepEqual(parseFault("status:429"), { status: 429 });
    assert.deepEqual(parseFault("slow:2000, cut:3"), { slow: 2000, cut: 3 });
    assert.deepEqual(parseFault("hang"), { hang: true });
    assert.deepEqual(parseFault("none"), {});
    assert.throws(() => parseFault("slow"), /milliseconds/);
    assert.throws(() => parseFault("status:abc"), /number/);
    assert.throws(() => parseFault("status:42"), /HTTP status/);
  });

  test("tokenize keeps every character in small pieces", () => {
    const t = tokenize(EXPECTED, 4);
    assert.equal(t.join(""), EXPECTED);
    assert.ok(t.every((x) => x.trim().length <= 4));
  });
});
