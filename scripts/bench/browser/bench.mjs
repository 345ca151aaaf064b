// Lectern (tract in wasm, pkg/) against transformers.js (onnxruntime-web, wasm backend) in one
// headless Chromium session, everything served from 127.0.0.1 (server.mjs). Run it through
// scripts/bench/browser.sh, which builds what it needs and sets:
//
//   LECTERN_PKG_DIR          Lectern's package (pkg/)
//   LECTERN_BENCH_BUNDLE     the sample bundle (`lectern build www/example`)
//   LECTERN_MODEL_DIR        model-compact.lcm and tokenizer.json (the same bytes as the bundle's), and
//                            model-int8.onnx, the same weights in transformers.js's form
//   LECTERN_VARIANTS         optional: name=dir,... other builds of pkg/ (e.g. relaxed=/tmp/pkg-relaxed),
//                            measured beside pkg/ in the warm-embedding page; a name containing
//                            "relaxed" is skipped when the browser does not validate relaxed SIMD
//   LECTERN_BENCH_OUT        optional: where to write the full results as JSON
//   BENCH_PASSES (2), BENCH_WARMUP (10), BENCH_COLD_RUNS (5), BENCH_PASSAGE_RUNS (20),
//   CHROMIUM (/usr/bin/chromium)
//
// Measures: (1) warm query embedding, each engine in its own module worker, timed inside the
// worker, engines interleaved query by query, with a parity check (cosine) of the vectors;
// Lectern's end-to-end search through its JS API; (2) cold start from navigation in a fresh
// browser context (empty caches); (3) bytes each cold start transferred, raw and as sent
// (brotli q11 / gzip -9, as a static host serves precompressed files); (4) wasm heap (every
// WebAssembly.Memory's byteLength) and JS heap (CDP Runtime.getHeapUsage of each worker and the
// page) after init. Prints a summary; the JSON has every sample.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "./server.mjs";
import { median, p95, stats } from "./stats.mjs";
import { chromiumLaunchOptions } from "../../lib/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const env = process.env;

function fail(message) {
  console.error(`bench/browser: ${message}`);
  process.exit(1);
}
function required(name) {
  if (!env[name]) fail(`${name} is not set: run scripts/bench/browser.sh`);
  return env[name];
}
const num = (name, dflt) => {
  const v = env[name] === undefined ? dflt : Number(env[name]);
  if (!Number.isInteger(v) || v < 0) fail(`${name} must be a whole number, not ${env[name]}`);
  return v;
};

const cfg = {
  pkgDir: required("LECTERN_PKG_DIR"),
  variants: Object.fromEntries(
    (env.LECTERN_VARIANTS || "")
      .split(",")
      .filter(Boolean)
      .map((v) => {
        const at = v.indexOf("=");
        if (at < 1 || !/^[a-z0-9+._-]+$/i.test(v.slice(0, at))) fail(`LECTERN_VARIANTS: bad entry ${v} (name=dir)`);
        return [v.slice(0, at), v.slice(at + 1)];
      }),
  ),
  bundleDir: required("LECTERN_BENCH_BUNDLE"),
  modelDir: required("LECTERN_MODEL_DIR"),
  cacheDir: env.LECTERN_BENCH_CACHE ?? path.join(env.LECTERN_CACHE ?? path.join(os.homedir(), ".cache/lectern"), "bench-browser"),
  out: env.LECTERN_BENCH_OUT || null,
  passes: num("BENCH_PASSES", 2),
  warmup: num("BENCH_WARMUP", 10),
  coldRuns: num("BENCH_COLD_RUNS", 5),
  passageRuns: num("BENCH_PASSAGE_RUNS", 20),
  chromium: env.CHROMIUM ?? "/usr/bin/chromium",
};
const TJS_DIST = path.join(here, "node_modules/@huggingface/transformers/dist");
const ORT_DIST = path.join(here, "node_modules/onnxruntime-web/dist");

// ---- inputs ------------------------------------------------------------------------------

const calibration = JSON.parse(readFileSync(path.join(root, "examples/bench/questions.json"), "utf8"));
const QUESTIONS = [...calibration.answerable.map((q) => q.question), ...calibration.off_topic];
const WARMUP = JSON.parse(readFileSync(path.join(root, "tests/browser/questions.json"), "utf8")).search;
const COLD_QUESTION = "How do ROS 2 nodes discover each other?";
const PASSAGE = JSON.parse(readFileSync(path.join(root, "examples/bench/texts.json"), "utf8")).passage;
const manifest = JSON.parse(readFileSync(path.join(cfg.bundleDir, "manifest.json"), "utf8"));
const sha = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");
{
  // Lectern must load the model folder's compact file (transformers.js its int8 ONNX): the
  // bundle's model file is that file's head (its word table ships as shards).
  const bundleModel = manifest.model?.weights?.name;
  if (!bundleModel) fail(`the bundle ${cfg.bundleDir} carries no model (built with --no-model?)`);
  const head = readFileSync(path.join(cfg.bundleDir, bundleModel));
  if (!readFileSync(path.join(cfg.modelDir, "model-compact.lcm")).subarray(0, head.length).equals(head)) {
    fail(`${bundleModel} in the bundle is not the head of ${cfg.modelDir}/model-compact.lcm: rebuild the bundle`);
  }
  if (sha(path.join(cfg.bundleDir, manifest.model.tokenizer.name)) !== sha(path.join(cfg.modelDir, "tokenizer.json"))) {
    fail(`the bundle's tokenizer is not ${cfg.modelDir}/tokenizer.json: rebuild the bundle`);
  }
}

// ---- statistics ----------------------------------------------------------------------------

const cosine = (a, b) => {
  let d = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return d / Math.sqrt(na * nb);
};
const ms = (x) => (x === undefined || x === null ? "—" : x >= 100 ? x.toFixed(0) : x.toFixed(2));
const mb = (b) => (b / 1e6).toFixed(2);

// ---- browser helpers --------------------------------------------------------------------

let browser;
let server;
let isoServer;
let browserCdp;

async function cleanup() {
  await browser?.close().catch(() => {});
  await server?.close().catch(() => {});
  await isoServer?.close().catch(() => {});
}
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => cleanup().finally(() => process.exit(130)));
}

/** A fresh context (empty HTTP cache and Cache Storage) on `url`; console errors are kept. */
async function openPage(url, ready) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const consoleLines = [];
  page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => consoleLines.push(`pageerror: ${e.message}`));
  await page.goto(url);
  if (ready) await page.waitForFunction(ready, null, { timeout: 120_000 });
  return { context, page, consoleLines };
}

/** page.evaluate that turns an in-page rejection into a readable error. */
async function inPage(page, fn, arg) {
  const r = await page.evaluate(
    async ([source, arg]) => {
      try {
        return { value: await new Function(`return (${source})`)()(arg) };
      } catch (e) {
        return { error: String(e?.stack ?? e?.message ?? e) };
      }
    },
    [fn.toString(), arg],
  );
  if (r.error) throw new Error(`in the page: ${r.error}`);
  return r.value;
}

/** Sends CDP `method` to the worker whose URL ends with `urlPart` (non-flat attach through the
 * browser session; Playwright does not expose worker sessions). */
async function workerCdp(urlPart, method, params = {}) {
  const { targetInfos } = await browserCdp.send("Target.getTargets");
  const target = targetInfos.filter((t) => t.type === "worker" && t.url.endsWith(urlPart)).at(-1);
  if (!target) throw new Error(`no worker target matching ${urlPart}`);
  const { sessionId } = await browserCdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
  try {
    const id = 1;
    const reply = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`CDP ${method} on ${urlPart} timed out`)), 30_000);
      const onMessage = (m) => {
        if (m.sessionId !== sessionId) return;
        const msg = JSON.parse(m.message);
        if (msg.id !== id) return;
        clearTimeout(timer);
        browserCdp.off("Target.receivedMessageFromTarget", onMessage);
        if (msg.error) reject(new Error(`CDP ${method}: ${msg.error.message}`));
        else resolve(msg.result);
      };
      browserCdp.on("Target.receivedMessageFromTarget", onMessage);
    });
    await browserCdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
    return await reply;
  } finally {
    await browserCdp.send("Target.detachFromTarget", { sessionId }).catch(() => {});
  }
}

/** wasm heap and JS heap (after a GC) of the worker whose URL ends with `urlPart`. */
async function workerMemory(urlPart) {
  // What stays after a full GC: transient download buffers are not the engine's heap.
  await workerCdp(urlPart, "HeapProfiler.collectGarbage");
  const heap = await workerCdp(urlPart, "Runtime.getHeapUsage");
  const wasm = await workerCdp(urlPart, "Runtime.evaluate", { expression: "globalThis.__benchWasmHeap?.()", returnByValue: true });
  return {
    wasmBytes: wasm.result?.value?.bytes ?? null,
    wasmMemories: wasm.result?.value?.memories ?? null,
    jsHeapUsed: heap.usedSize,
    jsHeapTotal: heap.totalSize,
    arrayBuffers: heap.backingStorageSize ?? null,
  };
}

async function pageMemory(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const heap = await cdp.send("Runtime.getHeapUsage");
  await cdp.detach();
  return { jsHeapUsed: heap.usedSize, jsHeapTotal: heap.totalSize, arrayBuffers: heap.backingStorageSize ?? null };
}

/** A tiny module using f32x4.relaxed_madd: what a page would validate to pick a relaxed build. */
const RELAXED_PROBE = (() => {
  const v128zero = [0xfd, 0x0c, ...new Array(16).fill(0)];
  const body = [0x00, ...v128zero, ...v128zero, ...v128zero, 0xfd, 0x85, 0x02, 0x0b];
  return [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type: () -> v128
    0x03, 0x02, 0x01, 0x00, // one function of that type
    0x0a, body.length + 2, 0x01, body.length, ...body,
  ];
})();

// ---- 1. warm embedding ---------------------------------------------------------------------

/**
 * Spawns `engines` (label -> worker URL + init args) in one page, inits them one after the
 * other, reads their memory, then embeds the warm-up questions and `passes` passes over
 * QUESTIONS (reversed on odd passes), engines interleaved per query in rotating order.
 */
async function warmEmbedding(origin, engines, passes, passageRuns = 0) {
  const { context, page, consoleLines } = await openPage(`${origin}/page/`, () => window.benchReady === true);
  try {
    const labels = Object.keys(engines);
    const init = {};
    const memory = {};
    for (const label of labels) {
      const { url, args } = engines[label];
      init[label] = await inPage(
        page,
        async ({ label, url, args }) => {
          window.engines ??= {};
          const w = spawn(url);
          window.engines[label] = w;
          const t0 = performance.now();
          const info = await w.call("init", args);
          return { ...info, totalMs: performance.now() - t0 };
        },
        { label, url, args },
      );
      memory[label] = await workerMemory(url);
    }
    const embedAll = (texts, order) =>
      inPage(
        page,
        async ({ texts, order }) => {
          const out = Object.fromEntries(order.map((l) => [l, []]));
          for (const [i, text] of texts.entries()) {
            for (let k = 0; k < order.length; k++) {
              const label = order[(i + k) % order.length];
              const [r] = await window.engines[label].call("embed", { texts: [text] });
              out[label].push(r);
            }
          }
          return out;
        },
        { texts, order },
      );
    const warm = cfg.warmup > 0 ? await embedAll(Array.from({ length: cfg.warmup }, (_, i) => WARMUP[i % WARMUP.length]), labels) : null;
    const runs = Object.fromEntries(labels.map((l) => [l, []]));
    const texts = [];
    for (let p = 0; p < passes; p++) {
      const qs = p % 2 ? [...QUESTIONS].reverse() : QUESTIONS;
      const r = await embedAll(qs, labels);
      texts.push(...qs);
      for (const l of labels) runs[l].push(...r[l]);
    }
    // One long text too (examples/bench/texts.json's passage, 256 word pieces): where the
    // per-token cost shows.
    let passage = null;
    if (passageRuns > 0) {
      await embedAll(Array.from({ length: 3 }, () => PASSAGE), labels);
      const r = await embedAll(Array.from({ length: passageRuns }, () => PASSAGE), labels);
      passage = Object.fromEntries(labels.map((l) => [l, r[l].map((x) => x.ms)]));
    }
    const tokens = labels.includes("tjs")
      ? await inPage(page, async (texts) => (await window.engines.tjs.call("tokens", { texts })).map((d) => d[1]), QUESTIONS)
      : null;
    const afterRuns = {};
    for (const label of labels) afterRuns[label] = await workerMemory(engines[label].url);
    return { init, memory, afterRuns, runs, passage, texts, tokens, warmupMs: warm && Object.fromEntries(labels.map((l) => [l, warm[l].map((r) => r.ms)])), console: consoleLines };
  } finally {
    await context.close();
  }
}

// ---- end-to-end search through Lectern's API ------------------------------------------------

async function searchLatency(origin) {
  const { context, page, consoleLines } = await openPage(`${origin}/page/`, () => window.benchReady === true);
  try {
    const r = await inPage(
      page,
      async ({ questions, warmup }) => {
        const lectern = await Lectern.open({ bundleUrl: "/bundle/", workerUrl: "/page/lectern-worker-wrap.js" });
        await lectern.whenHybrid();
        window.lectern = lectern;
        const time = async (fn) => {
          const t0 = performance.now();
          await fn();
          return performance.now() - t0;
        };
        for (const q of warmup) await lectern.search(q);
        // Every text shard once, so the timed searches fetch nothing.
        for (const q of questions) await lectern.search(q, { k: 10 });
        const out = { hybrid: [], lexical: [], embed: [] };
        for (const q of questions) {
          out.hybrid.push(await time(() => lectern.search(q)));
          out.lexical.push(await time(() => lectern.search(q, { mode: "lexical" })));
          out.embed.push(await time(() => lectern.embed(q)));
        }
        return out;
      },
      { questions: QUESTIONS, warmup: WARMUP },
    );
    const memory = { worker: await workerMemory("lectern-worker-wrap.js"), page: await pageMemory(page) };
    return { ...r, memory, console: consoleLines };
  } finally {
    await context.close();
  }
}

// ---- 2–4. cold start, bytes, memory ---------------------------------------------------------

function bytesOf(log, classify) {
  const groups = {};
  for (const e of log) {
    if (e.status !== 200 || e.path.startsWith("/page/") || e.path === "/page") continue;
    const g = classify(e.path);
    groups[g] ??= { files: 0, raw: 0, gzip: 0, br: 0, sent: 0 };
    const t = groups[g];
    t.files += 1;
    t.raw += e.raw;
    t.gzip += e.gzip ?? e.raw;
    t.br += e.br ?? e.raw;
    t.sent += e.sent;
  }
  const total = { files: 0, raw: 0, gzip: 0, br: 0, sent: 0 };
  for (const t of Object.values(groups)) for (const k of Object.keys(total)) total[k] += t[k];
  return { groups, total, files: log.filter((e) => !e.path.startsWith("/page")).map(({ path: p, raw, gzip, br, sent, encoding }) => ({ path: p, raw, gzip, br, sent, encoding })) };
}

const lecternGroup = (p) => {
  if (p.startsWith("/pkg/")) return p.endsWith(".wasm") ? "runtime wasm" : "runtime js";
  const name = p.split("/").pop();
  if (/^(manifest\.json|chunks\.|lexical\.)/.test(name)) return "lexical index";
  if (/^(model\.|tokenizer\.)/.test(name)) return "model + tokenizer";
  if (name.startsWith("dense.")) return "dense index";
  if (name.startsWith("text.")) return "text shards";
  return "other";
};
const tjsGroup = (p) => {
  if (p.startsWith("/tjs/")) return "runtime js";
  if (p.startsWith("/ort/")) return p.endsWith(".wasm") ? "runtime wasm" : "runtime js";
  if (p.startsWith("/models/")) return p.endsWith(".onnx") || p.endsWith("tokenizer.json") ? "model + tokenizer" : "model config";
  return "other";
};

async function coldLectern() {
  await fetch(`${server.origin}/__reset`);
  const { context, page, consoleLines } = await openPage(`${server.origin}/page/cold-lectern.html?q=${encodeURIComponent(COLD_QUESTION)}`);
  try {
    const r = await page.evaluate(() => window.result);
    if (r.error) throw new Error(`Lectern cold start failed: ${r.error} (${r.code})`);
    const memory = { worker: await workerMemory("lectern-worker-wrap.js"), page: await pageMemory(page) };
    return { ...r, memory, bytes: bytesOf(server.log.slice(), lecternGroup), console: consoleLines };
  } finally {
    await context.close();
  }
}

async function coldTjs() {
  await fetch(`${server.origin}/__reset`);
  const { context, page, consoleLines } = await openPage(`${server.origin}/page/cold-tjs.html?q=${encodeURIComponent(COLD_QUESTION)}`);
  try {
    const r = await page.evaluate(() => window.result);
    if (r.error) throw new Error(`transformers.js cold start failed: ${r.error}`);
    const memory = { worker: await workerMemory("tjs-worker.js"), page: await pageMemory(page) };
    return { ...r, memory, bytes: bytesOf(server.log.slice(), tjsGroup), console: consoleLines };
  } finally {
    await context.close();
  }
}

// ---- main ------------------------------------------------------------------------------------

async function main() {
  const dirs = {
    pageDir: path.join(here, "page"),
    pkgDir: cfg.pkgDir,
    variants: cfg.variants,
    bundleDir: cfg.bundleDir,
    tjsDir: TJS_DIST,
    ortDir: ORT_DIST,
    hfDir: path.join(here, "hf-model"),
    modelDir: cfg.modelDir,
    cacheDir: path.join(cfg.cacheDir, "encoded"),
  };
  server = await startServer(dirs);
  isoServer = await startServer({ ...dirs, isolate: true });
  const wasmFiles = [...readFileSync(path.join(cfg.pkgDir, "wasm-file.js"), "utf8").matchAll(/"([^"]+\.wasm)"/g)].map((m) => m[1]);
  // Precompress (once, cached by content hash) so no timed request pays for it.
  // Bundle format 2: shards are named by the catalog pages the manifest names; from format 5
  // the chunk shards by number, which no page lists (`chunks.<n>.<root>.json`).
  const pages = [...manifest.files.terms, ...(manifest.files.chunks ?? [])];
  const numbered = readdirSync(cfg.bundleDir).filter((name) => name.startsWith("chunks.")).map((name) => ({ name }));
  const shards = [...pages.flatMap((p) => JSON.parse(readFileSync(path.join(cfg.bundleDir, p.name), "utf8"))).flatMap((s) => (s.meta ? [s.meta, s.text] : [s])), ...numbered];
  const words = JSON.parse(readFileSync(path.join(cfg.bundleDir, manifest.model.words.name), "utf8"));
  const bundleFiles = [manifest.files.chunk_table, manifest.files.dense, ...pages, ...shards, manifest.model.weights, manifest.model.words, ...words, manifest.model.tokenizer];
  await server.warm([
    ...readdirSync(cfg.pkgDir).filter((f) => f.endsWith(".js")).map((f) => `/pkg/${f}`),
    ...wasmFiles.map((f) => `/pkg/${f}`),
    "/bundle/manifest.json",
    ...bundleFiles.map((f) => `/bundle/${f.name}`),
    "/tjs/transformers.min.js",
    "/ort/ort-wasm-simd-threaded.asyncify.mjs",
    "/ort/ort-wasm-simd-threaded.asyncify.wasm",
    ...["config.json", "tokenizer_config.json", "tokenizer.json", "onnx/model_quantized.onnx", "model-compact.lcm"].map((f) => `/models/all-minilm-l6-v2/${f}`),
  ]);

  browser = await chromium.launch({ ...chromiumLaunchOptions(), executablePath: cfg.chromium });
  browserCdp = await browser.newBrowserCDPSession();
  const results = { config: { ...cfg, chromium: browser.version(), cpus: os.cpus().length, questions: QUESTIONS.length, coldQuestion: COLD_QUESTION }, when: new Date().toISOString() };

  // Which SIMD the browser offers: the check a page would make to pick a relaxed build.
  const probe = await openPage(`${server.origin}/page/`, () => window.benchReady === true);
  results.features = await inPage(probe.page, async (bytes) => ({
    relaxedSimd: WebAssembly.validate(new Uint8Array(bytes)),
    crossOriginIsolated: self.crossOriginIsolated,
    hardwareConcurrency: navigator.hardwareConcurrency,
  }), RELAXED_PROBE);
  await probe.context.close();

  // The whole compact file (word table included): these pages time embedding, not fetching.
  const modelArgs = { modelUrl: "/models/all-minilm-l6-v2/model-compact.lcm", tokenizerUrl: `/bundle/${manifest.model.tokenizer.name}` };
  const engines = {
    lectern: { url: "/page/lectern-embed-worker.js?pkg=/pkg/", args: modelArgs },
    tjs: { url: "/page/tjs-worker.js", args: { threads: 1 } },
  };
  for (const name of Object.keys(cfg.variants)) {
    if (name.includes("relaxed") && !results.features.relaxedSimd) {
      console.error(`bench/browser: this Chromium does not validate relaxed SIMD; skipping ${name}`);
    } else {
      engines[`lectern:${name}`] = { url: `/page/lectern-embed-worker.js?pkg=${encodeURIComponent(`/pkg-${name}/`)}`, args: modelArgs };
    }
  }
  console.error("bench/browser: warm embedding (single-threaded, not cross-origin isolated)");
  results.warm = await warmEmbedding(server.origin, engines, cfg.passes, cfg.passageRuns);

  // Multi-threaded onnxruntime-web: asked for 2 threads without isolation, then with it.
  console.error("bench/browser: onnxruntime-web with 2 threads, without and with cross-origin isolation");
  results.threads = {
    notIsolated: await warmEmbedding(server.origin, { tjs: { url: "/page/tjs-worker.js?threads=2", args: { threads: 2 } } }, 1),
    isolated: await warmEmbedding(
      isoServer.origin,
      {
        lectern: { url: "/page/lectern-embed-worker.js?pkg=/pkg/&iso=1", args: modelArgs },
        tjs: { url: "/page/tjs-worker.js?threads=2&iso=1", args: { threads: 2 } },
      },
      1,
    ),
  };

  console.error("bench/browser: end-to-end search through Lectern's API");
  results.search = await searchLatency(server.origin);

  console.error(`bench/browser: cold starts (${cfg.coldRuns} per side, fresh context each)`);
  results.cold = { lectern: [], tjs: [] };
  for (let i = 0; i < cfg.coldRuns; i++) {
    const order = i % 2 ? ["tjs", "lectern"] : ["lectern", "tjs"];
    for (const side of order) results.cold[side].push(side === "lectern" ? await coldLectern() : await coldTjs());
  }

  if (cfg.out) writeFileSync(cfg.out, JSON.stringify(results, null, 1));
  report(results);
}

// ---- the summary ----------------------------------------------------------------------------

function report(r) {
  const lines = [];
  const say = (s = "") => lines.push(s);
  const w = r.warm;
  const s = Object.fromEntries(Object.entries(w.runs).map(([l, xs]) => [l, stats(xs.map((x) => x.ms))]));
  const cos = (a, b) => {
    const cs = w.runs[a].map((x, i) => cosine(x.vector, w.runs[b][i].vector));
    return { min: Math.min(...cs), mean: cs.reduce((x, y) => x + y, 0) / cs.length };
  };
  say(`Chromium ${r.config.chromium}, ${r.config.cpus} cores; relaxed SIMD validates: ${r.features.relaxedSimd}; ` +
    `${QUESTIONS.length} questions x ${cfg.passes} passes after ${cfg.warmup} warm-up; word pieces per question (median / max): ` +
    `${w.tokens ? `${median(w.tokens)} / ${Math.max(...w.tokens)}` : "?"}`);
  say();
  say("1. Warm query embedding (in a module worker, timed inside it; ms)");
  const ps = w.passage && Object.fromEntries(Object.entries(w.passage).map(([l, xs]) => [l, stats(xs)]));
  say("| engine | ready ms (runtime + files + model) | of which model init | query median | query p95 | query vs transformers.js | passage (256) median / p95 | passage vs transformers.js | cosine to transformers.js, min / mean |");
  say("|---|---|---|---|---|---|---|---|---|");
  const names = { lectern: "Lectern pkg/ (tract, simd128)", tjs: "transformers.js (onnxruntime-web, 1 thread)" };
  for (const v of Object.keys(cfg.variants)) names[`lectern:${v}`] = `Lectern, core variant ${v}`;
  for (const l of Object.keys(s)) {
    const c = l === "tjs" ? null : cos(l, "tjs");
    const pass = ps ? `${ms(ps[l].median)} / ${ms(ps[l].p95)} | ${(ps[l].median / ps.tjs.median).toFixed(2)}x` : "— | —";
    say(`| ${names[l]} | ${ms(w.init[l].totalMs)} | ${l === "tjs" ? "—" : ms(w.init[l].initMs)} | ${ms(s[l].median)} | ${ms(s[l].p95)} | ${(s[l].median / s.tjs.median).toFixed(2)}x | ${pass} | ${c ? `${c.min.toFixed(7)} / ${c.mean.toFixed(7)}` : "—"} |`);
  }
  const ni = r.threads.notIsolated;
  const iso = r.threads.isolated;
  const isoS = Object.fromEntries(Object.entries(iso.runs).map(([l, xs]) => [l, stats(xs.map((x) => x.ms))]));
  say(`transformers.js asked for 2 threads without cross-origin isolation: used ${ni.init.tjs.threadsUsed} ` +
    `(median ${ms(stats(ni.runs.tjs.map((x) => x.ms)).median)} ms)`);
  say(`cross-origin isolated (COOP/COEP), 2 threads asked, ${iso.init.tjs.threadsUsed} used: transformers.js median ${ms(isoS.tjs.median)} / p95 ${ms(isoS.tjs.p95)} ms; ` +
    `Lectern in the same page ${ms(isoS.lectern.median)} / ${ms(isoS.lectern.p95)} ms (${(isoS.lectern.median / isoS.tjs.median).toFixed(2)}x)`);
  const se = r.search;
  say(`Lectern end to end through its API (page -> worker -> page, text included): hybrid search ${ms(median(se.hybrid))} / p95 ${ms(p95(se.hybrid))} ms; ` +
    `lexical ${ms(median(se.lexical))} / ${ms(p95(se.lexical))} ms; embed() ${ms(median(se.embed))} / ${ms(p95(se.embed))} ms`);
  say();
  say(`2. Cold start from navigation, fresh context (median of ${cfg.coldRuns}; ms)`);
  const med = (runs, key) => median(runs.map((x) => x.at[key]));
  const L = r.cold.lectern;
  const T = r.cold.tjs;
  say(`| | Lectern | transformers.js |`);
  say(`|---|---|---|`);
  say(`| lexical ready (onProgress 'lexical-ready') | ${ms(med(L, "lexical-ready"))} | — |`);
  say(`| first lexical result | ${ms(med(L, "firstLexical"))} | — |`);
  say(`| hybrid ready / pipeline ready | ${ms(med(L, "hybrid-ready"))} | ${ms(med(T, "pipelineReady"))} |`);
  say(`| first hybrid result / first embedding | ${ms(med(L, "firstHybrid"))} | ${ms(med(T, "firstEmbedding"))} |`);
  say();
  say("3. Bytes transferred by one cold start (raw / gzip -9 / brotli q11; sent = what the server sent)");
  say("| stack | part | files | raw | gzip | brotli | sent |");
  say("|---|---|---|---|---|---|---|");
  for (const [name, runs] of [["Lectern", L], ["transformers.js", T]]) {
    const b = runs[0].bytes;
    for (const [g, t] of Object.entries(b.groups)) say(`| ${name} | ${g} | ${t.files} | ${t.raw} | ${t.gzip} | ${t.br} | ${t.sent} |`);
    say(`| ${name} | **total** | ${b.total.files} | ${b.total.raw} | ${b.total.gzip} | ${b.total.br} | ${b.total.sent} |`);
  }
  say();
  say("4. Memory after init (MB; wasm = WebAssembly.Memory byteLength, JS = CDP Runtime.getHeapUsage usedSize after a GC)");
  say("| | wasm heap | worker JS heap | worker ArrayBuffers | page JS heap |");
  say("|---|---|---|---|---|");
  const memRow = (label, m, page) => say(`| ${label} | ${mb(m.wasmBytes)} | ${mb(m.jsHeapUsed)} | ${m.arrayBuffers === null ? "—" : mb(m.arrayBuffers)} | ${page ? mb(page.jsHeapUsed) : "—"} |`);
  memRow("Lectern worker after cold start (index + model)", L[0].memory.worker, L[0].memory.page);
  memRow("transformers.js worker after cold start (one embedding)", T[0].memory.worker, T[0].memory.page);
  for (const l of Object.keys(w.memory)) memRow(`${names[l]}: embedder alone, after init`, w.memory[l]);
  for (const l of Object.keys(w.afterRuns)) memRow(`${names[l]}: embedder alone, after the timed queries`, w.afterRuns[l]);
  console.log(lines.join("\n"));
}

main()
  .catch((e) => {
    console.error(`bench/browser: ${e.stack ?? e.message}`);
    process.exitCode = 1;
  })
  .finally(cleanup);
