// One rule in one place, proved: every configuration of cases.json goes through the site
// build's check (docusaurus-plugin-lectern at startup: its own options, then the core's
// validateConfig run in Node) and through the browser's (LecternChat.create in Chromium,
// the same core in the page's wasm module). Both must accept it, or both refuse it with the
// same code and message. Needs pkg/ built (scripts/build-pkg.sh).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { startSiteServer } from "../e2e/server.mjs";
import { chromiumLaunchOptions } from "../../scripts/lib/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, "..", "..");
const require = createRequire(import.meta.url);
const { chromium } = createRequire(path.join(here, "../e2e/package.json"))("playwright-core");
const { normalizeOptions, applyCoreRules } = require("../../www/docusaurus-plugin-lectern/src/options.js");
const { loadRules } = require("../../www/docusaurus-plugin-lectern/src/rules.js");
const { cases } = JSON.parse(readFileSync(path.join(here, "cases.json"), "utf8"));
const pkg = path.join(root, "pkg");

let rules, site, browser, page;
before(async () => {
  rules = await loadRules(pkg);
  site = await startSiteServer({ root: pkg });
  browser = await chromium.launch(chromiumLaunchOptions());
  page = await browser.newPage();
  await page.goto(`${site.origin}/package.json`);
});
after(async () => {
  await browser?.close();
  await site?.close();
});

/** The site build's verdict: { ok } or { code, message }. */
function atBuild(config) {
  try {
    applyCoreRules(normalizeOptions(config), rules);
    return { ok: true };
  } catch (e) {
    const m = /^\[docusaurus-plugin-lectern\] (.*) \(([A-Z_]+)\)$/s.exec(e.message);
    return m ? { code: m[2], message: m[1] } : { code: "PLUGIN", message: e.message };
  }
}

/** The browser's verdict, from what the widget calls. */
function inBrowser(config) {
  return page.evaluate(async (config) => {
    const { LecternChat } = await import("/chat.js");
    const lectern = { search: async () => ({ chunks: [] }), searchSelection: async () => ({ chunks: [] }) };
    try {
      await LecternChat.create({ lectern, ...config });
      return { ok: true };
    } catch (e) {
      return { code: e.code, message: e.technical ?? e.message };
    }
  }, config);
}

test(`${cases.length} configurations: the site build and the browser agree`, async (t) => {
  assert.ok(cases.length >= 30);
  for (const c of cases) {
    const build = atBuild(c.config);
    const browserVerdict = await inBrowser(c.config);
    assert.deepEqual(build, browserVerdict, `${c.name}: build ${JSON.stringify(build)} vs browser ${JSON.stringify(browserVerdict)}`);
    if (c.ok) assert.equal(build.ok, true, `${c.name}: accepted`);
    else {
      assert.equal(build.code, "INVALID_CONFIG", `${c.name}: refused with INVALID_CONFIG`);
      assert.match(build.message, new RegExp(c.message), c.name);
    }
  }
  t.diagnostic(`${cases.filter((c) => c.ok).length} accepted, ${cases.filter((c) => !c.ok).length} refused, identically`);
});
