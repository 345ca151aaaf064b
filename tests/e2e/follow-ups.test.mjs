// Follow-up suggestions under an answer (issue 27, point 3), end to end on the example site:
// they appear after an answer (with the LLM and with excerpts), a click asks one in the same
// conversation and gets it answered, and every suggestion shown is one the index answers —
// checked by searching each, as the follow-up it is, with a Lectern of the test's own.

import { test } from "node:test";
import assert from "node:assert/strict";
import { QUESTION, ask, newPage, openDocs, openPanel, rateLimitGap, screenshot, useEnvironment, waitForAnswer } from "./harness.mjs";

const env = useEnvironment();

const FOLLOW_UPS = ".lectern-follow-ups .lectern-follow-up";

/** The suggestions under the last answer, once shown. */
async function suggestions(page) {
  await page.waitForSelector(FOLLOW_UPS, { timeout: 60000 });
  return page.locator(FOLLOW_UPS).allInnerTexts();
}

/** Each of `questions` searched after `earlier`, as the widget asked it, by a Lectern opened
 * on the same bundle in the page (hybrid once its model is in when `hybrid`): its confidence. */
function confidences(page, questions, earlier, hybrid) {
  return page.evaluate(
    async ({ questions, earlier, hybrid }) => {
      const { Lectern } = await import("/lectern/runtime/index.js");
      const lectern = await Lectern.open({ bundleUrl: "/lectern/bundle/" });
      if (hybrid) await lectern.whenHybrid();
      const out = [];
      for (const q of questions) out.push((await lectern.search(q, { earlier, mode: hybrid ? "hybrid" : "lexical" })).confidence);
      lectern.close();
      return out;
    },
    { questions, earlier, hybrid },
  );
}

test("after an answer, up to three follow-ups the index answers; a click asks one and it is answered", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  await openPanel(page);
  // A first question brings the model in (it waits for the first answer); the follow-ups of
  // the second are then chosen by hybrid search, as a reader's usually are.
  const first = "What is a ROS 2 topic?";
  let since = Date.now();
  await ask(page, first);
  await page.locator('[data-lectern-status="model"]').waitFor({ state: "detached", timeout: 60000 });
  await rateLimitGap(since);
  since = Date.now();
  await ask(page, QUESTION);
  const shown = await suggestions(page);
  t.diagnostic(`suggested: ${JSON.stringify(shown)}`);
  assert.ok(shown.length >= 1 && shown.length <= 3, `one to three suggestions, got ${shown.length}`);
  assert.equal(new Set(shown).size, shown.length, "no suggestion twice");
  assert.ok(shown.every((q) => q.endsWith("?") && q !== QUESTION && q !== first), "questions, none already asked");
  // Only under the last answer.
  const answers = page.locator(".lectern-message--assistant");
  const underLast = await page.evaluate(() => {
    const group = document.querySelector(".lectern-follow-ups");
    const last = [...document.querySelectorAll(".lectern-message--assistant")].at(-1);
    return document.querySelectorAll(".lectern-follow-ups").length === 1 && (group.previousElementSibling === last || group.previousElementSibling?.contains(last));
  });
  assert.ok(underLast, "one group, right under the last answer");

  const found = await confidences(page, shown, [first, QUESTION], true);
  t.diagnostic(`their confidences: ${JSON.stringify(found)}`);
  assert.ok(found.every((c) => c !== "none"), `no suggestion the index refuses: ${JSON.stringify(found)}`);
  await page.locator(".lectern-follow-ups").scrollIntoViewIfNeeded();
  await screenshot(page, "27-follow-ups-light");

  // Keyboard: the group is labelled, each suggestion a button reached with Tab.
  const label = await page.evaluate(() => {
    const group = document.querySelector(".lectern-follow-ups");
    return group.getAttribute("role") === "group" && document.getElementById(group.getAttribute("aria-labelledby"))?.textContent;
  });
  assert.equal(label, "Ask next", "a group labelled by its heading");
  const button = page.locator(FOLLOW_UPS).first();
  await button.focus();
  assert.equal(await page.evaluate(() => document.activeElement?.className.includes("lectern-follow-up")), true);

  // Enter asks it: a new question of the same conversation, answered, with the earlier
  // questions sent along.
  await rateLimitGap(since);
  const before = await answers.count();
  const requestsBefore = env.llm.requests().length;
  await page.keyboard.press("Enter");
  await waitForAnswer(page, before + 1);
  const users = await page.locator(".lectern-message--user").allInnerTexts();
  assert.ok(users.at(-1).includes(shown[0]), `the suggestion was asked: ${users.at(-1)}`);
  assert.equal(users.length, 3, "in the same conversation");
  const last = answers.last();
  assert.ok((await last.locator(".lectern-sources li").count()) >= 1, "it was answered, with sources");
  assert.ok(!(await last.getAttribute("class")).includes("lectern-message--refusal"), "not refused");
  const request = env.llm.requests()[requestsBefore];
  assert.ok(request.body.messages.some((m) => m.content.includes(shown[0])), "the LLM was asked the suggestion");
  // The answer to it brings suggestions of its own, none the one just asked.
  const next = await suggestions(page);
  assert.ok(!next.includes(shown[0]));
});

test("a refusal gets no follow-ups, and excerpt answers get them too", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  await openPanel(page);
  const offTopic = "How do I bake sourdough bread?";
  let since = Date.now();
  await ask(page, offTopic);
  assert.ok((await page.locator(".lectern-message--assistant").last().getAttribute("class")).includes("lectern-message--refusal"));
  // Give a (wrong) suggestion time to arrive: none may.
  await page.waitForTimeout(1500);
  assert.equal(await page.locator(FOLLOW_UPS).count(), 0, "no suggestions after a refusal");

  // The LLM unreachable: the answer is cited excerpts, with suggestions like any answer.
  await rateLimitGap(since);
  env.site.setUpstream("unreachable");
  await ask(page, QUESTION);
  assert.equal(await page.locator(".lectern-message--assistant").last().locator(".lectern-badge", { hasText: "Excerpts" }).count(), 1);
  const shown = await suggestions(page);
  t.diagnostic(`suggested: ${JSON.stringify(shown)}`);
  assert.ok(shown.length >= 1 && shown.length <= 3);
  const found = await confidences(page, shown, [offTopic, QUESTION], false);
  assert.ok(found.every((c) => c !== "none"), `no suggestion the index refuses: ${JSON.stringify(found)}`);
});

test("follow-ups in dark mode and on a 390 px screen", async (t) => {
  for (const [name, options] of [
    ["27-follow-ups-dark", { colorScheme: "dark" }],
    ["27-follow-ups-390px", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ]) {
    const { page } = await newPage(t, env, options);
    await openDocs(page, env);
    await openPanel(page);
    await ask(page, QUESTION);
    await suggestions(page);
    await page.locator(".lectern-follow-ups").scrollIntoViewIfNeeded();
    await screenshot(page, name);
    // Nothing sticks out of the panel.
    const overflow = await page.evaluate(() => {
      const panel = document.querySelector(".lectern-panel").getBoundingClientRect();
      return [...document.querySelectorAll(".lectern-follow-up")].some((b) => b.getBoundingClientRect().right > panel.right + 1);
    });
    assert.equal(overflow, false, `${name}: the suggestions fit the panel`);
  }
});
