#!/usr/bin/env node
// chunks-from-html.mjs <build-dir> [--base-url /] > chunks.jsonl
//
// Test fixture generator: derives "perfect" chunks from a built site itself,
// one per doc page (its canonical URL) and one per h2-h6 id inside the page's
// <article>. check-urls.mjs must report 100% on its output; a miss means the
// checker, not a chunker, is wrong.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { articleHeadings, canonicalPath, htmlFiles, isDocPage } from './html.mjs';

const { values: opt, positionals } = parseArgs({
  options: { 'base-url': { type: 'string', default: '/' } },
  allowPositionals: true,
});
if (positionals.length !== 1) {
  console.error('usage: chunks-from-html.mjs <build-dir> [--base-url /]');
  process.exit(2);
}
const buildDir = path.resolve(positionals[0]);
const baseUrl = opt['base-url'].replace(/\/?$/, '/');

// Fallback when a page has no canonical link: the URL its file is served at.
const urlOf = (file) => baseUrl + file.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '');

for (const file of htmlFiles(buildDir).sort()) {
  const html = fs.readFileSync(path.join(buildDir, file), 'utf8');
  if (!isDocPage(html)) continue;
  // Canonical URLs are percent-encoded; ids are used raw and encoded below.
  const url = canonicalPath(html) ?? urlOf(file);
  const headings = articleHeadings(html);
  const title = headings.find((h) => h.level === 1)?.text ?? '';
  const stack = []; // open headings above the current one, for heading_path
  let n = 0;
  console.log(JSON.stringify({ chunk_id: `${file}#${n++}`, url, heading_path: title ? [title] : [] }));
  for (const h of headings) {
    if (h.level < 2) continue;
    while (stack.length && stack.at(-1).level >= h.level) stack.pop();
    stack.push(h);
    if (!h.id) continue;
    console.log(JSON.stringify({
      chunk_id: `${file}#${n++}`,
      url: `${url}#${encodeURIComponent(h.id)}`,
      heading_path: [...(title ? [title] : []), ...stack.map((s) => s.text)],
    }));
  }
}
