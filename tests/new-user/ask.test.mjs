// A reader on the new user's site (tests/new-user/run.sh sets the origin): opens a docs
// page, presses Ctrl+I, asks about the page, gets a streamed answer with citations, and
// every cited link lands on its section.
//
//   LECTERN_NU_ORIGIN     the served site, e.g. http://127.0.0.1:3000
//   LECTERN_NU_PAGE       the docs page to ask on (/docs/intro: the template's own intro)
//   LECTERN_NU_LABEL      names the screenshot
//   LECTERN_NU_ARTIFACTS  where the screenshot goes
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromiumLaunchOptions } from "../../scripts/lib/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
// The e2e tests' pinned playwright-core drives Debian's Chromium.
const { chromium } = createRequire(path.join(here, "../e2e/package.json"))("playwright-core");

const origin = process.env.LECTERN_NU_ORIGIN;
const pagePath = process.env.LECTERN_NU_PAGE ?? "/docs/intro";
const label = process.env.LECTERN_NU_LABEL ?? "site";
const artifacts = process.env.LECTERN_NU_ARTIFACTS ?? path.join(here, "artifacts");
if (!origin) throw new Error("LECTERN_NU_ORIGIN is not set: run tests/new-user/run.sh");
// The template's intro says which Node.js version a site needs; asked the way a reader would.
const QUESTION = "What version of Node do I have to install before I begin?";

test(`${label}: Ctrl+I, a question about the page, an answer whose citations land on their sections`, { timeout: 180_000 }, async (t) => {
  const browser = await chromium.launch(chromiumLaunchOptions());
  t.after(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const uncaught = [];
  page.on("pageerror", (e) => uncaught.push(e.message));
  page.on("console", (m) => m.type() === "error" && t.diagnostic(`console.error: ${m.text()}`));

  await page.goto(origin + pagePath);
  await page.waitForSelector("[data-lectern-hydrated]", { state: "attached", timeout: 60_000 });
  await page.keyboard.press("Control+I");
  await page.waitForSelector(".lectern-panel textarea", { timeout: 30_000 });
  // The panel focuses the box on the next frame; under `docusaurus start` (React's dev
  // build, the panel chunk compiled on demand) that frame can come a little later.
  const focused = await page
    .waitForFunction(() => document.activeElement?.tagName === "TEXTAREA", null, { timeout: 5000 })
    .then(() => "TEXTAREA", () => page.evaluate(() => document.activeElement?.tagName));
  assert.equal(focused, "TEXTAREA", "Ctrl+I puts the focus in the question box");
  await page.keyboard.type(QUESTION);
  await page.keyboard.press("Enter");

  // Done: the last answer is no longer streaming and lists its sources.
  await page.waitForFunction(
    () => {
      const last = [...document.querySelectorAll(".lectern-message--assistant")].at(-1);
      return last && last.getAttribute("aria-busy") !== "true" && (last.querySelector(".lectern-sources") || last.querySelector("[role=alert]"));
    },
    null,
    { timeout: 150_000 },
  );
  const answer = page.locator(".lectern-message--assistant").last();
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${label}-answer.png`) });
  assert.equal(await answer.locator("[role=alert]").count(), 0, `no error: ${await answer.innerText()}`);
  const text = await answer.locator(".lectern-markdown").innerText();
  assert.ok(text.trim().length > 20, `an answer was streamed: ${text}`);
  const cites = await answer.locator(".lectern-markdown a.lectern-cite").evaluateAll((as) => as.map((a) => a.href));
  const sources = await answer.locator(".lectern-sources li a").evaluateAll((as) => as.map((a) => a.href));
  t.diagnostic(`answer: ${text.slice(0, 160).replace(/\s+/g, " ")}…`);
  t.diagnostic(`sources: ${sources.join(" ")}`);
  assert.ok(cites.length >= 1, "the answer cites its sources inline");
  assert.ok(sources.length >= 1, "the sources are listed");
  assert.ok(
    sources.some((s) => new URL(s).pathname.replace(/\/$/, "") === pagePath),
    `a source is on the page the question is about (${pagePath})`,
  );
  for (const href of new Set([...cites, ...sources])) {
    const url = new URL(href);
    assert.equal(url.origin, origin, `${href} stays on the site`);
    const landing = await context.newPage();
    const response = await landing.goto(href);
    assert.ok(response.ok(), `${href} answers ${response.status()}`);
    if (url.hash) {
      const id = decodeURIComponent(url.hash.slice(1));
      // Under `docusaurus start` the page renders on the client: wait for the section.
      const heading = await landing
        .waitForFunction((id) => document.getElementById(id)?.tagName, id, { timeout: 30_000 })
        .then((h) => h.jsonValue())
        .catch(() => null);
      assert.match(heading ?? "", /^H[1-6]$/, `${href} lands on a heading with id "${id}"`);
    }
    await landing.close();
  }
  assert.deepEqual(uncaught, [], "nothing throws uncaught on the page");
});
