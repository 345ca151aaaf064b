// The peer's index: Pagefind (its Node API, the same release as its CLI) over the same
// sections Lectern indexes. Each page of the site becomes the HTML a Docusaurus build would
// give Pagefind — the page title as <h1>, every section under a heading with its anchor as
// id, so Pagefind's sub-results land on sections as Lectern's rows do — from `lectern chunks
// SITE --json` (one JSON line per chunk: url, heading_path, text).
//
//   node index-pagefind.mjs --chunks FILE --out DIR     writes DIR/pagefind/

import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import path from "node:path";
import * as pagefind from "pagefind";

const { values } = parseArgs({ options: { chunks: { type: "string" }, out: { type: "string" } } });
if (!values.chunks || !values.out) {
  console.error("usage: node index-pagefind.mjs --chunks FILE --out DIR");
  process.exit(2);
}

const escape = (s) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
/** @type {Map<string, {title: string, sections: string[]}>} */
const pages = new Map();
const lines = createInterface({ input: createReadStream(values.chunks) });
for await (const line of lines) {
  if (!line.trim()) continue;
  const chunk = JSON.parse(line);
  const [pageUrl, anchor = ""] = chunk.url.split("#");
  let page = pages.get(pageUrl);
  if (!page) {
    page = { title: chunk.heading_path[0] ?? pageUrl, sections: [] };
    pages.set(pageUrl, page);
  }
  const heading = chunk.heading_path.length > 1 ? chunk.heading_path.at(-1) : "";
  const paragraphs = chunk.text.split(/\n{2,}/).map((p) => `<p>${escape(p)}</p>`).join("\n");
  page.sections.push(heading && anchor ? `<h2 id="${escape(anchor)}">${escape(heading)}</h2>\n${paragraphs}` : paragraphs);
}

const { index, errors } = await pagefind.createIndex({});
if (!index) throw new Error(`pagefind: ${errors.join("; ")}`);
let n = 0;
for (const [url, page] of pages) {
  const content = `<!doctype html><html lang="en"><head><title>${escape(page.title)}</title></head><body><main data-pagefind-body><h1>${escape(page.title)}</h1>\n${page.sections.join("\n")}</main></body></html>`;
  const added = await index.addHTMLFile({ url, content });
  if (added.errors.length) throw new Error(`pagefind: ${url}: ${added.errors.join("; ")}`);
  n++;
}
const written = await index.writeFiles({ outputPath: path.join(values.out, "pagefind") });
if (written.errors.length) throw new Error(`pagefind: ${written.errors.join("; ")}`);
await pagefind.close();
console.log(`pagefind: ${n} pages indexed into ${path.join(values.out, "pagefind")}`);
