// The version scope (issue 26, point 2) on the small versioned fixture (versioned-site/:
// version 1.0 at /docs/, the current docs "Next" at /docs/next/, and a second docs instance
// with the same two version names at /api/ and /api/next/): the search box and the chat
// answer from the version of the page the reader is on, in its own docs instance, "All
// versions" widens, the search page filters by ?version=; and the launcher option puts the
// button in another corner.

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
// The second docs instance: its 1.0 at /api/, its Next at /api/next/.
const isApi = (href) => href.startsWith("/api/");
const isApiNext = (href) => href.startsWith("/api/next/");
const isDocs = (href) => href.startsWith("/docs/");
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
  // The docs' Next, and the other docs instance at its latest version (1.0).
  assert.ok(scoped.every((r) => isNext(r.href) || (isApi(r.href) && !isApiNext(r.href))), `only Next: ${scoped.map((r) => r.href).join(" ")}`);
  await screenshot(page, "60-versioned-scoped");
  await page.check(".lectern-search .lectern-scope__widen input");
  // The docs' own 1.0 comes in.
  await page.waitForFunction(() => [...document.querySelectorAll(".lectern-search a.lectern-result")].some((a) => /^\/docs\/(?!next\/)/.test(a.getAttribute("href"))));
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
  assert.ok(rows.length > 0 && rows.every((r) => !isNext(r.href) && !isApiNext(r.href)), `only 1.0: ${rows.map((r) => r.href).join(" ")}`);
  await page.click("[data-lectern-ask-ai]");
  await page.waitForSelector(".lectern-panel:not([hidden])");
  await waitForAnswer(page, 1);
  // The panel says what it answers from.
  assert.match(await page.locator(".lectern-panel .lectern-scope__current").innerText(), /Version 1\.0/);
  const sources = await page.locator(".lectern-message--assistant").last().locator(".lectern-sources li a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(sources.length > 0 && sources.every((h) => !isNext(h) && !isApiNext(h)), `1.0 sources only: ${sources.join(" ")}`);
  await screenshot(page, "62-versioned-answer");
});

test("the search page filters by ?version=, and starts at the latest version off the docs", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await page.goto(`${site.origin}/search?q=install`);
  await page.waitForSelector(".lectern-search-page .lectern-result", { timeout: 60000 });
  // Two docs instances have versions: a version is named with its instance.
  assert.equal(await page.inputValue(".lectern-search-page select"), "default:1.0", "the latest version by default");
  const links = await page.locator(".lectern-search-page .lectern-result").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(links.every((h) => !isNext(h) && !isApiNext(h)), links.join(" "));
  await page.selectOption(".lectern-search-page select", "default:current");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("version") === "default:current");
  // The docs' Next; the other instance stays at its latest version.
  await page.waitForFunction(() => {
    const hrefs = [...document.querySelectorAll(".lectern-search-page .lectern-result")].map((a) => a.getAttribute("href"));
    return hrefs.some((h) => h.startsWith("/docs/next/")) && hrefs.every((h) => h.startsWith("/docs/next/") || /^\/api\/(?!next\/)/.test(h));
  });
  await page.selectOption(".lectern-search-page select", "all");
  await page.waitForFunction(() => {
    const hrefs = [...document.querySelectorAll(".lectern-search-page .lectern-result")].map((a) => a.getAttribute("href"));
    return hrefs.some((h) => h.startsWith("/docs/next/")) && hrefs.some((h) => !h.startsWith("/docs/next/"));
  });
  const badges = await page.locator(".lectern-search-page .lectern-version-badge").allTextContents();
  assert.ok(badges.includes("Next") && badges.includes("1.0"), `badges: ${badges.join(", ")}`);
  await screenshot(page, "63-versioned-search-page");
});

test("two docs instances with one version name do not mix: the docs' Next page searches the docs' Next and the API's 1.0", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await openDocs(page, env, "/docs/next/install", site);
  await openSearch(page);
  assert.match(await page.locator(".lectern-search .lectern-scope__current").innerText(), /Version Next/);
  await searchFor(page, "install the planner");
  const rows = (await searchRows(page)).map((r) => r.href);
  // By version name alone, "1.0" (the API's scope) would let the docs' own 1.0 in.
  assert.ok(rows.length > 0 && rows.every((h) => isNext(h) || (isApi(h) && !isApiNext(h))), `docs Next and API 1.0 only: ${rows.join(" ")}`);
  assert.ok(rows.some(isNext) && rows.some(isApi), `both instances searched: ${rows.join(" ")}`);
  await page.click("[data-lectern-ask-ai]");
  await page.waitForSelector(".lectern-panel:not([hidden])");
  await waitForAnswer(page, 1);
  const sources = await page.locator(".lectern-message--assistant").last().locator(".lectern-sources li a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(sources.length > 0 && sources.every((h) => isNext(h) || (isApi(h) && !isApiNext(h))), `cited: ${sources.join(" ")}`);
  await screenshot(page, "65-versioned-two-instances");
});

test("on the API's Next page: the API's Next and the docs' latest (1.0), not the API's 1.0", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  await openDocs(page, env, "/api/next/install", site);
  await openSearch(page);
  assert.match(await page.locator(".lectern-search .lectern-scope__current").innerText(), /Version Next/);
  await searchFor(page, "install the planner client");
  const rows = (await searchRows(page)).map((r) => r.href);
  assert.ok(rows.some(isApiNext), `the API's Next: ${rows.join(" ")}`);
  assert.ok(rows.every((h) => isApiNext(h) || (isDocs(h) && !isNext(h))), `API Next and docs 1.0 only: ${rows.join(" ")}`);
  // Widened: the API's 1.0 comes back.
  await page.check(".lectern-search .lectern-scope__widen input");
  await page.waitForFunction(() => [...document.querySelectorAll(".lectern-search a.lectern-result")].some((a) => /^\/api\/(?!next\/)/.test(a.getAttribute("href"))));
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
