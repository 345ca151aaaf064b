// Keyboard-only use, dark mode and a 375 px phone screen.

import { test } from "node:test";
import assert from "node:assert/strict";
import { QUESTION, ask, newPage, openDocs, openPanel, screenshot, useEnvironment, waitForAnswer, waitForIndex } from "./harness.mjs";

const env = useEnvironment();

const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el?.tagName, cls: el?.className?.baseVal ?? el?.className ?? "", label: el?.getAttribute("aria-label") ?? el?.textContent?.trim().slice(0, 40) };
  });

test("keyboard only: Ctrl+I opens, Enter asks, Tab reaches the citations, Esc closes and focus returns", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  // Tab to the launcher first, as a keyboard user would, then use the shortcut.
  await page.keyboard.press("Control+I");
  await page.waitForSelector(".lectern-panel textarea");
  await waitForIndex(page);
  assert.equal((await focused(page)).tag, "TEXTAREA", "Ctrl+I puts the focus in the question box");
  await page.keyboard.type(QUESTION);
  await page.keyboard.press("Enter");
  await waitForAnswer(page, 1);

  // Tab forward until a citation link has the focus; Enter follows it.
  let reached = null;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press("Shift+Tab");
    const f = await focused(page);
    if (String(f.cls).includes("lectern-cite")) reached = f;
  }
  assert.ok(reached, "a citation is reachable with the keyboard");
  await screenshot(page, "30-keyboard-focus-citation");
  const href = await page.evaluate(() => document.activeElement.getAttribute("href"));
  await page.keyboard.press("Enter");
  await page.waitForFunction((h) => location.pathname + location.hash === h, href.replace(/\?[^#]*/, "")); // ?passage= is read and taken out

  // Esc closes; the focus goes back to the launcher.
  await page.locator(".lectern-panel textarea").focus();
  await page.keyboard.press("Escape");
  await page.waitForSelector(".lectern-panel", { state: "hidden" });
  assert.match(String((await focused(page)).cls), /lectern-launcher/, "focus returns to the launcher");
  // Enter on the launcher reopens with the conversation; Ctrl+I inside the panel closes it.
  await page.keyboard.press("Enter");
  await page.waitForSelector(".lectern-panel textarea");
  assert.equal(await page.locator(".lectern-message--assistant").count(), 1);
  await page.keyboard.press("Control+I");
  await page.waitForSelector(".lectern-panel", { state: "hidden" });
  assert.match(String((await focused(page)).cls), /lectern-launcher/);
});

test("Esc returns the focus to where it was before the panel opened", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  const link = page.locator("article a[href^='/docs/']").first();
  await link.focus();
  const before = await link.getAttribute("href");
  await page.keyboard.press("Control+I");
  await page.waitForSelector(".lectern-panel textarea");
  await page.keyboard.press("Escape");
  await page.waitForSelector(".lectern-panel", { state: "hidden" });
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("href")), before);
});

test("dark mode: the widget follows Docusaurus's colours", async (t) => {
  const { page } = await newPage(t, env, { colorScheme: "dark" });
  await openDocs(page, env);
  assert.equal(await page.getAttribute("html", "data-theme"), "dark");
  await openPanel(page);
  await ask(page, QUESTION);
  const colours = await page.evaluate(() => {
    const lum = (c) => {
      const [r, g, b] = c.match(/\d+(\.\d+)?/g).map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    const panel = getComputedStyle(document.querySelector(".lectern-panel"));
    return { background: lum(panel.backgroundColor), text: lum(panel.color) };
  });
  assert.ok(colours.background < 0.3 && colours.text > 0.7, JSON.stringify(colours));
  await screenshot(page, "31-dark-mode");
  // Switching to light with the navbar toggle restyles the open panel.
  await page.click("button[class*='toggleButton']");
  await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
  const light = await page.evaluate(() => getComputedStyle(document.querySelector(".lectern-panel")).backgroundColor);
  assert.match(light, /255, 255, 255|rgb\(2[45]\d/);
});

test("375 px: launcher, full-screen sheet, and a citation that closes it to show the section", async (t) => {
  const { page } = await newPage(t, env, { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  await openDocs(page, env, "/docs/ros2-fundamentals/");
  await screenshot(page, "32-mobile-launcher");
  const launcher = await page.locator(".lectern-launcher").boundingBox();
  assert.ok(launcher.x + launcher.width <= 375 && launcher.y + launcher.height <= 740, "the launcher is on screen");
  await page.locator(".lectern-launcher").tap();
  await page.waitForSelector(".lectern-panel textarea");
  await waitForIndex(page);
  const sheet = await page.locator(".lectern-panel").boundingBox();
  assert.deepEqual([sheet.x, sheet.y, sheet.width, Math.round(sheet.height)], [0, 0, 375, 740]);
  assert.equal(await page.getAttribute(".lectern-panel", "aria-modal"), "true");
  await screenshot(page, "33-mobile-sheet");
  await ask(page, QUESTION);
  const overflow = await page.evaluate(() => document.querySelector(".lectern-panel").scrollWidth - 375);
  assert.ok(overflow <= 0, "nothing sticks out sideways");
  await screenshot(page, "34-mobile-answer");
  const cite = page.locator(".lectern-message--assistant .lectern-markdown a.lectern-cite").first();
  const href = await cite.getAttribute("href");
  await cite.tap();
  // Its passage's name (?passage=) is taken out of the address once read.
  await page.waitForFunction((h) => location.pathname + location.hash === h, href.replace(/\?[^#]*/, ""));
  await page.waitForSelector(".lectern-panel", { state: "hidden" });
  await screenshot(page, "35-mobile-section");
});
