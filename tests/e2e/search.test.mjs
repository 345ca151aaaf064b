// The navbar's search box (issue 26) on the example site: results as the reader types,
// keyboard use, "Ask AI" into the chat panel, the /search page, recent searches, dark mode
// and the phone sheet — and living beside a page's own widgets (a foreign fixed button at
// z-index 2147483000, a site's own Ctrl+K and "/" listeners). Screenshots of every state go
// to tests/e2e/artifacts/ (40-…).

import { test } from "node:test";
import assert from "node:assert/strict";
import { newPage, openDocs, openSearch, screenshot, searchFor, searchRows, useEnvironment, waitForAnswer, waitForSearch } from "./harness.mjs";

const env = useEnvironment();
const PAGE = "/docs/ros2-fundamentals/nodes-topics/";

/** Resolves once `condition()` holds (polled), or fails after `ms`. */
async function until(condition, ms = 30000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${condition}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The option the query box points at (aria-activedescendant). */
const activeOption = (page) =>
  page.evaluate(() => {
    const input = document.querySelector(".lectern-search__input");
    const option = document.getElementById(input.getAttribute("aria-activedescendant") ?? "");
    return option ? { text: option.textContent, href: option.querySelector("a")?.getAttribute("href") ?? null, ask: Boolean(option.querySelector("[data-lectern-ask-ai]")) } : null;
  });

test("type → keyword results grouped by page, words marked; arrows + Enter land on the section", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  await openSearch(page);
  await screenshot(page, "40-search-empty");
  // Roles: a combobox over a listbox, and a live region.
  const input = page.locator(".lectern-search__input");
  assert.equal(await input.getAttribute("role"), "combobox");
  const listId = await input.getAttribute("aria-controls");
  assert.equal(await page.locator(`[id="${listId}"]`).getAttribute("role"), "listbox");

  // Typing: results come with the first words, while the last one is still being typed.
  await page.keyboard.type("publisher q", { delay: 40 });
  await waitForSearch(page, "publisher q");
  await screenshot(page, "41-search-typing");
  await page.keyboard.type("os", { delay: 40 });
  await waitForSearch(page, "publisher qos");
  await screenshot(page, "42-search-results");
  const rows = await searchRows(page);
  assert.ok(rows.length >= 3, `rows: ${JSON.stringify(rows)}`);
  assert.ok(rows.every((r) => r.href.startsWith("/docs/")), "every row links to a section of the site");
  // Grouped by page: a page heading before its rows; words marked in snippets or titles.
  assert.ok((await page.locator(".lectern-search__group-title").count()) >= 1);
  const marks = await page.locator(".lectern-search .lectern-result mark").allTextContents();
  assert.ok(marks.some((m) => /^publish/i.test(m)) && marks.some((m) => /^qos$/i.test(m)), `marked: ${marks.join(", ")}`);
  // The first option asks the AI; the best section is the active one.
  assert.match(await page.locator(".lectern-search [role=option]").first().innerText(), /Ask AI:\s*publisher qos/);
  assert.equal((await activeOption(page)).href, rows[0].href);
  // The live region counts the results.
  assert.match(await page.locator('.lectern-search [role="status"]').innerText(), /\d+ documents? found|One document found/);

  // Down twice, up once: the second row; Enter follows it and the section's heading is there.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  const chosen = await activeOption(page);
  assert.equal(chosen.href, rows[1].href);
  await page.keyboard.press("Enter");
  await page.waitForFunction((href) => {
    const plain = (s) => s.replace(/\/(?=#|$)/, "");
    return plain(location.pathname + location.hash) === plain(href);
  }, chosen.href);
  await page.waitForSelector("dialog.lectern-search", { state: "hidden" });
  const anchor = new URL(chosen.href, env.site.origin).hash.slice(1);
  if (anchor) {
    const inView = await page.evaluate((id) => {
      const el = document.getElementById(decodeURIComponent(id));
      const r = el?.getBoundingClientRect();
      return Boolean(r) && r.top >= 0 && r.top < window.innerHeight;
    }, anchor);
    assert.ok(inView, `the heading #${anchor} is in view`);
  }
  await screenshot(page, "43-search-landed");
});

test("a short section merged into the one before it is a row of its own: its heading, its anchor, its text", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  await openSearch(page);
  // The perception overview's "Prerequisites" is too short to be a chunk of its own: it is
  // stored inside "In this module", and the core says the query matched it.
  await searchFor(page, "rotation matrices homogeneous transforms");
  const rows = await searchRows(page);
  const row = rows.find((r) => /#prerequisites$/.test(r.href));
  assert.ok(row, `a row links to #prerequisites: ${JSON.stringify(rows)}`);
  assert.match(row.title, /Prerequisites/);
  assert.ok(!rows.some((r) => /#in-this-module$/.test(r.href)), "not to the section it was merged into");
  const marks = await page.locator(`.lectern-search [role=option] a[href$="#prerequisites"] mark`).allTextContents();
  assert.ok(marks.some((m) => /rotation|matri|homogeneous|transform/i.test(m)), `its own text is the snippet: ${marks.join(", ")}`);
});

test("Ctrl+Enter opens the section in a new tab; Esc closes and the focus returns; no results", async (t) => {
  const { page, context } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  await page.locator("[data-lectern-search-button]").focus();
  await page.keyboard.press("Enter");
  await page.waitForSelector("dialog.lectern-search[open]");
  await searchFor(page, "launch file");
  const { href } = await activeOption(page);
  const [tab] = await Promise.all([context.waitForEvent("page"), page.keyboard.press("Control+Enter")]);
  await tab.waitForLoadState();
  assert.equal(new URL(tab.url()).pathname.replace(/\/$/, ""), new URL(href, env.site.origin).pathname.replace(/\/$/, ""));
  await tab.close();
  // The reader is back on the first tab (the browser's focus went to the new one).
  await page.bringToFront();
  // The dialog stays for the next result; the page did not move.
  assert.equal(new URL(page.url()).pathname, PAGE);
  assert.ok(await page.locator("dialog.lectern-search[open]").count());

  await searchFor(page, "zzxqv flurbl");
  await screenshot(page, "44-search-no-results");
  assert.match(await page.locator("[data-lectern-no-results]").innerText(), /No results found for “zzxqv flurbl”/);
  assert.equal(await page.locator(".lectern-search [role=option]").count(), 1, "Ask AI stays offered");
  await page.keyboard.press("Escape");
  await page.waitForSelector("dialog.lectern-search", { state: "hidden" });
  assert.equal(await page.evaluate(() => document.activeElement?.hasAttribute("data-lectern-search-button")), true, "the focus is back on the search button");
});

test("⌘K / Ctrl+K and / open the box, never from a field; recent searches survive, broken storage does not matter", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  await page.keyboard.press("Control+K");
  await page.waitForSelector("dialog.lectern-search[open]");
  await searchFor(page, "inverse kinematics");
  await page.keyboard.press("Enter");
  await page.waitForSelector("dialog.lectern-search", { state: "hidden" });
  await page.keyboard.press("/");
  await page.waitForSelector("dialog.lectern-search[open]");
  // The query is kept and selected: clearing shows the recent searches.
  await page.fill(".lectern-search__input", "");
  await page.waitForSelector(".lectern-search__recent");
  assert.deepEqual(await page.locator(".lectern-search__recent span").allTextContents(), ["inverse kinematics"]);
  await page.keyboard.press("Escape");

  // A field of the page keeps its "/" and Ctrl+K.
  await page.evaluate(() => {
    const field = document.createElement("input");
    field.id = "site-field";
    document.querySelector("article").prepend(field);
  });
  await page.focus("#site-field");
  await page.keyboard.type("a/b");
  await page.keyboard.press("Control+K");
  assert.equal(await page.inputValue("#site-field"), "a/b");
  assert.equal(await page.locator("dialog.lectern-search[open]").count(), 0);

  // Storage that throws: searching still works, nothing is kept.
  const { page: broken } = await newPage(t, env);
  await broken.addInitScript(() => {
    Object.defineProperty(window, "localStorage", { get: () => { throw new DOMException("denied", "SecurityError"); } });
  });
  await openDocs(broken, env, PAGE);
  await openSearch(broken);
  await searchFor(broken, "inverse kinematics");
  assert.ok((await searchRows(broken)).length > 0);
  await broken.keyboard.press("Enter");
  await broken.waitForSelector("dialog.lectern-search", { state: "hidden" });
});

test("nothing of the runtime before the box is used; hover brings the core, manifest and table; the model after the first results", async (t) => {
  const { page } = await newPage(t, env);
  env.site.clearRequests();
  await openDocs(page, env, PAGE);
  await page.mouse.move(200, 300);
  await page.waitForTimeout(800);
  const paths = () => env.site.requests().map((r) => r.path);
  assert.deepEqual(paths().filter((p) => p.startsWith("/lectern/")), []);
  await page.hover("[data-lectern-search-button]");
  await until(() => paths().some((p) => /bundle\/chunk-table\./.test(p)));
  await page.waitForTimeout(1500);
  const early = paths().filter((p) => p.startsWith("/lectern/"));
  for (const want of [/runtime\/index\.js$/, /lectern_search_bg\.[0-9a-f]+\.wasm$/, /bundle\/manifest\.json$/, /bundle\/chunk-table\./]) {
    assert.ok(early.some((p) => want.test(p)), `${want} loads on hover`);
  }
  assert.ok(!early.some((p) => /model\.[0-9a-f]+\.lcm$|dense\./.test(p)), `no model before a search: ${early.join(" ")}`);
  assert.ok(!early.some((p) => /runtime\/chat\.js$|lectern_core/.test(p)), "the chat layer and its module wait for the panel");
  await page.click("[data-lectern-search-button]");
  await searchFor(page, "zero moment point");
  await until(() => paths().some((p) => /bundle\/model\.[0-9a-f]+\.lcm$/.test(p)));
});

test("semantic results are appended below the keyword ones once the model is in", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  await openSearch(page);
  // A question in the reader's words: few of them are the pages' own.
  const query = "how does a walking robot avoid falling over";
  await searchFor(page, query);
  const keyword = await searchRows(page);
  // The model arrives after the first results; each new query then gets a semantic pass.
  const deadline = Date.now() + 120000;
  let merged = false;
  for (let i = 0; !merged && Date.now() < deadline; i++) {
    await page.waitForTimeout(2000);
    // A new query each time, searched as the same words: a trailing "?" would end the last
    // word, which then no longer matches the words it begins ("over" → "overview").
    const q = i % 2 ? query : query.replace(" ", "  ");
    await page.fill(".lectern-search__input", q);
    merged = await page
      .waitForSelector(".lectern-search__heading--semantic", { timeout: 3000 })
      .then(() => true, () => false);
  }
  assert.ok(merged, "a semantic pass added rows");
  await page.locator(".lectern-search__heading--semantic").scrollIntoViewIfNeeded();
  await screenshot(page, "45-search-semantic");
  const rows = await searchRows(page);
  const firstSemantic = rows.findIndex((r) => r.semantic);
  assert.ok(firstSemantic > 0, "keyword rows first");
  assert.ok(rows.slice(firstSemantic).every((r) => r.semantic), "semantic rows only below");
  assert.deepEqual(
    rows.slice(0, firstSemantic).map((r) => r.href),
    keyword.map((r) => r.href),
    "the keyword rows kept their places",
  );
});

test("Ask AI opens the panel with the question and a cited answer", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  await openSearch(page);
  const question = "How do ROS 2 nodes discover each other?";
  await searchFor(page, question);
  await page.keyboard.press("ArrowUp"); // from the best section to "Ask AI"
  assert.equal((await activeOption(page)).ask, true);
  await screenshot(page, "46-search-ask-ai");
  await page.keyboard.press("Enter");
  await page.waitForSelector("dialog.lectern-search", { state: "hidden" });
  await page.waitForSelector(".lectern-panel:not([hidden])");
  await waitForAnswer(page, 1);
  assert.equal((await page.locator(".lectern-message--user").first().innerText()).trim().endsWith(question), true);
  const answer = page.locator(".lectern-message--assistant").last();
  assert.ok((await answer.locator(".lectern-markdown a.lectern-cite").count()) >= 1, "the answer cites its sources");
  await screenshot(page, "47-ask-ai-answer");
});

test("the chat panel keeps its keys: '/' types a slash, Ctrl+K opens neither the site's search nor Lectern's", async (t) => {
  const { page } = await newPage(t, env);
  await openDocs(page, env, PAGE);
  // The site's own shortcut, as DocSearch or a local search plugin registers it.
  await page.evaluate(() => {
    window.__siteShortcuts = 0;
    window.addEventListener("keydown", (e) => {
      if (((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") || e.key === "/") window.__siteShortcuts++;
    });
    document.addEventListener("keydown", (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") window.__siteShortcuts++;
    });
  });
  await page.keyboard.press("Control+I");
  await page.waitForSelector(".lectern-panel textarea");
  await page.waitForFunction(() => document.activeElement?.tagName === "TEXTAREA");
  await page.keyboard.type("What does /cmd_vel carry?");
  assert.equal(await page.inputValue(".lectern-panel textarea"), "What does /cmd_vel carry?");
  await page.keyboard.press("Control+K");
  assert.equal(await page.evaluate(() => window.__siteShortcuts), 0, "no key typed in the panel reached the page's listeners");
  assert.equal(await page.locator("dialog.lectern-search[open]").count(), 0);
  // Outside the panel, the page's listeners see keys as before.
  await page.locator("article").click();
  await page.keyboard.press("Control+K");
  assert.ok((await page.evaluate(() => window.__siteShortcuts)) > 0);
});

test("/search?q= renders the full list, linkable, and follows the box", async (t) => {
  const { page } = await newPage(t, env);
  await page.goto(`${env.site.origin}/search?q=${encodeURIComponent("quality of service")}`);
  await page.waitForSelector(".lectern-search-page .lectern-result", { timeout: 60000 });
  await screenshot(page, "48-search-page");
  assert.match(await page.locator("h1").innerText(), /Search results for "quality of service"/);
  const links = await page.locator(".lectern-search-page .lectern-result").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(links.length > 3 && links.every((h) => h.startsWith("/docs/")));
  assert.equal(await page.locator(".lectern-search-page select").count(), 0, "no version filter on an unversioned site");
  await page.fill(".lectern-search-page__input", "zero moment point");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("q") === "zero moment point");
  await page.waitForFunction(() => document.querySelector("h1")?.textContent.includes("zero moment point") && document.querySelector(".lectern-search-page .lectern-result mark"));
  // The box's footer links here with the query.
  await openDocs(page, env, PAGE);
  await openSearch(page);
  await searchFor(page, "actions");
  await page.click(".lectern-search__all");
  await page.waitForFunction(() => location.pathname === "/search" && new URLSearchParams(location.search).get("q") === "actions");
});

test("dark mode and a 390 px phone: the box follows the theme, and is a full-screen sheet", async (t) => {
  const { page } = await newPage(t, env, { colorScheme: "dark" });
  await openDocs(page, env, PAGE);
  await openSearch(page);
  await searchFor(page, "publisher qos");
  const colours = await page.evaluate(() => {
    const lum = (c) => {
      const [r, g, b] = c.match(/\d+(\.\d+)?/g).map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    const box = getComputedStyle(document.querySelector("dialog.lectern-search"));
    return { background: lum(box.backgroundColor), text: lum(box.color) };
  });
  assert.ok(colours.background < 0.3 && colours.text > 0.7, JSON.stringify(colours));
  await screenshot(page, "49-search-dark");
  await page.goto(`${env.site.origin}/search?q=${encodeURIComponent("publisher qos")}`);
  await page.waitForSelector(".lectern-search-page .lectern-result mark", { timeout: 60000 });
  await screenshot(page, "53-search-page-dark");

  const { page: phone } = await newPage(t, env, { viewport: { width: 390, height: 780 }, hasTouch: true, isMobile: true });
  await openDocs(phone, env, PAGE);
  await screenshot(phone, "50-mobile-navbar");
  await phone.locator("[data-lectern-search-button]").tap();
  await phone.waitForSelector("dialog.lectern-search[open]");
  await searchFor(phone, "publisher qos");
  const sheet = await phone.locator("dialog.lectern-search").boundingBox();
  assert.deepEqual([sheet.x, sheet.y, sheet.width, Math.round(sheet.height)], [0, 0, 390, 780]);
  const overflow = await phone.evaluate(() => document.querySelector("dialog.lectern-search").scrollWidth - 390);
  assert.ok(overflow <= 0, "nothing sticks out sideways");
  await screenshot(phone, "51-mobile-search");
  await phone.locator(".lectern-search__cancel").tap();
  await phone.waitForSelector("dialog.lectern-search", { state: "hidden" });
  await phone.goto(`${env.site.origin}/search?q=${encodeURIComponent("publisher qos")}`);
  await phone.waitForSelector(".lectern-search-page .lectern-result mark", { timeout: 60000 });
  assert.ok((await phone.evaluate(() => document.documentElement.scrollWidth)) <= 390, "the search page fits the phone");
  await screenshot(phone, "54-mobile-search-page");
});

/** A site's own chat button in the bottom-right corner, above everything but the top layer. */
async function addForeignButton(page) {
  await page.evaluate(() => {
    window.__foreignClicks = 0;
    const b = document.createElement("button");
    b.id = "foreign-bot";
    b.textContent = "Site bot";
    Object.assign(b.style, { position: "fixed", right: "12px", bottom: "12px", width: "120px", height: "64px", zIndex: "2147483000", background: "crimson", color: "white", border: "0", borderRadius: "32px" });
    b.addEventListener("click", () => window.__foreignClicks++);
    document.body.append(b);
  });
}

for (const [label, viewport] of [
  ["desktop", { width: 1280, height: 800 }],
  ["390 px", { width: 390, height: 780 }],
]) {
  test(`${label}: a foreign button at z-index 2147483000 in the corner does not stop Lectern`, async (t) => {
    const narrow = viewport.width < 600;
    const { page } = await newPage(t, env, { viewport, hasTouch: narrow, isMobile: narrow });
    await openDocs(page, env, PAGE);
    await addForeignButton(page);
    // The search box opens above it, and "Ask AI" opens the panel above it.
    await page.click("[data-lectern-search-button]");
    await page.waitForSelector("dialog.lectern-search[open]");
    await searchFor(page, "What is a ROS 2 topic?");
    await page.click("[data-lectern-ask-ai]");
    await page.waitForSelector(".lectern-panel:not([hidden])");
    await waitForAnswer(page, 1);
    // The panel's send button is under the foreign button's corner on a phone: a tap there
    // reaches Lectern, not the site's bot.
    await page.fill(".lectern-panel textarea", "And what is a service?");
    await new Promise((r) => setTimeout(r, 2200)); // the chat's one question per 2 s
    const send = page.locator(".lectern-panel .lectern-send");
    const box = await send.boundingBox();
    const onTop = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest(".lectern-send") !== null, [box.x + box.width / 2, box.y + box.height / 2]);
    assert.ok(onTop, "Lectern's send button is what a tap there hits");
    if (narrow) await send.tap();
    else await send.click();
    await waitForAnswer(page, 2);
    assert.equal(await page.evaluate(() => window.__foreignClicks), 0, "the site's bot was not clicked");
    await screenshot(page, `52-foreign-button-${narrow ? "mobile" : "desktop"}`);
    // Ctrl+I also opens and closes it, whatever covers the launcher.
    await page.locator(".lectern-panel textarea").focus();
    await page.keyboard.press("Escape");
    await page.waitForSelector(".lectern-panel", { state: "hidden" });
    await page.keyboard.press("Control+I");
    await page.waitForSelector(".lectern-panel:not([hidden])");
  });
}
