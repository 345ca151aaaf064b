// The translations the plugin ships (src/locales/<locale>/lectern.json) against the strings
// the theme asks for: every `translate()` / <Translate> id of the plugin's own (`lectern.…`)
// has a translation in each shipped locale, no translation is of an id the theme no longer
// has, and each keeps the English message's placeholders ({count}, {max}, …).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");

const SRC = path.join(__dirname, "..", "src");

/** The plugin's own message ids and English messages, read from the theme's source. */
function themeMessages() {
  const messages = {};
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of walk(path.join(SRC, "theme")).filter((f) => f.endsWith(".js"))) {
    const source = fs.readFileSync(file, "utf8");
    for (const m of source.matchAll(/translate\(\s*\{\s*id:\s*'(lectern\.[^']+)',\s*message:\s*'((?:[^'\\]|\\.)*)'/g)) messages[m[1]] = m[2];
    for (const m of source.matchAll(/<Translate[^>]*id="(lectern\.[^"]+)"[^>]*>([^<]*)</g)) messages[m[1]] = m[2];
  }
  return messages;
}

const placeholders = (message) => (message.match(/\{[A-Za-z]+\}/g) ?? []).sort();

test("every shipped locale translates exactly the theme's own strings, placeholders kept", () => {
  const english = themeMessages();
  assert.ok(Object.keys(english).length > 80, `the theme's ids were found (${Object.keys(english).length})`);
  const locales = fs.readdirSync(path.join(SRC, "locales"));
  assert.ok(locales.includes("zh-Hans"), locales.join(" "));
  for (const locale of locales) {
    const translated = JSON.parse(fs.readFileSync(path.join(SRC, "locales", locale, "lectern.json"), "utf8"));
    assert.deepEqual(Object.keys(english).filter((id) => !(id in translated)), [], `${locale}: missing`);
    assert.deepEqual(Object.keys(translated).filter((id) => !(id in english)), [], `${locale}: no longer in the theme`);
    for (const [id, message] of Object.entries(translated)) {
      assert.ok(message.trim(), `${locale} ${id}: empty`);
      assert.deepEqual(placeholders(message), placeholders(english[id]), `${locale} ${id}: placeholders`);
    }
  }
});
