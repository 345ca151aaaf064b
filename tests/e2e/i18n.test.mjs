// A translated site (issue 26, point 3): the i18n fixture (tests/fixtures/i18n-site, English
// and Simplified Chinese, the current docs "Next" and version 1.0) built by Docusaurus with
// the plugin, every locale in one build (tests/e2e/i18n.config.mjs). Each locale has its own
// bundle: on a Chinese page the navbar's search box finds the Chinese sections from a Chinese
// query, on an English page the English ones; the chat asked in Chinese cites the Chinese
// pages under /zh-CN/; the version scope holds in both; and where the English model does not
// suit the language (Chinese), the browser never downloads it, and a keyword answer does not
// promise a better one. Screenshots of the Chinese box and answer: light, dark, 390 px.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { startSiteServer } from "./server.mjs";
import { ask, newPage, openDocs, openPanel, openSearch, screenshot, searchFor, searchRows, useEnvironment } from "./harness.mjs";

const env = useEnvironment();
const ROOT = process.env.LECTERN_E2E_I18N;
const built = ROOT && existsSync(path.join(ROOT, "zh-CN", "docs", "next", "setup", "index.html"));
let site;
after(() => site?.close());

/** Skips the test without the fixture's build; else serves it (once), its LLM proxy to the
 * environment's LLM server. */
const skipUnbuilt = async (t) => {
  if (!built) {
    t.skip("no build of the translated fixture (LECTERN_E2E_I18N): run tests/e2e/run.sh");
    return true;
  }
  site ??= await startSiteServer({ root: ROOT });
  site.setUpstream(env.llm.url);
  // Each test reads the requests of its own page only.
  site.clearRequests();
  return false;
};

const ZH = "/zh-CN/";
/** A link's page and anchor as the reader sees them (a Chinese anchor may come
 * percent-encoded; a citation also names its passage in the query). */
const decoded = (href) => {
  const url = new URL(href, "http://site");
  return decodeURIComponent(url.pathname + url.hash);
};
const isZh = (href) => href.startsWith(ZH);
const isNext = (href) => /^(\/zh-CN)?\/docs\/next\//.test(href);
/** The Chinese section "校准漏斗" (Calibrating the funnel) of the setup page. */
const ZH_QUERY = "校准漏斗";
const ZH_QUESTION = "怎样校准漏斗？";
/** The model's files, the dense index and the embedder's module, as a Chinese page would
 * fetch them (under its locale's baseUrl): never. (An English page of an earlier test may
 * still be finishing its own downloads.) */
const SEMANTIC_FILES = /^\/zh-CN\/lectern\/(bundle\/(model|words|tokenizer|dense)|runtime\/lectern_embed)/;
/** What the Chinese page fetched of its runtime and bundle (to show the pattern above can match). */
const ZH_RUNTIME = /^\/zh-CN\/lectern\/(bundle|runtime)\//;

const sources = (page) =>
  page.locator(".lectern-message--assistant").last().locator(".lectern-sources li a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));

test("on a Chinese page the box finds the Chinese section from a Chinese query, in the page's version", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await openDocs(page, env, "/zh-CN/docs/next/intro", site);
  assert.equal(await page.getAttribute("html", "lang"), "zh-CN");
  await openSearch(page);
  await searchFor(page, ZH_QUERY);
  const rows = (await searchRows(page)).map((r) => ({ ...r, href: decoded(r.href) }));
  assert.ok(rows.length > 0, "found");
  assert.ok(rows[0].href.startsWith("/zh-CN/docs/next/setup"), `the Chinese page first: ${rows.map((r) => r.href).join(" ")}`);
  assert.ok(rows.some((r) => r.href === "/zh-CN/docs/next/setup#校准漏斗"), `the Chinese section: ${rows.map((r) => r.href).join(" ")}`);
  assert.ok(rows.every((r) => isZh(r.href) && isNext(r.href)), `only the Chinese Next pages: ${rows.map((r) => r.href).join(" ")}`);
  assert.ok(rows.some((r) => /校准漏斗/.test(r.title)), rows.map((r) => r.title).join(" | "));
  // The link to the search page in Docusaurus's Chinese words, not an English singular.
  const all = await page.locator(".lectern-search__all").innerText();
  assert.match(all, /查看全部/, all);
  // On a 1.0 page: the Chinese 1.0 pages only.
  await page.goto(`${site.origin}/zh-CN/docs/setup`);
  await page.waitForSelector("[data-lectern-hydrated]", { state: "attached" });
  await openSearch(page);
  await searchFor(page, ZH_QUERY);
  const old = (await searchRows(page)).map((r) => decoded(r.href));
  assert.ok(old.includes("/zh-CN/docs/setup#校准漏斗"), old.join(" "));
  assert.ok(old.every((h) => isZh(h) && !isNext(h)), `only the Chinese 1.0 pages: ${old.join(" ")}`);
  assert.match(await page.locator(".lectern-search .lectern-scope__current").innerText(), /1\.0/);
  // Keywords only, and never the English model.
  assert.equal(rows.filter((r) => r.semantic).length, 0, "no semantic rows in Chinese");
  assert.ok(site.requests().some((r) => ZH_RUNTIME.test(r.path)), "the Chinese page's own runtime and bundle");
  const fetched = site.requests().filter((r) => SEMANTIC_FILES.test(r.path));
  assert.deepEqual(fetched.map((r) => r.path), [], "the model is not downloaded for a Chinese page");
});

test("on an English page the box finds the English sections, not the Chinese ones", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await openDocs(page, env, "/docs/next/intro", site);
  await openSearch(page);
  await searchFor(page, "calibrate the funnel");
  const rows = (await searchRows(page)).map((r) => r.href);
  assert.ok(rows.includes("/docs/next/setup#calibrating-the-funnel"), rows.join(" "));
  assert.ok(rows.every((h) => !isZh(h) && isNext(h)), `only the English Next pages: ${rows.join(" ")}`);
  // A Chinese query finds no keyword in the English bundle (and never a Chinese page).
  await searchFor(page, ZH_QUERY);
  const zh = await searchRows(page);
  assert.ok(zh.every((r) => r.semantic && !isZh(r.href)), `no keyword rows: ${zh.map((r) => r.href).join(" ")}`);
});

test("the chat asked in Chinese cites the Chinese pages, and promises no better answer", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await openDocs(page, env, "/zh-CN/docs/next/setup", site);
  await openPanel(page);
  await ask(page, ZH_QUESTION);
  const cited = (await sources(page)).map(decoded);
  assert.ok(cited.length > 0, "sources");
  assert.ok(cited.includes("/zh-CN/docs/next/setup#校准漏斗"), cited.join(" "));
  assert.ok(cited.every((h) => isZh(h) && isNext(h)), `Chinese Next sources only: ${cited.join(" ")}`);
  const answer = page.locator(".lectern-message--assistant").last();
  assert.match(await answer.innerText(), /漏斗/, "the answer is made from the Chinese text");
  // The panel's own words in the Chinese the plugin ships (src/locales/zh-Hans).
  assert.equal(await page.locator(".lectern-header__title").innerText(), "向本站提问");
  // Semantic search is not coming for Chinese: nothing says it is.
  assert.equal(await answer.locator('[data-lectern-note="KEYWORD_ONLY"]').count(), 0);
  assert.equal(await page.locator('[data-lectern-status="model"], [data-lectern-ask-again]').count(), 0);
  assert.deepEqual(site.requests().filter((r) => SEMANTIC_FILES.test(r.path)).map((r) => r.path), []);
  // Follow-ups are the Chinese headings as written, not wrapped in an English template.
  await page.locator(".lectern-follow-ups .lectern-follow-up").first().waitFor();
  const suggested = await page.locator(".lectern-follow-ups .lectern-follow-up").allInnerTexts();
  assert.ok(suggested.length > 0 && suggested.every((q) => !/[A-Za-z]/.test(q)), suggested.join(" | "));
});

for (const [name, options] of [
  ["light", {}],
  ["dark", { colorScheme: "dark" }],
  ["390px", { viewport: { width: 390, height: 780 }, isMobile: true, hasTouch: true }],
]) {
  test(`screenshots of the Chinese search box and answer (${name})`, async (t) => {
    if (await skipUnbuilt(t)) return;
    const { page } = await newPage(t, env, options);
    await openDocs(page, env, "/zh-CN/docs/next/intro", site);
    await openSearch(page);
    await searchFor(page, ZH_QUERY);
    assert.ok((await searchRows(page)).length > 0);
    if (name === "390px") {
      const overflow = await page.evaluate(() => document.querySelector("dialog.lectern-search").scrollWidth - 390);
      assert.ok(overflow <= 0, "nothing sticks out sideways");
    }
    await screenshot(page, `70-i18n-zh-search-${name}`);
    await page.click("[data-lectern-ask-ai]");
    await page.waitForSelector(".lectern-panel:not([hidden])");
    await page.waitForFunction(() => document.querySelector(".lectern-message--assistant .lectern-sources") && !document.querySelector('[aria-busy="true"]'), null, { timeout: 60000 });
    assert.ok((await sources(page)).map(decoded).every(isZh));
    await screenshot(page, `71-i18n-zh-answer-${name}`);
  });
}
