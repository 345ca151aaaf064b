// The search box's speed, Lectern beside Pagefind in one headless Chromium (issue 26, point
// 4): both boxes index the same sections (index-pagefind.mjs) and are served by the bench
// server (../browser/server.mjs: brotli q11 as a static host sends it, from 127.0.0.1).
// Per side, in a fresh browser context (empty cache): open the box as on focus (Lectern:
// the core, manifest and chunk table, no model; Pagefind: its init), then type each query a
// character at a time, each keystroke's rows rendered before the next key. Recorded:
//   - bytes sent from the page's first request to the first keystroke that shows rows
//     ("first results after focus"), and how long that took;
//   - every keystroke's time from the new query to its rows in the DOM (keyword rows);
//   - with --hybrid (the bundle carries the model): Lectern again with the model warm, each
//     keystroke until the rows found by meaning are merged in (no pause: semanticDelayMs 0).
// Sides alternate run by run (a shared, noisy machine). Prints figures and Lectern/Pagefind
// ratios; asserts only that both boxes answered.
//
//   node measure.mjs --bundle DIR --pkg DIR --pagefind DIR [--runs 3] [--hybrid]
//                    [--label NAME] [--json OUT] QUERY...

import { chromium } from "playwright-core";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { startServer } from "../browser/server.mjs";
import { stats } from "../browser/stats.mjs";
import { chromiumLaunchOptions } from "../../lib/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values, positionals: queries } = parseArgs({
  allowPositionals: true,
  options: {
    bundle: { type: "string" },
    pkg: { type: "string" },
    pagefind: { type: "string" },
    runs: { type: "string", default: "3" },
    hybrid: { type: "boolean", default: false },
    label: { type: "string", default: "" },
    json: { type: "string" },
    cache: { type: "string", default: path.join(process.env.LECTERN_CACHE ?? "/tmp", "bench-encoded") },
  },
});
if (!values.bundle || !values.pkg || !values.pagefind || !queries.length) {
  console.error("usage: node measure.mjs --bundle DIR --pkg DIR --pagefind DIR [--runs 3] [--hybrid] [--label NAME] [--json OUT] QUERY...");
  process.exit(2);
}
const runs = Number(values.runs);

const server = await startServer({ pageDir: path.join(here, "page"), pkgDir: values.pkg, bundleDir: values.bundle, siteDir: values.pagefind, cacheDir: values.cache });
const browser = await chromium.launch(chromiumLaunchOptions());

/** Bytes sent so far for the box (the bench page itself not counted). */
const sentSoFar = () => server.log.filter((e) => !e.path.startsWith("/page/")).reduce((n, e) => n + e.sent, 0);
const filesSoFar = () => server.log.filter((e) => !e.path.startsWith("/page/")).length;

/** One visit: open the box, type every query; `side` lectern | pagefind | hybrid. */
async function visit(side) {
  server.log.length = 0;
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const t0 = Date.now();
    await page.goto(`${server.origin}/page/box.html`);
    await page.waitForFunction(() => window.ready);
    const opened = Date.now();
    if (side === "pagefind") await page.evaluate(() => window.bench.openPagefind());
    else await page.evaluate((model) => window.bench.openLectern({ model }), side === "hybrid");
    const openMs = Date.now() - opened;
    const keys = [];
    let first = null;
    for (const query of queries) {
      for (let i = 1; i <= query.length; i++) {
        const typed = query.slice(0, i);
        if (typed.endsWith(" ")) continue; // a space alone changes no query's words
        const before = { files: filesSoFar(), sent: sentSoFar() };
        const r =
          side === "pagefind"
            ? await page.evaluate((q) => window.bench.pagefindKey(q), typed)
            : await page.evaluate(([q, k]) => window.bench.lecternKey(q, k), [typed, side === "hybrid" ? 3 : 0]);
        // What this keystroke fetched (files, bytes sent): the JSON report's per-key record.
        keys.push({ query: typed, ...r, files: filesSoFar() - before.files, sent: sentSoFar() - before.sent });
        if (!first && r.rows > 0) {
          const files = server.log.filter((e) => !e.path.startsWith("/page/")).map((e) => ({ path: e.path, sent: e.sent }));
          first = { query: typed, bytes: sentSoFar(), files: files.length, ms: Date.now() - t0, byFile: files };
        }
      }
      if (!keys.at(-1).rows) throw new Error(`${side}: no rows for "${query}"`);
    }
    return { side, openMs, first, keys, bytes: sentSoFar(), files: filesSoFar() };
  } finally {
    await context.close();
  }
}

const visits = [];
try {
  for (let run = 0; run < runs; run++) {
    const order = run % 2 ? ["pagefind", "lectern"] : ["lectern", "pagefind"];
    if (values.hybrid) order.push("hybrid");
    for (const side of order) visits.push({ run, ...(await visit(side)) });
  }
} finally {
  await browser.close();
  await server.close();
}

const of = (side) => visits.filter((v) => v.side === side);
const keyStats = (side, field) => stats(of(side).flatMap((v) => v.keys.map((k) => k[field])));
const kb = (n) => (n / 1000).toFixed(1);
const ms = (n) => n.toFixed(1);
const firstOf = (side) => of(side)[0]?.first;
const rows = [];
const line = (what, l, p, ratio = true) => rows.push(`| ${what} | ${l} | ${p} | ${ratio && typeof l === "number" && typeof p === "number" ? (l / p).toFixed(2) + "x" : ""} |`);
console.log(`\n${values.label ? values.label + ": " : ""}${queries.length} queries typed a character at a time (${of("lectern")[0].keys.length} keystrokes a visit), ${runs} visits a side, sides alternating`);
console.log("| | Lectern | Pagefind | Lectern / Pagefind |\n|---|---|---|---|");
const L = keyStats("lectern", "firstMs");
const P = keyStats("pagefind", "firstMs");
line("keystroke → rows rendered, median (ms)", Number(ms(L.median)), Number(ms(P.median)));
line("keystroke → rows rendered, p95 (ms)", Number(ms(L.p95)), Number(ms(P.p95)));
line("keystroke → rows rendered, max (ms)", Number(ms(L.max)), Number(ms(P.max)));
const fl = firstOf("lectern");
const fp = firstOf("pagefind");
line("first results after focus: KB sent (brotli)", Number(kb(fl.bytes)), Number(kb(fp.bytes)));
line("first results after focus: files", fl.files, fp.files);
line("first results after focus: at the query", `"${fl.query}"`, `"${fp.query}"`, false);
line("opening the box (ms, median)", stats(of("lectern").map((v) => v.openMs)).median, stats(of("pagefind").map((v) => v.openMs)).median);
line("KB sent for the whole visit (every query typed)", Number(kb(of("lectern")[0].bytes)), Number(kb(of("pagefind")[0].bytes)));
console.log(rows.join("\n"));
// Where the first results' bytes went (Lectern's first visit), by kind of file.
const kind = (p) => (p.startsWith("/pkg/") ? (p.endsWith(".wasm") ? "core wasm" : "JS") : p.replace(/^\/bundle\/([a-z-]+).*$/, "$1"));
const byKind = {};
for (const f of fl.byFile) byKind[kind(f.path)] = (byKind[kind(f.path)] ?? 0) + f.sent;
console.log(`Lectern's first results, KB sent by kind: ${Object.entries(byKind).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${kb(n)}`).join(", ")}`);
if (values.hybrid) {
  const H = keyStats("hybrid", "lastMs");
  const merged = of("hybrid").flatMap((v) => v.keys).filter((k) => k.merged).length;
  console.log(`\nLectern with the model warm, each keystroke until the rows found by meaning are merged in: median ${ms(H.median)} ms, p95 ${ms(H.p95)} ms (${merged} of ${H.n} keystrokes merged rows found by meaning; the keyword rows first at ${ms(keyStats("hybrid", "firstMs").median)} ms median). Pagefind has no search by meaning.`);
}
if (values.json) await writeFile(values.json, JSON.stringify({ label: values.label, queries, visits }, null, 2));
