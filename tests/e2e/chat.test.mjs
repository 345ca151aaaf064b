// The widget's conversation, end to end: the example site built by Docusaurus with the
// plugin, the runtime and index it emitted, the chat layer, and the local LLM server behind
// the site's same-origin proxy.

import { test } from "node:test";
import assert from "node:assert/strict";
import { startLlmServer } from "../../scripts/llm-server/server.mjs";
import { QUESTION, ask, newPage, openDocs, openPanel, rateLimitGap, recordEvents, screenshot, useEnvironment, waitForAnswer } from "./harness.mjs";
import { HOSTILE_ANSWER } from "../fixtures/hostile-answer.mjs";

const env = useEnvironment();

// The plugin names the site by its title (www/example's docusaurus.config).
const REFUSAL = "I couldn't find information about this topic in the Physical AI & Humanoid Robotics docs.";

test("a question gets a streamed answer with [n] citations; a citation lands on its section", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  const events = await recordEvents(page);
  await openPanel(page);
  await screenshot(page, "01-panel-welcome");
  assert.ok(await page.locator(".lectern-starters button").count() >= 1, "starter questions are offered");
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA", "the question box has the focus");

  // A pause after a few tokens makes the streaming state observable.
  env.llm.setFault("stall:1500");
  await ask(page, QUESTION, { wait: false });
  await page.waitForFunction(() => {
    const m = document.querySelector('.lectern-message--assistant[aria-busy="true"] .lectern-markdown');
    return m && m.textContent.trim().length > 0;
  });
  const partial = await page.locator('.lectern-message--assistant[aria-busy="true"] .lectern-markdown').innerText();
  await screenshot(page, "02-answer-streaming");
  await waitForAnswer(page, 1);
  const answer = page.locator(".lectern-message--assistant").last();
  const full = await answer.locator(".lectern-markdown").innerText();
  assert.ok(full.length > partial.length + 20, `the answer kept growing after the pause (${partial.length} → ${full.length} characters)`);
  await screenshot(page, "03-answer-complete");

  // Citations in the text link to the numbered sources, which name chapter › section.
  const cites = await answer.locator(".lectern-markdown a.lectern-cite").evaluateAll((as) => as.map((a) => ({ n: a.textContent, href: a.getAttribute("href") })));
  assert.ok(cites.length >= 1, "the answer cites at least one source");
  const sources = await answer.locator(".lectern-sources li a").evaluateAll((as) => as.map((a) => ({ text: a.textContent, href: a.getAttribute("href") })));
  assert.ok(sources.length >= 1 && sources.length <= 5);
  for (const c of cites) assert.ok(sources.some((s) => s.href === c.href && s.text.startsWith(c.n)), `citation [${c.n}] matches source ${c.n}`);
  assert.ok(sources.some((s) => s.text.includes("›")), "sources read chapter › section");
  assert.ok(sources.every((s) => s.href.startsWith("/docs/")), "sources are this site's pages");
  assert.equal(await answer.locator(".lectern-confidence").count(), 1, "the confidence is shown");

  // What the LLM was sent: numbered context and the question, no key.
  const [request] = env.llm.requests();
  const prompt = request.body.messages.map((m) => m.content).join("\n");
  assert.match(prompt, /\[1\]/);
  assert.ok(prompt.includes(QUESTION));
  assert.equal(request.headers.authorization, undefined);

  // Following a citation: client-side navigation to the exact section, panel still open.
  // (A section at the top of its page has no anchor: then the page's top is the place.)
  const index = Math.max(0, cites.findIndex((c) => c.href.includes("#")));
  const target = cites[index].href;
  t.diagnostic(`following citation [${cites[index].n}] to ${target}`);
  await answer.locator(".lectern-markdown a.lectern-cite").nth(index).click();
  // The citation's link names its passage (?passage=), which the page takes out of the address.
  await page.waitForFunction((href) => location.pathname + location.hash === href, target.replace(/\?[^#]*/, ""));
  const anchor = decodeURIComponent(new URL(target, env.site.origin).hash.slice(1));
  await page.waitForFunction((id) => {
    const el = id ? document.getElementById(id) : document.querySelector("article h1");
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  }, anchor, { timeout: 5000 }).catch(async (e) => {
    const where = await page.evaluate((id) => ({ id, found: !!document.getElementById(id), top: document.getElementById(id)?.getBoundingClientRect().top, scrollY, h: innerHeight, url: location.href }), anchor);
    throw new Error(`the section ${JSON.stringify(where)} is not in view: ${e.message}`);
  });
  assert.equal(await page.locator(".lectern-panel").isVisible(), true, "the panel stays open on a wide screen");
  await screenshot(page, "04-citation-landed");

  const names = (await events()).map((e) => e.name);
  assert.ok(names.includes("question") && names.includes("answer"), `events: ${names}`);
});

test("an off-topic question is refused without calling the LLM", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  await openPanel(page);
  await ask(page, "How do I bake sourdough bread?");
  const answer = page.locator(".lectern-message--assistant").last();
  assert.ok((await answer.getAttribute("class")).includes("lectern-message--refusal"));
  assert.ok((await answer.innerText()).includes(REFUSAL));
  assert.equal(await answer.locator(".lectern-sources").count(), 0);
  assert.equal(env.llm.requests().length, 0, "the LLM saw no request");
  await screenshot(page, "05-refusal");
});

test("the LLM says the context lacks the answer: GENERATING → REFUSED, the marker never shown", async (t) => {
  // The marker streamed three characters at a time, so it arrives split across chunks.
  const refusing = await startLlmServer({ canned: "NOT_IN_CONTEXT\nThe context is about other topics.", tokenDelayMs: 20, tokenChars: 3 });
  t.after(() => refusing.close());
  for (const [name, options] of [
    ["light", {}],
    ["dark", { colorScheme: "dark" }],
    ["mobile", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ]) {
    const { page } = await newPage(t, env, options);
    env.site.setUpstream(refusing.url);
    refusing.reset();
    await openDocs(page, env);
    await openPanel(page);
    // Every piece of text the live answer ever showed, while it streamed.
    await page.evaluate(() => {
      window.__shown = [];
      new MutationObserver(() => {
        const live = document.querySelector('.lectern-message--assistant[aria-busy="true"]');
        if (live) window.__shown.push(live.innerText);
      }).observe(document.querySelector(".lectern-panel"), { subtree: true, childList: true, characterData: true });
    });
    await ask(page, QUESTION);
    const answer = page.locator(".lectern-message--assistant").last();
    assert.ok((await answer.getAttribute("class")).includes("lectern-message--refusal"), name);
    assert.equal(await answer.locator(".lectern-label--refusal").count(), 1, "labelled as not in this site");
    const text = await answer.innerText();
    assert.ok(text.includes(REFUSAL), text);
    assert.equal(await answer.locator(".lectern-sources").count(), 0, "a refusal lists no source");
    const shown = await page.evaluate(() => window.__shown.join("\n"));
    assert.ok(!/NOT_|_IN_|CONTEXT|other topics/.test(text + shown), `the marker (or what followed it) was shown: ${text} | ${shown}`);
    assert.equal(refusing.requests().length, 1, "the LLM was asked (the refusal is its answer, not retrieval's)");
    assert.match(refusing.requests()[0].body.messages[0].content, /reply with the single line NOT_IN_CONTEXT/);
    await screenshot(page, `05b-llm-refusal-${name}`);
  }
});

test("stop keeps the partial answer, and retry asks again", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  await openPanel(page);
  env.llm.setFault("stall:4000");
  const asked = Date.now();
  await ask(page, QUESTION, { wait: false });
  await page.waitForFunction(() => document.querySelector('.lectern-message--assistant[aria-busy="true"] .lectern-markdown')?.textContent.trim());
  await page.click('.lectern-send--stop');
  await waitForAnswer(page, 1);
  const stopped = page.locator(".lectern-message--assistant").last();
  assert.match(await stopped.innerText(), /Stopped/);
  assert.ok((await stopped.locator(".lectern-markdown").innerText()).length > 0, "the partial answer stays");
  await screenshot(page, "06-stopped");
  await rateLimitGap(asked);
  await stopped.getByRole("button", { name: "Retry" }).click();
  await page.waitForFunction(() => {
    const all = document.querySelectorAll(".lectern-message--assistant");
    const last = all[all.length - 1];
    return last && !last.getAttribute("aria-busy")?.includes("true") && last.querySelector(".lectern-sources") && !/Stopped/.test(last.innerText);
  }, null, { timeout: 30000 });
  assert.equal(await page.locator(".lectern-message--user").count(), 1, "the question is not duplicated");
});

test("LLM down: an error with retry, the question kept; retry works once it is back", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  await openPanel(page);
  const events = await recordEvents(page);
  env.site.setUpstream(null); // the site's proxy is up, the LLM behind it is not: 502
  const asked = Date.now();
  await ask(page, QUESTION);
  const failed = page.locator(".lectern-message--assistant").last();
  await failed.locator('[role="alert"]').waitFor();
  assert.equal(await page.locator(".lectern-message--user .lectern-message__text").last().innerText(), QUESTION, "the question is kept");
  const retry = failed.getByRole("button", { name: "Retry" });
  assert.equal(await retry.isVisible(), true);
  await screenshot(page, "07-llm-down");
  assert.ok((await events()).some((e) => e.name === "error" && e.detail.code === "LLM_UNAVAILABLE"));

  // Rate limiting by the LLM (429) is shown the same way.
  env.site.setUpstream(env.llm.url);
  env.llm.setFault("status:429");
  await rateLimitGap(asked);
  const retried = Date.now();
  await retry.click();
  await page.waitForFunction(() => document.querySelectorAll(".lectern-message--assistant [role=alert]").length === 1 && !document.querySelector('[aria-busy="true"]'));
  assert.equal(await page.locator(".lectern-message--user").count(), 1);

  await rateLimitGap(retried);
  await page.locator(".lectern-message--assistant").last().getByRole("button", { name: "Retry" }).click();
  await page.waitForFunction(() => {
    const all = document.querySelectorAll(".lectern-message--assistant");
    const last = all[all.length - 1];
    return last?.getAttribute("aria-busy") !== "true" && last.querySelector(".lectern-sources") && !last.querySelector('[role="alert"]');
  }, null, { timeout: 60000 }); // a loaded 2-core machine can take a while
  assert.equal(await page.locator(".lectern-message--user").count(), 1, "one question, now answered");
  assert.equal(await page.locator(".lectern-message--assistant").count(), 1, "the failed attempt was replaced");
  await screenshot(page, "08-retried");
});

test("endpoint unreachable: cited excerpts instead, and a notice that says why", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env);
  await openPanel(page);
  env.site.setUpstream("unreachable");
  await ask(page, QUESTION);
  const answer = page.locator(".lectern-message--assistant").last();
  assert.ok((await answer.locator(".lectern-markdown a.lectern-cite").count()) >= 1, "the excerpts are cited");
  assert.equal(await answer.locator(".lectern-badge", { hasText: "Excerpts" }).count(), 1, "labelled as excerpts");
  assert.match(await page.locator(".lectern-notice").innerText(), /could not be reached/);
  await screenshot(page, "07b-llm-unreachable-extractive");
});

test("hostile LLM output renders inert: no HTML, no script links, no images", async (t) => {
  const hostile = await startLlmServer({ canned: HOSTILE_ANSWER, tokenDelayMs: 2, tokenChars: 16 });
  t.after(() => hostile.close());
  const { page } = await newPage(t, env);
  env.site.setUpstream(hostile.url);
  const outbound = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(env.site.origin)) outbound.push(r.url());
  });
  page.on("dialog", (d) => {
    outbound.push(`dialog:${d.message()}`);
    d.dismiss();
  });
  await openDocs(page, env);
  await openPanel(page);
  await ask(page, QUESTION);
  const answer = page.locator(".lectern-message--assistant").last();
  const markdown = answer.locator(".lectern-markdown");
  assert.equal(await page.evaluate(() => window.__pwned), undefined, "no script ran");
  assert.equal(await markdown.locator("img, script, iframe, svg, style, object, embed").count(), 0, "no element from the answer's HTML");
  const text = await markdown.innerText();
  for (const literal of ["<img src=x", "<script>", "<iframe", "click me", "raw anchor"]) assert.ok(text.includes(literal), `shown as text: ${literal}`);
  const hrefs = await markdown.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(hrefs.every((h) => h.startsWith("/")), `only links to this site: ${hrefs}`);
  assert.ok(hrefs.includes("/docs/ros2-fundamentals/nodes-topics/"), "a link to this site stays a link");
  assert.equal(await markdown.locator(".lectern-link-removed", { hasText: "elsewhere" }).getAttribute("title"), "https://example.org/", "another site's URL is text (shown on hover), not a link");
  // Clicking what looked like links does nothing either.
  for (const label of ["click me", "data", "mixed", "tab", "entity", "elsewhere"]) await markdown.getByText(label, { exact: true }).click();
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, "still no script ran");
  assert.deepEqual(outbound, [], "nothing was loaded from elsewhere, no dialog opened");
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).display), "block", "the answer's <style> did not apply");
  await screenshot(page, "09-hostile-inert");
});

test("the conversation survives a reload; a new tab starts empty", async (t) => {
  const { page, context } = await newPage(t, env);
  await openDocs(page, env);
  await openPanel(page);
  await ask(page, QUESTION);
  const before = await page.locator(".lectern-messages").innerText();
  await page.reload();
  // The panel was open: it opens again, with the conversation.
  await page.waitForSelector(".lectern-panel:not(.lectern-panel--loading) .lectern-message--assistant", { timeout: 60000 });
  await waitForAnswer(page, 1);
  assert.equal(await page.locator(".lectern-message--user .lectern-message__text").innerText(), QUESTION);
  const after = await page.locator(".lectern-messages").innerText();
  assert.equal(after, before, "the same conversation");
  await screenshot(page, "10-after-reload");

  const tab = await context.newPage();
  await openDocs(tab, env);
  await openPanel(tab);
  assert.equal(await tab.locator(".lectern-message").count(), 0, "a new tab has no conversation");
  assert.equal(await tab.locator(".lectern-welcome").isVisible(), true);
  await tab.close();
});

test("personas, feedback, copy and a new conversation; the site hears each as a DOM event", async (t) => {
  const { page, context } = await newPage(t, env);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.site.origin });
  await openDocs(page, env);
  await openPanel(page);
  const events = await recordEvents(page);
  const options = await page.locator(".lectern-persona option").allInnerTexts();
  assert.deepEqual(options, ["General", "Beginner", "Software engineer", "Robotics student", "AI researcher"]);
  await page.selectOption(".lectern-persona select", "beginner");
  await ask(page, QUESTION);
  const system = env.llm.requests()[0].body.messages.filter((m) => m.role === "system").map((m) => m.content).join("\n");
  assert.match(system, /Explain concepts from first principles/, "the persona's modifier reaches the prompt");

  const answer = page.locator(".lectern-message--assistant").last();
  await answer.getByRole("button", { name: "Helpful", exact: true }).click();
  assert.equal(await answer.getByRole("button", { name: "Helpful", exact: true }).getAttribute("aria-pressed"), "true");
  await answer.getByRole("button", { name: "Not helpful" }).click();
  await answer.getByRole("button", { name: "Copy answer" }).click();
  await page.waitForFunction(() => window.__lecternEvents.some((e) => e.name === "copy"));
  // The answer's Markdown is copied, citations and all.
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const shown = await answer.locator(".lectern-markdown").innerText();
  assert.match(copied, /\[\d\]/);
  assert.ok(shown.startsWith(copied.slice(0, 15)), `copied: ${copied.slice(0, 40)}`);
  await screenshot(page, "11-feedback");

  await page.getByRole("button", { name: "New conversation" }).click();
  assert.equal(await page.locator(".lectern-message").count(), 0);
  assert.equal(await page.locator(".lectern-welcome").isVisible(), true);

  const log = await events();
  const feedback = log.filter((e) => e.name === "feedback").map((e) => e.detail.rating);
  assert.deepEqual(feedback, ["helpful", "not_helpful"]);
  const up = log.find((e) => e.name === "feedback").detail;
  assert.equal("question" in up, false, "the question's text only when the site opts in");
  assert.ok(up.messageId && up.conversationId);
  assert.ok(log.some((e) => e.name === "new-conversation"));
  // The persona is remembered for the next visit.
  assert.equal(await page.evaluate(() => localStorage.getItem("lectern:persona:v1")), '"beginner"');
});

test("keyword answers work while the model is still downloading, with its progress shown", async (t) => {
  const { page } = await newPage(t, env);
  env.site.setDelay(/\/lectern\/bundle\/model\./, 8000);
  await openDocs(page, env);
  await openPanel(page);
  const status = page.locator('[data-lectern-status="model"]');
  await status.waitFor();
  assert.match(await status.innerText(), /Keyword search works now/);
  await ask(page, QUESTION);
  assert.equal(await status.isVisible(), true, "the answer came before the model");
  assert.ok(await page.locator(".lectern-message--assistant .lectern-sources li").count() >= 1);
  await screenshot(page, "12-model-downloading");
  await status.waitFor({ state: "detached", timeout: 60000 });
});
