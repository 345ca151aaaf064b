// The usage events for the site owner (issue 27, point 4): each reader action fires its typed
// event once — question, answer, refusal, error, feedback, citation click, search (once the
// query has settled), search click — as a `lectern:<kind>` window event, to the site's
// onEvent module, to the page's Google Analytics / Plausible / Umami and, batched, to the
// reference proxy's /v1/events (tests/e2e/server.mjs runs it), whose export `lectern report`
// reads. The small versioned fixture (versioned-site/) is built with all of it on and the
// readers' texts opted in; the example site keeps the defaults: window events only, no text,
// nothing to analytics or a proxy (and its page weight stays the widget's own).

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSiteServer } from "./server.mjs";
import { QUESTION, ask, newPage, openDocs, openPanel, openSearch, rateLimitGap, screenshot, useEnvironment, waitForSearch } from "./harness.mjs";

const env = useEnvironment();
const VERSIONED = process.env.LECTERN_E2E_VERSIONED;
const versionedBuilt = VERSIONED && existsSync(path.join(VERSIONED, "docs", "install", "index.html"));
let on; // the fixture's server: every event option on
after(() => on?.close());
/** Skips the test without the fixture's build; else serves it (once). */
async function skipUnbuilt(t) {
  if (!versionedBuilt) {
    t.skip("no versioned fixture build (LECTERN_E2E_VERSIONED): run tests/e2e/run.sh");
    return true;
  }
  on ??= await startSiteServer({ root: VERSIONED });
  on.setUpstream(env.llm.url);
  on.clearUsageEvents();
  return false;
}
const PAGE = "/docs/next/install";
const ASKED = "How do I install the planner?";
const KINDS = ["question", "answer", "refusal", "error", "feedback", "citation_click", "search", "search_click"];
const OFF_TOPIC = "How do I bake sourdough bread?";

/** Before any script of the page: analytics stubs as the three services define them, and a
 * listener for every usage event; the site's onEvent module logs to the console. */
async function instrument(page) {
  await page.addInitScript((kinds) => {
    window.__usage = [];
    window.__analytics = [];
    window.gtag = (...args) => window.__analytics.push({ to: "gtag", args });
    window.plausible = (...args) => window.__analytics.push({ to: "plausible", args });
    window.umami = { track: (...args) => window.__analytics.push({ to: "umami", args }) };
    for (const kind of kinds) window.addEventListener(`lectern:${kind}`, (e) => window.__usage.push(e.detail));
  }, KINDS);
  const hooked = [];
  page.on("console", (m) => {
    const found = /^\[lectern event\] (\S+) (.*)$/.exec(m.text());
    if (found) hooked.push(JSON.parse(found[2]));
  });
  return {
    usage: () => page.evaluate(() => window.__usage),
    analytics: () => page.evaluate(() => window.__analytics),
    hooked,
  };
}

const ofKind = (events, kind) => events.filter((e) => e.kind === kind);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

test("the chat's events: each once, typed, with the question text (opted in), to the hook, the analytics and the proxy; lectern report reads the proxy's export", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  const seen = await instrument(page);
  await openDocs(page, env, PAGE, on);
  const pathname = new URL(page.url()).pathname;
  await openPanel(page);

  // Refused (first: in a conversation about the site, a follow-up is searched with the
  // questions before it).
  let asked = Date.now();
  await ask(page, OFF_TOPIC);
  const refusal = ofKind(await seen.usage(), "refusal");
  assert.equal(refusal.length, 1, JSON.stringify(await seen.usage()));
  assert.equal(refusal[0].question, OFF_TOPIC);
  assert.ok(refusal[0].messageId);

  // Asked and answered.
  await rateLimitGap(asked);
  asked = Date.now();
  await ask(page, ASKED);
  let events = (await seen.usage()).slice(2);
  assert.deepEqual(events.map((e) => e.kind), ["question", "answer"]);
  const [question, answer] = events;
  assert.equal(ofKind(await seen.usage(), "answer").length, 1, "a refusal is not an answer");
  assert.equal(question.question, ASKED);
  assert.equal(question.mode, "global");
  assert.equal(question.persona, "general");
  assert.match(question.time, ISO);
  assert.equal(question.page, pathname);
  assert.match(question.conversationId, /^[0-9a-f-]{36}$/);
  assert.equal(answer.conversationId, question.conversationId);
  assert.equal(answer.question, ASKED);
  assert.ok(["high", "medium", "low"].includes(answer.confidence), answer.confidence);
  assert.equal(answer.answerKind, "llm");
  assert.ok(answer.messageId);
  const shown = await page.locator(".lectern-message--assistant").last().locator(".lectern-sources__link").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  // The events name each section by its URL; a source's link also names its passage (?passage=).
  const section = (href) => new URL(href, "http://x").pathname + new URL(href, "http://x").hash;
  assert.deepEqual(answer.sources.map((s) => section(s.url)), shown.map(section), "the sources, as listed");
  assert.ok(answer.sources.every((s) => s.title.length > 0));

  // Feedback: helpful, then not helpful, then why (the last counts).
  const last = page.locator(".lectern-message--assistant").last();
  await last.getByRole("button", { name: "Helpful", exact: true }).click();
  assert.equal(await last.locator(".lectern-reasons").count(), 0, "no reasons after Helpful");
  await last.getByRole("button", { name: "Not helpful" }).click();
  await last.getByRole("group", { name: "What was wrong?" }).waitFor();
  await page.waitForFunction(() => {
    const row = document.querySelector(".lectern-reasons").getBoundingClientRect();
    const list = document.querySelector(".lectern-messages").getBoundingClientRect();
    return row.top >= list.top && row.bottom <= list.bottom + 1;
  }, null, { timeout: 3000 }); // they come into view under the last answer
  await screenshot(page, "90-events-feedback-reasons");
  await last.getByRole("button", { name: "Incomplete" }).click();
  assert.equal(await last.locator(".lectern-reasons").count(), 0, "the reasons go once one is picked");
  events = await seen.usage();
  const feedback = ofKind(events, "feedback");
  assert.deepEqual(feedback.map((e) => [e.rating, e.reason]), [["helpful", undefined], ["not_helpful", undefined], ["not_helpful", "incomplete"]]);
  assert.ok(feedback.every((e) => e.messageId === answer.messageId && e.question === ASKED));

  // An error: the LLM is down behind the site's proxy.
  await rateLimitGap(asked);
  asked = Date.now();
  on.setUpstream(null);
  await ask(page, "Which colour does the dashboard use?");
  const errors = ofKind(await seen.usage(), "error");
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0].code, "LLM_UNAVAILABLE");
  on.setUpstream(env.llm.url);

  // A citation followed, from the answer's text.
  const cite = page.locator(".lectern-message--assistant").nth(1).locator(".lectern-markdown a.lectern-cite").first();
  const n = Number(await cite.innerText());
  await cite.click();
  await page.waitForFunction(() => window.__usage.some((e) => e.kind === "citation_click"));
  const clicks = ofKind(await seen.usage(), "citation_click");
  assert.equal(clicks.length, 1);
  assert.equal(clicks[0].messageId, answer.messageId);
  assert.equal(clicks[0].n, n);
  assert.equal(clicks[0].url, answer.sources[n - 1].url);
  await screenshot(page, "91-events-citation-followed");

  // Every event once, in order, to each place.
  events = await seen.usage();
  const kinds = events.map((e) => e.kind);
  assert.deepEqual(kinds, ["question", "refusal", "question", "answer", "feedback", "feedback", "feedback", "question", "error", "citation_click"]);
  assert.deepEqual(seen.hooked, events, "the site's onEvent module gets the same events");
  const analytics = await seen.analytics();
  for (const to of ["gtag", "plausible", "umami"]) {
    const calls = analytics.filter((c) => c.to === to).map((c) => c.args);
    assert.deepEqual(calls.map((args) => (to === "gtag" ? args[1] : args[0])), kinds.map((k) => `lectern_${k}`), to);
    const props = to === "gtag" ? calls[3][2] : to === "plausible" ? calls[3][1].props : calls[3][1];
    assert.equal(props.confidence, answer.confidence, `${to}: the answer's fields`);
    assert.equal(props.sources, answer.sources.map((s) => s.url).join(" ").slice(0, 100), `${to}: the sources as their URLs`);
    assert.equal(props.question, ASKED);
  }
  assert.equal(analytics.filter((c) => c.to === "gtag").every((c) => c.args[0] === "event"), true);

  // The proxy: batched (fewer requests than events), every event stored once as sent, plus
  // the proxy's time and origin; leaving the page sends what waits.
  await page.goto("about:blank");
  await waitUntil(() => on.storedEvents().trim().split("\n").filter(Boolean).length >= events.length, "the proxy stored every event");
  const posts = on.usageEvents();
  assert.ok(posts.every((p) => p.status === 204), JSON.stringify(posts.map((p) => p.status)));
  assert.ok(posts.length < events.length, `${posts.length} requests for ${events.length} events`);
  const stored = on.storedEvents().trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(
    stored.map(({ time, origin, ...rest }) => rest),
    events.map(({ time, ...rest }) => rest),
  );
  assert.ok(stored.every((e) => e.origin === on.origin && ISO.test(e.time)));

  // `lectern report` reads the proxy's export as it is.
  const dir = mkdtempSync(path.join(tmpdir(), "lectern-events-"));
  const file = path.join(dir, "events.jsonl");
  writeFileSync(file, on.storedEvents());
  const report = JSON.parse(execFileSync(process.env.LECTERN_BIN ?? "lectern", ["report", "--json", file], { encoding: "utf8" }));
  assert.equal(report.events, events.length);
  assert.equal(report.questions, 3);
  assert.equal(report.answers, 1);
  assert.equal(report.refusals, 1);
  assert.deepEqual([report.helpful, report.not_helpful], [0, 1], "the answer's last rating");
  assert.deepEqual(report.not_helpful_reasons.map((r) => [r.text, r.count]), [["incomplete", 1]]);
  assert.deepEqual(report.top_refused.map((q) => q.text), [OFF_TOPIC]);
  assert.deepEqual(report.errors, [["LLM_UNAVAILABLE", 1]]);
  const cited = report.top_cited.find((c) => c.url === answer.sources[n - 1].url);
  assert.ok(cited && cited.cited === 1 && cited.clicked === 1 && cited.title === answer.sources[n - 1].title, JSON.stringify(report.top_cited));
});

test("the reasons after Not helpful, in dark mode and on a 390 px phone", async (t) => {
  for (const [name, options] of [["92-events-reasons-dark", { colorScheme: "dark" }], ["93-events-reasons-mobile", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }]]) {
    const { page } = await newPage(t, env, options);
    await openDocs(page, env);
    await openPanel(page);
    await ask(page, QUESTION);
    const last = page.locator(".lectern-message--assistant").last();
    await last.getByRole("button", { name: "Not helpful" }).click();
    await last.getByRole("group", { name: "What was wrong?" }).waitFor();
    await screenshot(page, name);
    const box = await last.locator(".lectern-reasons").boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= (options.viewport?.width ?? 1280), `${name}: the reasons fit the width`);
  }
});

test("the search box: one event per settled query, not per keystroke, and one per result followed", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  const seen = await instrument(page);
  await openDocs(page, env, PAGE, on);
  await openSearch(page);
  const query = "install the planner";
  await page.locator(".lectern-search__input").pressSequentially(query, { delay: 60 });
  await waitForSearch(page, query);
  await page.waitForFunction(() => window.__usage.some((e) => e.kind === "search"), null, { timeout: 5000 });
  const rows = await page.locator(".lectern-search a.lectern-result").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(rows.length > 1, `rows: ${rows}`);
  await page.keyboard.press("ArrowDown"); // from the best section to the second
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => window.__usage.some((e) => e.kind === "search_click"));
  const events = await seen.usage();
  assert.deepEqual(events.map((e) => e.kind), ["search", "search_click"]);
  const [search, click] = events;
  assert.equal(search.query, query);
  assert.ok(search.results > 1, `${search.results} results`);
  assert.equal(click.query, query);
  assert.equal(click.rank, 2);
  assert.equal(click.url, rows[1]);
  assert.deepEqual(seen.hooked.map((e) => e.kind), ["search", "search_click"]);
  const analytics = await seen.analytics();
  for (const to of ["gtag", "plausible", "umami"]) {
    assert.deepEqual(analytics.filter((c) => c.to === to).map((c) => (to === "gtag" ? c.args[1] : c.args[0])), ["lectern_search", "lectern_search_click"], to);
  }
});

test("the /search page: the same events as the box, once each — the settled query, and the result followed with its rank", async (t) => {
  if (await skipUnbuilt(t)) return;
  const { page } = await newPage(t, env);
  const seen = await instrument(page);
  const query = "install";
  await page.goto(`${on.origin}/search?q=${encodeURIComponent(query)}`);
  await page.waitForSelector(".lectern-search-page .lectern-result", { timeout: 60000 });
  await page.waitForFunction(() => window.__usage.some((e) => e.kind === "search"), null, { timeout: 5000 });
  // Typing more settles one more query, not one per keystroke.
  const more = `${query} the planner`;
  await page.locator(".lectern-search-page__input").focus();
  await page.keyboard.press("End");
  await page.keyboard.type(" the planner", { delay: 60 });
  await page.waitForFunction((q) => window.__usage.some((e) => e.kind === "search" && e.query === q), more, { timeout: 10000 });
  const rows = await page.locator(".lectern-search-page a.lectern-result").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(rows.length > 1, `rows: ${rows}`);
  await page.locator(".lectern-search-page a.lectern-result").nth(1).click();
  await page.waitForFunction(() => window.__usage.some((e) => e.kind === "search_click"));
  await page.waitForTimeout(1500); // nothing more comes once the page is left
  const events = await seen.usage();
  assert.deepEqual(events.map((e) => e.kind), ["search", "search", "search_click"]);
  const [first, second, click] = events;
  assert.deepEqual([first.query, second.query, click.query], [query, more, more]);
  assert.ok(first.results > 1 && second.results > 0, `${first.results}, ${second.results} results`);
  assert.equal(click.rank, 2);
  assert.equal(click.url, rows[1]);
  assert.match(click.page, /^\/search\/?$/);
  assert.deepEqual(seen.hooked.map((e) => e.kind), ["search", "search", "search_click"]);
  const analytics = await seen.analytics();
  for (const to of ["gtag", "plausible", "umami"]) {
    assert.deepEqual(analytics.filter((c) => c.to === to).map((c) => (to === "gtag" ? c.args[1] : c.args[0])), ["lectern_search", "lectern_search", "lectern_search_click"], to);
  }
});

test("by default (the example site): window events only, without what the reader typed; nothing to the page's analytics or to a proxy", async (t) => {
  const { page } = await newPage(t, env);
  const seen = await instrument(page);
  env.site.clearUsageEvents();
  await openDocs(page, env);
  await openSearch(page);
  await page.fill(".lectern-search__input", "node vers");
  await waitForSearch(page, "node vers");
  await page.waitForFunction(() => window.__usage.some((e) => e.kind === "search"), null, { timeout: 5000 });
  await page.keyboard.press("Escape");
  await openPanel(page);
  await ask(page, QUESTION);
  const events = await seen.usage();
  assert.deepEqual(events.map((e) => e.kind), ["search", "question", "answer"]);
  for (const e of events) {
    assert.equal("question" in e || "query" in e, false, `no reader text: ${JSON.stringify(e)}`);
    assert.match(e.time, ISO);
  }
  assert.ok(events[0].results > 0 && events[2].sources.length > 0);
  assert.deepEqual(await seen.analytics(), [], "the page's analytics got nothing");
  await page.goto("about:blank"); // pagehide: a proxy would get what waits now
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(seen.hooked, [], "no onEvent module");
  assert.deepEqual(env.site.usageEvents(), [], "no proxy");
});

async function waitUntil(check, what, timeout = 15000) {
  const end = Date.now() + timeout;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
