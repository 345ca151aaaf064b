// The built site (issue 7, point 6): no secret in any emitted file, nothing heavy before the
// reader asks, and the bytes the widget and the navbar's search box add to a docs page —
// measured against the same site built without the plugin (LECTERN_E2E_BASELINE), within
// issue 26's budget of 8 KB gzip.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { gzipSync, brotliCompressSync } from "node:zlib";
import { startSiteServer } from "./server.mjs";
import { ARTIFACTS, SITE, newPage, openDocs, useEnvironment } from "./harness.mjs";

const env = useEnvironment();
const BASELINE = process.env.LECTERN_E2E_BASELINE;
const CANARY = process.env.LECTERN_E2E_CANARY;
const BUDGET = 8 * 1024;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(p);
    else yield p;
  }
}

test("no API key or endpoint secret in any emitted file", () => {
  assert.ok(CANARY, "run.sh builds with a canary key in the environment");
  // Key shapes of OpenAI, Anthropic, Groq, Hugging Face, Google; bearer tokens; key fields.
  const patterns = [
    /sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/,
    /gsk_[A-Za-z0-9]{20,}/,
    /hf_[A-Za-z0-9]{20,}/,
    /AIza[0-9A-Za-z_-]{30,}/,
    /Bearer\s+[A-Za-z0-9._~+/-]{16,}/,
    /["']?(?:api[_-]?key|apiKey|x-api-key|authorization)["']?\s*[:=]\s*["'][^"']{8,}["']/i,
  ];
  let scanned = 0;
  const hits = [];
  for (const file of files(SITE)) {
    const text = readFileSync(file).toString("latin1");
    scanned++;
    if (text.includes(CANARY)) hits.push(`${file}: the canary key from the build environment`);
    // The model and wasm are binary: only the canary is looked for in them.
    if (/\.(onnx|wasm)$/.test(file)) continue;
    for (const p of patterns) {
      const m = p.exec(text);
      if (m) hits.push(`${file}: ${m[0].slice(0, 40)}`);
    }
  }
  assert.deepEqual(hits, []);
  assert.ok(scanned > 50, `${scanned} files scanned`);
  // The scan sees the widget's configuration: the endpoint (a public proxy path) is there.
  const main = [...files(path.join(SITE, "assets/js"))].map((f) => readFileSync(f, "utf8")).join("\n");
  assert.ok(main.includes("/api/llm/v1/chat/completions"), "the configured endpoint is found where the scan looks");
});

test("before the panel opens, no runtime, wasm, index or model is requested", async (t) => {
  const { page } = await newPage(t, env);
  env.site.clearRequests();
  await openDocs(page, env, "/docs/ros2-fundamentals/nodes-topics/");
  await page.mouse.move(200, 300);
  await page.mouse.wheel(0, 600);
  await page.waitForTimeout(1500);
  const early = env.site.requests().filter((r) => r.path.startsWith("/lectern/"));
  assert.deepEqual(early, []);
  await page.click(".lectern-launcher");
  await page.waitForFunction(() => !document.querySelector('[data-lectern-status="index"]') && document.querySelector(".lectern-panel textarea"), null, { timeout: 60000 });
  const later = env.site.requests().map((r) => r.path);
  for (const want of [/^\/lectern\/runtime\/index\.js$/, /^\/lectern\/runtime\/chat\.js$/, /^\/lectern\/runtime\/lectern_core_bg\.[0-9a-f]+\.wasm$/, /^\/lectern\/bundle\/manifest\.json$/]) {
    assert.ok(later.some((p) => want.test(p)), `${want} loads once the panel opens`);
  }
});

/** JS and CSS a docs page loads (unique URLs, before any interaction), with their sizes. */
async function pageWeight(t, root, pathname) {
  const site = await startSiteServer({ root });
  try {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const assets = new Map();
    page.on("response", async (response) => {
      const type = response.request().resourceType();
      if (type !== "script" && type !== "stylesheet") return;
      const url = new URL(response.url());
      if (url.origin !== site.origin || assets.has(url.pathname)) return;
      assets.set(url.pathname, null);
    });
    await page.goto(site.origin + pathname);
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(1000);
    await context.close();
    const list = [...assets.keys()].map((p) => {
      const body = readFileSync(path.join(root, decodeURIComponent(p)));
      return { path: p, raw: body.length, gzip: gzipSync(body, { level: 9 }).length, brotli: brotliCompressSync(body).length };
    });
    const sum = (k) => list.reduce((a, b) => a + b[k], 0);
    return { assets: list, raw: sum("raw"), gzip: sum("gzip"), brotli: sum("brotli") };
  } finally {
    await site.close();
  }
}

test(`the widget and the search box add under ${BUDGET / 1024} KB (gzip) of JS + CSS to a docs page before they are used`, async (t) => {
  if (!BASELINE || !existsSync(path.join(BASELINE, "index.html"))) {
    t.skip("no baseline build (LECTERN_E2E_BASELINE): run tests/e2e/run.sh");
    return;
  }
  const pathname = "/docs/ros2-fundamentals/nodes-topics/";
  const [with_, without] = [await pageWeight(t, SITE, pathname), await pageWeight(t, BASELINE, pathname)];
  const added = { raw: with_.raw - without.raw, gzip: with_.gzip - without.gzip, brotli: with_.brotli - without.brotli };
  // The panel's own chunk (loaded on open), for the record.
  const chunk = (marker) =>
    [...files(path.join(SITE, "assets/js"))]
      .filter((f) => readFileSync(f, "utf8").includes(marker))
      .map((f) => ({ file: path.basename(f), raw: statSync(f).size, gzip: gzipSync(readFileSync(f), { level: 9 }).length }));
  const panel = chunk("lectern-composer");
  const searchDialog = chunk("lectern-search__input");
  const runtime = [...files(path.join(SITE, "lectern/runtime"))].map((f) => ({ file: path.basename(f), raw: statSync(f).size, gzip: gzipSync(readFileSync(f), { level: 9 }).length }));
  const report = { page: pathname, withWidget: with_, withoutWidget: without, added, budgetGzip: BUDGET, panelChunkOnOpen: panel, searchDialogChunkOnUse: searchDialog, runtimeOnOpen: runtime };
  writeFileSync(path.join(ARTIFACTS, "page-weight.json"), JSON.stringify(report, null, 2));
  t.diagnostic(`JS+CSS on ${pathname}: with widget ${with_.gzip} B gzip (${with_.raw} raw), without ${without.gzip} B gzip (${without.raw} raw)`);
  t.diagnostic(`added by the widget before opening: ${added.gzip} B gzip, ${added.brotli} B brotli, ${added.raw} B raw`);
  t.diagnostic(`on open: panel chunk ${panel.map((p) => `${p.gzip} B gzip`).join(", ")}; search dialog chunk ${searchDialog.map((p) => `${p.gzip} B gzip`).join(", ")}; runtime ${runtime.map((r) => `${r.file} ${r.gzip} B gzip`).join(", ")}`);
  assert.ok(added.gzip > 0, "the measurement sees the widget");
  assert.ok(added.gzip < BUDGET, `the widget adds ${added.gzip} B gzip`);
});
