// Lectern's JS API (pkg/) in headless Chromium, over a page served from 127.0.0.1.
// Run through tests/browser/run.sh, which builds the bundle, pkg/ and the native reference
// results these tests compare with (LECTERN_BROWSER_ASSETS, LECTERN_PKG_DIR).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ASSETS, inPage, openPage as openTestPage, useBrowser } from "./harness.mjs";

const env = useBrowser();
const QUESTION = "How do ROS 2 nodes discover each other?";
const openPage = (t, options) => openTestPage(t, env, options);
const log = () => env.server.log.slice();

test("answers lexically at once, then switches to hybrid when the model arrives", async (t) => {
  const page = await openPage(t);
  const { value: r, error } = await inPage(
    page,
    async ({ bundleUrl, question }) => {
      const events = [];
      const t0 = performance.now();
      const lectern = await Lectern.open({ bundleUrl, onProgress: (e) => events.push({ ...e, at: performance.now() - t0 }) });
      const openMs = performance.now() - t0;
      const stateAtOpen = { ...lectern.state };
      const lexical = await lectern.search(question);
      const lexicalMs = performance.now() - t0;
      await lectern.whenHybrid();
      const hybridAt = performance.now() - t0;
      const hybrid = await lectern.search(question);
      const hybridMs = performance.now() - t0;
      lectern.close();
      return { openMs, lexicalMs, hybridAt, hybridMs, stateAtOpen, lexical, hybrid, events, info: lectern.info };
    },
    // The model and tokenizer answer 2 s late, so the lexical phase is observable.
    { bundleUrl: "/slowmodel2000-first/bundle/", question: QUESTION },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  t.diagnostic(
    `cold open (lexical ready) ${r.openMs.toFixed(0)} ms, first lexical result ${r.lexicalMs.toFixed(0)} ms, ` +
      `hybrid ready ${r.hybridAt.toFixed(0)} ms (model delayed 2000 ms by the server), first hybrid result ${r.hybridMs.toFixed(0)} ms`,
  );
  const phases = r.events.map((e) => e.phase);
  t.diagnostic(`phases: ${[...new Set(phases)].join(" → ")}; ${JSON.stringify(r.events.filter((e) => e.ms !== undefined))}`);
  assert.deepEqual(r.stateAtOpen, { lexical: true, hybrid: false, modelError: null });
  assert.equal(r.lexical.mode_used, "lexical");
  assert.equal(r.lexical.mode, "global");
  assert.equal(r.lexical.chunks.length, 3);
  assert.equal(r.lexical.chunks_retrieved, 3);
  for (const c of r.lexical.chunks) {
    assert.equal(typeof c.text, "string", "text fetched for every result");
    assert.ok(c.text.length > 50);
    assert.ok(c.url.startsWith("/docs/") && c.chunk_id && c.heading_path.length > 0);
    assert.ok(c.score >= 0 && c.score <= 1);
    assert.equal(c.scores.dense, null);
  }
  assert.ok(["high", "medium", "low", "none"].includes(r.lexical.confidence));
  assert.equal(r.hybrid.mode_used, "hybrid");
  assert.ok(r.hybrid.chunks.every((c) => typeof c.scores.dense === "number"));
  assert.ok(phases.indexOf("lexical-ready") < phases.indexOf("hybrid-ready"));
  const model = r.events.filter((e) => e.phase === "model");
  assert.ok(model.length > 0 && model.at(-1).loaded === model.at(-1).total, "model progress reaches its total");
  assert.ok(model.at(-1).total > 10e6, "progress counts the model's bytes");
  assert.equal(r.info.chunks, 175);
  // Only the chunk shards of the results were fetched (metadata and text in one file each,
  // by number: no catalog page, no metadata or text file of their own).
  const shards = new Set([...r.lexical.chunks, ...r.hybrid.chunks].map((c) => c.index));
  const chunkRequests = log().filter((l) => l.path.startsWith("/slowmodel2000-first/bundle/chunks."));
  assert.ok(chunkRequests.length > 0 && chunkRequests.length <= shards.size && chunkRequests.length < 9, `${chunkRequests.length} chunk shards fetched`);
  const apart = log().filter((l) => /^\/slowmodel2000-first\/bundle\/(text|meta|chunk-catalog)\./.test(l.path));
  assert.equal(apart.length, 0, "no catalog page, metadata or text file in a bundle of format 5");
  // Only the term shards of the question's words: never the whole keyword index.
  const termRequests = log().filter((l) => l.path.startsWith("/slowmodel2000-first/bundle/terms."));
  const { value: manifest } = await inPage(page, async () => (await fetch("/slowmodel2000-first/bundle/manifest.json")).json());
  const termShards = manifest.files.terms.reduce((n, p) => n + p.shards, 0);
  t.diagnostic(`${termRequests.length} of ${termShards} term shards fetched`);
  assert.ok(termRequests.length > 0 && termRequests.length < termShards, `${termRequests.length} of ${termShards} term shards`);
  assert.equal(new Set(termRequests.map((l) => l.path)).size, termRequests.length, "no term shard fetched twice");
  // Of the model's word table, only the shards of the question's word pieces: never the
  // whole table (a dozen shards at most, once each).
  const wordRequests = log().filter((l) => l.path.startsWith("/slowmodel2000-first/bundle/words."));
  const { value: wordShards } = await inPage(page, async (name) => (await (await fetch(`/slowmodel2000-first/bundle/${name}`)).json()).length, manifest.model.words.name);
  t.diagnostic(`${wordRequests.length} of ${wordShards} word-table shards fetched`);
  assert.ok(wordRequests.length > 0 && wordRequests.length <= 12, `${wordRequests.length} of ${wordShards} word-table shards`);
  assert.equal(new Set(wordRequests.map((l) => l.path)).size, wordRequests.length, "no word-table shard fetched twice");
});

test("a damaged word-table shard is refused: the question is answered by keywords, and embed says why", async (t) => {
  const page = await openPage(t);
  const { value: r, error } = await inPage(
    page,
    async ({ bundleUrl, question }) => {
      const lectern = await Lectern.open({ bundleUrl, cache: false });
      await lectern.whenHybrid();
      const result = await lectern.search(question);
      const embed = await lectern.embed(question).then(() => null, (e) => ({ code: e.code, detail: e.detail, message: e.message, technical: e.technical }));
      lectern.close();
      return { mode: result.mode_used, hits: result.chunks.length, embed };
    },
    { bundleUrl: "/badwords/bundle/", question: QUESTION },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  t.diagnostic(r.embed?.technical);
  assert.deepEqual({ mode: r.mode, hits: r.hits }, { mode: "lexical", hits: 3 });
  assert.equal(r.embed?.code, "MODEL_UNAVAILABLE");
  assert.equal(r.embed?.detail, "MODEL_CORRUPT");
  // The reader's words, and the site owner's apart.
  assert.match(r.embed.message, /Search by meaning is unavailable/);
  assert.match(r.embed.technical, /shard \d+ of .* does not match its sha256/);
});

test("keyword search runs on the small core module alone, downloaded once for page and worker", async (t) => {
  const page = await openPage(t);
  const before = log().length;
  const { value: r, error } = await inPage(
    page,
    async ({ bundleUrl, question }) => {
      const lectern = await Lectern.open({ bundleUrl, loadModel: false, cache: false });
      const result = await lectern.search(question);
      lectern.close();
      return { mode: result.mode_used, hits: result.chunks.length };
    },
    { bundleUrl: "/core-only/bundle/", question: QUESTION },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  assert.deepEqual(r, { mode: "lexical", hits: 3 });
  const paths = log().slice(before).map((l) => l.path);
  t.diagnostic(`requests: ${paths.join(", ")}`);
  assert.equal(paths.filter((p) => /\/lectern_search_bg\.[0-9a-f]+\.wasm$/.test(p)).length, 1, "the search module is fetched once, by the page");
  assert.deepEqual(paths.filter((p) => /lectern_core/.test(p)), [], "nor the chat module nor its glue is fetched for a search");
  assert.deepEqual(paths.filter((p) => /lectern_embed/.test(p)), [], "nor the embedder module nor its glue is fetched for keyword search");
});

test("the model is built in a worker of its own: a keyword search answers while it builds", async (t) => {
  const page = await openPage(t);
  const { value: r, error } = await inPage(
    page,
    async ({ bundleUrl, question }) => {
      const order = [];
      let building;
      const started = new Promise((resolve) => (building = resolve));
      const lectern = await Lectern.open({
        bundleUrl,
        onProgress: (e) => {
          if (e.phase === "model-init") building();
          if (e.phase === "hybrid-ready") order.push("hybrid-ready");
        },
      });
      await started;
      const during = await lectern.search(question);
      order.push(`search answered (${during.mode_used})`);
      await lectern.whenHybrid();
      const after = await lectern.search(question);
      lectern.close();
      return { order, after: after.mode_used };
    },
    { bundleUrl: "/build-in-worker/bundle/", question: QUESTION },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  assert.deepEqual(r.order, ["search answered (lexical)", "hybrid-ready"], "the search did not wait for the model build");
  assert.equal(r.after, "hybrid");
});

test("gives the same results as the native `lectern search`, follow-ups (`--previous`) and search-box queries (`--expand-words`) too", async (t) => {
  const native = JSON.parse(readFileSync(path.join(ASSETS, "native/search.json"), "utf8"));
  const page = await openPage(t);
  const { value: browserResults, error } = await inPage(
    page,
    async ({ bundleUrl, queries }) => {
      const lectern = await Lectern.open({ bundleUrl });
      await lectern.whenHybrid();
      const out = [];
      for (const { question, previous, mode, expandWords } of queries)
        out.push(await lectern.search(question, { k: 5, mode, ...(previous ? { earlier: previous } : {}), ...(expandWords ? { expandWords } : {}) }));
      lectern.close();
      return out;
    },
    { bundleUrl: "/parity/bundle/", queries: native.map(({ question, previous, mode, expandWords }) => ({ question, previous, mode, expandWords })) },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  let maxScoreDiff = 0;
  native.forEach(({ question, previous, mode, expandWords, result }, i) => {
    const got = browserResults[i];
    const label = `${mode}${expandWords ? " (expandWords)" : ""}: ${previous ? `${previous.join(" / ")} / ` : ""}${question}`;
    assert.equal(got.mode_used, result.mode_used, label);
    assert.equal(got.confidence, result.confidence, label);
    assert.deepEqual(got.chunks.map((c) => c.chunk_id), result.results.map((r) => r.chunk_id), label);
    got.chunks.forEach((c, j) => {
      assert.equal(c.text, result.results[j].text, label);
      maxScoreDiff = Math.max(maxScoreDiff, Math.abs(c.score - result.results[j].score));
    });
  });
  t.diagnostic(`${native.length} queries (lexical and hybrid, k=5): same chunks in the same order; max |score diff| ${maxScoreDiff.toExponential(2)}`);
  assert.ok(maxScoreDiff < 1e-4, `scores differ by ${maxScoreDiff}`);
});

test("embeds questions as the native CLI does, within 1e-4", async (t) => {
  const lines = readFileSync(path.join(ASSETS, "native/embed.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const texts = readFileSync(path.join(ASSETS, "native/texts.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const page = await openPage(t);
  const { value: r, error } = await inPage(
    page,
    async ({ bundleUrl, texts }) => {
      const lectern = await Lectern.open({ bundleUrl });
      const vectors = [];
      for (const text of texts) vectors.push(Array.from(await lectern.embed(text)));
      const t0 = performance.now();
      for (let i = 0; i < 10; i++) await lectern.embed(texts[0]);
      const perQuery = (performance.now() - t0) / 10;
      lectern.close();
      return { vectors, fingerprint: lectern.info.fingerprint, perQuery };
    },
    { bundleUrl: "/embed/bundle/", texts },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  assert.equal(r.fingerprint, lines[0].model, "the bundle's model is the native CLI's int8 model");
  let maxDiff = 0;
  r.vectors.forEach((v, i) => {
    assert.equal(v.length, 384);
    v.forEach((x, d) => (maxDiff = Math.max(maxDiff, Math.abs(x - lines[i].vector[d]))));
  });
  t.diagnostic(`${texts.length} texts: max |browser - native| ${maxDiff.toExponential(2)}; ~${r.perQuery.toFixed(1)} ms per embed() round trip (12-token question)`);
  assert.ok(maxDiff < 1e-4, `embeddings differ by ${maxDiff}`);
});

test("a second visit downloads nothing but the manifest (Cache API)", async (t) => {
  const page = await openPage(t);
  const base = "/cache/bundle/";
  const visit = async () => {
    const { value, error } = await inPage(
      page,
      async ({ bundleUrl, question }) => {
        const cached = [];
        const lectern = await Lectern.open({ bundleUrl, onProgress: (e) => e.fromCache !== undefined && cached.push(e.fromCache) });
        await lectern.whenHybrid();
        const result = await lectern.search(question);
        lectern.close();
        return { ids: result.chunks.map((c) => c.chunk_id), texts: result.chunks.map((c) => c.text), cached };
      },
      { bundleUrl: base, question: QUESTION },
    );
    assert.equal(error, undefined, JSON.stringify(error));
    return value;
  };
  // A stale file of an older build of this bundle, and one of another site: the first is
  // dropped when the manifest no longer names it, the second is left alone.
  await inPage(page, async ({ base }) => {
    const cache = await caches.open("lectern-v1");
    await cache.put(new URL(`${base}text.000000000000.json`, location.href).href, new Response("[]"));
    await cache.put(new URL(`${base}chunks.0.000000000000.json`, location.href).href, new Response("[]"));
    await cache.put(new URL("/other-site/bundle/text.000000000000.json", location.href).href, new Response("[]"));
  }, { base });

  const first = await visit();
  const before = log().length;
  await page.reload();
  await page.waitForFunction(() => window.testReady === true);
  const second = await visit();
  const requests = log().slice(before).map((l) => l.path);
  t.diagnostic(`second visit requests: ${requests.join(", ")}`);
  const fetched = requests.filter((p) => !p.startsWith("/page/") && !/^\/pkg\/[\w-]+\.js$/.test(p));
  assert.deepEqual(fetched, [`${base}manifest.json`], "everything but the manifest (and the page's own JS) comes from the cache");
  assert.deepEqual(second.ids, first.ids);
  assert.deepEqual(second.texts, first.texts);
  assert.ok(second.cached.length > 0 && second.cached.every(Boolean), "progress reports cache hits");
  const { value: keys } = await inPage(page, async () => (await (await caches.open("lectern-v1")).keys()).map((r) => new URL(r.url).pathname));
  assert.ok(!keys.includes(`${base}text.000000000000.json`), "a file the manifest no longer names is dropped");
  assert.ok(!keys.includes(`${base}chunks.0.000000000000.json`), "a chunk shard of an older build is dropped");
  assert.ok(keys.some((k) => k.startsWith(`${base}chunks.`)), "this build's chunk shards are kept");
  assert.ok(keys.includes("/other-site/bundle/text.000000000000.json"), "another bundle's files are kept");
  for (const module of ["search", "embed"]) {
    const cached = new RegExp(`^/pkg/lectern_${module}_bg\\.[0-9a-f]+\\.wasm$`);
    assert.equal(keys.filter((k) => cached.test(k)).length, 1, `the ${module} wasm module is cached, once`);
  }
  assert.ok(!keys.some((k) => /lectern_core_bg/.test(k)), "the chat module is not fetched without the chat");
});

test("refuses a model whose fingerprint differs from the index's, and keeps searching by keywords", async (t) => {
  const page = await openPage(t);
  const { value: r, error } = await inPage(
    page,
    async ({ bundleUrl, question }) => {
      const failures = [];
      const lectern = await Lectern.open({
        bundleUrl,
        tokenizerUrl: "/variant/tokenizer-changed.json",
        onProgress: (e) => e.phase === "model-failed" && failures.push(e.error),
      });
      let hybridError = null;
      await lectern.whenHybrid().catch((e) => (hybridError = { name: e.name, code: e.code, detail: e.detail, message: e.message }));
      const result = await lectern.search(question);
      const dense = await lectern.search(question, { mode: "dense" }).catch((e) => ({ code: e.code }));
      lectern.close();
      return { hybridError, failures, state: lectern.state, modeUsed: result.mode_used, hits: result.chunks.length, dense };
    },
    { bundleUrl: "/mismatch/bundle/", question: QUESTION },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  t.diagnostic(r.hybridError.message);
  assert.equal(r.hybridError.code, "MODEL_MISMATCH");
  assert.equal(r.hybridError.detail, "WRONG_MODEL");
  assert.equal(r.failures[0].code, "MODEL_MISMATCH");
  assert.equal(r.modeUsed, "lexical");
  assert.equal(r.hits, 3);
  assert.equal(r.dense.code, "MODEL_UNAVAILABLE");
});

test("the main thread keeps drawing frames while the model loads", async (t) => {
  const page = await openPage(t);
  const { value: r, error } = await inPage(
    page,
    async ({ bundleUrl }) => {
      const lectern = await Lectern.open({ bundleUrl });
      const start = performance.now();
      const from = window.frames_.length;
      await lectern.whenHybrid();
      const end = performance.now();
      const frames = window.frames_.slice(from).filter((f) => f >= start && f <= end);
      let maxGap = frames.length ? frames[0] - start : end - start;
      for (let i = 1; i < frames.length; i++) maxGap = Math.max(maxGap, frames[i] - frames[i - 1]);
      maxGap = Math.max(maxGap, end - (frames.at(-1) ?? start));
      lectern.close();
      return { ms: end - start, frames: frames.length, maxGap };
    },
    { bundleUrl: "/frames/bundle/" },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  t.diagnostic(`model load ${r.ms.toFixed(0)} ms: ${r.frames} animation frames, longest gap ${r.maxGap.toFixed(0)} ms`);
  assert.ok(r.ms > 500, "the model load took long enough to measure");
  // 60 fps would be 16.7 ms; a blocked main thread would show a gap of the model's init
  // (about a second). The bound leaves room for a busy 2-core machine.
  assert.ok(r.maxGap < 250, `the main thread stalled for ${r.maxGap} ms`);
  assert.ok(r.frames >= r.ms / 100, `only ${r.frames} frames in ${r.ms} ms`);
});

test("faults become typed errors: missing bundle, missing text, crashed worker", async (t) => {
  const page = await openPage(t);
  const missing = await inPage(page, async () => Lectern.open({ bundleUrl: "/no-such-bundle/" }));
  assert.equal(missing.error.code, "INDEX_UNAVAILABLE");
  assert.equal(missing.error.detail, "HTTP_404");
  assert.equal(missing.error.name, "LecternError");
  assert.ok(missing.error.suggestion);

  const { value: r, error } = await inPage(
    page,
    async ({ question }) => {
      const lectern = await Lectern.open({ bundleUrl: "/notext/bundle/", loadModel: false });
      const noText = await lectern.search(question);
      const pending = lectern.search("What is a ROS 2 topic?").catch((e) => ({ code: e.code }));
      const crash = await lectern.crashWorkerForTesting().catch((e) => ({ code: e.code, message: e.message, technical: e.technical }));
      const pendingAtCrash = await pending;
      const afterCrash = await lectern.search(question);
      const trap = await lectern.crashWorkerForTesting("trap").catch((e) => ({ code: e.code, message: e.message, technical: e.technical }));
      const afterTrap = await lectern.search(question);
      lectern.close();
      const closed = await lectern.search(question).catch((e) => ({ code: e.code, name: e.name }));
      return { noText, crash, pendingAtCrash, afterCrash, trap, afterTrap, closed };
    },
    { question: QUESTION },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  // Format 5 keeps a shard's metadata with its text: results whose shard failed are left
  // out, and the failure is said.
  assert.equal(r.noText.chunks.length, 0, "results without their shard are left out");
  assert.equal(r.noText.errors[0].code, "TEXT_UNAVAILABLE");
  assert.equal(r.noText.errors[0].detail, "HTTP_404");
  assert.equal(r.noText.errors[0].part, "chunks");
  assert.equal(r.crash.code, "WORKER_CRASHED");
  assert.ok(["WORKER_CRASHED", undefined].includes(r.pendingAtCrash.code), JSON.stringify(r.pendingAtCrash));
  assert.equal(r.afterCrash.mode_used, "lexical", "a new worker answers after the crash");
  assert.equal(r.afterCrash.errors[0]?.code, "TEXT_UNAVAILABLE", "the same answer as before the crash");
  assert.equal(r.trap.code, "WORKER_CRASHED", JSON.stringify(r.trap));
  assert.match(r.trap.technical, /crashed: unreachable/);
  assert.equal(r.afterTrap.mode_used, "lexical", "a new worker answers after a trap");
  assert.equal(r.afterTrap.errors[0]?.code, "TEXT_UNAVAILABLE");
  assert.equal(r.closed.code, "ABORTED");
});

test("a damaged term shard is retried once, then the question is scored without it and marked partial", async (t) => {
  const page = await openPage(t);
  const { value: r, error } = await inPage(
    page,
    async ({ question }) => {
      const lectern = await Lectern.open({ bundleUrl: "/badterms/bundle/", loadModel: false });
      const result = await lectern.search(question);
      lectern.close();
      const log = await (await fetch("/__log")).json();
      return { partial: result.partial, confidence: result.confidence, chunks: result.chunks.length, errors: result.errors, log };
    },
    { question: QUESTION },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  // Every term shard is damaged: nothing scored, and the search says it went without them.
  assert.equal(r.partial, true);
  assert.equal(r.chunks, 0);
  assert.ok(r.errors.length >= 1 && r.errors.every((e) => e.part === "terms" && e.detail === "CHECKSUM_MISMATCH"), JSON.stringify(r.errors));
  assert.match(r.errors[0].technical, /does not match term catalog page \d+/, "the checksum names the page it was checked against");
  assert.doesNotMatch(r.errors[0].message, /terms\.|catalog|checksum/i, "the reader's words name no file");
  for (const failure of r.errors) {
    const fetched = r.log.filter((l) => l.path === `/badterms/bundle/${failure.file}`).length;
    assert.equal(fetched, 2, `${failure.file} was fetched once more after its fault`);
  }
});

test("validates questions, selections and options with the core's codes and messages", async (t) => {
  const page = await openPage(t);
  const { value: v, error: e2 } = await inPage(page, async () => {
    const q = "How do ROS 2 nodes discover each other?";
    const lectern = await Lectern.open({ bundleUrl: "/validation/bundle/", loadModel: false });
    const code = (p) => p.then(() => null, (e) => ({ code: e.code, message: e.message, suggestion: e.suggestion, json: e.toJSON() }));
    const out = {
      empty: await code(lectern.search("")),
      blank: await code(lectern.search(" \n\t ")),
      long: await code(lectern.search("x".repeat(1001))),
      maxOk: await code(lectern.search(`${"robot ".repeat(166)}arm`)),
      shortSelection: await code(lectern.searchSelection("too short", q)),
      longSelection: await code(lectern.searchSelection("y".repeat(5001), q)),
      selectionEmptyQuestion: await code(lectern.searchSelection("A long enough selection of text.", "")),
      badK: await code(lectern.search("robot", { k: 0 })),
      unknownOption: await code(lectern.search("robot", { bogus: true })),
      badMode: await code(lectern.search("robot", { mode: "psychic" })),
      notCloneable: await code(lectern.search("robot", { k: () => 3 })),
      stillWorks: (await lectern.search("robot")).chunks.length,
    };
    lectern.close();
    return out;
  });
  assert.equal(e2, undefined, JSON.stringify(e2));
  assert.deepEqual(v.empty.json, {
    error: true,
    message: "Please enter a question",
    code: "EMPTY_QUESTION",
    suggestion: v.empty.suggestion,
    action: "rephrase",
  });
  assert.equal(v.blank.code, "EMPTY_QUESTION");
  assert.equal(v.long.code, "QUESTION_TOO_LONG");
  assert.equal(v.long.message, "Question is too long (max 1000 characters)");
  assert.equal(v.maxOk, null, "1000 characters are accepted");
  assert.equal(v.shortSelection.code, "SELECTION_TOO_SHORT");
  assert.equal(v.shortSelection.message, "Selection is too short (min 10 characters)");
  assert.equal(v.longSelection.code, "SELECTION_TOO_LONG");
  assert.equal(v.longSelection.message, "Selection is too long (max 5000 characters)");
  assert.equal(v.selectionEmptyQuestion.code, "EMPTY_QUESTION");
  assert.equal(v.badK.code, "INVALID_OPTIONS");
  assert.equal(v.unknownOption.code, "INVALID_OPTIONS");
  assert.equal(v.badMode.code, "INVALID_OPTIONS");
  assert.equal(v.notCloneable.code, "INVALID_OPTIONS");
  assert.equal(v.stillWorks, 3);
});

test("a newer query supersedes an older one; an AbortSignal cancels", async (t) => {
  const page = await openPage(t);
  const { value: r, error } = await inPage(page, async () => {
    const lectern = await Lectern.open({ bundleUrl: "/cancel/bundle/", loadModel: false });
    const outcome = (p) => p.then((v) => ({ ok: v.question }), (e) => ({ name: e.name, code: e.code, detail: e.detail }));
    const first = outcome(lectern.search("What is a ROS 2 topic?"));
    const second = outcome(lectern.search("How does SLAM build a map?"));
    const results = [await first, await second];
    const controller = new AbortController();
    const third = outcome(lectern.search("camera calibration", { signal: controller.signal }));
    controller.abort();
    results.push(await third);
    const preAborted = outcome(lectern.search("camera calibration", { signal: AbortSignal.abort() }));
    results.push(await preAborted);
    results.push(await outcome(lectern.search("camera calibration")));
    lectern.close();
    return results;
  });
  assert.equal(error, undefined, JSON.stringify(error));
  assert.deepEqual(r[0], { name: "AbortError", code: "ABORTED", detail: "SUPERSEDED" });
  assert.deepEqual(r[1], { ok: "How does SLAM build a map?" });
  assert.deepEqual(r[2], { name: "AbortError", code: "ABORTED", detail: "SIGNAL" });
  assert.deepEqual(r[3], { name: "AbortError", code: "ABORTED", detail: "SIGNAL" });
  assert.deepEqual(r[4], { ok: "camera calibration" });
});

test("selected-text mode: retrieval on question + selection, or the selection alone", async (t) => {
  const page = await openPage(t);
  const selection =
    "  A ROS 2 node discovers its peers through DDS: each participant announces itself on the network, and matching publishers and subscribers connect automatically.  ";
  const { value: r, error } = await inPage(
    page,
    async ({ selection }) => {
      const lectern = await Lectern.open({ bundleUrl: "/selected/bundle/" });
      await lectern.whenHybrid();
      const related = await lectern.searchSelection(selection, "What does this mean?", { k: 4 });
      const only = await lectern.searchSelection(selection, "What does this mean?", { selectionOnly: true });
      const filtered = await lectern.search("safety", { k: 5, filters: { modules: ["Module 2: Simulation & Digital Twins"] } });
      lectern.close();
      return { related, only, filtered };
    },
    { selection },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  assert.equal(r.related.mode, "selected");
  assert.equal(r.related.selection, selection.trim());
  assert.equal(r.related.question, "What does this mean?");
  assert.equal(r.related.mode_used, "hybrid");
  assert.equal(r.related.chunks.length, 4);
  assert.ok(r.related.chunks.some((c) => c.url.includes("ros2-fundamentals")), JSON.stringify(r.related.chunks.map((c) => c.url)));
  assert.equal(r.only.mode, "selected");
  assert.deepEqual(r.only.chunks, []);
  assert.equal(r.only.confidence, null);
  assert.ok(r.filtered.chunks.length > 0 && r.filtered.chunks.every((c) => c.module === "Module 2: Simulation & Digital Twins"), JSON.stringify(r.filtered.chunks.map((c) => c.module)));
});

test("searchAsYouType: the word being typed finds the words it begins, a misspelt one its neighbours; a question's search does neither", async (t) => {
  const page = await openPage(t);
  const { value: r, error } = await inPage(page, async () => {
    const lectern = await Lectern.open({ bundleUrl: "/expand/bundle/", loadModel: false });
    const urls = (res) => res.pages.flatMap((p) => p.rows.map((row) => row.url));
    const marks = (res) => res.pages.flatMap((p) => p.rows.flatMap((row) => row.snippet.ranges.map(([s, e]) => row.snippet.text.slice(s, e).toLowerCase())));
    const prefix = await lectern.searchAsYouType("gazeb");
    const whole = await lectern.searchAsYouType("gazebo ");
    const typo = await lectern.searchAsYouType("gazeob ");
    const asked = await lectern.search("gazeb", { k: 8, mode: "lexical" });
    const askedTypo = await lectern.search("gazeob", { k: 8, mode: "lexical" });
    lectern.close();
    return { prefix: urls(prefix), prefixMarks: marks(prefix), whole: urls(whole), typo: urls(typo), asked: asked.chunks.length, askedTypo: askedTypo.chunks.length };
  });
  assert.equal(error, undefined, JSON.stringify(error));
  assert.ok(r.prefix.length > 0, "gazeb finds the Gazebo sections");
  assert.ok(r.prefixMarks.includes("gazebo"), `marked: ${r.prefixMarks.join(", ")}`);
  // The best rows: the prefix also stands for other words it begins ("gazebo_ros"), lower down.
  assert.deepEqual(r.prefix.slice(0, 5), r.whole.slice(0, 5), "the prefix finds what the whole word finds first");
  assert.deepEqual(r.typo.slice(0, 5), r.whole.slice(0, 5), "one swapped pair of letters finds what the word finds");
  assert.equal(r.asked, 0, "a question's search does not complete words");
  assert.equal(r.askedTypo, 0, "a question's search does not correct words");
});

test("searchAsYouType: keyword rows grouped by page with the core's highlights; a newer keystroke supersedes, a search does not; semantic rows only appended", async (t) => {
  const page = await openPage(t);
  const { value: r, error } = await inPage(page, async () => {
    const lectern = await Lectern.open({ bundleUrl: "/typeahead/bundle/" });
    const outcome = (p) => p.then((v) => ({ ok: v.query ?? v.question }), (e) => ({ code: e.code, detail: e.detail }));
    // Two keystrokes in a row: the first is superseded; a chat's search beside them is not.
    const updates = [];
    const first = outcome(lectern.searchAsYouType("publisher q"));
    const chat = outcome(lectern.search("How do ROS 2 nodes discover each other?"));
    const second = lectern.searchAsYouType("publisher qos", { onUpdate: (u) => updates.push(u) });
    const keyword = await second;
    const order = [await first, await chat];
    // Once the model is in, a pass by meaning follows the keyword rows.
    await lectern.whenHybrid();
    const merged = [];
    const final = await lectern.searchAsYouType("how does a walking robot avoid falling over", { onUpdate: (u) => merged.push(u) });
    const scoped = await lectern.searchAsYouType("publisher qos", { semanticK: 0, filters: { versions: [{ version: "9.9" }] } });
    lectern.close();
    return { order, updates, keyword, merged, final, scoped };
  });
  assert.equal(error, undefined, JSON.stringify(error));
  assert.deepEqual(r.order[0], { code: "ABORTED", detail: "SUPERSEDED" }, "the older keystroke gave way");
  assert.ok(r.order[1].ok, "the chat's search was not aborted by the search box");
  // Keyword results: one update, grouped by page, every row with its highlights.
  assert.equal(r.updates.length, 1);
  assert.equal(r.keyword.semantic, "none");
  assert.equal(r.keyword.mode_used, "lexical");
  const rows = r.keyword.pages.flatMap((p) => p.rows);
  assert.equal(rows.length, r.keyword.count);
  assert.ok(rows.length >= 3 && rows.length <= 8);
  const pageUrls = r.keyword.pages.map((p) => p.url);
  assert.equal(new Set(pageUrls).size, pageUrls.length, "one group per page");
  for (const p of r.keyword.pages) for (const row of p.rows) assert.equal(row.url.replace(/#.*$/, ""), p.url);
  const marked = rows.flatMap((row) => row.snippet.ranges.map(([s, e]) => row.snippet.text.slice(s, e).toLowerCase()));
  assert.ok(marked.some((w) => w.startsWith("publish")) && marked.includes("qos"), `marked: ${marked.join(", ")}`);
  for (const row of rows) {
    assert.ok(row.snippet.text.length <= 175, row.snippet.text);
    assert.ok(row.path.length >= 1 && row.title.length > 0);
  }
  // The semantic pass: the keyword rows first, unchanged; the added ones after them.
  assert.deepEqual(r.merged.map((u) => u.semantic), ["pending", "merged"]);
  const before = r.merged[0].pages.flatMap((p) => p.rows.map((row) => row.url));
  const after = r.final.pages.flatMap((p) => p.rows.map((row) => ({ url: row.url, semantic: row.semantic })));
  assert.deepEqual(after.slice(0, before.length).map((x) => x.url), before);
  assert.ok(after.length > before.length && after.slice(before.length).every((x) => x.semantic), JSON.stringify(after));
  // A version filter on a site without versions loses nothing (its sections are in every
  // version's scope: search::scope): the same keyword rows as unfiltered.
  assert.equal(r.scoped.count, r.keyword.count);
});
