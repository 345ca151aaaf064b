// What every e2e test file shares: Chromium (Debian's, through playwright-core), the site
// server with its LLM proxy, the local LLM server (scripts/llm-server), and helpers that
// drive the widget the way a reader does. tests/e2e/run.sh builds the site and sets:
//
//   LECTERN_E2E_SITE       the example site built by `docusaurus build` with the plugin
//   LECTERN_E2E_PROTECTED  the same with Turnstile on and the selection button renamed
//                          (protected.config.mjs)
//   LECTERN_E2E_ARTIFACTS  where screenshots go

import { after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startSiteServer } from "./server.mjs";
import { startLlmServer } from "../../scripts/llm-server/server.mjs";
import { chromiumLaunchOptions } from "../../scripts/lib/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const SITE = process.env.LECTERN_E2E_SITE;
export const ARTIFACTS = process.env.LECTERN_E2E_ARTIFACTS ?? path.join(here, "artifacts");
if (!SITE) throw new Error("LECTERN_E2E_SITE is not set: run tests/e2e/run.sh");
mkdirSync(ARTIFACTS, { recursive: true });


export const QUESTION = "How do ROS 2 nodes discover each other?";

/** Starts the servers and the browser for one test file; returns a live object. */
export function useEnvironment({ tokenDelayMs = 12 } = {}) {
  const env = {};
  before(async () => {
    env.site = await startSiteServer({ root: SITE });
    env.llm = await startLlmServer({ tokenDelayMs });
    env.site.setUpstream(env.llm.url);
    env.browser = await chromium.launch(chromiumLaunchOptions());
  });
  after(async () => {
    await env.browser?.close();
    await env.site?.close();
    await env.llm?.close();
  });
  return env;
}

/**
 * A fresh browser context (empty storage and Cache API) and page. Uncaught page errors are
 * collected and asserted empty when the test ends; console errors are reported.
 */
export async function newPage(t, env, { viewport = { width: 1280, height: 800 }, colorScheme = "light", hasTouch = false, isMobile = false, context: existing } = {}) {
  env.site.setUpstream(env.llm.url);
  env.site.setHandler(null);
  env.site.setDelay(null);
  env.site.setHeaders(null);
  env.site.setFault(null);
  env.llm.reset();
  const context = existing ?? (await env.browser.newContext({ viewport, colorScheme, hasTouch, isMobile, deviceScaleFactor: 1 }));
  const page = await context.newPage();
  const uncaught = [];
  page.on("pageerror", (e) => uncaught.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") t.diagnostic(`console.error: ${m.text()}`);
  });
  t.after(async () => {
    if (!existing) await context.close();
    assert.deepEqual(uncaught, [], "nothing may throw uncaught on the page");
  });
  return { page, context };
}

/** Opens a docs page and waits for the widget to be hydrated (the launcher reacts). */
export async function openDocs(page, env, pathname = "/docs/intro/", site = env.site) {
  await page.goto(site.origin + pathname);
  // Hydrated: the widget's handlers are attached.
  await page.waitForSelector("[data-lectern-hydrated]", { state: "attached" });
  await page.waitForLoadState("networkidle");
}

/** Opens the panel with the launcher and waits until keyword search works. */
export async function openPanel(page) {
  await page.click(".lectern-launcher");
  await page.waitForSelector(".lectern-panel textarea");
  await waitForIndex(page);
}

export async function waitForIndex(page) {
  // Keyword search works once the index status line has gone from the open panel.
  await page.waitForFunction(
    () => {
      const panel = document.querySelector(".lectern-panel:not([hidden])");
      return panel && !panel.classList.contains("lectern-panel--loading") && !panel.querySelector('[data-lectern-status="index"]');
    },
    null,
    { timeout: 60000 },
  );
}

/** Opens the navbar's search box with its button; resolves when the query box has the focus. */
export async function openSearch(page) {
  await page.click("[data-lectern-search-button]");
  await page.waitForSelector("dialog.lectern-search[open] .lectern-search__input");
  await page.waitForFunction(() => document.activeElement?.classList.contains("lectern-search__input"));
}

/** Types `query` into the open search box and waits for its results (keyword ones, or the
 * no-results note). */
export async function searchFor(page, query) {
  await page.fill(".lectern-search__input", query);
  await waitForSearch(page, query);
}

/** Waits until the search box shows the results of `query`. */
export async function waitForSearch(page, query, timeout = 60000) {
  await page.waitForFunction(
    (q) => {
      const body = document.querySelector('.lectern-search__body[data-lectern-search-status="ready"]');
      const input = document.querySelector(".lectern-search__input");
      return body && input && input.value === q && (body.querySelector(".lectern-result") || body.querySelector("[data-lectern-no-results]"));
    },
    query,
    { timeout },
  );
}

/** The rows the search box shows: [{href, title, semantic}]. */
export function searchRows(page) {
  return page.locator(".lectern-search [role=option] a.lectern-result").evaluateAll((as) =>
    as.map((a) => ({ href: a.getAttribute("href"), title: a.querySelector(".lectern-result__title")?.textContent ?? "", semantic: a.closest("[role=option]").classList.contains("lectern-search__option--semantic") })),
  );
}

/** Types a question and sends it with Enter; resolves when its answer has finished. */
export async function ask(page, question, { wait = true } = {}) {
  const before = await page.locator(".lectern-message--assistant").count();
  await page.fill(".lectern-panel textarea", question);
  await page.press(".lectern-panel textarea", "Enter");
  if (wait) await waitForAnswer(page, before + 1);
}

/** Waits until `count` assistant messages are shown and none is streaming. */
export async function waitForAnswer(page, count, timeout = 60000) {
  await page.waitForFunction(
    (n) => document.querySelectorAll(".lectern-message--assistant").length >= n && !document.querySelector('.lectern-message--assistant[aria-busy="true"]'),
    count,
    { timeout },
  );
}

/** Saves a screenshot under the artefacts folder and returns its path. */
export async function screenshot(page, name, options = {}) {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, ...options });
  return file;
}

/** The widget's CustomEvents ("lectern:*") recorded on the page, from now on. */
export async function recordEvents(page) {
  await page.evaluate(() => {
    window.__lecternEvents = [];
    for (const name of ["open", "close", "copy", "new-conversation", "question", "answer", "refusal", "error", "feedback", "citation_click", "search", "search_click"]) {
      window.addEventListener(`lectern:${name}`, (e) => window.__lecternEvents.push({ name, detail: e.detail }));
    }
  });
  return () => page.evaluate(() => window.__lecternEvents);
}

/** Waits until `ms` have passed since `since` (the chat allows 1 question per 2 s). */
// `since` is taken before the click that asks; the chat starts its 2 s window a little later
// (more on a loaded 2-core machine), hence the margin.
export async function rateLimitGap(since, ms = 2800) {
  const wait = since + ms - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}
