// A reader on the new user's site (tests/new-user/run.sh sets the origin): opens a docs
// page, presses Ctrl+I, asks about the page, gets a streamed answer with citations, and
// every cited link lands on its section (the panel offered "Ask about this page"; the answer
// has "Copy link" and follow-up questions, fires one `lectern:answer` event without the
// reader's text, and following a citation highlights its passage); then types into the navbar's search box (which
// the one plugin line added) and follows a result; and opens a shared link (`?ask=`), which
// asks its question.
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

/** A desktop-sized page (and its context) in a fresh Chromium (closed after test `t`), with the errors it throws
 * uncaught collected and its console errors reported. */
async function openPage(t) {
  const browser = await chromium.launch(chromiumLaunchOptions());
  t.after(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const uncaught = [];
  page.on("pageerror", (e) => uncaught.push(e.message));
  page.on("console", (m) => m.type() === "error" && t.diagnostic(`console.error: ${m.text()}`));
  return { context, page, uncaught };
}

/** Waits until the last answer is no longer streaming and lists its sources (or an error). */
function answerDone(page) {
  return page.waitForFunction(
    () => {
      const last = [...document.querySelectorAll(".lectern-message--assistant")].at(-1);
      return last && last.getAttribute("aria-busy") !== "true" && (last.querySelector(".lectern-sources") || last.querySelector("[role=alert]"));
    },
    null,
    { timeout: 150_000 },
  );
}

test(`${label}: Ctrl+I, a question about the page, an answer whose citations land on their sections`, { timeout: 180_000 }, async (t) => {
  const { context, page, uncaught } = await openPage(t);
  // The usage events a site's analytics would get (issue 27): kept as they are fired.
  await page.addInitScript(() => {
    window.__answers = [];
    window.addEventListener("lectern:answer", (e) => window.__answers.push(e.detail));
  });

  await page.goto(origin + pagePath);
  await page.waitForSelector("[data-lectern-hydrated]", { state: "attached", timeout: 60_000 });
  await page.keyboard.press("Control+I");
  await page.waitForSelector(".lectern-panel textarea", { timeout: 30_000 });
  assert.equal(await page.locator("[data-lectern-ask-page]").count(), 1, "a docs page offers \"Ask about this page\"");
  // The panel focuses the box on the next frame; under `docusaurus start` (React's dev
  // build, the panel chunk compiled on demand) that frame can come a little later.
  const focused = await page
    .waitForFunction(() => document.activeElement?.tagName === "TEXTAREA", null, { timeout: 5000 })
    .then(() => "TEXTAREA", () => page.evaluate(() => document.activeElement?.tagName));
  assert.equal(focused, "TEXTAREA", "Ctrl+I puts the focus in the question box");
  await page.keyboard.type(QUESTION);
  await page.keyboard.press("Enter");

  // Done: the last answer is no longer streaming and lists its sources.
  await answerDone(page);
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

  // What comes with an answer: its shareable link, follow-up questions the site answers, one
  // usage event (without the question: the site did not opt in), and a followed citation
  // highlights the passage it drew on.
  assert.equal(await answer.locator("[data-lectern-copy-link]").count(), 1, "the answer has Copy link");
  await page.waitForSelector(".lectern-follow-ups .lectern-follow-up", { timeout: 60_000 });
  const answers = await page.evaluate(() => window.__answers);
  assert.equal(answers.length, 1, "one lectern:answer event");
  assert.ok(answers[0].sources.length >= 1 && answers[0].confidence, JSON.stringify(answers[0]));
  assert.equal(answers[0].question, undefined, "no reader text by default");
  await answer.locator(".lectern-markdown a.lectern-cite").first().click();
  await page.waitForFunction(() => CSS.highlights.get("lectern-passage")?.size > 0, null, { timeout: 15_000 });
  assert.deepEqual(uncaught, [], "nothing throws uncaught on the page");
});

test(`${label}: the navbar's search box finds the page as the reader types, and lands on it`, { timeout: 120_000 }, async (t) => {
  const { page, uncaught } = await openPage(t);

  await page.goto(origin + "/");
  // The template's home page has the search box too (the plugin provides the SearchBar).
  await page.waitForSelector("[data-lectern-search-button]", { timeout: 60_000 });
  await page.waitForSelector("[data-lectern-hydrated]", { state: "attached", timeout: 60_000 });
  await page.click("[data-lectern-search-button]");
  await page.waitForSelector("dialog.lectern-search[open] .lectern-search__input");
  await page.keyboard.type("node vers", { delay: 50 });
  await page.waitForFunction(
    () => document.querySelector('.lectern-search__body[data-lectern-search-status="ready"] a.lectern-result') && document.querySelector(".lectern-search__input").value === "node vers",
    null,
    { timeout: 90_000 },
  );
  const rows = await page.locator(".lectern-search a.lectern-result").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  t.diagnostic(`results for "node vers": ${rows.join(" ")}`);
  assert.ok(rows.some((h) => new URL(h, origin).pathname.replace(/\/$/, "") === pagePath), `${pagePath} is among the results`);
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${label}-search.png`) });
  const target = rows.find((h) => new URL(h, origin).pathname.replace(/\/$/, "") === pagePath);
  // Down to that row, Enter: the page opens.
  for (let i = 0; i < rows.length; i++) {
    const active = await page.evaluate(() => document.getElementById(document.querySelector(".lectern-search__input").getAttribute("aria-activedescendant"))?.querySelector("a")?.getAttribute("href"));
    if (active === target) break;
    await page.keyboard.press("ArrowDown");
  }
  await page.keyboard.press("Enter");
  await page.waitForFunction((p) => location.pathname.replace(/\/$/, "") === p, pagePath, { timeout: 30_000 });
  assert.deepEqual(uncaught, [], "nothing throws uncaught on the page");
});

test(`${label}: a shared link (?ask=) opens the panel and asks its question, once`, { timeout: 180_000 }, async (t) => {
  const { page, uncaught } = await openPage(t);
  await page.goto(`${origin}${pagePath}?ask=${encodeURIComponent(QUESTION)}`);
  await page.waitForSelector("[data-lectern-hydrated]", { state: "attached", timeout: 60_000 });
  await answerDone(page);
  // The message reads "You:" to a screen reader, then the question.
  assert.ok((await page.locator(".lectern-message--user").innerText()).trim().endsWith(QUESTION), "the link's question was asked");
  const answer = page.locator(".lectern-message--assistant").last();
  assert.equal(await answer.locator("[role=alert]").count(), 0, `no error: ${await answer.innerText()}`);
  assert.ok((await answer.locator(".lectern-sources li a").count()) >= 1, "the answer lists its sources");
  assert.equal(new URL(page.url()).searchParams.get("ask"), null, "the question is taken out of the address");
  assert.deepEqual(uncaught, [], "nothing throws uncaught on the page");
});
