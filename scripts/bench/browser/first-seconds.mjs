// A reader's first seconds (issue 15, point 6): the built example site, served with brotli
// over a simulated mobile link, in Chromium with a slower CPU. Run it through
// scripts/bench/first-seconds.sh, which builds the site and passes:
//
//   --site DIR        the site built by `docusaurus build` with docusaurus-plugin-lectern
//   --model-dir DIR   model-int8.onnx and tokenizer.json, for the transformers.js peer
//   --runs N          visits per side (default 3; sides alternate)
//   --json FILE       every sample
//   --mbit R          the link's rate (default 9)   --rtt MIN-MAX  round trip, ms (40-150)
//   --cpu N           CPU slowdown (default 4)      --page PATH    the docs page (/docs/intro/)
//   --question TEXT   what the reader asks          --token-ms N   the LLM's delay per chunk (15)
//   --sides LIST      lectern,tjs (default both)    --timeout-s N  per visit (300)
//   --report FILE     only print the tables of an earlier --json FILE
//   --then TEXT       a further question, asked after the first hybrid answer (repeatable);
//                     the workers' memory is read after the last answer (worker-memory.mjs)
//
// Lectern's side: open the docs page, open the panel as soon as the widget works, ask at once;
// when the worker reports hybrid-ready (and the first answer is done), ask again. Recorded: ms
// from navigation until (a) the first answer showing a citation, (b) the first such answer
// whose retrieval was hybrid; bytes on the link until each. Then a second visit in the same
// context (Cache API warm), the same way. The peer, on the same page, link and CPU:
// transformers.js embedding the same question in a module worker, until its first embedding.
//
// Every request shares one link (server.mjs + link.mjs: paced at the server, so the worker's
// fetches are covered); the LLM (scripts/llm-server) sits behind the same server at /api/llm/,
// as a site's proxy would. Files are classified by role (the bundle's manifest, extension,
// folder, time), never by name, so the figures survive renamed and split modules.

import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { startServer, LLM_PREFIX } from "./server.mjs";
import { createLink } from "./link.mjs";
import { median } from "./stats.mjs";
import { threadCaps, throttle, baseline } from "./cpu-throttle.mjs";
import { startLlmServer } from "../../llm-server/server.mjs";
import { chromiumLaunchOptions } from "../../lib/chromium.mjs";
import { workerMemory } from "./worker-memory.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;

function fail(message) {
  console.error(`bench/first-seconds: ${message}`);
  process.exit(1);
}

const { values: args } = parseArgs({
  options: {
    site: { type: "string" },
    "model-dir": { type: "string" },
    runs: { type: "string", default: "3" },
    json: { type: "string" },
    mbit: { type: "string", default: "9" },
    rtt: { type: "string", default: "40-150" },
    cpu: { type: "string", default: "4" },
    page: { type: "string", default: "/docs/intro/" },
    question: { type: "string", default: "Why would I run several C++ nodes inside a single process?" },
    "token-ms": { type: "string", default: "15" },
    sides: { type: "string", default: "lectern,tjs" },
    "timeout-s": { type: "string", default: "300" },
    report: { type: "string" },
    then: { type: "string", multiple: true, default: [] },
  },
});
const positive = (name, integer = false) => {
  const v = Number(args[name]);
  if (!(v > 0) || (integer && !Number.isInteger(v))) fail(`--${name} must be a positive ${integer ? "whole " : ""}number, not ${args[name]}`);
  return v;
};
const rtt = /^(\d+)(?:-(\d+))?$/.exec(args.rtt);
if (!rtt) fail(`--rtt takes MS or MIN-MAX, not ${args.rtt}`);
const cfg = {
  siteDir: args.site ? path.resolve(args.site) : null,
  modelDir: path.resolve(args["model-dir"] ?? env.LECTERN_MODEL_DIR ?? "."),
  runs: positive("runs", true),
  json: args.json ? path.resolve(args.json) : null,
  mbit: positive("mbit"),
  rttMs: [Number(rtt[1]), Number(rtt[2] ?? rtt[1])],
  cpu: positive("cpu"),
  page: args.page,
  question: args.question,
  then: args.then,
  tokenMs: Number(args["token-ms"]),
  sides: args.sides.split(",").filter(Boolean),
  timeoutMs: positive("timeout-s") * 1000,
  cacheDir: path.join(env.LECTERN_CACHE ?? path.join(os.homedir(), ".cache/lectern"), "bench-browser", "encoded"),
};

/** What a measuring run needs (a --report run needs none of it). */
function checkInputs() {
  if (!cfg.siteDir) fail("--site is required (run scripts/bench/first-seconds.sh)");
  for (const s of cfg.sides) if (!["lectern", "tjs"].includes(s)) fail(`--sides: unknown side ${s} (lectern, tjs)`);
  for (const f of ["model-int8.onnx", "tokenizer.json"]) {
    try {
      statSync(path.join(cfg.modelDir, f));
    } catch {
      fail(`no ${f} in ${cfg.modelDir} (--model-dir)`);
    }
  }
}

// ---- the site: its files, and the roles of its index files ----------------------------------

function walk(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** What an index file is for, from where the manifest names it (e.g. files.text[] -> text). */
function roleOfKeys(keys) {
  const k = keys.join(".").toLowerCase();
  if (/model\.words/.test(k)) return "model: word-table shards";
  if (/model|onnx|tokeni[sz]er|weight/.test(k)) return "model + tokenizer";
  if (/dense|vector|hnsw/.test(k)) return "dense index";
  if (/text|shard|meta/.test(k) && !/lexical|term|posting/.test(k)) return "text of results";
  return "keyword index";
}

/** URL folder of every Lectern bundle in the site and the role of each file its manifest names. */
function bundles(siteDir) {
  const out = [];
  for (const file of walk(siteDir).filter((f) => path.basename(f) === "manifest.json")) {
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      continue;
    }
    if (manifest?.format !== "lectern-index") continue;
    const roles = new Map([["manifest.json", "keyword index"]]);
    /** Where the manifest names each file: a catalog page's shards are under the same keys. */
    const keysOf = new Map();
    const visit = (v, keys) => {
      if (Array.isArray(v)) return v.forEach((x) => visit(x, keys));
      if (!v || typeof v !== "object") return;
      if (typeof v.name === "string") {
        roles.set(v.name, roleOfKeys(keys));
        keysOf.set(v.name, keys);
      }
      for (const [k, x] of Object.entries(v)) if (k !== "name") visit(x, [...keys, k]);
    };
    visit(manifest, []);
    // Shards are named by catalog pages (bundle format 2; the dense index's parts, format 3),
    // which the manifest names.
    for (const [name] of [...roles]) {
      if (!name.includes("-catalog.")) continue;
      try {
        visit(JSON.parse(readFileSync(path.join(path.dirname(file), name), "utf8")), keysOf.get(name));
      } catch {
        // An unreadable page: its shards stay unclassified.
      }
    }
    const rel = path.relative(siteDir, path.dirname(file)).split(path.sep).join("/");
    out.push({ prefix: `/${rel}/`, roles, manifest });
  }
  if (!out.length) fail(`no Lectern bundle (manifest.json of format lectern-index) in ${siteDir}: was the site built with the plugin?`);
  return out;
}

const extOf = (p) => path.posix.extname(p).toLowerCase();
const folderOf = (p) => p.slice(0, p.lastIndexOf("/") + 1);

/**
 * The role of one response: bundle files by their manifest, the runtime by what its folder
 * holds (a folder of the site with a .wasm in it is the runtime's), the peer by its roots, prefetches by
 * their Sec-Purpose header, the rest by time (before the panel opened: the docs page; after:
 * the panel's chunks).
 */
function classify(e, ctx) {
  const p = e.path;
  const ext = extOf(p);
  if (p.startsWith(LLM_PREFIX)) return "LLM answer stream";
  if (p.startsWith("/page/")) return "peer: bench worker glue";
  if (p.startsWith("/tjs/")) return "peer: transformers.js JS";
  if (p.startsWith("/ort/")) return ext === ".wasm" ? "peer: onnxruntime-web wasm" : "peer: onnxruntime-web JS";
  if (p.startsWith("/models/")) return ext === ".onnx" || p.endsWith("/tokenizer.json") ? "model + tokenizer" : "peer: model config";
  for (const b of ctx.bundles) {
    // A dense index's parts are listed by its head (bundle format 5), a binary file: by name.
    const name = p.slice(b.prefix.length);
    if (p.startsWith(b.prefix)) return b.roles.get(name) ?? (name.startsWith("dense-part.") ? "dense index" : "index: other");
  }
  // Docusaurus prefetches the chunks of pages its links point to (<link rel=prefetch>).
  if (/prefetch/.test(e.purpose ?? "")) return "prefetch (site links)";
  if (ext === ".wasm") return "runtime wasm";
  if ((ext === ".js" || ext === ".mjs") && ctx.runtimeFolders.has(folderOf(p))) return "runtime JS";
  if (e.t0 < ctx.startEpoch) return "docs page";
  if (ext === ".js" || ext === ".css") return "panel chunks (site JS/CSS)";
  return "docs page";
}

// ---- browser, servers -------------------------------------------------------------------------

let browser;
let server;
let llm;
let caps;
const link = createLink({ mbit: cfg.mbit, rttMs: cfg.rttMs });

async function cleanup() {
  await browser?.close().catch(() => {});
  caps?.close();
  await server?.close().catch(() => {});
  await llm?.close().catch(() => {});
}
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => cleanup().finally(() => process.exit(130)));

/** Waits until `fn(window.__fs)` is truthy on the page (checked every 100 ms). */
const until = (page, fn, what, arg) =>
  page
    .waitForFunction(
      ([source, arg]) => {
        const fs = window.__fs;
        return fs && new Function(`return (${source})`)()(fs, arg);
      },
      [fn.toString(), arg],
      { timeout: cfg.timeoutMs, polling: 100 },
    )
    .catch((e) => {
      throw new Error(`${what}: ${e.message.split("\n")[0]}`);
    });

/** What the server sent during a visit, as files with roles and times relative to navigation. */
function visitBytes(log, ctx, origin, marks) {
  const files = log.map((e) => ({
    path: e.path,
    role: classify(e, ctx),
    status: e.status,
    raw: e.raw,
    sent: e.sent,
    encoding: e.encoding,
    start: e.t0 - origin,
    end: (e.tEnd ?? e.t0) - origin,
  }));
  const bytes = { total: link.bytesBetween(undefined, Infinity) };
  for (const [name, t] of Object.entries(marks)) {
    if (t === null || t === undefined) continue;
    bytes[name] = link.bytesBetween(undefined, origin + t);
    bytes[`${name}SinceStart`] = link.bytesBetween(ctx.startEpoch, origin + t);
  }
  // The link's delivered rate while the largest response was in flight (the link is busy then).
  const largest = log.filter((e) => e.tEnd && e.sent > 0).sort((a, b) => b.sent - a.sent)[0];
  const rate = largest ? { path: largest.path, sent: largest.sent, mbit: link.mbitBetween(largest.tHead, largest.tEnd), ms: largest.tEnd - largest.tHead } : null;
  return { files, bytes, linkCheck: rate, rtts: [...link.rtts], newConnections: log.filter((e) => e.newConnection).length };
}

/** Opens a page of `context` for one visit, throttled, with the observer installed. */
async function newVisitPage(context) {
  server.log.length = 0;
  link.reset();
  const page = await context.newPage();
  const throttled = await throttle(context, page, { rate: cfg.cpu, caps });
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console.error: ${m.text()}`);
  });
  return { page, throttled, problems };
}

async function lecternVisit(context, origin, visit) {
  const { page, throttled, problems } = await newVisitPage(context);
  try {
    // The observer clicks the launcher as soon as the widget works; a reader then types.
    await page.goto(origin + cfg.page, { waitUntil: "commit", timeout: cfg.timeoutMs });
    await until(page, (fs) => fs.opened !== null, "the panel to open");
    const box = ".lectern-panel textarea";
    await page.waitForSelector(box, { timeout: cfg.timeoutMs });
    const ask = async (question = cfg.question) => {
      await page.fill(box, question);
      await page.press(box, "Enter");
    };
    await ask();
    // (a) the first answer that shows a citation.
    await until(page, (fs) => fs.cited.length >= 1 || fs.answers.length >= 1 || fs.errors.length, "the first answer");
    let fs = await page.evaluate(() => window.__fs);
    if (!fs.cited.length) {
      throw new Error(`the first answer showed no citation: ${JSON.stringify({ answers: fs.answers, errors: fs.errors })} (a refusal? try another --question)`);
    }
    // (b) the first cited answer from hybrid retrieval: ask again once the model is in, the
    // answer before has ended and the chat's one-question-per-2-s limit allows it.
    if (fs.cited[0].mode !== "hybrid") {
      await until(
        page,
        (fs) =>
          fs.phases["model-failed"] ||
          (fs.phases["hybrid-ready"] && fs.answers.length >= fs.questions.length && performance.now() - fs.questions.at(-1).t > 2100),
        "hybrid-ready",
      );
      const failed = await page.evaluate(() => window.__fs.phases["model-failed"]);
      if (failed) throw new Error("the worker reported model-failed: no hybrid answer to measure");
      await ask();
      await until(page, (fs) => fs.cited.some((c) => c.mode === "hybrid") || fs.answers.length >= 2 || fs.errors.length, "the second answer");
    }
    await until(page, (fs) => fs.questions.length >= 1 && fs.answers.length >= fs.questions.length, "the last answer to end");
    // Further questions (--then), each once the answer before has ended and the chat's
    // one-question-per-2-s limit allows it; then what the workers hold.
    for (const question of cfg.then) {
      await until(page, (fs) => fs.answers.length >= fs.questions.length && performance.now() - fs.questions.at(-1).t > 2100, "the answer before --then");
      const asked = await page.evaluate(() => window.__fs.questions.length);
      await ask(question);
      await until(page, (fs, n) => fs.questions.length > n && fs.answers.length >= fs.questions.length, `the answer to --then "${question}"`, asked);
    }
    fs = await page.evaluate(() => window.__fs);
    const hybrid = fs.cited.find((c) => c.mode === "hybrid");
    if (!hybrid) throw new Error(`no cited answer came from hybrid retrieval: ${JSON.stringify({ cited: fs.cited, answers: fs.answers, phases: fs.phases })}`);
    const origin0 = await page.evaluate(() => performance.timeOrigin);
    const cpu = await throttled.probe();
    // Last, once nothing more is read from the page: a debugger session on its workers.
    const memory = await Promise.race([
      workerMemory(browser),
      new Promise((resolve) => setTimeout(() => resolve({ error: "no answer in 60 s" }), 60_000).unref()),
    ]);
    const ctx = { bundles: siteBundles, runtimeFolders: siteRuntimeFolders, startEpoch: origin0 + fs.opened };
    const marks = { firstCited: fs.cited[0].t, firstHybrid: hybrid.t };
    return {
      side: "lectern",
      visit,
      at: {
        hydrated: fs.hydrated,
        opened: fs.opened,
        lexicalReady: fs.phases["lexical-ready"]?.first ?? null,
        firstCited: fs.cited[0].t,
        hybridReady: fs.phases["hybrid-ready"]?.first ?? null,
        firstHybrid: hybrid.t,
        lastAnswer: fs.answers.at(-1)?.t ?? null,
      },
      firstMode: fs.cited[0].mode,
      memory,
      answers: fs.answers,
      searches: fs.searches,
      phases: fs.phases,
      cpu,
      throttle: throttled.result,
      problems,
      ...visitBytes(server.log.slice(), ctx, origin0, marks),
    };
  } finally {
    await throttled.detach();
    await page.close();
  }
}

async function tjsVisit(context, origin, visit) {
  const { page, throttled, problems } = await newVisitPage(context);
  try {
    // The observer starts transformers.js as soon as the widget works: the moment Lectern's
    // panel opens on the other side.
    await page.goto(origin + cfg.page, { waitUntil: "commit", timeout: cfg.timeoutMs });
    await until(page, (fs) => fs.peer && (fs.peer.firstEmbedding || fs.peer.error), "transformers.js's first embedding");
    const fs = await page.evaluate(() => window.__fs);
    if (fs.peer.error) throw new Error(`transformers.js failed: ${fs.peer.error}`);
    const origin0 = await page.evaluate(() => performance.timeOrigin);
    const cpu = await throttled.probe();
    const ctx = { bundles: siteBundles, runtimeFolders: siteRuntimeFolders, startEpoch: origin0 + fs.peer.start };
    return {
      side: "tjs",
      visit,
      at: { hydrated: fs.hydrated, opened: fs.peer.start, pipelineReady: fs.peer.pipelineReady, firstEmbedding: fs.peer.firstEmbedding },
      info: fs.peer.info,
      embedMs: fs.peer.embedMs,
      cpu,
      throttle: throttled.result,
      problems,
      ...visitBytes(server.log.slice(), ctx, origin0, { firstEmbedding: fs.peer.firstEmbedding }),
    };
  } finally {
    await throttled.detach();
    await page.close();
  }
}

// ---- main ---------------------------------------------------------------------------------------

let siteBundles;
/** URL folders of the site that hold a .wasm file: the runtime's. */
let siteRuntimeFolders;

async function main() {
  checkInputs();
  siteBundles = bundles(cfg.siteDir);
  const siteFiles = walk(cfg.siteDir);
  siteRuntimeFolders = new Set(
    siteFiles.filter((f) => extOf(f) === ".wasm").map((f) => `/${path.relative(cfg.siteDir, path.dirname(f)).split(path.sep).join("/")}/`),
  );
  llm = await startLlmServer({ tokenDelayMs: cfg.tokenMs });
  const TJS_DIST = path.join(here, "node_modules/@huggingface/transformers/dist");
  const ORT_DIST = path.join(here, "node_modules/onnxruntime-web/dist");
  server = await startServer({
    siteDir: cfg.siteDir,
    pageDir: path.join(here, "page"),
    tjsDir: TJS_DIST,
    ortDir: ORT_DIST,
    hfDir: path.join(here, "hf-model"),
    modelDir: cfg.modelDir,
    cacheDir: cfg.cacheDir,
    llmUpstream: llm.url,
    link,
    caching: "revalidate",
  });
  const t0 = Date.now();
  console.error("bench/first-seconds: precompressing the site and the peer's files (brotli q11, gzip -9; kept by content hash)");
  await server.warmFiles(siteFiles);
  await server.warm([
    "/tjs/transformers.min.js",
    "/ort/ort-wasm-simd-threaded.asyncify.mjs",
    "/ort/ort-wasm-simd-threaded.asyncify.wasm",
    ...["config.json", "tokenizer_config.json", "tokenizer.json", "onnx/model_quantized.onnx"].map((f) => `/models/all-minilm-l6-v2/${f}`),
    ...["rpc.js", "tjs-worker.js", "wasm-hook.js"].map((f) => `/page/${f}`),
  ]);
  console.error(`bench/first-seconds: files ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  browser = await chromium.launch(chromiumLaunchOptions());
  caps = threadCaps(cfg.cpu);
  const results = {
    config: { ...cfg, chromium: browser.version(), cpus: os.cpus().length, loadavgStart: os.loadavg(), workerThrottle: caps.reason },
    when: new Date().toISOString(),
    bundles: siteBundles.map((b) => ({ prefix: b.prefix, files: Object.fromEntries(b.roles) })),
    visits: [],
  };
  results.baseline = await baseline(browser, `${server.origin}/__log`);
  results.baselineStart = results.baseline;

  for (let run = 0; run < cfg.runs; run++) {
    const order = run % 2 ? [...cfg.sides].reverse() : cfg.sides;
    for (const side of order) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript((plan) => {
        window.__fsPlan = plan;
      }, { side, question: cfg.question });
      await context.addInitScript({ path: path.join(here, "page/first-seconds-hook.js") });
      try {
        for (const visit of ["cold", "warm"]) {
          console.error(`bench/first-seconds: run ${run + 1}/${cfg.runs}, ${side === "tjs" ? "transformers.js" : "Lectern"}, ${visit}`);
          const r = side === "lectern" ? await lecternVisit(context, server.origin, visit) : await tjsVisit(context, server.origin, visit);
          results.visits.push({ run, ...r });
        }
      } finally {
        await context.close();
      }
    }
  }
  results.config.loadavgEnd = os.loadavg();
  // Unthrottled again: the machine's load may have changed during the runs.
  results.baselineEnd = await baseline(browser, `${server.origin}/__log`);
  results.baseline = {
    page: median([...results.baselineStart.samples.page, ...results.baselineEnd.samples.page]),
    worker: median([...results.baselineStart.samples.worker, ...results.baselineEnd.samples.worker]),
  };
  if (cfg.json) writeFileSync(cfg.json, JSON.stringify(results, null, 1));
  console.log(report(results));
}

// ---- the report ---------------------------------------------------------------------------------

const kb = (b) => (b === null || b === undefined ? "—" : b >= 1e6 ? `${(b / 1e6).toFixed(2)} MB` : `${(b / 1e3).toFixed(1)} KB`);
const msf = (x) => (x === null || x === undefined || Number.isNaN(x) ? "—" : `${Math.round(x).toLocaleString("en-US")}`);
const ratio = (a, b) => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}x` : "—");

function report(r) {
  const lines = [];
  const say = (s = "") => lines.push(s);
  const of = (side, visit) => r.visits.filter((v) => v.side === side && v.visit === visit);
  const med = (vs, f) => {
    const xs = vs.map(f).filter((x) => typeof x === "number" && !Number.isNaN(x));
    return xs.length ? median(xs) : null;
  };
  /** " (min–max)" of several runs. */
  const range = (vs, f) => {
    const xs = vs.map(f).filter((x) => typeof x === "number");
    return xs.length > 1 ? ` (${msf(Math.min(...xs))}–${msf(Math.max(...xs))})` : "";
  };
  const c = r.config;
  say(`Chromium ${c.chromium}, ${c.cpus} cores (load average ${c.loadavgStart.map((x) => x.toFixed(1)).join(" ")} at start, ` +
    `${c.loadavgEnd.map((x) => x.toFixed(1)).join(" ")} at end); link ${c.mbit} Mbit/s shared by every request, round trip ` +
    `${c.rttMs[0]}–${c.rttMs[1]} ms per request (+1 for a new connection); CPU ${c.cpu}x; brotli q11 (gzip -9 fallback), ETag revalidation.`);
  say(`Page ${c.page}, question "${c.question}"; LLM: scripts/llm-server behind the same server (${LLM_PREFIX}, ${c.tokenMs} ms per chunk); ` +
    `median of ${c.runs} run(s) per side, sides alternating, a fresh browser context per run.`);
  say();

  // The main table.
  const L = { cold: of("lectern", "cold"), warm: of("lectern", "warm") };
  const T = { cold: of("tjs", "cold"), warm: of("tjs", "warm") };
  say("| | Lectern | transformers.js (first embedding) | Lectern / transformers.js |");
  say("|---|---|---|---|");
  for (const visit of ["cold", "warm"]) {
    const l = L[visit];
    const t = T[visit];
    const peerMs = med(t, (v) => v.at.firstEmbedding);
    const peerBytes = med(t, (v) => v.bytes.firstEmbedding);
    const peerSince = med(t, (v) => v.bytes.firstEmbeddingSinceStart);
    say(`| **${visit === "cold" ? "First visit (empty caches)" : "Second visit (same context: Cache API warm)"}** | | | |`);
    for (const [label, key] of [["first cited answer (keyword)", "firstCited"], ["first hybrid answer", "firstHybrid"]]) {
      const ms = med(l, (v) => v.at[key]);
      const all = med(l, (v) => v.bytes[key]);
      const since = med(l, (v) => v.bytes[`${key}SinceStart`]);
      say(`| ${label}: ms from navigation (range) | ${msf(ms)}${range(l, (v) => v.at[key])} | ${msf(peerMs)}${range(t, (v) => v.at.firstEmbedding)} | ${ratio(ms, peerMs)} |`);
      say(`| … bytes on the link until then | ${kb(all)} | ${kb(peerBytes)} | ${ratio(all, peerBytes)} |`);
      say(`| … of which after the panel opened / the peer started | ${kb(since)} | ${kb(peerSince)} | ${ratio(since, peerSince)} |`);
    }
  }
  say();

  say("Milestones (median ms from navigation):");
  say("| | docs page works | panel opened / peer started | keyword search ready | model ready (hybrid-ready / pipeline) | first cited answer | first hybrid answer / first embedding | all bytes of the visit |");
  say("|---|---|---|---|---|---|---|---|");
  for (const visit of ["cold", "warm"]) {
    const l = L[visit];
    const t = T[visit];
    if (l.length) say(`| Lectern, ${visit} | ${msf(med(l, (v) => v.at.hydrated))} | ${msf(med(l, (v) => v.at.opened))} | ${msf(med(l, (v) => v.at.lexicalReady))} | ${msf(med(l, (v) => v.at.hybridReady))} | ${msf(med(l, (v) => v.at.firstCited))} | ${msf(med(l, (v) => v.at.firstHybrid))} | ${kb(med(l, (v) => v.bytes.total))} |`);
    if (t.length) say(`| transformers.js, ${visit} | ${msf(med(t, (v) => v.at.hydrated))} | ${msf(med(t, (v) => v.at.opened))} | — | ${msf(med(t, (v) => v.at.pipelineReady))} | — | ${msf(med(t, (v) => v.at.firstEmbedding))} | ${kb(med(t, (v) => v.bytes.total))} |`);
  }
  const memory = r.visits.filter((v) => v.side === "lectern" && v.memory?.workers);
  if (memory.length) {
    const mb = (b) => (b === null || b === undefined ? "—" : `${(b / 1e6).toFixed(1)} MB`);
    const names = [...new Set(memory.flatMap((v) => v.memory.workers.map((w) => w.name)))];
    const bytesOf = (v, name, k) => v.memory.workers.filter((w) => w.name === name).reduce((a, w) => a + (w[k] ?? 0), 0);
    const total = (v, name) => bytesOf(v, name, "jsUsed") + bytesOf(v, name, "arrayBuffers") + bytesOf(v, name, "wasm");
    const asked = c.then ?? [];
    say(`Memory of Lectern's workers after ${1 + asked.length} question(s)${asked.length ? " (the first, then --then)" : ""}, median of the visits ` +
      "(JS heap used after a GC, ArrayBuffers, wasm linear memory; CDP Runtime.getHeapUsage and Runtime.queryObjects):");
    say("| visit | worker | JS heap | ArrayBuffers | wasm memory | sum | renderer process RSS (page and workers) |");
    say("|---|---|---|---|---|---|---|");
    for (const visit of ["cold", "warm"]) {
      const vs = memory.filter((v) => v.visit === visit);
      if (!vs.length) continue;
      const rss = med(vs, (v) => v.memory.renderers.reduce((a, p) => a + p.bytes, 0));
      for (const name of names) {
        say(`| ${visit} | ${name} | ${mb(med(vs, (v) => bytesOf(v, name, "jsUsed")))} | ${mb(med(vs, (v) => bytesOf(v, name, "arrayBuffers")))} | ` +
          `${mb(med(vs, (v) => bytesOf(v, name, "wasm")))} | ${mb(med(vs, (v) => total(v, name)))} | ${mb(rss)} |`);
      }
      say(`| ${visit} | all workers | | | | ${mb(med(vs, (v) => names.reduce((a, n) => a + total(v, n), 0)))} | |`);
    }
    say();
  }
  const firstModes = [...new Set(r.visits.filter((v) => v.side === "lectern").map((v) => `${v.visit}: ${v.firstMode}`))];
  if (firstModes.length) say(`Retrieval behind Lectern's first cited answer: ${firstModes.join(", ")}.`);
  say();

  // Per-file bytes of the first run's visits.
  for (const v of r.visits.filter((x) => x.run === 0)) {
    const lectern = v.side === "lectern";
    const marks = lectern ? [["first cited", v.at.firstCited], ["first hybrid", v.at.firstHybrid]] : [["first embedding", v.at.firstEmbedding]];
    say(`Bytes by file, ${lectern ? "Lectern" : "transformers.js"}, ${v.visit} visit of run 1 (sent = on the link; done = ms from navigation when its last byte went out):`);
    say(`| role | file | status | raw | sent | done at | ${marks.map(([m]) => `before ${m}`).join(" | ")} |`);
    say(`|---|---|---|---|---|---|${marks.map(() => "---").join("|")}|`);
    const page = v.files.filter((f) => f.role === "docs page");
    const done = (f, t) => (f.end <= t ? "yes" : f.start < t ? "partly" : "");
    const sum = (fs, k) => fs.reduce((a, f) => a + (f[k] ?? 0), 0);
    if (page.length) {
      say(`| docs page | ${page.length} files (HTML, CSS, JS, images) | ${[...new Set(page.map((f) => f.status))].join(", ")} | ${sum(page, "raw")} | ${sum(page, "sent")} | ${msf(Math.max(...page.map((f) => f.end)))} | ${marks.map(([, t]) => `${page.filter((f) => f.end <= t).length}/${page.length}`).join(" | ")} |`);
    }
    const rest = v.files.filter((x) => x.role !== "docs page");
    for (const f of rest.filter((x) => x.sent > 0)) {
      say(`| ${f.role} | ${f.path} | ${f.status} | ${f.raw} | ${f.sent} | ${msf(f.end)} | ${marks.map(([, t]) => done(f, t)).join(" | ")} |`);
    }
    // Revalidated (304) or empty: one row per role.
    const empty = {};
    for (const f of rest.filter((x) => !x.sent)) (empty[f.role] ??= []).push(f);
    for (const [role, fs] of Object.entries(empty)) {
      say(`| ${role} | ${fs.length} requests without a body (${[...new Set(fs.map((f) => f.status))].join(", ")}) | | ${sum(fs, "raw")} | 0 | ${msf(Math.max(...fs.map((f) => f.end)))} | ${marks.map(([, t]) => `${fs.filter((f) => f.end <= t).length}/${fs.length}`).join(" | ")} |`);
    }
    const roles = {};
    for (const f of v.files) {
      const r = (roles[f.role] ??= { files: 0, sent: 0, before: marks.map(() => 0) });
      r.files += 1;
      r.sent += f.sent;
      marks.forEach(([, t], i) => {
        if (f.end <= t) r.before[i] += f.sent;
      });
    }
    say();
    say(`| role | files | sent | ${marks.map(([m]) => `complete before ${m}`).join(" | ")} |`);
    say(`|---|---|---|${marks.map(() => "---").join("|")}|`);
    for (const [role, r] of Object.entries(roles)) say(`| ${role} | ${r.files} | ${kb(r.sent)} | ${r.before.map(kb).join(" | ")} |`);
    say();
  }

  // The checks: the link's rate, the round trips, the CPU slowdown.
  const cold = r.visits.filter((v) => v.visit === "cold" && v.linkCheck);
  say(`Link check: while the largest response of each cold visit was in flight (${[...new Set(cold.map((v) => v.linkCheck.path.split("/").pop()))].join(", ")}), the link delivered ` +
    `${cold.map((v) => v.linkCheck.mbit.toFixed(2)).join(", ")} Mbit/s (set: ${c.mbit}); round trips drawn per request: median ` +
    `${msf(median(r.visits.flatMap((v) => v.rtts)))} ms over ${r.visits.reduce((a, v) => a + v.rtts.length, 0)} requests.`);
  // Fastest of each probe's runs: other load on the machine only ever slows a loop down, so
  // the fastest run is the best estimate of what the throttle alone does.
  const fastest = (xs) => Math.min(...xs.filter((x) => x > 0));
  const base = r.baselineStart
    ? { page: fastest([...r.baselineStart.samples.page, ...r.baselineEnd.samples.page]), worker: fastest([...r.baselineStart.samples.worker, ...r.baselineEnd.samples.worker]) }
    : r.baseline;
  const slow = (side, where) => {
    const xs = r.visits
      .filter((v) => v.side === side)
      .flatMap((v) => (where === "page" ? [fastest(v.cpu.pageSamples ?? [v.cpu.page])] : v.cpu.workers.map((w) => fastest(w.samples ?? [w.ms]))))
      .filter((x) => x > 0 && x < Infinity);
    return xs.length ? `${(median(xs) / base[where]).toFixed(1)}x` : "not measured";
  };
  const held = r.visits.flatMap((v) => v.cpu.cgroups ?? []);
  if (held.length) {
    const sum = (k) => held.reduce((a, x) => a + x[k], 0);
    say(`The kernel held the capped worker threads back in ${sum("throttled")} of the ${sum("periods")} periods they ran in ` +
      `(${(sum("throttledMs") / 1000).toFixed(1)} s in all, ${held.length} threads).`);
  }
  const vias = [...new Set(r.visits.flatMap((v) => v.throttle.workers.map((w) => w.via ?? "none")))];
  const refused = [...new Set(r.visits.flatMap((v) => v.throttle.workers.map((w) => w.refused).filter(Boolean)))];
  say(`CPU check (a fixed loop, fastest of 3 after each visit, against its fastest unthrottled run before and after the runs: page ${msf(base.page)} ms, worker ${msf(base.worker)} ms): ` +
    `Lectern page ${slow("lectern", "page")}, worker ${slow("lectern", "worker")}; transformers.js page ${slow("tjs", "page")}, worker ${slow("tjs", "worker")}.`);
  say(`Page throttled by CDP Emulation.setCPUThrottlingRate; workers: ${refused.length ? `CDP refused (${refused.join("; ")}), ` : ""}` +
    `throttled by ${vias.join(", ")}${vias.includes("cgroup") ? ` (${c.workerThrottle})` : ""}.` +
    (vias.includes("none") ? " A worker marked none ran at full speed: its figures are not slowed." : ""));
  const problems = r.visits.flatMap((v) => v.problems.map((p) => `${v.side} ${v.visit}: ${p}`));
  if (problems.length) say(`Page errors: ${[...new Set(problems)].slice(0, 10).join(" | ")}`);
  return lines.join("\n");
}

if (args.report) {
  console.log(report(JSON.parse(readFileSync(args.report, "utf8"))));
} else {
  main()
    .catch((e) => {
      console.error(`bench/first-seconds: ${e.stack ?? e.message}`);
      process.exitCode = 1;
    })
    .finally(cleanup);
}
