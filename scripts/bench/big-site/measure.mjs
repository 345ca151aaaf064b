// Bytes a first-time reader fetches for one keyword search, in headless Chromium, by role:
// the core wasm module, the JS, the manifest, the global parts (chunk table), term catalog
// pages and term shards, chunk catalog pages, metadata and text shards. Each question runs
// in a fresh browser context (empty HTTP cache and Cache API) against the bench server
// (scripts/bench/browser/server.mjs: brotli q11 as a static host would send it). Prints
// figures only: no timing, no assertion but "the search answered" and "no file outside the
// question's parts was fetched".
//
//   node measure.mjs --bundle DIR --pkg DIR [--k 3] [--json OUT] QUESTION...

import { chromium } from "playwright-core";
import { readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../browser/server.mjs";
import { chromiumLaunchOptions } from "../../lib/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  return value;
};
const bundleDir = opt("bundle");
const pkgDir = opt("pkg");
const k = Number(opt("k", "3"));
const jsonOut = opt("json");
const cacheDir = opt("cache", path.join(process.env.LECTERN_CACHE ?? "/tmp", "bench-encoded"));
const questions = args;
if (!bundleDir || !pkgDir || !questions.length) {
  console.error("usage: node measure.mjs --bundle DIR --pkg DIR [--k 3] [--json OUT] QUESTION...");
  process.exit(2);
}

const ROLES = [
  ["wasm core", (p) => p.startsWith("/pkg/") && p.endsWith(".wasm")],
  ["JS", (p) => p.startsWith("/pkg/")],
  ["manifest", (p) => p === "/bundle/manifest.json"],
  ["global (chunk table)", (p) => p.startsWith("/bundle/chunk-table.")],
  ["term catalog pages", (p) => p.startsWith("/bundle/term-catalog.")],
  ["term shards", (p) => p.startsWith("/bundle/terms.")],
  ["chunk catalog pages", (p) => p.startsWith("/bundle/chunk-catalog.")],
  ["metadata shards", (p) => p.startsWith("/bundle/meta.")],
  ["text shards", (p) => p.startsWith("/bundle/text.")],
  // The old format's files, for a before/after run on an old bundle.
  ["old: chunks.json + lexical.bin", (p) => /^\/bundle\/(chunks|lexical)\./.test(p)],
  ["other bundle files", (p) => p.startsWith("/bundle/")],
  ["bench page", () => true],
];
const roleOf = (p) => ROLES.find(([, test]) => test(p))[0];

/** Bytes of every file of the bundle on disk whose name starts with `prefix`. */
async function onDisk(prefix) {
  let bytes = 0;
  let count = 0;
  for (const name of await readdir(bundleDir)) {
    if (name.startsWith(prefix)) {
      bytes += (await stat(path.join(bundleDir, name))).size;
      count++;
    }
  }
  return { bytes, count };
}

const server = await startServer({ pageDir: path.join(here, "page"), pkgDir, bundleDir, cacheDir });
const browser = await chromium.launch(chromiumLaunchOptions());
const runs = [];
try {
  for (const question of questions) {
    server.log.length = 0;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.origin}/page/keyword.html?k=${k}&q=${encodeURIComponent(question)}`);
    const result = await page.waitForFunction(() => window.result, null, { timeout: 600_000 }).then((h) => h.jsonValue());
    await context.close();
    if (result.error) throw new Error(`${question}: ${result.code} ${result.error}`);
    const byRole = Object.fromEntries(ROLES.map(([role]) => [role, { files: 0, raw: 0, sent: 0 }]));
    for (const entry of server.log) {
      const role = byRole[roleOf(entry.path)];
      role.files++;
      role.raw += entry.raw;
      role.sent += entry.sent;
    }
    const panel = Object.entries(byRole).filter(([role]) => role !== "bench page");
    const total = panel.reduce((sum, [, r]) => sum + r.sent, 0);
    const totalRaw = panel.reduce((sum, [, r]) => sum + r.raw, 0);
    runs.push({ question, hits: result.hits.length, withText: result.hits.filter((h) => h.hasText).length, byRole, total, totalRaw, paths: server.log.map((e) => e.path) });
  }
} finally {
  await browser.close();
  await server.close();
}

const kb = (n) => (n / 1000).toFixed(1);
const index = {
  terms: await onDisk("terms."),
  meta: await onDisk("meta."),
  text: await onDisk("text."),
  pages: { bytes: (await onDisk("term-catalog.")).bytes + (await onDisk("chunk-catalog.")).bytes, count: (await onDisk("term-catalog.")).count + (await onDisk("chunk-catalog.")).count },
};
console.log(`bundle ${bundleDir}: ${index.terms.count} term shards (${kb(index.terms.bytes)} KB raw), ${index.meta.count} metadata and ${index.text.count} text shards (${kb(index.meta.bytes + index.text.bytes)} KB raw), ${index.pages.count} catalog pages`);
console.log(`k = ${k}; KB sent (brotli q11 as served; raw in brackets), empty cache, one fresh browser context per question\n`);
const used = ROLES.map(([role]) => role).filter((role) => role !== "bench page" && runs.some((r) => r.byRole[role].files));
const header = ["question", ...used, "total", "files", "hits"];
console.log(`| ${header.join(" | ")} |`);
console.log(`|${header.map(() => "---").join("|")}|`);
for (const r of runs) {
  const cells = used.map((role) => {
    const x = r.byRole[role];
    return x.files ? `${kb(x.sent)} (${x.files})` : "–";
  });
  const files = used.reduce((n, role) => n + r.byRole[role].files, 0);
  console.log(`| ${r.question} | ${cells.join(" | ")} | **${kb(r.total)}** [${kb(r.totalRaw)}] | ${files} | ${r.hits} (${r.withText} with text) |`);
}
const termFetched = Math.max(...runs.map((r) => r.byRole["term shards"].raw));
console.log(`\nthe most term-shard bytes one question fetched: ${kb(termFetched)} KB raw of ${kb(index.terms.bytes)} KB (${((100 * termFetched) / Math.max(1, index.terms.bytes)).toFixed(2)} % of the keyword index)`);
const others = runs.filter((r) => r.byRole["other bundle files"].files);
if (others.length) console.log(`files outside the question's parts were fetched: ${JSON.stringify(others.map((r) => r.paths.filter((p) => roleOf(p) === "other bundle files")))}`);
if (jsonOut) await writeFile(jsonOut, JSON.stringify({ bundleDir, k, index, runs }, null, 2));
