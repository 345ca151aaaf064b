// The version scope (issue 26, point 2) on the small versioned fixture (versioned-site/:
// version 1.0 at /docs/, the current docs "Next" at /docs/next/): the search box and the
// chat answer from the version of the page the reader is on, "All versions" widens, the
// search page filters by ?version=; and the launcher option puts the button in another
// corner.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { startSiteServer } from "./server.mjs";
import { newPage, openDocs, openSearch, screenshot, searchFor, searchRows, useEnvironment, waitForAnswer } from "./harness.mjs";

const env = useEnvironment();
const ROOT = process.env.LECTERN_E2E_VERSIONED;
const built = ROOT && existsSync(path.join(ROOT, "docs", "install", "index.html"));
let site;
after(() => site?.close());

const isNext = (href) => href.startsWith("/docs/next/");
/** Skips the test without the fixture's build; else serves it (once), its LLM proxy to the
 * environment's LLM server. */
const skipUnbuilt = async (t) => {
  if (!built) {
    t.skip("no versioned fixture build (LECTERN_E2E_VERSIONED): run tests/e2e/run.sh");
    return true;
  }
  site ??= await startSiteServer({ root: ROOT });
  site.setUpstream(env.llm.url);
  return false;
};

test("on a current (Next) page the box searches Next; All versions widens it", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await openDocs(page, env, "/docs/next/install", site);
  await openSearch(page);
  assert.match(await page.locator(".lectern-search .lectern-scope__current").innerText(), /Version Next/);
  await searchFor(page, "install the planner");
  const scoped = await searchRows(page);
  assert.ok(scoped.length > 0);
  assert.ok(scoped.every((r) => isNext(r.href)), `only Next: ${scoped.map((r) => r.href).join(" ")}`);
  await screenshot(page, "60-versioned-scoped");
  await page.check(".lectern-search .lectern-scope__widen input");
  await page.waitForFunction(() => [...document.querySelectorAll(".lectern-search a.lectern-result")].some((a) => !a.getAttribute("href").startsWith("/docs/next/")));
  const all = await searchRows(page);
  assert.ok(all.some((r) => isNext(r.href)) && all.some((r) => !isNext(r.href)), `both versions: ${all.map((r) => r.href).join(" ")}`);
  // Pages of the same title in two versions are told apart by their version.
  const badges = await page.locator(".lectern-search .lectern-version-badge").allTextContents();
  assert.ok(badges.includes("Next") && badges.includes("1.0"), `badges: ${badges.join(", ")}`);
  await screenshot(page, "61-versioned-all");
});

test("on a 1.0 page: the box and Ask AI stay in 1.0, and the answer cites 1.0 only", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await openDocs(page, env, "/docs/install", site);
  await openSearch(page);
  assert.match(await page.locator(".lectern-search .lectern-scope__current").innerText(), /Version 1\.0/);
  await searchFor(page, "dashboard colour");
  const rows = await searchRows(page);
  assert.ok(rows.length > 0 && rows.every((r) => !isNext(r.href)), `only 1.0: ${rows.map((r) => r.href).join(" ")}`);
  await page.click("[data-lectern-ask-ai]");
  await page.waitForSelector(".lectern-panel:not([hidden])");
  await waitForAnswer(page, 1);
  // The panel says what it answers from.
  assert.match(await page.locator(".lectern-panel .lectern-scope__current").innerText(), /Version 1\.0/);
  const sources = await page.locator(".lectern-message--assistant").last().locator(".lectern-sources li a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(sources.length > 0 && sources.every((h) => !isNext(h)), `1.0 sources only: ${sources.join(" ")}`);
  await screenshot(page, "62-versioned-answer");
});

test("the search page filters by ?version=, and starts at the latest version off the docs", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await page.goto(`${site.origin}/search?q=install`);
  await page.waitForSelector(".lectern-search-page .lectern-result", { timeout: 60000 });
  assert.equal(await page.inputValue(".lectern-search-page select"), "1.0", "the latest version by default");
  const links = await page.locator(".lectern-search-page .lectern-result").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(links.every((h) => !isNext(h)), links.join(" "));
  await page.selectOption(".lectern-search-page select", "current");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("version") === "current");
  await page.waitForFunction(() => [...document.querySelectorAll(".lectern-search-page .lectern-result")].every((a) => a.getAttribute("href").startsWith("/docs/next/")));
  await page.selectOption(".lectern-search-page select", "all");
  await page.waitForFunction(() => {
    const hrefs = [...document.querySelectorAll(".lectern-search-page .lectern-result")].map((a) => a.getAttribute("href"));
    return hrefs.some((h) => h.startsWith("/docs/next/")) && hrefs.some((h) => !h.startsWith("/docs/next/"));
  });
  const badges = await page.locator(".lectern-search-page .lectern-version-badge").allTextContents();
  assert.ok(badges.includes("Next") && badges.includes("1.0"), `badges: ${badges.join(", ")}`);
  await screenshot(page, "63-versioned-search-page");
});

test("on a page that is not a docs page: no floating launcher, and Ask AI still opens the panel", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await openDocs(page, env, "/", site);
  assert.equal(await page.locator(".lectern-launcher").count(), 0, "the floating launcher is for docs pages");
  await openSearch(page);
  await searchFor(page, "What does the planner need to install?");
  await page.click("[data-lectern-ask-ai]");
  await page.waitForSelector(".lectern-panel:not([hidden])");
  await waitForAnswer(page, 1);
  assert.ok((await page.locator(".lectern-message--assistant .lectern-sources li a").count()) >= 1);
  await screenshot(page, "64-versioned-home-ask-ai");
});

test("the launcher option: bottom-left, 24 px from the corner", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await openDocs(page, env, "/docs/intro", site);
  const box = await page.locator(".lectern-launcher").boundingBox();
  assert.equal(Math.round(box.x), 24);
  assert.equal(Math.round(800 - box.y - box.height), 24);
});
