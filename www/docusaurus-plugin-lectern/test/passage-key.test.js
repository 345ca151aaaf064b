// The widget checks for a followed citation's passage with the key written out (importing it
// from the panel's passage.js would put that module into every page's bundle): both must
// name the same localStorage entry.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");

const theme = path.join(__dirname, "..", "src", "theme");

test("the widget checks the key the panel leaves a citation's passage under", () => {
  const panel = fs.readFileSync(path.join(theme, "LecternPanel", "passage.js"), "utf8");
  const widget = fs.readFileSync(path.join(theme, "LecternWidget", "index.js"), "utf8");
  const key = /export const PASSAGE_KEY = '([^']+)';/.exec(panel)?.[1];
  assert.ok(key, "passage.js exports PASSAGE_KEY");
  assert.ok(widget.includes(`window.localStorage.getItem('${key}')`), `the widget checks '${key}'`);
});
