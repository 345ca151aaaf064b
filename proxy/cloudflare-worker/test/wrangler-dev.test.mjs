// End-to-end: the Worker in Cloudflare's own runtime (workerd, via `wrangler dev --local`),
// forwarding to scripts/llm-server on this machine. Checks what the handler tests cannot:
// that the runtime accepts the module, reads wrangler.toml's vars, streams the SSE body
// through, and that a [[ratelimits]] binding reaches the code as env.RATE_LIMITER.
// Skipped (with a message) when wrangler is not installed: run ./test.sh, which installs it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startLlmServer } from "../../../scripts/llm-server/server.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WRANGLER = path.join(ROOT, "node_modules", ".bin", "wrangler");
const HAVE_WRANGLER = existsSync(WRANGLER);
const KEY = "sk-test-WRANGLER-0123456789abcdef";
const SITE = "http://localhost:3000";
const PROMPT = "[1] Robotics › Kinematics\nForward kinematics maps joint angles to a pose.";

let upstream;
let stateDir;
before(async () => {
  upstream = await startLlmServer({ tokenDelayMs: 30 });
  stateDir = mkdtempSync(path.join(os.tmpdir(), "lectern-wrangler-"));
});
after(async () => {
  await upstream?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

/** A free local port (asked of the OS, then released for wrangler to take). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `wrangler dev --local` and resolves when it says "Ready on". Offline-friendly:
 * no telemetry, no fetch of the `request.cf` data. Returns {url, stop(), output()}.
 */
async function startWrangler({ config = "wrangler.toml", vars = {} } = {}) {
  const port = await freePort();
  const inspector = await freePort();
  const args = [
    "dev", "--local", "--config", config, "--ip", "127.0.0.1", "--port", String(port),
    "--inspector-port", String(inspector), "--persist-to", stateDir,
    "--show-interactive-dev-session=false",
  ];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const child = spawn(WRANGLER, args, {
    cwd: ROOT,
    detached: true, // its own process group, so stop() ends workerd too
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1", CI: "true" },
  });
  let out = "";
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not start in 60 s:\n${out}`)), 60_000);
    const onData = (d) => {
      out += d;
      if (/Ready on http/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`wrangler dev exited (${code}):\n${out}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    try { process.kill(-child.pid, "SIGTERM"); } catch {}
    const t = setTimeout(() => { try { process.kill(-child.pid, "SIGKILL"); } catch {} }, 5000);
    await exited;
    clearTimeout(t);
  };
  try {
    await ready;
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `http://127.0.0.1:${port}`, stop, output: () => out };
}

const post = (url, { origin = SITE, body } = {}) =>
  fetch(url + "/v1/chat/completions", {
    method: "POST",
    headers: { origin, "content-type": "application/json", "cf-connecting-ip": "203.0.113.9" },
    body: JSON.stringify(body ?? { stream: true, messages: [{ role: "user", content: PROMPT }] }),
  });

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
