// What every browser test file shares: Debian's Chromium, the static test server (pkg/,
// test page, sample bundle), fresh pages that fail the test on any uncaught error, and a
// way to run code in the page. Run through tests/browser/run.sh (LECTERN_BROWSER_ASSETS,
// LECTERN_PKG_DIR).

import { after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "./server.mjs";
import { chromiumLaunchOptions } from "../../scripts/lib/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ASSETS = process.env.LECTERN_BROWSER_ASSETS;
const PKG = process.env.LECTERN_PKG_DIR ?? path.join(here, "../../pkg");
if (!ASSETS) throw new Error("LECTERN_BROWSER_ASSETS is not set: run tests/browser/run.sh");


/** Starts the server and Chromium for this test file; the getters work inside tests. */
export function useBrowser() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer({ pkgDir: PKG, pageDir: path.join(here, "page"), bundleDir: path.join(ASSETS, "bundle") });
    env.browser = await chromium.launch(chromiumLaunchOptions());
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/** A fresh browser context (empty storage and Cache Storage) with the test page loaded.
 * `init` is a script run before the page's own (e.g. to break sessionStorage). Uncaught
 * errors and unhandled rejections are collected: the test fails if there are any. */
export async function openPage(t, env, { init } = {}) {
  const context = await env.browser.newContext();
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const uncaught = [];
  page.on("pageerror", (e) => uncaught.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") t.diagnostic(`console.error: ${m.text()}`);
  });
  await page.goto(`${env.server.origin}/page/`);
  await page.waitForFunction(() => window.testReady === true);
  t.after(async () => {
    await context.close();
    assert.deepEqual(uncaught, [], "nothing may throw uncaught on the page");
  });
  return page;
}

/** Runs `fn(arg)` in the page; an error thrown there comes back as {error: {name, code, …}}. */
export async function inPage(page, fn, arg) {
  return page.evaluate(
    async ([source, arg]) => {
      try {
        // eslint-disable-next-line no-new-func
        return { value: await new Function(`return (${source})`)()(arg) };
      } catch (e) {
        return {
          error: { name: e.name, code: e.code, detail: e.detail, message: e.message, suggestion: e.suggestion, retryable: e.retryable, partial: e.partial },
        };
      }
    },
    [fn.toString(), arg],
  );
}
