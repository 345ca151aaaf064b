// Citations land on the evidence (issue 27, point 6): following a citation scrolls to the
// cited section and highlights the passage the answer drew on (the sentences the core chose,
// SourceReference.passage), after Docusaurus's client-side navigation and on a full page load
// (a Ctrl-click into a new tab); the highlight goes on the reader's next click. The citation's
// href names the passage itself (SourceReference.link: `?passage=start~end`), so the same
// address opened in another browser highlights it too; the page takes the name out of the
// address bar once read. A stale, tampered or hostile name, or a browser without the CSS
// Custom Highlight API, still lands on the heading: nothing highlighted, no error.

import { test } from "node:test";
import assert from "node:assert/strict";
import { QUESTION, ask, newPage, openDocs, openPanel, screenshot, useEnvironment } from "./harness.mjs";

const env = useEnvironment();
const HIGHLIGHT = "lectern-passage";

/** `href` without its query (what the address bar shows once the passage was read). */
const withoutQuery = (href) => {
  const url = new URL(href, "http://x");
  return url.pathname + url.hash;
};
/** Letters and digits, lower-cased: how the page matches a passage's words. */
const letters = (text) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** The answer's first citation that names a section (its href has an anchor), else its first. */
async function firstCitation(page) {
  const cites = page.locator(".lectern-message--assistant").last().locator(".lectern-markdown a.lectern-cite");
  const hrefs = await cites.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(hrefs.length >= 1, "the answer cites a source");
  const index = Math.max(0, hrefs.findIndex((h) => h.includes("#")));
  return { link: cites.nth(index), href: hrefs[index] };
}

/** Waits for the passage's highlight, then checks that it lies in the cited section (after
 * its heading, before the next heading of its level or above) and that the heading is in
 * view; returns the highlighted text. */
async function highlightedInSection(page, href) {
  await page.waitForFunction((name) => CSS.highlights.get(name)?.size > 0, HIGHLIGHT, { timeout: 10000 });
  const id = decodeURIComponent(new URL(href, "http://x").hash.slice(1));
  // The scroll may be smooth: wait until it settles with the heading in view.
  await page.waitForFunction((anchor) => {
    const heading = anchor ? document.getElementById(anchor) : document.querySelector("article h1");
    const r = heading?.getBoundingClientRect();
    return r && r.top >= 0 && r.bottom <= window.innerHeight;
  }, id, { timeout: 5000 });
  return page.evaluate(({ name, anchor }) => {
    const heading = anchor ? document.getElementById(anchor) : document.querySelector("article h1");
    const level = Number(heading.tagName.slice(1));
    const next = [...document.querySelectorAll("article h1, article h2, article h3, article h4, article h5, article h6")].find(
      (h) => level > 1 && Number(h.tagName.slice(1)) <= level && heading.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING,
    );
    const ranges = [...CSS.highlights.get(name)];
    const inside = ranges.every((r) => {
      const after = heading.compareDocumentPosition(r.startContainer) & Node.DOCUMENT_POSITION_FOLLOWING;
      const before = !next || next.compareDocumentPosition(r.endContainer) & Node.DOCUMENT_POSITION_PRECEDING;
      return after && before;
    });
    return { text: ranges.map((r) => r.toString()).join(" "), inside, heading: heading.textContent };
  }, { name: HIGHLIGHT, anchor: id });
}

test("a citation followed in the page: client-side navigation, the cited heading in view, its passage highlighted until the next click", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  await openPanel(page);
  await ask(page, QUESTION);
  const { link, href } = await firstCitation(page);
  t.diagnostic(`following ${href}`);
  await page.evaluate(() => (window.__samePage = true));
  await link.click();
  assert.match(href, /\?passage=[^#]+#/, "the citation's link names its passage");
  await page.waitForFunction((h) => location.pathname + location.hash === h, withoutQuery(href));
  const seen = await highlightedInSection(page, href);
  assert.equal(await page.evaluate(() => location.search), "", "the passage's name was taken out of the address bar");
  t.diagnostic(`highlighted under "${seen.heading}": ${seen.text}`);
  assert.equal(await page.evaluate(() => window.__samePage), true, "no page load: the router navigated");
  assert.ok(seen.inside, "the highlight is inside the cited section");
  assert.ok(seen.text.split(/\s+/).length >= 4, `a passage, not a word: "${seen.text}"`);
  // No element was added to the page for it.
  assert.equal(await page.locator("article mark").count(), 0);
  await screenshot(page, "27-passage-light");

  // The reader's next click (on the page's text) clears it.
  await page.locator("article p").first().click();
  assert.equal(await page.evaluate((name) => CSS.highlights.has(name), HIGHLIGHT), false, "the highlight went with the click");
});

test("a citation opened in a new tab (full page load): the passage is highlighted there, in the dark theme too", async (t) => {
  const { page, context } = await newPage(t, env, { colorScheme: "dark" });
  await openDocs(page, env);
  await openPanel(page);
  await ask(page, QUESTION);
  const { link, href } = await firstCitation(page);
  const [tab] = await Promise.all([context.waitForEvent("page"), link.click({ modifiers: ["Control"] })]);
  const errors = [];
  tab.on("pageerror", (e) => errors.push(e.message));
  await tab.waitForLoadState("domcontentloaded");
  const seen = await highlightedInSection(tab, href);
  t.diagnostic(`new tab ${tab.url()}: "${seen.text}"`);
  assert.ok(seen.inside, "the highlight is inside the cited section");
  await tab.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
  await screenshot(tab, "27-passage-dark");
  await tab.keyboard.press("Shift");
  assert.equal(await tab.evaluate((name) => CSS.highlights.has(name), HIGHLIGHT), false, "the highlight went with the key press");
  assert.deepEqual(errors, []);
});

test("on a phone (390 px) the sheet closes and the passage is highlighted on the page", async (t) => {
  const { page } = await newPage(t, env, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await openDocs(page, env);
  await openPanel(page);
  await ask(page, QUESTION);
  const { link, href } = await firstCitation(page);
  await link.click();
  const seen = await highlightedInSection(page, href);
  assert.ok(seen.inside);
  assert.equal(await page.locator(".lectern-panel").isVisible(), false, "the sheet closed to show the section");
  await screenshot(page, "27-passage-390");
});

test("a citation's href copied into another browser: the passage is highlighted there, its name leaves the address bar, a reload shows the section plain", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  await openPanel(page);
  await ask(page, QUESTION);
  const { href } = await firstCitation(page);
  const named = new URL(href, "http://x").searchParams.get("passage");
  assert.ok(named, `the href names a passage: ${href}`);

  // A fresh browser context: no storage, no session, nothing but the address.
  const { page: other } = await newPage(t, env);
  await other.goto(env.site.origin + href);
  const seen = await highlightedInSection(other, href);
  t.diagnostic(`opened ${href} afresh: "${seen.text}"`);
  assert.ok(seen.inside, "the highlight is inside the cited section");
  // It runs from the passage's first words to its last.
  const [start, end = start] = named.split("~").map(letters);
  assert.ok(letters(seen.text).startsWith(start) && letters(seen.text).endsWith(end), `"${seen.text}" runs from "${start}" to "${end}"`);
  // (The static server adds the page's trailing slash.)
  const address = await other.evaluate(() => location.pathname + location.search + location.hash);
  assert.equal(address.replace(/\/(?=#|$)/, ""), withoutQuery(href).replace(/\/(?=#|$)/, ""), "the name was taken out of the address bar, the anchor kept");
  await screenshot(other, "27-passage-shared-link");
  await other.reload();
  await other.waitForSelector("[data-lectern-hydrated]", { state: "attached" });
  await other.waitForTimeout(1500);
  assert.equal(await other.evaluate((name) => CSS.highlights.has(name), HIGHLIGHT), false, "a reload shows the section plain");
  // Replaced, not pushed: Back leaves the page (the tab's blank start), never to the address
  // with the name.
  await other.goBack();
  assert.equal(other.url(), "about:blank", "the name's address was replaced, not pushed");
});

test("a stale, tampered or hostile passage name highlights nothing and throws nothing; the reader lands on the heading", async (t) => {
  const values = [
    "no-sentence-of-this~site-reads-like-this", // stale: words the section does not have
    "the-material-is-split-into~the-vocabulary-of-earlier-ones", // another section's passage
    "the-book-is-written-for~the-book-is-written-for", // an end that is not after the start
    "a~b~c", // not the core's shape
    encodeURIComponent('<img src=x onerror="window.__pwned=1">~</p><script>window.__pwned=1</script>'),
    "x".repeat(5000),
    "%E0%A4%A", // a broken escape
  ];
  for (const value of values) {
    const { page } = await newPage(t, env);
    await page.goto(`${env.site.origin}/docs/intro?passage=${value}#who-this-book-is-for`);
    await page.waitForSelector("[data-lectern-hydrated]", { state: "attached" });
    await page.waitForFunction(() => {
      const r = document.getElementById("who-this-book-is-for")?.getBoundingClientRect();
      return r && r.top >= 0 && r.bottom <= window.innerHeight;
    });
    // Read (and taken out of the address) at once; looked for in the section for a few seconds.
    await page.waitForFunction(() => location.search === "", null, { timeout: 10000 });
    await page.waitForTimeout(4500);
    assert.equal(await page.evaluate((name) => CSS.highlights.has(name), HIGHLIGHT), false, `nothing highlighted for ${value.slice(0, 60)}`);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.evaluate(() => location.hash), "#who-this-book-is-for", "the anchor kept");
  }
});

test("without the CSS Custom Highlight API the link still lands on its heading, without an error", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  await openPanel(page);
  await ask(page, QUESTION);
  const { href } = await firstCitation(page);
  const { page: old } = await newPage(t, env);
  await old.addInitScript(() => {
    delete window.Highlight;
    Object.defineProperty(CSS, "highlights", { value: undefined });
  });
  await old.goto(env.site.origin + href);
  const id = decodeURIComponent(new URL(href, "http://x").hash.slice(1));
  await old.waitForFunction((anchor) => {
    const heading = anchor ? document.getElementById(anchor) : document.querySelector("article h1");
    const r = heading?.getBoundingClientRect();
    return r && r.top >= 0 && r.bottom <= window.innerHeight;
  }, id, { timeout: 10000 });
  await old.waitForFunction(() => location.search === "", null, { timeout: 10000 });
  assert.equal(await old.evaluate(() => typeof CSS.highlights), "undefined");
});
