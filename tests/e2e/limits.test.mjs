// The reader's side of the proxy's abuse protection and of the chat's own rate rule, in
// Chromium: the reference proxy's handler (proxy/cloudflare-worker/src/proxy.mjs, run
// in-process in front of the e2e site, with the local siteverify stand-in and an in-process
// LIMITS object) behind the example site built with Turnstile on (protected.config.mjs,
// whose Turnstile script is the local stand-in tests/e2e/turnstile/):
//   - Turnstile: the script loads only when the panel is first used; the first question
//     carries the stand-in's token, which the proxy verifies; a refused token is replaced by
//     a fresh one once, and a second refusal is told (with the excerpts as the answer);
//   - the daily quota and the site's token budget: their own words, when to come back, and
//     the excerpts, with no Retry (the core's advice: asking again today is refused the same
//     way); the per-minute limit still offers it;
//   - a second question within the core's 2 seconds waits its turn with a countdown, then is
//     answered (the example site, no proxy).
// Screenshots: light, dark and 390 px of the limit message and of the countdown.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { newPage, openDocs, openPanel, ask, waitForAnswer, screenshot, useEnvironment, QUESTION } from "./harness.mjs";
import { startSiteServer } from "./server.mjs";
import { createProxy } from "../../proxy/cloudflare-worker/src/proxy.mjs";
import { limitsBinding } from "../../proxy/cloudflare-worker/test/limits-binding.mjs";
import { startSiteverify, DUMMY_TOKEN, PASS_SECRET, FAIL_SECRET } from "../../proxy/cloudflare-worker/test/siteverify-server.mjs";
import { TURNSTILE_HEADER } from "../../proxy/cloudflare-worker/src/core-contract.mjs";

const env = useEnvironment();
const ROOT = process.env.LECTERN_E2E_PROTECTED;
const PAGE = "/docs/ros2-fundamentals/nodes-topics/";
const SECOND = "When should I use an action instead of a service?";
let site = null;
let siteverify = null;

before(async () => {
  siteverify = await startSiteverify();
  if (ROOT) site = await startSiteServer({ root: ROOT });
});
after(async () => {
  await site?.close();
  await siteverify?.close();
});

/**
 * Puts a fresh reference proxy in front of the protected site, configured with `vars` (its
 * Worker variables) beside the LLM server, the siteverify stand-in and, when a daily limit
 * is on, an in-process LIMITS object. `secret` may be a function of the siteverify calls so
 * far. Returns the requests' Turnstile headers, in order.
 */
function useProxy(vars = {}, { secret } = {}) {
  const proxy = createProxy();
  const tokens = [];
  const limits = vars.DAILY_QUOTA_PER_CLIENT || vars.DAILY_TOKEN_BUDGET ? limitsBinding() : undefined;
  siteverify.reset();
  site.setHandler((request) => {
    tokens.push(request.headers.get(TURNSTILE_HEADER));
    const workerEnv = {
      UPSTREAM_URL: env.llm.endpoint,
      API_KEY: "sk-e2e-proxy-key-0123456789",
      ALLOWED_ORIGINS: site.origin,
      RATE_LIMIT_PER_MINUTE: "1000",
      TURNSTILE_VERIFY_URL: siteverify.url,
      ...(secret ? { TURNSTILE_SECRET: typeof secret === "function" ? secret(siteverify.calls().length) : secret } : {}),
      ...(limits ? { LIMITS: limits } : {}),
      ...vars,
    };
    return proxy.fetch(request, workerEnv, { waitUntil: () => {} });
  });
  return tokens;
}

/** A reader asks QUESTION (answered, nothing refused), then SECOND past the 2-second gap: the
 * page, the second answer shown. */
async function askTwice(t) {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE, site);
  await openPanel(page);
  await ask(page, QUESTION);
  assert.equal((await failed(page)) + (await lastNote(page)).length, 0);
  await page.waitForTimeout(2100);
  await ask(page, SECOND);
  return page;
}

function needsSite(t) {
  if (!site) {
    t.skip("no protected site build (LECTERN_E2E_PROTECTED): run tests/e2e/run.sh");
    return true;
  }
  return false;
}

/** What the panel told the reader about the answer service (its notice line), or "". */
const lastNote = (page) => page.locator(".lectern-panel .lectern-notice span").allInnerTexts().then((t) => t.join(" "));
/** Whether the last answer failed (an error instead of an answer). */
const failed = (page) => page.locator(".lectern-message--assistant").last().locator(".lectern-error").count();
/** How many Retry buttons the last answer offers. */
const retries = (page) => page.locator(".lectern-message--assistant").last().getByRole("button", { name: "Retry" }).count();
const lastKind = (page) => page.locator(".lectern-message--assistant").last().locator(".lectern-badge").allInnerTexts().then((t) => t.join(" "));

test("Turnstile passes: the script loads with the panel, the first question carries its token, the proxy verifies it once", async (t) => {
  if (needsSite(t)) return;
  const tokens = useProxy({}, { secret: PASS_SECRET });
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE, site);
  assert.equal(site.requests().filter((r) => r.path === "/turnstile-stand-in.js").length, 0, "nothing of Turnstile on a page merely read");
  await openPanel(page);
  await page.waitForFunction(() => window.__turnstileStandIn?.log.tokens === 1);
  await ask(page, QUESTION);
  assert.equal(await failed(page), 0);
  assert.equal(await lastNote(page), "", "answered by the LLM, nothing to tell");
  assert.equal(await lastKind(page), "", "not excerpts");
  assert.deepEqual(tokens, [DUMMY_TOKEN]);
  assert.deepEqual(siteverify.calls().map((c) => c.response), [DUMMY_TOKEN]);
  assert.equal(env.llm.requests().length, 1);

  // The verdict is remembered: the next question carries no token and is answered.
  await page.waitForTimeout(2100);
  await ask(page, SECOND);
  assert.deepEqual(tokens, [DUMMY_TOKEN, null]);
  assert.equal(siteverify.calls().length, 1);
  assert.equal(env.llm.requests().length, 2);
});

test("a refused token is replaced once: fail → fresh token → answered", async (t) => {
  if (needsSite(t)) return;
  // siteverify refuses the first token (as an expired or spent one), accepts the next.
  const tokens = useProxy({}, { secret: (calls) => (calls === 0 ? FAIL_SECRET : PASS_SECRET) });
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE, site);
  await openPanel(page);
  await ask(page, QUESTION);
  await waitForAnswer(page, 1);
  assert.deepEqual(tokens, [DUMMY_TOKEN, DUMMY_TOKEN], "asked again with a fresh token");
  assert.equal(await page.evaluate(() => window.__turnstileStandIn.log.resets), 1);
  assert.equal(await page.locator(".lectern-message--assistant").count(), 1, "the retry replaced the refused exchange");
  assert.equal(await failed(page), 0);
  assert.equal(await lastKind(page), "", "the LLM's answer, not excerpts");
  assert.equal(await lastNote(page), "", "the first refusal's notice went with it");
  assert.equal(env.llm.requests().length, 1);
});

test("a token refused twice is told, with the excerpts as the answer", async (t) => {
  if (needsSite(t)) return;
  const tokens = useProxy({}, { secret: FAIL_SECRET });
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE, site);
  await openPanel(page);
  await ask(page, QUESTION);
  await page.waitForFunction(() => document.querySelector(".lectern-panel .lectern-notice") && !document.querySelector('.lectern-message--assistant[aria-busy="true"]'));
  assert.deepEqual(tokens, [DUMMY_TOKEN, DUMMY_TOKEN], "one retry, no more");
  assert.equal(await lastNote(page), "The check that you are not a robot did not pass. Reload the page, then ask again; meanwhile, answers quote the site itself.");
  assert.match(await lastKind(page), /Excerpts/);
  assert.equal(env.llm.requests().length, 0, "the LLM was never asked");
  await page.locator(".lectern-message--assistant .lectern-details summary").last().click();
  assert.match(await page.locator(".lectern-message--assistant .lectern-details").last().innerText(), /LLM_UNAVAILABLE · TURNSTILE_FAILED/);
});

test("the daily quota and the site's budget: their own words, when to come back, and the excerpts (light, dark, 390 px)", async (t) => {
  if (needsSite(t)) return;
  useProxy({ DAILY_QUOTA_PER_CLIENT: "1" }, { secret: PASS_SECRET });
  const page = await askTwice(t);
  const quota = await lastNote(page);
  assert.match(quota, /^You have reached today's limit of questions to this site's assistant; come back in about \d+ (hours|minutes)\. Meanwhile, answers quote the site itself\.$/);
  assert.match(await lastKind(page), /Excerpts/);
  assert.ok((await page.locator(".lectern-message--assistant").last().locator(".lectern-sources, .lectern-source").count()) > 0 || (await page.locator(".lectern-message--assistant").last().innerText()).length > 200, "the excerpts are there");
  assert.equal(env.llm.requests().length, 1, "only the first question reached the LLM");
  assert.equal(await retries(page), 0, "no Retry: today's limit would refuse it again");
  await screenshot(page, "80-limit-daily-quota");

  // The site's token budget, spent before the first question: the same, in its words.
  for (const [name, options] of [
    ["light", {}],
    ["dark", { colorScheme: "dark" }],
    ["390px", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ]) {
    useProxy({ DAILY_TOKEN_BUDGET: "1" }, { secret: PASS_SECRET });
    const { page: p } = await newPage(t, env, options);
    await openDocs(p, env, PAGE, site);
    await openPanel(p);
    await ask(p, QUESTION);
    const told = await lastNote(p);
    assert.match(told, /^This site's assistant has reached its limit for today; come back in about \d+ (hours|minutes)\. Meanwhile, answers quote the site itself\.$/, name);
    assert.match(await lastKind(p), /Excerpts/);
    assert.equal(await retries(p), 0, `${name}: no Retry under the site's daily budget`);
    await screenshot(p, `81-limit-site-budget-${name}`);
    assert.equal(env.llm.requests().length, 0, "the LLM was never asked");
  }
});

test("the per-minute limit is told with the excerpts and still offers Retry", async (t) => {
  if (needsSite(t)) return;
  useProxy({ RATE_LIMIT_PER_MINUTE: "1" }, { secret: PASS_SECRET });
  const page = await askTwice(t);
  assert.match(await lastNote(page), /^You have asked this site's assistant many questions in the last minute; try again in/);
  assert.match(await lastKind(page), /Excerpts/);
  assert.equal(await retries(page), 1, "Retry: the minute passes");
});

test("a second question within 2 seconds waits its turn with a countdown, then is answered (light, dark, 390 px)", async (t) => {
  for (const [name, options] of [
    ["light", {}],
    ["dark", { colorScheme: "dark" }],
    ["390px", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ]) {
    const { page } = await newPage(t, env, options);
    await openDocs(page, env, PAGE);
    await openPanel(page);
    // The first question, stopped as soon as it is on its way; the reader asks another at once.
    const asked = Date.now();
    await ask(page, QUESTION, { wait: false });
    await page.click(".lectern-send--stop");
    await page.waitForSelector(".lectern-send--stop", { state: "detached" });
    const answers = await page.locator(".lectern-message--assistant").count();
    await page.fill(".lectern-panel textarea", SECOND);
    await page.press(".lectern-panel textarea", "Enter");
    // The core's 2 seconds run from the first question's admission: on a loaded machine the
    // stop and the second question may take most of them, so the countdown may be short.
    assert.ok(Date.now() - asked < 1800, `the second question was sent ${Date.now() - asked} ms after the first`);
    const queued = page.locator("[data-lectern-queued]");
    await queued.waitFor({ timeout: 5000 });
    assert.match(await queued.innerText(), /^Sending in [12] s…/, name);
    assert.equal(await page.locator(".lectern-composer__error").count(), 0, "not an error");
    assert.equal(await page.locator(".lectern-message--user").last().innerText().then((s) => s.includes(SECOND)), true, "the question is shown as asked");
    // The composer stays usable while the question waits.
    assert.equal(await page.locator(".lectern-panel textarea").isEditable(), true);
    await page.fill(".lectern-panel textarea", "typing meanwhile");
    assert.equal(await page.inputValue(".lectern-panel textarea"), "typing meanwhile");
    await screenshot(page, `82-queued-countdown-${name}`);
    await waitForAnswer(page, answers + 1);
    await page.waitForFunction(() => !document.querySelector("[data-lectern-queued]"));
    const last = await page.locator(".lectern-message--assistant").last().innerText();
    assert.ok(last.length > 40, "the queued question was answered");
    assert.equal(env.llm.requests().at(-1).body.messages.filter((m) => m.role === "user").at(-1).content.includes(SECOND), true, "the queued question is the one sent");
  }
});
