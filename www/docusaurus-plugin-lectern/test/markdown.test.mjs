// The answer renderer's parser: what answers use renders, and nothing unsafe survives.
import test from "node:test";
import assert from "node:assert/strict";
import { parseMarkdown, parseInline, safeHref } from "../src/theme/LecternPanel/markdown.mjs";

const walk = (nodes, out = []) => {
  for (const n of nodes) {
    out.push(n);
    for (const key of ["children", "header"]) if (Array.isArray(n[key])) walk(n[key].flat(), out);
    if (n.items) n.items.forEach((item) => walk(item, out));
    if (n.rows) n.rows.forEach((row) => row.forEach((cell) => walk(cell, out)));
  }
  return out;
};

test("links keep only http(s), mailto and relative URLs", () => {
  for (const bad of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:x", "java\tscript:x", "java\nscript:x", "&#106;avascript:x", "&#x6A;avascript:x",
    "javascript&colon;x", "data:text/html,<script>x</script>", "vbscript:x", "file:///etc/passwd", "\\\\evil.example/x", "\u0000javascript:x", "blob:https://x/y"]) {
    assert.equal(safeHref(bad), null, bad);
  }
  for (const good of ["https://example.org/a?b#c", "http://x.y", "mailto:a@b.c", "/docs/intro#why", "#top", "../x", "docs/page"]) assert.equal(safeHref(good), good);
});

test("raw HTML stays text; images load nothing; unsafe links are not links", () => {
  const nodes = walk(parseMarkdown('<img src=x onerror="alert(1)"> <script>alert(2)</script>\n\n[x](javascript:alert(3)) ![p](https://t.invalid/p.png) [ok](/docs/a)'));
  const text = nodes.filter((n) => n.type === "text").map((n) => n.value).join("");
  assert.ok(text.includes('<img src=x onerror="alert(1)">') && text.includes("<script>alert(2)</script>"));
  const links = nodes.filter((n) => n.type === "link");
  assert.deepEqual(links.map((l) => l.href), [null, "/docs/a"]);
  assert.ok(!JSON.stringify(nodes).includes("t.invalid"), "the image URL is dropped");
});

test("citations, emphasis, code, lists, tables and fences", () => {
  assert.deepEqual(parseInline("see [1] and [2, 3]").filter((n) => n.type === "cite").map((n) => n.numbers), [[1], [2, 3]]);
  assert.deepEqual(parseInline("[1](https://x.y)")[0].type, "link", "a link is not a citation");
  const [p] = parseMarkdown("**bold** *em* `co*de*` snake_case_name ~~gone~~");
  assert.deepEqual(p.children.map((n) => n.type), ["strong", "text", "em", "text", "code", "text", "del"]);
  const [list] = parseMarkdown("1. one\n2. two\n   - nested\n3. three");
  assert.equal(list.ordered, true);
  assert.equal(list.items.length, 3);
  assert.equal(list.items[1][1].type, "list");
  const [table] = parseMarkdown("| a | b |\n|:--|--:|\n| 1 | 2 |");
  assert.deepEqual(table.align, ["left", "right"]);
  const [code, after] = parseMarkdown("```py\nprint('<b>')\n```\ntext");
  assert.deepEqual([code.type, code.lang, code.text, after.type], ["code", "py", "print('<b>')", "paragraph"]);
  const [open] = parseMarkdown("```js\nconst x = 1;");
  assert.equal(open.closed, false, "a fence still streaming renders as code");
});
