// The page the reader is on, and shareable questions (issue 27, points 1 and 2): "Ask about
// this page" answers from that page and cites it, every question names its page to the LLM,
// `?ask=<question>` on a docs page's address opens the panel and asks it (hostile or
// oversized text is refused or shown as text, never run), and "Copy link" copies such an
// address for the page the question was asked on.

import { test } from "node:test";
import assert from "node:assert/strict";
import { QUESTION, newPage, openDocs, openPanel, screenshot, useEnvironment, waitForAnswer, waitForIndex } from "./harness.mjs";

const env = useEnvironment();
const PAGE = "/docs/ros2-fundamentals/nodes-topics/";

/** The pages the shown answer's sources link to (paths, without a trailing slash). */
function sourcePaths(page) {
  return page.locator(".lectern-message--assistant .lectern-sources a").evaluateAll((as) => as.map((a) => new URL(a.href).pathname.replace(/\/$/, "")));
}

/** The system message of the LLM's last request. */
function lastSystemMessage() {
  return env.llm.requests().at(-1)?.body.messages.find((m) => m.role === "system")?.content ?? "";
}

test("Ask about this page: a starter row on a docs page, answered from that page only, and the LLM is told the page", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  await openPanel(page);
  const starter = page.locator("[data-lectern-ask-page]");
  assert.equal(await starter.innerText(), "Ask about this page");
  await screenshot(page, "70-ask-about-page-light");

  await starter.click();
  await waitForAnswer(page, 1);
  const question = await page.locator(".lectern-message--user .lectern-message__text").last().innerText();
  const title = await page.locator("article h1").innerText();
  assert.ok(question.includes(title), `the question names the page: ${question}`);
  const paths = await sourcePaths(page);
  assert.ok(paths.length > 0, "the answer cites sections");
  assert.deepEqual([...new Set(paths)], [PAGE.replace(/\/$/, "")], "every cited section is on the page");
  const system = lastSystemMessage();
  assert.ok(system.includes(`The reader is on the page "${title}" (${env.site.origin}${PAGE})`), system);
});

test("a question typed on a page names the page to the LLM and is not limited to it", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  await openPanel(page);
  await page.fill(".lectern-panel textarea", "How do I tune a PID controller?");
  await page.press(".lectern-panel textarea", "Enter");
  await waitForAnswer(page, 1);
  const paths = await sourcePaths(page);
  assert.ok(paths.some((p) => p.includes("pid-control")), `the answer comes from the PID page, not only this one: ${paths}`);
  assert.ok(lastSystemMessage().includes(`(${env.site.origin}${PAGE})`));
});

test("?ask= opens the panel after hydration, asks once, answers with a citation, and leaves the address", async (t) => {
  const { page } = await newPage(t, env);
  await page.goto(`${env.site.origin}${PAGE}?ask=${encodeURIComponent(QUESTION)}&persona=ai_researcher&endpoint=${encodeURIComponent("https://evil.example/v1")}#qos`);
  await page.waitForSelector(".lectern-panel:not([hidden])");
  await waitForAnswer(page, 1);
  assert.equal(await page.locator(".lectern-message--user .lectern-message__text").innerText(), QUESTION);
  assert.ok((await sourcePaths(page)).length > 0, "the answer cites a section");
  assert.ok((await page.locator(".lectern-message--assistant .lectern-cite").count()) > 0, "with a numbered citation");
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("ask"), null, "the question is taken out of the address");
  assert.equal(url.searchParams.get("persona"), "ai_researcher", "other parameters are the site's, left alone");
  assert.equal(url.hash, "#qos");
  const [request] = env.llm.requests();
  assert.equal(env.llm.requests().length, 1);
  assert.ok(!request.body.messages[0].content.includes("The reader:"), "no persona came from the link");

  // A reload does not ask again.
  await page.reload();
  await page.waitForSelector("[data-lectern-hydrated]", { state: "attached" });
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1500);
  assert.equal(env.llm.requests().length, 1, "asked once");
});

test("a hostile ?ask= is only text, and one too long or empty is refused with the reason, nothing sent", async (t) => {
  const { page } = await newPage(t, env);
  const payload = `<img src=x onerror="window.__lecternPwned=1"><script>window.__lecternPwned=2</script>`;
  await page.goto(`${env.site.origin}${PAGE}?ask=${encodeURIComponent(payload)}`);
  await page.waitForSelector(".lectern-panel:not([hidden])");
  await waitForAnswer(page, 1);
  assert.equal(await page.locator(".lectern-message--user .lectern-message__text").innerText(), payload, "shown as the text it is");
  assert.equal(await page.locator(".lectern-panel img, .lectern-panel script").count(), 0);
  assert.equal(await page.evaluate(() => window.__lecternPwned), undefined, "no script ran");
  await screenshot(page, "73-ask-link-hostile");

  const { page: long } = await newPage(t, env);
  const before = env.llm.requests().length;
  await long.goto(`${env.site.origin}${PAGE}?ask=${"a".repeat(5000)}`);
  await long.waitForSelector(".lectern-panel:not([hidden])");
  await waitForIndex(long);
  const error = long.locator(".lectern-composer__error");
  await error.waitFor();
  assert.match(await error.innerText(), /too long/i);
  assert.equal(await long.locator(".lectern-message--user").count(), 0, "nothing was asked");
  assert.equal(env.llm.requests().length, before, "nothing was sent");
  assert.equal(new URL(long.url()).searchParams.get("ask"), null);
  await screenshot(long, "74-ask-link-too-long");

  const { page: empty } = await newPage(t, env);
  await empty.goto(`${env.site.origin}${PAGE}?ask=%20`);
  await empty.waitForSelector(".lectern-panel:not([hidden])");
  await empty.locator(".lectern-composer__error").waitFor();
  assert.equal(await empty.locator(".lectern-message--user").count(), 0);
  assert.equal(env.llm.requests().length, before, "nothing was sent");
});

for (const [name, options] of [
  ["light", {}],
  ["dark", { colorScheme: "dark" }],
  ["390px", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
]) {
  test(`Copy link copies the address that asks the question on its page (${name})`, async (t) => {
    const { page, context } = await newPage(t, env, options);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.site.origin });
    await openDocs(page, env, PAGE);
    await openPanel(page);
    if (name !== "light") await screenshot(page, `70-ask-about-page-${name}`);
    await page.fill(".lectern-panel textarea", QUESTION);
    await page.press(".lectern-panel textarea", "Enter");
    await waitForAnswer(page, 1);
    const button = page.locator("[data-lectern-copy-link]");
    await button.click();
    await page.locator("[data-lectern-copy-link]", { hasText: "Link copied" }).waitFor();
    const copied = new URL(await page.evaluate(() => navigator.clipboard.readText()));
    assert.equal(copied.origin + copied.pathname, env.site.origin + PAGE);
    assert.deepEqual([...copied.searchParams.keys()], ["ask"], "the link carries the question only");
    assert.equal(copied.searchParams.get("ask"), QUESTION);
    await screenshot(page, `71-copy-link-${name}`);

    // The link asks the question again (on a fresh tab).
    const { page: opened } = await newPage(t, env, options);
    await opened.goto(copied.href);
    await waitForAnswer(opened, 1);
    assert.equal(await opened.locator(".lectern-message--user .lectern-message__text").innerText(), QUESTION);
  });
}

test("Copy link shows the link to copy by hand when the browser refuses the clipboard", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  await page.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException("denied", "NotAllowedError"));
    document.execCommand = () => false;
  });
  await openPanel(page);
  await page.fill(".lectern-panel textarea", QUESTION);
  await page.press(".lectern-panel textarea", "Enter");
  await waitForAnswer(page, 1);
  await page.click("[data-lectern-copy-link]");
  const field = page.locator("[data-lectern-link-fallback]");
  await field.waitFor();
  const link = new URL(await field.inputValue());
  assert.equal(link.searchParams.get("ask"), QUESTION);
  assert.equal(link.pathname, PAGE);
  await screenshot(page, "72-copy-link-refused");
});
