// A bundle whose dense index is in parts (`lectern build --dense-parts always`, as a site
// above 2,500 vectors is built), opened with the JS API in headless Chromium: the same top
// results as the native `lectern search`, what its dense parts cost in requests and bytes,
// and a keyword answer that says so when its parts are damaged. Run through
// tests/browser/run.sh, which builds the bundle and the native results.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { ASSETS, inPage, openPage, useBrowser } from "./harness.mjs";

const env = useBrowser();
const PARTS_DIR = path.join(ASSETS, "bundle-parts");
const isDense = (name) => /^dense-(head|part|catalog)\./.test(name);

/** Bytes of a bundle file as a static host sends it (brotli, quality 11). */
function brotliBytes(name) {
  const bytes = readFileSync(path.join(PARTS_DIR, name));
  return brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

test("a dense index in parts gives the native results, fetching only the parts a question needs", async (t) => {
  const native = JSON.parse(readFileSync(path.join(ASSETS, "native/search-parts.json"), "utf8"));
  const manifest = JSON.parse(readFileSync(path.join(PARTS_DIR, "manifest.json"), "utf8"));
  assert.equal(manifest.files.dense_layout, "parts");
  // Bundle format 5: the head lists the parts, the manifest no dense catalog page.
  assert.equal(manifest.files.dense_parts, undefined);
  const page = await openPage(t, env);
  const { value, error } = await inPage(
    page,
    async ({ bundleUrl, questions }) => {
      const lectern = await Lectern.open({ bundleUrl });
      await lectern.whenHybrid();
      const seen = async () => (await (await fetch("/__log")).json()).length;
      const out = [];
      for (const question of questions) {
        const before = await seen();
        const result = await lectern.search(question, { k: 5, mode: "hybrid" });
        out.push({ result, log: (await (await fetch("/__log")).json()).slice(before) });
      }
      lectern.close();
      return out;
    },
    { bundleUrl: "/partsparity/bundle-parts/", questions: native.map((n) => n.question) },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  const perQuestion = [];
  native.forEach(({ question, result }, i) => {
    const got = value[i].result;
    assert.equal(got.mode_used, "hybrid", question);
    assert.deepEqual(got.chunks.map((c) => c.chunk_id).slice(0, 3), result.results.map((r) => r.chunk_id).slice(0, 3), question);
    const dense = value[i].log.map((l) => l.path.split("/").pop()).filter(isDense);
    assert.ok(!dense.some((name) => name.startsWith("dense-catalog.")), `${question}: no dense catalog page`);
    assert.equal(new Set(dense).size, dense.length, `${question}: no dense part fetched twice`);
    perQuestion.push({ requests: dense.length, bytes: dense.reduce((sum, name) => sum + brotliBytes(name), 0) });
  });
  const head = brotliBytes(manifest.files.dense.name);
  const whole = statSync(path.join(ASSETS, "bundle", JSON.parse(readFileSync(path.join(ASSETS, "bundle/manifest.json"), "utf8")).files.dense.name)).size;
  const first = perQuestion[0];
  t.diagnostic(
    `${native.length} hybrid questions: same top 3 as native. Dense head ${head} B brotli at open; ` +
      `first (cold) question ${first.requests} requests, ${first.bytes} B brotli of dense parts; ` +
      `per question (warm cache after the first): ${perQuestion.map((q) => `${q.requests}/${q.bytes} B`).join(", ")}; ` +
      `the single dense file of the same site: ${whole} B uncompressed`,
  );
  assert.ok(first.requests > 0, "a cold question fetches dense parts");
});

test("damaged dense parts are retried once, then the question is answered by keywords and says so", async (t) => {
  const page = await openPage(t, env);
  const { value: r, error } = await inPage(
    page,
    async () => {
      const lectern = await Lectern.open({ bundleUrl: "/baddense/bundle-parts/" });
      await lectern.whenHybrid();
      const result = await lectern.search("How does a humanoid keep its balance?", { k: 5, mode: "hybrid" });
      lectern.close();
      return { mode: result.mode_used, confidence: result.confidence, chunks: result.chunks.length, errors: result.errors };
    },
    {},
  );
  assert.equal(error, undefined, JSON.stringify(error));
  assert.equal(r.mode, "lexical");
  assert.ok(["low", "none"].includes(r.confidence), r.confidence);
  assert.ok(r.chunks > 0, "the keyword answer is there");
  assert.ok(r.errors.length >= 1 && r.errors.every((e) => e.part === "dense" && e.detail === "CHECKSUM_MISMATCH"), JSON.stringify(r.errors));
});
