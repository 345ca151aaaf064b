// A translated site's bundles (tests/fixtures/i18n-site, built by tests/browser/run.sh with
// `lectern build`: English at the bundle's root, Simplified Chinese in zh-CN/), opened with
// the JS API in headless Chromium: a Chinese question finds its section in the Chinese
// bundle by keywords, and the model, which is English, is never fetched for it (nor is
// anything embedded for it: its bundle has no dense index).

import { test } from "node:test";
import assert from "node:assert/strict";
import { inPage, openPage, useBrowser } from "./harness.mjs";

const env = useBrowser();

test("the Chinese locale's bundle answers a Chinese question by keywords, without the model", async (t) => {
  const page = await openPage(t, env);
  const { value, error } = await inPage(
    page,
    async ({ bundleUrl }) => {
      const lectern = await Lectern.open({ bundleUrl });
      const info = lectern.info;
      // "The bucket is stuck: which screw do I turn?" (the reader's words, not the heading's).
      const found = await lectern.search("翻斗卡住了要拧哪个螺丝？", { k: 3, mode: "hybrid" });
      // Mixed scripts: an English word of an untranslated page, and Chinese words.
      const mixed = await lectern.search("battery 电池 AA", { k: 3 });
      const model = await lectern.loadModel().then(
        () => null,
        (e) => ({ code: e.code, detail: e.detail }),
      );
      // Longer than the model's deferred start after an idle worker (model-load.js).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const log = await (await fetch("/__log")).json();
      const manifest = await (await fetch(`${bundleUrl}manifest.json`)).json();
      lectern.close();
      return {
        info,
        urls: found.chunks.map((c) => c.url),
        modeUsed: found.mode_used,
        mixed: mixed.chunks.map((c) => c.url),
        model,
        dense: manifest.files.dense ?? null,
        layout: manifest.files.dense_layout ?? null,
        fetched: log.map((entry) => entry.path).filter((p) => p.startsWith("/zhlocale/")),
      };
    },
    { bundleUrl: "/zhlocale/bundle-i18n/zh-CN/" },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  assert.equal(value.info.semantic, false);
  assert.match(value.urls[0] ?? "", /^\/zh-CN\/docs\/(next\/)?setup#校准漏斗$/, JSON.stringify(value.urls));
  assert.equal(value.modeUsed, "lexical");
  assert.match(value.mixed[0] ?? "", /\/zh-CN\/docs\/next\/battery$/, JSON.stringify(value.mixed));
  assert.deepEqual(value.model, { code: "MODEL_UNAVAILABLE", detail: "LANGUAGE" });
  assert.deepEqual([value.dense, value.layout], [null, "none"], "no dense index in the Chinese bundle");
  const modelOrVectors = value.fetched.filter((p) => /\/(model|tokenizer|words|dense(-[a-z]+)?)\./.test(p));
  assert.deepEqual(modelOrVectors, [], "nothing of the model or the dense index is fetched");
  assert.ok(value.fetched.every((p) => p.includes("/bundle-i18n/zh-CN/")), "only the reader's locale's bundle is read");
});

test("the English locale's bundle of the same site keeps semantic search", async (t) => {
  const page = await openPage(t, env);
  const { value, error } = await inPage(
    page,
    async ({ bundleUrl }) => {
      const lectern = await Lectern.open({ bundleUrl });
      const info = lectern.info;
      const found = await lectern.search("the bucket sticks, which screw do I turn?", { k: 3, mode: "lexical" });
      lectern.close();
      return { info, urls: found.chunks.map((c) => c.url) };
    },
    { bundleUrl: "/enlocale/bundle-i18n/" },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  assert.equal(value.info.semantic, true);
  assert.match(value.urls[0] ?? "", /^\/docs\/(next\/)?setup#calibrating-the-funnel$/, JSON.stringify(value.urls));
});
