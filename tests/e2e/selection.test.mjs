// "Ask about this": selecting text in a docs page offers a button that opens the widget in
// selected mode with the selection quoted (docs/DESIGN.md §3.1's limits: 10–5000 characters).

import { test } from "node:test";
import assert from "node:assert/strict";
import { newPage, openDocs, screenshot, useEnvironment, waitForAnswer, waitForIndex } from "./harness.mjs";
import { startSiteServer } from "./server.mjs";
import { SELECTION_LABEL } from "./protected-options.mjs";

const env = useEnvironment();
const PAGE = "/docs/ros2-fundamentals/nodes-topics/";

/** Selects an element's text the way a mouse does: press at its start, drag to its end. */
async function dragSelect(page, locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  await page.mouse.move(box.x + 1, box.y + 4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.move(box.x + box.width - 2, box.y + box.height - 4, { steps: 5 });
  await page.mouse.up();
}

/** Selects all text inside `selector` programmatically (as touch handles or keyboard would). */
async function selectContents(page, selector) {
  return page.evaluate((sel) => {
    const range = document.createRange();
    range.selectNodeContents(document.querySelector(sel));
    const s = window.getSelection();
    s.removeAllRanges();
    s.addRange(range);
    return s.toString().trim().length;
  }, selector);
}

test("select a paragraph with the mouse → Ask about this → an answer about the selection", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  const paragraph = page.locator("article .markdown > p").nth(1);
  const text = (await paragraph.innerText()).trim();
  assert.ok(text.length >= 10);
  await dragSelect(page, paragraph);
  const button = page.locator(".lectern-ask-selection");
  await button.waitFor();
  // Nothing heavy yet: the runtime loads only once the reader asks.
  assert.equal(env.site.requests().filter((r) => r.path.startsWith("/lectern/")).length, 0);
  await screenshot(page, "20-selection-button");

  await button.click();
  await page.waitForSelector(".lectern-panel .lectern-selection");
  await waitForIndex(page);
  const quoted = await page.locator(".lectern-selection blockquote").innerText();
  assert.ok(quoted.replace(/\s+/g, " ").includes(text.replace(/\s+/g, " ").slice(0, 60)), "the selection is quoted");
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA");
  assert.equal(await page.getAttribute(".lectern-panel textarea", "placeholder"), "Ask about the selected text…");
  await screenshot(page, "21-selection-quoted");

  await page.locator(".lectern-welcome .lectern-chip", { hasText: "Explain this" }).click();
  await waitForAnswer(page, 1);
  const user = page.locator(".lectern-message--user").last();
  assert.equal(await user.locator(".lectern-quote").count(), 1, "the question shows what it was about");
  const [request] = env.llm.requests();
  const lastUser = request.body.messages.filter((m) => m.role === "user").at(-1).content;
  assert.ok(lastUser.replace(/\s+/g, " ").includes(text.replace(/\s+/g, " ").slice(0, 60)), "the selection went to the LLM as context");
  assert.equal(await page.locator(".lectern-selection").count(), 0, "the next question is a general one again");
  await screenshot(page, "22-selection-answer");
});

test("no button for text in inputs, in the widget, in navigation, or under 10 characters", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  const button = page.locator(".lectern-ask-selection");
  // Too short.
  await page.evaluate(() => {
    const p = document.querySelector("article .markdown > p");
    const range = document.createRange();
    range.setStart(p.firstChild, 0);
    range.setEnd(p.firstChild, 5);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  });
  await page.waitForTimeout(500);
  assert.equal(await button.count(), 0, "5 characters");
  // Navigation (breadcrumbs, sidebar).
  await selectContents(page, "nav.theme-doc-sidebar-menu, nav.menu");
  await page.waitForTimeout(500);
  assert.equal(await button.count(), 0, "sidebar");
  // An input placed in the article.
  await page.evaluate(() => {
    const input = document.createElement("input");
    input.value = "A long enough text typed into an input field";
    input.id = "e2e-input";
    document.querySelector("article .markdown").prepend(input);
  });
  await page.click("#e2e-input", { clickCount: 3 });
  await page.waitForTimeout(500);
  assert.equal(await button.count(), 0, "input");
  // The widget's own text.
  await page.click(".lectern-launcher");
  await page.waitForSelector(".lectern-welcome");
  await selectContents(page, ".lectern-welcome");
  await page.waitForTimeout(500);
  assert.equal(await button.count(), 0, "widget");
  // And a proper selection in the article does show it.
  await selectContents(page, "article .markdown > p:nth-of-type(2)");
  await button.waitFor();
});

test("a selection over 5000 characters: the widget says so and offers to trim", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  const length = await selectContents(page, "article");
  assert.ok(length > 5000, `the page has ${length} characters`);
  await page.locator(".lectern-ask-selection").click();
  const warning = page.locator(".lectern-selection__warning");
  await warning.waitFor();
  await waitForIndex(page);
  assert.match(await warning.innerText(), /characters long; questions can quote at most 5,000/);
  await page.fill(".lectern-panel textarea", "Summarise this");
  assert.equal(await page.isDisabled(".lectern-send"), true, "it cannot be sent as it is");
  await screenshot(page, "23-selection-too-long");
  await warning.getByRole("button", { name: /Trim to the first 5,000 characters/ }).click();
  assert.equal(await warning.count(), 0);
  const quoted = await page.locator(".lectern-selection blockquote").evaluate((el) => el.textContent.trim().length);
  assert.ok(quoted <= 5000 && quoted > 4700, `trimmed to ${quoted}`);
  await page.press(".lectern-panel textarea", "Enter");
  await waitForAnswer(page, 1);
  assert.equal(await page.locator(".lectern-message--assistant [role=alert]").count(), 0);
});

test("touch: a selection made on a phone gets the button below it, and opens the sheet", async (t) => {
  const { page } = await newPage(t, env, { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  await openDocs(page, env, PAGE);
  const paragraph = page.locator("article .markdown > p").nth(1);
  await paragraph.tap(); // the last pointer is a finger
  await selectContents(page, "article .markdown > p:nth-of-type(2)");
  const button = page.locator(".lectern-ask-selection");
  await button.waitFor();
  const [b, p] = [await button.boundingBox(), await paragraph.boundingBox()];
  assert.ok(b.y >= p.y + p.height - 2 || b.y + b.height <= p.y, "the button does not cover the selection");
  await screenshot(page, "24-touch-selection");
  await button.tap();
  await page.waitForSelector(".lectern-panel .lectern-selection");
  const panel = await page.locator(".lectern-panel").boundingBox();
  assert.deepEqual([panel.x, panel.y, panel.width], [0, 0, 375], "a full-screen sheet");
});

/** The selection's bounding rectangle and the button's, in viewport pixels. */
async function rects(page) {
  return page.evaluate(() => {
    const r = getSelection().getRangeAt(0).getBoundingClientRect();
    const b = document.querySelector(".lectern-ask-selection").getBoundingClientRect();
    const box = (x) => ({ top: x.top, bottom: x.bottom, left: x.left, right: x.right });
    return { selection: box(r), button: box(b), vh: innerHeight, vw: document.documentElement.clientWidth };
  });
}

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test("the button never covers the selection: above it with room there, below it at the viewport's top, inside the viewport", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  const button = page.locator(".lectern-ask-selection");
  // [where a paragraph is put, which one, where the button must go]
  for (const [place, sel, side] of [
    ["top", "article .markdown > p:nth-of-type(2)", "below"], // its first line at the viewport's top edge: no room above
    ["bottom", "article .markdown > p:last-of-type", "above"], // its last line at the bottom edge: no room below
    ["middle", "article .markdown > p:nth-of-type(3)", "above"],
  ]) {
    const at = await page.evaluate(
      ([s, where]) => {
        const el = document.querySelector(s);
        const r = el.getBoundingClientRect();
        const target = where === "top" ? 2 : where === "bottom" ? innerHeight - r.height - 2 : (innerHeight - r.height) / 2;
        window.scrollBy(0, r.top - target);
        const now = el.getBoundingClientRect();
        return { top: now.top, bottom: now.bottom, vh: innerHeight };
      },
      [sel, place],
    );
    if (place === "top") assert.ok(at.top < 20, `the paragraph is at the top: ${JSON.stringify(at)}`);
    if (place === "bottom") assert.ok(at.bottom > at.vh - 20, `the paragraph is at the bottom: ${JSON.stringify(at)}`);
    await selectContents(page, sel);
    await button.waitFor();
    await page.waitForTimeout(300); // measured and placed (the button's own size)
    const { selection, button: b, vh, vw } = await rects(page);
    assert.equal(overlaps(selection, b), false, `${place}: the button covers the selection ${JSON.stringify({ selection, b })}`);
    assert.ok(side === "above" ? b.bottom <= selection.top : b.top >= selection.bottom, `${place}: the button is ${side} the selection ${JSON.stringify({ selection, b })}`);
    assert.ok(b.top >= 0 && b.bottom <= vh && b.left >= 0 && b.right <= vw, `${place}: inside the viewport`);
    if (place !== "middle") await screenshot(page, `25-selection-button-${place}`);
    await page.evaluate(() => getSelection().removeAllRanges());
    await button.waitFor({ state: "detached" });
  }
});

test("a site renames the button (askAboutSelection: {label}); it is placed clear of the selection at its own width (light, dark, 390 px)", async (t) => {
  const root = process.env.LECTERN_E2E_PROTECTED;
  if (!root) return t.skip("no protected site build (LECTERN_E2E_PROTECTED): run tests/e2e/run.sh");
  const site = await startSiteServer({ root });
  t.after(() => site.close());
  for (const [name, options] of [
    ["light", {}],
    ["dark", { colorScheme: "dark" }],
    ["390px", { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }],
  ]) {
    const { page } = await newPage(t, env, options);
    await openDocs(page, env, PAGE, site);
    await selectContents(page, "article .markdown > p:nth-of-type(2)");
    const button = page.locator(".lectern-ask-selection");
    await button.waitFor();
    await page.waitForTimeout(300);
    assert.equal((await button.innerText()).trim(), SELECTION_LABEL, name);
    const { selection, button: b, vw } = await rects(page);
    assert.equal(overlaps(selection, b), false, `${name}: ${JSON.stringify({ selection, b })}`);
    assert.ok(b.left >= 0 && b.right <= vw, `${name}: inside the viewport`);
    await screenshot(page, `26-selection-button-renamed-${name}`);
  }
});

test("a site turns the button off (askAboutSelection: false): a selection gets none", async (t) => {
  const root = process.env.LECTERN_E2E_VERSIONED;
  if (!root) return t.skip("no versioned fixture build (LECTERN_E2E_VERSIONED): run tests/e2e/run.sh");
  const site = await startSiteServer({ root });
  t.after(() => site.close());
  const { page } = await newPage(t, env);
  await openDocs(page, env, "/docs/install", site);
  const length = await selectContents(page, "article .markdown");
  assert.ok(length >= 10, "a selection long enough to ask about");
  await page.waitForTimeout(800);
  assert.equal(await page.locator(".lectern-ask-selection").count(), 0);
  // The rest of the widget is there.
  assert.equal(await page.locator(".lectern-launcher").count(), 1);
});
