#!/usr/bin/env node
// The keyless proxy's abuse limits under load (issue 27, point 7; BENCHMARKS.md "The keyless
// proxy under load"): N concurrent clients stream answers through the Worker in `wrangler dev
// --local` (workerd, with the LIMITS Durable Object; started as the proxy's tests start it)
// to scripts/llm-server for a fixed time, all on 127.0.0.1. The same load runs twice, each
// with fresh state: first with the abuse protection off (the per-minute rate limit only, as
// before it existed), then on (Turnstile with Cloudflare's always-pass test secret, verified
// by the local siteverify stand-in proxy/cloudflare-worker/test/siteverify-server.mjs; a
// per-client daily quota; a site token budget, both small enough to be reached). The figures
// are printed side by side with the ratio on/off: the protection's cost. Then it checks, and
// exits 1 if any fails:
//   - every request ended as a complete stream (the whole answer, then [DONE]) or a refusal
//     with its code: no error, no cut stream, no other status. Apart: a request that
//     wrangler dev's own proxy lost before it reached the Worker (see WRANGLER_LOST below)
//     is counted and shown, and left out of the replay;
//   - each limit exactly, as refusals expected vs observed: every request's expected outcome
//     is replayed from the client's own sequence of requests (the per-minute window from
//     their times, Turnstile from the client's kind, the quota from its answers so far), and
//     the budget's count is exact because each answer is charged exactly its reservation
//     (the canned answer is exactly max_tokens long), so the answers number exactly
//     min(admissible, floor(budget / reservation)). Only a request whose window edge falls
//     within its own round trip may go either way (counted and shown as "undecidable");
//   - the LLM saw exactly the answered questions; siteverify was asked once per token that
//     passed the rate limit (the verdict is remembered); readers send a usage event after
//     each answer, to the Analytics Engine dataset (wrangler dev keeps none of it locally)
//     or, with --events kv, to KV, where every accepted one must then be found;
//   - memory: the RSS of the workerd process that runs the Worker (apart from wrangler's
//     dev-proxy workerd and its node process), sampled every second. It grows with the
//     requests served in both runs, so its growth from 5 s into the load to the end, with the
//     protection on, must not pass the growth with it off, scaled to as many requests, by
//     more than --max-growth-mb.
// Bounded: no new request after --seconds, each request aborted after 30 s, at most
// --max-requests requests a run.
//
//   node scripts/bench/proxy-load.mjs [--readers 200] [--seconds 60] [--quota 12] [--rate 20]
//        [--budget-answers 1800] [--answer-tokens 32] [--delay 25] [--max-requests 100000]
//        [--max-growth-mb 64] [--inspector 0|1] [--events dataset|kv] [--only on|off|both]
//        [--json FILE]
// --inspector 1 keeps wrangler's DevTools bridge on, as `wrangler dev` runs for a developer:
// it relays a DevTools event per streamed chunk to wrangler's node process, which then, not
// the Worker, is what gives way (see proxy/cloudflare-worker/test/start-wrangler.mjs).
// --events kv writes the events to wrangler dev's local KV simulator instead.
// (scripts/bench/proxy-load.sh installs the proxy's pinned wrangler first.)

import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const PROXY = path.join(REPO, "proxy/cloudflare-worker");
const { startWrangler, localKvKeys, HAVE_WRANGLER } = await import(path.join(PROXY, "test/start-wrangler.mjs"));
const { startSiteverify, DUMMY_TOKEN, PASS_SECRET } = await import(path.join(PROXY, "test/siteverify-server.mjs"));
const { promptTokens } = await import(path.join(PROXY, "src/usage.mjs"));
const { TURNSTILE_HEADER } = await import(path.join(PROXY, "src/core-contract.mjs"));

// ---------------------------------------------------------------------------------------
// Options

const opts = {
  readers: 200, seconds: 60, quota: 12, rate: 20, budgetAnswers: 1800, answerTokens: 32,
  delay: 25, maxRequests: 100_000, maxGrowthMb: 64, inspector: 0, events: "dataset", only: "both", json: null,
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const name = argv[i].replace(/^--/, "").replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  if (!(name in opts) || argv[i + 1] === undefined) {
    console.error(`proxy-load: unknown option or missing value: ${argv[i]} (see the header of ${path.relative(REPO, fileURLToPath(import.meta.url))})`);
    process.exit(2);
  }
  const v = argv[++i];
  opts[name] = name === "json" ? path.resolve(v) : typeof opts[name] === "string" ? v : Number(v);
}
if (!["dataset", "kv"].includes(opts.events) || !["on", "off", "both"].includes(opts.only)) {
  console.error("proxy-load: --events is dataset or kv; --only is on, off or both");
  process.exit(2);
}
if (!HAVE_WRANGLER) {
  console.error("proxy-load: wrangler is not installed: run scripts/bench/proxy-load.sh (it runs npm ci in proxy/cloudflare-worker)");
  process.exit(2);
}

const SITE = "http://localhost:3000";
const KEY = "sk-bench-LOAD-0123456789abcdef";
const WINDOW_MS = 60_000; // the proxy's per-minute sliding window
const REQUEST_TIMEOUT_MS = 30_000;
// The answer is exactly max_tokens long in the proxy's count (4 ASCII bytes a token), so
// every answer is charged exactly its reservation and the budget's count is exact.
const CANNED = "Forward kinematics maps joint angles to the pose of the end effector [1]. "
  .repeat(20).slice(0, opts.answerTokens * 4);
const BODY = {
  stream: true,
  messages: [
    { role: "system", content: "Answer from the numbered sections only and cite them." },
    { role: "user", content: "[1] Robotics › Kinematics\nForward kinematics maps joint angles to a pose.\n\nQuestion: what does forward kinematics compute?" },
  ],
};
const RESERVE = promptTokens(BODY) + opts.answerTokens;
const BUDGET = opts.budgetAnswers * RESERVE;
const BUDGET_ANSWERS = Math.floor(BUDGET / RESERVE);
// What wrangler's own dev proxy (its ProxyWorker, in front of the Worker's workerd process)
// answers when its connection to the Worker's process fails before a response: workerd's
// "Network connection lost" between its two processes, a hop that production does not have.
// Such a request never reached the Worker (the replay below checks it: it leaves them out).
const WRANGLER_LOST = "Your worker restarted mid-request.";
const CODES = ["RATE_LIMITED", "TURNSTILE_REQUIRED", "TURNSTILE_FAILED", "DAILY_QUOTA", "SITE_BUDGET_EXHAUSTED"];

// Who the clients are: bots (half send a forged Turnstile token, half none), scripts
// (ask again at once, ignore Retry-After) and readers (read, think 2–6 s, obey Retry-After).
const bots = opts.readers >= 20 ? 10 : 0;
const scripts = Math.round(opts.readers * 0.2);
const kindOf = (i) => (i < bots / 2 ? "bot-forged" : i < bots ? "bot-none" : i < bots + scripts ? "script" : "reader");

// ---------------------------------------------------------------------------------------
// Helpers

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const pct = (xs, p) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]);
};
const mb = (kb) => Math.round(kb / 1024);

/** scripts/llm-server as its own process (so the load generator does not share its loop). */
async function startLlm() {
  const child = spawn(process.execPath, [
    path.join(REPO, "scripts/llm-server/server.mjs"), "--port", "0", "--delay", String(opts.delay),
    "--token-chars", "4", "--canned", CANNED,
  ], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`llm-server exited (${code})`)));
  });
  const url = line.match(/http:\/\/\S+/)[0];
  return { url, endpoint: `${url}/v1/chat/completions`, stop: () => child.kill("SIGTERM") };
}

/** The pid of the process listening on 127.0.0.1:`port` (by its socket's inode), or null. */
function listenerPid(port, pids) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set();
  for (const l of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const f = l.trim().split(/\s+/);
    if (f[1]?.endsWith(`:${hexPort}`) && f[3] === "0A") inodes.add(`socket:[${f[9]}]`);
  }
  for (const pid of pids) {
    try {
      if (readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try { return inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`)); } catch { return false; }
      })) return pid;
    } catch {}
  }
  return null;
}

/** The processes of a process group: [{pid, comm}]. */
function groupProcesses(pgid) {
  const out = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      if (Number(stat.slice(close + 2).split(" ")[2]) === pgid) out.push({ pid: entry, comm: stat.slice(stat.indexOf("(") + 1, close) });
    } catch {}
  }
  return out;
}

/**
 * Names wrangler dev's two workerd processes: the one listening on wrangler's own port runs
 * wrangler's dev proxy (none of this Worker's code; production has no such hop), the other
 * runs the Worker and its Durable Object. Their memory is sampled apart.
 */
function workerdRoles(pgid, port) {
  const workerds = groupProcesses(pgid).filter((p) => p.comm === "workerd").map((p) => p.pid);
  const devProxy = listenerPid(port, workerds);
  return Object.fromEntries(workerds.map((pid) => [pid, pid === devProxy ? "devProxy" : "worker"]));
}

/** RSS (kB) of every process in a process group, summed by command name (workerd by role). */
function groupRss(pgid, roles = {}) {
  const out = {};
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const pgrp = Number(stat.slice(close + 2).split(" ")[2]);
      if (pgrp !== pgid) continue;
      const rss = Number(readFileSync(`/proc/${entry}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
      const name = comm === "workerd" && roles[entry] ? roles[entry] : comm;
      out[name] = (out[name] ?? 0) + rss;
    } catch {
      // the process ended while being read
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// One run: the load against a fresh Worker, the protection on or off

async function runLoad(protection) {
  const state = mkdtempSync(path.join(os.tmpdir(), "lectern-proxy-load-"));
  const llm = await startLlm();
  const siteverify = await startSiteverify();
  // wrangler runs in proxy/cloudflare-worker; the configs are relative to it.
  const config = opts.events === "kv" ? "test/wrangler.limits.toml" : path.relative(PROXY, path.join(REPO, "scripts/bench/proxy-load.toml"));
  const limits = protection
    ? {
      TURNSTILE_SECRET: PASS_SECRET,
      TURNSTILE_VERIFY_URL: siteverify.url,
      DAILY_QUOTA_PER_CLIENT: String(opts.quota),
      DAILY_TOKEN_BUDGET: String(BUDGET),
    }
    : {};
  const wrangler = await startWrangler({
    config,
    persistTo: state,
    inspector: opts.inspector === 1,
    vars: {
      UPSTREAM_URL: llm.endpoint,
      API_KEY: KEY,
      ALLOWED_ORIGINS: SITE,
      MAX_TOKENS: String(opts.answerTokens),
      RATE_LIMIT_PER_MINUTE: String(opts.rate),
      ...limits,
    },
  });

  const samples = [];
  const roles = workerdRoles(wrangler.pid, Number(new URL(wrangler.url).port));
  const t0 = performance.now();
  const since = () => performance.now() - t0;
  const sample = () => samples.push({ t: Math.round(since() / 100) / 10, ...groupRss(wrangler.pid, roles) });
  sample();
  const deadline = t0 + opts.seconds * 1000;
  const sampler = setInterval(sample, 1000);

  let started = 0;
  const broken = [];
  const clients = [];
  let eventsAccepted = 0;
  let eventsRefused = 0;
  let eventsLost = 0;

  async function ask(client) {
    const headers = { origin: SITE, "content-type": "application/json", "cf-connecting-ip": client.ip };
    const withToken = client.kind === "bot-forged" || (client.kind !== "bot-none" && client.needsToken);
    if (withToken) headers[TURNSTILE_HEADER] = client.kind === "bot-forged" ? "forged.turnstile.token" : DUMMY_TOKEN;
    const r = { start: since(), end: null, outcome: null, withToken, firstByte: null, retryAfter: 0 };
    started++;
    try {
      const res = await fetch(wrangler.url + "/v1/chat/completions", {
        method: "POST", headers, body: JSON.stringify(BODY), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (res.status === 200) {
        const reader = res.body.getReader();
        const dec = new TextDecoder();
        let text = "";
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          r.firstByte ??= since() - r.start;
          text += dec.decode(value, { stream: true });
        }
        const data = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
        const content = data.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d).choices?.[0]?.delta?.content ?? "").join("");
        r.end = since();
        if (data.at(-1) !== "[DONE]" || content !== CANNED) {
          broken.push({ ip: client.ip, what: "incomplete stream", content: content.slice(0, 80) });
          r.outcome = "broken";
        } else {
          r.outcome = "answered";
          client.needsToken = false;
        }
        return r;
      }
      const text = await res.text();
      r.end = since();
      if (res.status === 503 && text.startsWith(WRANGLER_LOST)) {
        r.outcome = "lost";
        return r;
      }
      let code = null;
      try { code = JSON.parse(text).error.code; } catch {}
      if (!CODES.includes(code)) {
        broken.push({ ip: client.ip, what: `HTTP ${res.status}`, body: text.slice(0, 200) });
        r.outcome = "broken";
        return r;
      }
      r.outcome = code;
      r.retryAfter = Number(res.headers.get("retry-after")) || 0;
      return r;
    } catch (e) {
      r.end = since();
      broken.push({ ip: client.ip, what: `${e?.message ?? e}${e?.cause ? ` (${e.cause.code ?? e.cause.message ?? e.cause})` : ""}` });
      r.outcome = "broken";
      return r;
    }
  }

  async function sendEvent(client) {
    try {
      const res = await fetch(wrangler.url + "/v1/events", {
        method: "POST",
        headers: { origin: SITE, "content-type": "application/json", "cf-connecting-ip": client.ip },
        body: JSON.stringify({ events: [{ kind: "answered", page: "/docs/kinematics", confidence: "high" }] }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      if (res.status === 204) eventsAccepted++;
      else if (res.status === 429) eventsRefused++;
      else if (res.status === 503 && text.startsWith(WRANGLER_LOST)) eventsLost++;
      else broken.push({ ip: client.ip, what: `events: HTTP ${res.status}` });
    } catch (e) {
      broken.push({ ip: client.ip, what: `events: ${e?.message ?? e}${e?.cause ? ` (${e.cause.code ?? e.cause.message ?? e.cause})` : ""}` });
    }
  }

  // A pause that never runs past the deadline (a reader told to wait 50 s near the end
  // stops instead).
  const pause = (ms) => sleep(Math.min(ms, deadline - performance.now()));

  async function run(i) {
    const client = { ip: `198.18.${(i + 1) >> 8}.${(i + 1) & 255}`, kind: kindOf(i), needsToken: true, requests: [] };
    clients.push(client);
    await sleep(Math.random() * 1000); // readers arrive over the first second
    while (performance.now() < deadline && started < opts.maxRequests) {
      const r = await ask(client);
      client.requests.push(r);
      if (r.outcome === "TURNSTILE_REQUIRED" && client.kind !== "bot-none") client.needsToken = true;
      if (r.outcome === "answered") {
        if (client.kind === "reader") {
          await sendEvent(client);
          await pause(2000 + Math.random() * 4000);
        }
      } else if (client.kind === "reader") {
        await pause(r.outcome === "RATE_LIMITED" ? r.retryAfter * 1000 : 2000);
      } else {
        await pause(client.kind === "script" ? 100 : 250);
      }
    }
  }

  await Promise.all(Array.from({ length: opts.readers }, (_, i) => run(i)));
  const elapsed = since() / 1000;
  await sleep(1500); // settle, then the last sample of the idle Worker
  sample();
  clearInterval(sampler);
  const llmSaw = (await (await fetch(`${llm.url}/__requests`)).json()).length;
  const siteverifyCalls = siteverify.calls().length;
  const wranglerLog = path.join(os.tmpdir(), `proxy-load-wrangler-${protection ? "on" : "off"}.log`);
  writeFileSync(wranglerLog, wrangler.output()); // wrangler's own account of the run, for a failed check
  await wrangler.stop();
  const kvKeys = opts.events === "kv" ? await localKvKeys({ binding: "EVENTS_KV", config, persistTo: state }) : null;
  llm.stop();
  await siteverify.close();
  rmSync(state, { recursive: true, force: true });
  return { protection, roles, clients, broken, elapsed, samples, llmSaw, siteverifyCalls, eventsAccepted, eventsRefused, eventsLost, kvKeys, wranglerLog };
}

// ---------------------------------------------------------------------------------------
// What each limit should have done, replayed from the clients' own requests

/**
 * Each request's expected outcome from the rules, given the client's earlier requests:
 *   - the per-minute window: a request is limited when `rate` earlier requests of the client
 *     passed the window within the 60 s before it. The Worker takes its time somewhere in the
 *     request's round trip [start, end], so an earlier request counts for sure when it started
 *     after end - 60 s, and surely not when it ended before start - 60 s; between, the
 *     request is undecidable and either outcome is accepted;
 *   - past the window, with the protection on: a bot without a token TURNSTILE_REQUIRED, a
 *     forged token TURNSTILE_FAILED, a client with `quota` answers DAILY_QUOTA, and any other
 *     "admissible": answered while the budget lasts, then SITE_BUDGET_EXHAUSTED. With it off,
 *     admissible.
 */
function replay({ clients, protection }) {
  const expected = Object.fromEntries([...CODES, "admissible"].map((c) => [c, 0]));
  let undecidable = 0;
  const mismatches = [];
  for (const c of clients) {
    const passed = []; // requests that passed the window
    let answers = 0;
    for (const r of c.requests) {
      if (r.outcome === "lost") continue; // never reached the Worker
      const sure = passed.filter((p) => p.start > r.end - WINDOW_MS).length;
      const maybe = passed.filter((p) => p.end > r.start - WINDOW_MS).length;
      const limited = r.outcome === "RATE_LIMITED";
      if (sure >= opts.rate) {
        expected.RATE_LIMITED++;
        if (!limited) mismatches.push({ ip: c.ip, at: Math.round(r.start), expected: "RATE_LIMITED", observed: r.outcome });
      } else if (maybe < opts.rate) {
        if (limited) mismatches.push({ ip: c.ip, at: Math.round(r.start), expected: "past the window", observed: r.outcome });
      } else {
        undecidable++;
      }
      if (limited) continue;
      passed.push(r);
      let want = "admissible";
      if (protection) {
        if (c.kind === "bot-none") want = "TURNSTILE_REQUIRED";
        else if (c.kind === "bot-forged") want = "TURNSTILE_FAILED";
        else if (answers >= opts.quota) want = "DAILY_QUOTA";
      }
      expected[want]++;
      const ok = want === "admissible" ? ["answered", "SITE_BUDGET_EXHAUSTED"].includes(r.outcome) : r.outcome === want;
      if (!ok && r.outcome !== "broken") mismatches.push({ ip: c.ip, at: Math.round(r.start), expected: want, observed: r.outcome });
      if (r.outcome === "answered") answers++;
    }
  }
  // The budget admits exactly floor(budget / reservation) of the admissible questions.
  const budgetAnswers = protection ? BUDGET_ANSWERS : Infinity;
  const answered = Math.min(expected.admissible, budgetAnswers);
  return { expected: { ...expected, answered, SITE_BUDGET_EXHAUSTED: expected.admissible - answered }, undecidable, mismatches };
}

function summarize(run) {
  const all = run.clients.flatMap((c) => c.requests);
  const observed = Object.fromEntries([...CODES, "answered", "broken", "lost"].map((c) => [c, all.filter((r) => r.outcome === c).length]));
  const answers = all.filter((r) => r.outcome === "answered");
  const refusals = all.filter((r) => CODES.includes(r.outcome));
  const warm = run.samples.find((s) => s.t >= 5) ?? run.samples[0];
  const loadEnd = [...run.samples].reverse().find((s) => s.t <= run.elapsed) ?? run.samples.at(-1);
  const rss = (s, comm) => mb(s[comm] ?? 0);
  const memory = (comm) => ({
    idle: rss(run.samples[0], comm), at5s: rss(warm, comm),
    peak: mb(Math.max(...run.samples.map((s) => s[comm] ?? 0))), endOfLoad: rss(loadEnd, comm),
    after: rss(run.samples.at(-1), comm), growth: rss(loadEnd, comm) - rss(warm, comm),
  });
  return {
    protection: run.protection ? "on" : "off",
    elapsedSeconds: Math.round(run.elapsed * 10) / 10,
    requests: all.length,
    requestsPerSecond: Math.round(all.length / run.elapsed),
    answersPerSecond: Math.round((answers.length / run.elapsed) * 10) / 10,
    observed,
    replay: replay(run),
    firstByteMs: { p50: pct(answers.map((r) => r.firstByte), 50), p95: pct(answers.map((r) => r.firstByte), 95) },
    streamMs: { p50: pct(answers.map((r) => r.end - r.start), 50), p95: pct(answers.map((r) => r.end - r.start), 95) },
    refusalMs: { p50: pct(refusals.map((r) => r.end - r.start), 50), p95: pct(refusals.map((r) => r.end - r.start), 95) },
    llmSaw: run.llmSaw,
    siteverifyCalls: run.siteverifyCalls,
    tokensPastWindow: all.filter((r) => r.withToken && !["RATE_LIMITED", "broken", "lost"].includes(r.outcome)).length,
    events: { sink: opts.events, accepted: run.eventsAccepted, refused: run.eventsRefused, lost: run.eventsLost, kvKeys: run.kvKeys?.length ?? null },
    memoryMb: { worker: memory("worker"), devProxy: memory("devProxy"), wranglerNode: memory("node") },
    workerdProcesses: Object.values(run.roles).sort().join(", "),
    brokenCount: run.broken.length, // questions and event batches
    broken: run.broken.slice(0, 5),
    wranglerLog: run.wranglerLog,
    samples: run.samples,
  };
}

// ---------------------------------------------------------------------------------------
// The runs, the table and the checks

const modes = opts.only === "both" ? [false, true] : [opts.only === "on"];
console.error(`proxy-load: ${opts.readers} clients (${opts.readers - bots - scripts} readers, ${scripts} scripts, ${bots} bots), ${opts.seconds} s a run, protection ${modes.map((m) => (m ? "on" : "off")).join(" then ")}`);
const results = {};
for (const protection of modes) {
  const s = summarize(await runLoad(protection));
  results[s.protection] = s;
  console.error(`proxy-load: protection ${s.protection}: ${s.requests} requests, ${s.observed.answered} answers, ${s.observed.broken} broken`);
}

const runs = Object.values(results);
const checks = [];
const check = (name, ok, detail) => checks.push({ name, ok: Boolean(ok), detail });
for (const s of runs) {
  const tag = `[${s.protection}]`;
  const { expected, undecidable, mismatches } = s.replay;
  check(`${tag} every request the Worker got ended complete or refused with its code`, s.brokenCount === 0,
    `${s.brokenCount} broken${s.broken.length ? ": " + JSON.stringify(s.broken.slice(0, 3)) : ""}; ${s.observed.lost} questions and ${s.events.lost} event batches lost in wrangler dev's proxy before the Worker (left out of the replay)`);
  check(`${tag} every request's outcome is the one its limits decide`, mismatches.length === 0,
    `${mismatches.length} mismatches${mismatches.length ? ": " + JSON.stringify(mismatches.slice(0, 3)) : ""}; ${undecidable} undecidable at a window's edge`);
  const rateOk = s.observed.RATE_LIMITED >= expected.RATE_LIMITED && s.observed.RATE_LIMITED <= expected.RATE_LIMITED + undecidable;
  check(`${tag} RATE_LIMITED refusals: expected ${expected.RATE_LIMITED}${undecidable ? ` (+ up to ${undecidable} undecidable)` : ""}, observed ${s.observed.RATE_LIMITED}`, rateOk, "");
  for (const code of ["TURNSTILE_REQUIRED", "TURNSTILE_FAILED", "DAILY_QUOTA", "SITE_BUDGET_EXHAUSTED", "answered"]) {
    check(`${tag} ${code === "answered" ? "answers" : code + " refusals"}: expected ${expected[code]}, observed ${s.observed[code]}`, expected[code] === s.observed[code], "");
  }
  check(`${tag} the LLM saw exactly the answered questions`, s.llmSaw === s.observed.answered, `${s.llmSaw} upstream, ${s.observed.answered} answered`);
  if (s.protection === "on") {
    check(`${tag} siteverify asked once per token past the window (verdict remembered)`, s.siteverifyCalls === s.tokensPastWindow,
      `${s.siteverifyCalls} calls, ${s.tokensPastWindow} tokens`);
  }
  if (s.events.kvKeys !== null) {
    check(`${tag} every accepted usage event is in KV`, s.events.kvKeys === s.events.accepted, `${s.events.kvKeys} keys, ${s.events.accepted} accepted`);
  }
}
for (const s of runs) {
  check(`[${s.protection}] wrangler dev ran two workerd processes, the Worker's told apart`, s.workerdProcesses === "devProxy, worker", s.workerdProcesses);
}
if (results.on && results.off) {
  // workerd's memory grows with the requests it has served in both runs (wrangler's dev
  // proxy's process too, which runs none of this code); the protection must add no growth
  // beyond what as many requests cost without it.
  const on = results.on.memoryMb.worker.growth;
  const off = results.off.memoryMb.worker.growth;
  const scaled = Math.round(off * (results.on.requests / results.off.requests));
  check(`the protection adds no memory growth: the Worker's workerd grew ${on} MB on, ${off} MB off (${scaled} MB scaled to as many requests; on ≤ that + ${opts.maxGrowthMb} MB)`, on <= scaled + opts.maxGrowthMb, "");
}

const line = (label, ...cells) => console.log(`  ${label.padEnd(44)} ${cells.map((c) => String(c ?? "—").padStart(16)).join("")}`);
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? `${(a / b).toFixed(2)}x` : "—");
const cols = runs.map((s) => `protection ${s.protection}`);
const both = results.on && results.off;
console.log(`proxy-load: ${opts.readers} clients for ${opts.seconds} s a run; rate ${opts.rate}/min/client; when on: Turnstile, quota ${opts.quota}/client/day, budget ${BUDGET} tokens (${BUDGET_ANSWERS} answers of ${RESERVE})`);
line("", ...cols, ...(both ? ["on / off"] : []));
const row = (label, f) => line(label, ...runs.map(f), ...(both ? [ratio(f(results.on), f(results.off))] : []));
row("requests", (s) => s.requests);
row("requests per second", (s) => s.requestsPerSecond);
row("answers streamed complete", (s) => s.observed.answered);
row("answers per second", (s) => s.answersPerSecond);
for (const code of CODES) line(`refused ${code} (expected)`, ...runs.map((s) => `${s.observed[code]} (${s.replay.expected[code]}${code === "RATE_LIMITED" && s.replay.undecidable ? `+${s.replay.undecidable}?` : ""})`));
row("answer's first byte p50 (ms)", (s) => s.firstByteMs.p50);
row("answer's first byte p95 (ms)", (s) => s.firstByteMs.p95);
row("whole answer p50 (ms)", (s) => s.streamMs.p50);
row("whole answer p95 (ms)", (s) => s.streamMs.p95);
row("refusal p50 (ms)", (s) => s.refusalMs.p50);
row("refusal p95 (ms)", (s) => s.refusalMs.p95);
line(`usage events (${opts.events}) accepted`, ...runs.map((s) => s.events.accepted));
line("lost in wrangler dev's proxy", ...runs.map((s) => `${s.observed.lost} + ${s.events.lost} ev`));
for (const [key, name] of [["worker", "Worker's workerd"], ["devProxy", "dev proxy's workerd"], ["wranglerNode", "wrangler (node)"]]) {
  row(`${name} RSS idle (MB)`, (s) => s.memoryMb[key].idle);
  row(`${name} RSS at 5 s (MB)`, (s) => s.memoryMb[key].at5s);
  row(`${name} RSS end of load (MB)`, (s) => s.memoryMb[key].endOfLoad);
  row(`${name} growth 5 s → end (MB)`, (s) => s.memoryMb[key].growth);
  if (key === "worker") row(`${name} growth per 1,000 requests (MB)`, (s) => Math.round((s.memoryMb[key].growth / s.requests) * 10_000) / 10);
}
for (const c of checks) console.log(`  ${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? ": " + c.detail : ""}`);
console.log(`  wrangler's output: ${runs.map((s) => s.wranglerLog).join(", ")}`);
if (opts.json) writeFileSync(opts.json, JSON.stringify({ options: opts, reserve: RESERVE, budget: BUDGET, runs: results, checks }, null, 2));
process.exit(checks.every((c) => c.ok) ? 0 : 1);
