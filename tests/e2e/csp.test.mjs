// The widget under a strict Content-Security-Policy (README, "Content-Security-Policy"):
// no 'unsafe-inline' or 'unsafe-eval' for scripts; what Lectern adds is 'wasm-unsafe-eval'
// (compiling its wasm modules), worker-src 'self' (its Web Worker) and connect-src for the
// chat endpoint (here the site's own /api/llm proxy, so 'self'). Docusaurus's own inline
// scripts are allowed by their hashes, as a site with a strict policy does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { QUESTION, SITE, ask, newPage, screenshot, useEnvironment, waitForIndex } from "./harness.mjs";

const env = useEnvironment();
const PAGE = "/docs/intro/";

/** The policy for PAGE: hashes of the page's inline scripts, then Lectern's needs. */
function policy({ wasm = true } = {}) {
  const html = readFileSync(path.join(SITE, "docs/intro/index.html"), "utf8");
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .filter((m) => m[1].trim())
    .map((m) => `'sha256-${createHash("sha256").update(m[1]).digest("base64")}'`);
  return [
    "default-src 'self'",
    `script-src 'self' ${wasm ? "'wasm-unsafe-eval' " : ""}${hashes.join(" ")}`,
    "worker-src 'self'",
    "connect-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Records CSP violations (the event, not only the console) from the page and its worker. */
async function recordViolations(page) {
  const seen = [];
  await page.exposeFunction("__lecternCsp", (v) => seen.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__lecternCsp(`${e.effectiveDirective} blocked ${e.blockedURI || "(inline)"} in ${e.sourceFile || "?"}`),
    );
  });
  page.on("console", (m) => /Content.Security.Policy/i.test(m.text()) && seen.push(`console: ${m.text()}`));
  return seen;
}

test("under a strict CSP the widget loads its worker and wasm, searches semantically and streams a cited answer", async (t) => {
  const { page } = await newPage(t, env);
  env.site.setHeaders({ "content-security-policy": policy() });
  const violations = await recordViolations(page);
  await page.goto(env.site.origin + PAGE);
  await page.waitForSelector("[data-lectern-hydrated]", { state: "attached" });
  await page.click(".lectern-launcher");
  await page.waitForSelector(".lectern-panel textarea");
  await waitForIndex(page);
  // The model (wasm + compact model file) is ready when the panel's status lines are gone.
  await page.waitForFunction(() => !document.querySelector(".lectern-panel [data-lectern-status]"), null, { timeout: 120000 });
  const model = env.site.requests().find((r) => /\/model\.[0-9a-f]{12}\.lcm$/.test(r.path));
  assert.equal(model?.status, 200, "the worker fetched the model (semantic search is on)");
  await ask(page, QUESTION);
  const answer = page.locator(".lectern-message--assistant").last();
  assert.equal(await answer.locator("[role=alert]").count(), 0, "no error in the answer");
  assert.ok((await answer.locator(".lectern-sources li a").count()) >= 1, "the answer lists its sources");
  assert.ok((await answer.locator(".lectern-markdown a.lectern-cite").count()) >= 1, "and cites them");
  await screenshot(page, "csp-strict-answer");
  assert.deepEqual(violations, [], "no Content-Security-Policy violation");
});

test("without 'wasm-unsafe-eval' the policy blocks the wasm, and the reader is told, not left waiting", async (t) => {
  const { page } = await newPage(t, env);
  env.site.setHeaders({ "content-security-policy": policy({ wasm: false }) });
  await page.goto(env.site.origin + PAGE);
  await page.waitForSelector("[data-lectern-hydrated]", { state: "attached" });
  await page.click(".lectern-launcher");
  await page.waitForSelector(".lectern-panel textarea");
  // The index cannot be searched without wasm: the panel says why instead of spinning.
  // (The violation happens in the worker, so the page's securitypolicyviolation event
  // does not see it; the worker's error reaches the panel.)
  const alert = page.locator(".lectern-panel [role=alert]").first();
  await alert.waitFor({ timeout: 60000 });
  const text = (await alert.innerText()).replace(/\s+/g, " ");
  t.diagnostic(`panel: ${text}`);
  assert.match(text, /search could not be started.*maintainers/, "the reader is told in plain words, with what helps");
  assert.doesNotMatch(text, /Content Security|wasm|https?:/, "nothing technical for the reader");
  // The site owner finds the cause behind "Details".
  await alert.locator("details summary").click();
  const details = (await alert.locator("details").innerText()).replace(/\s+/g, " ");
  t.diagnostic(`details: ${details}`);
  assert.match(details, /Content Security (P|p)olicy/, "the site owner is told the policy stopped it");
});
