// A provisional answer (issue 25): before the model arrives, an answer found by keywords alone
// with weak evidence says that a better one is coming, offers no Retry (it is not a fault),
// and once semantic search is ready offers "Ask again with semantic search", which asks the
// same question again in the conversation. A keyword answer with strong evidence says
// nothing of the kind. Screenshots light, dark and at 390 px.

import { test } from "node:test";
import assert from "node:assert/strict";
import { ask, newPage, openDocs, openPanel, screenshot, useEnvironment, waitForAnswer } from "./harness.mjs";

const env = useEnvironment();

/** Weak keyword evidence on the example site (its answering section ranks 9th by keywords
 * alone: tests/eval/questions/sample.jsonl), found by semantic search. */
const WEAK = "Which combinations of publisher and subscriber settings refuse to connect?";
/** One the keywords answer clearly (the section's own words). */
const CLEAR = "Since which ROS 2 release are recorded bags stored as MCAP by default rather than SQLite?";
/** The model's files, held back so that the first answers are keyword-only. */
const MODEL = /\/lectern\/bundle\/model\./;
const HOLD_MS = 12000;

const note = (page) => page.locator('.lectern-message--assistant').last().locator('[data-lectern-note="KEYWORD_ONLY"]');
const askAgain = (page) => page.locator('[data-lectern-ask-again]');

async function provisionalAnswer(t, options) {
  const { page } = await newPage(t, env, options);
  env.site.setDelay(MODEL, HOLD_MS);
  await openDocs(page, env);
  await openPanel(page);
  const status = page.locator('[data-lectern-status="model"]');
  await status.waitFor();
  await ask(page, WEAK);
  assert.equal(await status.isVisible(), true, "the answer came before the model");
  return { page, status };
}

test("a weak keyword answer says a better one is coming, then asks again with semantic search", async (t) => {
  const { page, status } = await provisionalAnswer(t);
  assert.match(await note(page).innerText(), /keyword search .* better answer/i);
  const answer = page.locator(".lectern-message--assistant").last();
  assert.equal(await answer.getByRole("button", { name: "Retry" }).count(), 0, "not a fault: no Retry");
  assert.equal(await askAgain(page).count(), 0, "nothing to offer before semantic search is ready");
  await screenshot(page, "25-provisional-keyword-answer");

  await status.waitFor({ state: "detached", timeout: 60000 });
  await askAgain(page).waitFor();
  await screenshot(page, "25-provisional-ask-again");
  await askAgain(page).click();
  await waitForAnswer(page, 2);
  const questions = await page.locator(".lectern-message--user").allInnerTexts();
  assert.equal(questions.length, 2, "asked again in the same conversation");
  assert.ok(questions.every((q) => q.endsWith(WEAK)), `${questions}`);
  assert.equal(await note(page).count(), 0, "the semantic answer is not provisional");
  assert.equal(await askAgain(page).count(), 0, "offered once, under the provisional answer");
});

test("a clear keyword answer is not provisional", async (t) => {
  const { page } = await newPage(t, env);
  env.site.setDelay(MODEL, HOLD_MS);
  await openDocs(page, env);
  await openPanel(page);
  await page.locator('[data-lectern-status="model"]').waitFor();
  await ask(page, CLEAR);
  assert.equal(await note(page).count(), 0);
});

for (const [name, options] of [
  ["dark", { colorScheme: "dark" }],
  ["390px", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
]) {
  test(`the provisional note and "ask again" (${name})`, async (t) => {
    const { page, status } = await provisionalAnswer(t, options);
    await note(page).waitFor();
    await screenshot(page, `25-provisional-keyword-answer-${name}`);
    await status.waitFor({ state: "detached", timeout: 60000 });
    await askAgain(page).waitFor();
    await askAgain(page).scrollIntoViewIfNeeded();
    await screenshot(page, `25-provisional-ask-again-${name}`);
  });
}
