// The answer renderer's parser: what answers use renders, and nothing unsafe survives.
import test from "node:test";
import assert from "node:assert/strict";
import { parseMarkdown, parseInline, safeHref } from "../src/theme/LecternPanel/markdown.mjs";
import { HOSTILE_LINES } from "../../../tests/fixtures/hostile-answer.mjs";

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

// ---- hostile output (ported from branch md-micromark's tests, in this parser's node shape) ----

const SITE = "https://site.example/docs/";
const nodesOf = (markdown) => walk(parseMarkdown(markdown));
const textOf = (nodes) => walk(nodes).filter((n) => n.type === "text").map((n) => n.value).join("");
const texts = (markdown) => textOf(parseMarkdown(markdown));
const hrefs = (markdown) => nodesOf(markdown).filter((n) => n.type === "link").map((n) => n.href);
const cites = (markdown) => nodesOf(markdown).filter((n) => n.type === "cite").map((n) => n.numbers);

// What Markdown.js renders; anything else would be a way for an answer to make markup.
const TYPES = new Set(["paragraph", "heading", "code", "list", "blockquote", "table", "hr", "text", "strong", "em", "del", "br", "link", "cite"]);

/** Where a browser would take an href (relative to a page of the site), or null. */
const target = (href) => new URL(href, SITE);

/** The renderer's invariants: known node types, safe link targets, no link or citation inside a link. */
function assertSafe(blocks, label) {
  for (const n of walk(blocks)) {
    assert.ok(TYPES.has(n.type), `${label}: unexpected ${n.type} node`);
    if (n.type !== "link") continue;
    if (n.href !== null) {
      assert.ok(["http:", "https:", "mailto:"].includes(target(n.href).protocol), `${label}: unsafe href ${n.href}`);
      if (!/^([a-z]+:|\/\/)/i.test(n.href)) assert.equal(target(n.href).origin, new URL(SITE).origin, `${label}: relative href ${n.href} leaves the site`);
    }
    assert.ok(walk(n.children).every((c) => c.type !== "link" && c.type !== "cite"), `${label}: a link inside a link`);
  }
}

// The Chromium e2e test's hostile answer (tests/fixtures/hostile-answer.mjs), and more.
const HOSTILE = [
  ...HOSTILE_LINES,
  "",
  "<script>window.__pwned=12</script>",
  "",
  "<div onclick=\"window.__pwned=13\">\n*block* html\n</div>",
  "",
  "[hex](&#x6A;avascript:x) [named](javascript&colon;x) [nl](java&#10;script:x) [nul](&#0;javascript:x) [vb](VBScript:x) [file](file:///etc/passwd)",
  "",
  "<javascript:alert(14)> <https://example.org/auto> <reader@example.org> [ref][r] [ref2][ok] ![ref img][ok]",
  "",
  "[r]: javascript:alert(15)",
  '[ok]: https://example.org/ref "title"',
  "",
  "| a | <b>b</b> |\n|---|:-:|\n| [x](javascript:alert(16)) | ![i](https://attacker.invalid/t.png) |",
].join("\n");

test("safeHref drops javascript:, vbscript:, data: and file: however they are encoded", () => {
  const bad = ["javascript:", "JAVASCRIPT:alert(1)", "\u200bjavascript:x", "\ufeffjavascript:x", "\u00adjavascript:x", "java\u0000script:x", "&#0;javascript:x",
    // character references: decimal, hex (any case, leading zeros), named
    "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;x", "&#x6a;avascript:x", "&#X6A;avascript:x", "&#x0006A;avascript:x", "javascript&#58;x", "javascript&#x3A;x",
    "javascript&COLON;x", "&Tab;javascript:x", "java&NewLine;script:x", "java&tab;script:x", "java&#9;script:x", "java&#x0d;script:x",
    // percent-encoding cannot make a scheme, so a would-be scheme with it is refused
    "JaVa%09ScRiPt:x", "%6Aavascript:x", "java%0ascript:x", "vbscript:msgbox(1)", "VBScript:x", "vBsCrIpT&#58;x", "data:,x", "DATA:text/html;base64,PHNjcmlwdD4=",
    "file:///etc/passwd", "FILE://c:/x", "fi\tle:///x", "&#102;ile:///x", "blob:https://x/y", "filesystem:https://x/y", "ms-settings:x", "intent://x#Intent;end",
    "\\\\evil.example/x", "/\\evil.example/x", "\\/evil.example/x", "/&#92;evil.example/x", "", "   ", null, undefined, 42];
  for (const url of bad) assert.equal(safeHref(url), null, JSON.stringify(url));
  for (const good of ["/a?next=javascript:x", "#javascript:x", "./javascript:x", "https://example.org/?u=javascript:alert(1)", "HTTPS://EXAMPLE.ORG/", "MailTo:a@b.c"]) {
    assert.equal(safeHref(good), good);
  }
  // Whatever else comes through goes where a browser would take it: http(s), mailto, or this site.
  for (const url of ["javascript%3ax", "&#106avascript:x", "javascript&#x0000003a;x", "&amp;#106;avascript:x", "/a\\b", "//example.org/x", "./\\evil"]) {
    const href = safeHref(url);
    if (href !== null) assertSafe([{ type: "paragraph", children: [{ type: "link", href, children: [] }] }], JSON.stringify(url));
  }
});

test("hostile answer: raw HTML stays text, images load nothing, unsafe links are not links", () => {
  const blocks = parseMarkdown(HOSTILE);
  assertSafe(blocks, "hostile");
  const text = texts(HOSTILE);
  for (const literal of ['<img src=x onerror="window.__pwned=1">', "<script>window.__pwned=2</script>", '<a href="javascript:window.__pwned=8">', "<iframe", "<svg onload",
    "<style>body{display:none}</style>", "<script>window.__pwned=12</script>", '<div onclick="window.__pwned=13">', "<b>b</b>"]) {
    assert.ok(text.includes(literal), `shown as text: ${literal}`);
  }
  const json = JSON.stringify(blocks);
  for (const gone of ["attacker.invalid", "alert(16)", "__pwned=3", "__pwned=4", "__pwned=5", "__pwned=6", "__pwned=7"]) assert.ok(!json.includes(gone), `dropped: ${gone}`);
  // The labels stay, as text of a link without a target.
  const removed = nodesOf(HOSTILE).filter((n) => n.type === "link" && n.href === null).map((n) => textOf(n.children));
  assert.deepEqual(removed, ["click me", "data", "mixed", "tab", "entity", "hex", "named", "nl", "nul", "vb", "file", "x"]);
  assert.deepEqual(hrefs(HOSTILE).filter(Boolean), ["https://example.org/", "/docs/ros2-fundamentals/nodes-topics/", "https://example.org/auto", "https://example.org/ref"]);
  // Images show their alt text; code shows its source.
  assert.ok(text.includes("pixel") && text.includes("i"));
  assert.equal(blocks.find((b) => b.type === "code").text, "<script>window.__pwned=11</script>");
  // Entities are decoded to text, never to markup.
  assert.equal(texts("&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; &#0; &bogus;"), "<script>alert(1)</script> &amp; \ufffd &bogus;");
});

test("autolinks and bare URLs: only http(s) and mailto become links", () => {
  assert.deepEqual(hrefs("<https://example.org/a> <HTTP://X.Y> <mailto:a@b.c> see https://example.org/b. and www.example.org"),
    ["https://example.org/a", "HTTP://X.Y", "mailto:a@b.c", "https://example.org/b", "https://www.example.org"]);
  for (const md of ["<javascript:alert(1)>", "<JavaScript:alert(1)>", "<data:text/html,x>", "<vbscript:x>", "<file:///etc/passwd>", "javascript:alert(1)", "<reader@example.org>"]) {
    assert.deepEqual(hrefs(md), [], md);
    assert.equal(texts(md), md, `${md} shows as written`);
  }
  assertSafe(parseMarkdown("<https://x.y/&#x22;onmouseover=alert(1)> https://x.y/\u0000javascript:x"), "autolink");
});

test("reference-style links and footnotes show as written: a definition never becomes an href", () => {
  const md = "[ref][r] [ref2][ok] [collapsed][] [shortcut]\n\n[r]: javascript:alert(15)\n[ok]: <javascript:alert(16)>\n[collapsed]: &#106;avascript:x\n[shortcut]: data:text/html,x";
  assertSafe(parseMarkdown(md), "references");
  assert.deepEqual(hrefs(md), []);
  assert.ok(texts(md).startsWith("[ref][r] [ref2][ok] [collapsed][] [shortcut]") && texts(md).includes("[r]: javascript:alert(15)"));
  const notes = "A claim.[^1]\n\n[^1]: The note, with [a link](javascript:alert(1)).";
  assertSafe(parseMarkdown(notes), "footnotes");
  assert.ok(texts(notes).includes("[^1]") && texts(notes).includes("The note"));
  assert.deepEqual(hrefs(notes), [null]);
  const short = "Both.[^a][^2]\n\n[^a]: https://example.org/source\n[^2]: note";
  assertSafe(parseMarkdown(short), "footnotes");
  assert.equal(texts(short), "Both.[^a][^2][^a]: https://example.org/source[^2]: note");
});

test("every prefix of a streamed hostile answer parses and stays safe", () => {
  const answer = `${HOSTILE}\n\n> quoted [2, 3] and [a [1] link](/docs/a)\n\n1. one\n   - **nested *deep* ~~x~~**\n     \`\`\`js\n     open(\n2. [x](javascript:y) \`code`;
  for (let i = 0; i <= answer.length; i++) assertSafe(parseMarkdown(answer.slice(0, i)), `prefix ${i}`);
  // An unclosed fence mid-stream is code to the end, with its language.
  const [, code] = parseMarkdown("Try:\n\n```js\nconst x = 1;\n**not bold**");
  assert.deepEqual([code.type, code.lang, code.text, code.closed], ["code", "js", "const x = 1;\n**not bold**", false]);
  // Unclosed emphasis and a half-streamed link stay text (the partial URL may link, safely).
  const [half] = parseMarkdown("**unclosed bold and [a link](https://exa");
  assert.ok(half.children.every((n) => n.type === "text" || n.type === "link"));
  assert.ok(textOf(half.children).startsWith("**unclosed bold and [a link]("));
  assert.deepEqual(parseMarkdown("[x](javascript:alert(1").flatMap((b) => b.children).map((n) => n.type), ["text"]);
});

test("citations: [1] and [2, 3] anywhere but in links and code; an answer's [1]: url lines cannot redirect them", () => {
  assert.deepEqual(cites("see [1] and [2, 3], **[4]**, | [5]"), [[1], [2, 3], [4], [5]]);
  assert.deepEqual(cites("| a |\n|---|\n| [6] |"), [[6]]);
  assert.deepEqual(cites("[1](https://x.y) `[2]` [see [3]](/docs/a)"), []);
  assert.equal(texts("[see [3] and [x](/y)](/docs/a)"), "see [3] and x", "a citation or link inside a link is its text");
  assert.deepEqual(hrefs("[see [3] and [x](/y)](/docs/a)"), ["/docs/a"]);
  assert.deepEqual(hrefs("[1](https://x.y)"), ["https://x.y"], "a link is not a citation");
  // A citation carries only its numbers (Markdown.js links it to the cited section): lines
  // that "define" [1] are shown as written and cannot point it elsewhere.
  const defined = "As [1] and [2] say.\n\n[1]: https://evil.example/\n[2]: javascript:alert(1)";
  assertSafe(parseMarkdown(defined), "defined");
  for (const cite of nodesOf(defined).filter((n) => n.type === "cite")) assert.deepEqual(Object.keys(cite).sort(), ["numbers", "raw", "type"]);
  assert.deepEqual(cites(defined).slice(0, 2), [[1], [2]]);
  assert.ok(!hrefs(defined).some((h) => /javascript/i.test(h ?? "")));
});

test("emphasis, headings, nested lists and tables in the answer's shape", () => {
  const [p] = parseMarkdown("**bold** *em* `co*de*` snake_case_name ~~gone~~ ~approx~");
  assert.deepEqual(p.children.map((n) => n.type), ["strong", "text", "em", "text", "code", "text", "del", "text"]);
  assert.ok(p.children.at(-1).value.includes("~approx~"), "a single tilde stays text");
  assert.deepEqual(parseMarkdown("## Title *x*").map((b) => [b.type, b.level]), [["heading", 2]]);
  const [list] = parseMarkdown("1. one\n2. two\n   - nested\n   - more\n3. three");
  assert.deepEqual([list.ordered, list.start, list.items.length], [true, 1, 3]);
  assert.deepEqual(list.items[1].map((n) => n.type), ["paragraph", "list"]);
  assert.equal(list.items[1][1].ordered, false);
  assert.equal(parseMarkdown("3. a\n\n4. b")[0].start, 3);
  const [table] = parseMarkdown("| a | b | c |\n|:--|--:|:-:|\n| 1 | `2` | **3** |\n| x \\| y |");
  assert.deepEqual(table.align, ["left", "right", "center"]);
  assert.equal(table.rows.length, 2);
  assert.deepEqual(table.rows[0].map((cell) => cell[0].type), ["text", "code", "strong"]);
  assert.equal(textOf(table.rows[1][0]), "x | y");
});
