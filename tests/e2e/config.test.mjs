// A chat configuration the core refuses can only reach the browser by hand-editing a built
// site (docusaurus build refuses it: tests/config/parity.test.mjs, tests/new-user/run.sh).
// If it does, the reader gets a clear error, no retry that cannot help, and no answer left
// "Thinking…". The runtime's chat.js is rewritten on the wire to pass slowAfterMs: 0.
import { test } from "node:test";
import assert from "node:assert/strict";
import { QUESTION, newPage, openDocs, screenshot, useEnvironment } from "./harness.mjs";

const env = useEnvironment();

test("a refused chat configuration: the panel says so, offers no retry, and no answer hangs", async (t) => {
  const { page } = await newPage(t, env);
  await page.route("**/lectern/runtime/chat.js", async (route) => {
    const response = await route.fetch();
    // pkg/ is minified (scripts/build-pkg.sh): the parameter's name is whatever esbuild chose.
    const body = (await response.text()).replace(/static async create\((\w+)\)\s*\{/, (head, name) => `${head}${name}={...${name},slowAfterMs:0};`);
    assert.ok(body.includes("slowAfterMs:0"), "the runtime's chat.js was rewritten");
    await route.fulfill({ response, body });
  });
  await openDocs(page, env);
  await page.click(".lectern-launcher");
  await page.waitForSelector(".lectern-panel textarea");
  const alert = page.locator('.lectern-panel [role=alert][data-lectern-error="INVALID_CONFIG"]');
  await alert.waitFor({ timeout: 60000 });
  const text = (await alert.innerText()).replace(/\s+/g, " ");
  t.diagnostic(`panel: ${text}`);
  assert.match(text, /misconfigured.*maintainers/, "the reader is told, in plain words");
  assert.doesNotMatch(text, /slowAfterMs/, "the option's name is for the site owner");
  assert.equal(await alert.getByRole("button", { name: "Try again" }).count(), 0, "no retry: it cannot help");
  await alert.locator("details summary").click();
  assert.match(await alert.locator("details").innerText(), /"slowAfterMs" must be an integer from 1 to 600000; got 0/, "the site owner finds why behind Details");
  await page.fill(".lectern-panel textarea", QUESTION);
  await page.press(".lectern-panel textarea", "Enter");
  await page.waitForTimeout(1000);
  assert.equal(await page.locator('.lectern-message--assistant[aria-busy="true"]').count(), 0, "no answer is left streaming");
  await screenshot(page, "13-config-refused");
});
