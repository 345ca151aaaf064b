#!/usr/bin/env node
// check-urls.mjs --build <build-dir> [--base-url /] --chunks <chunks.jsonl> [--json] [--min-pct 100]
//
// Checks every chunk URL (JSON Lines with chunk_id, url, heading_path)
// against a real Docusaurus build: the page must exist, and the #anchor, if
// any, must be the exact id of an element in that page. Prints a summary and
// every miss with its reason; for a missing anchor, the closest heading ids of
// the page's article. Exit 1 when fewer than --min-pct % resolve, 2 on bad
// usage or input.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { allIds, articleHeadings, htmlFiles, isDocPage, pageCandidates, pageFile } from './html.mjs';

const { values: opt } = parseArgs({
  options: {
    build: { type: 'string' },
    'base-url': { type: 'string', default: '/' },
    chunks: { type: 'string' },
    json: { type: 'boolean', default: false },
    'min-pct': { type: 'string', default: '100' },
  },
});
if (!opt.build || !opt.chunks) {
  console.error('usage: check-urls.mjs --build <build-dir> [--base-url /] --chunks <chunks.jsonl> [--json] [--min-pct 100]');
  process.exit(2);
}
const buildDir = path.resolve(opt.build);
const baseUrl = opt['base-url'].replace(/\/?$/, '/');
const minPct = Number(opt['min-pct']);

function readChunks(file) {
  const chunks = [];
  fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      chunks.push(JSON.parse(line));
    } catch (e) {
      console.error(`${file}:${i + 1}: not JSON: ${e.message}`);
      process.exit(2);
    }
  });
  return chunks;
}

// Levenshtein distance, for "did you mean" suggestions.
function distance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

const closest = (want, ids) => ids
  .map((id) => ({ id, d: distance(want, id) }))
  .sort((x, y) => x.d - y.d)
  .slice(0, 5)
  .map((x) => x.id);

const pages = new Map(); // file -> {ids, headingIds} (parsed once)
function page(file) {
  if (!pages.has(file)) {
    const html = fs.readFileSync(file, 'utf8');
    pages.set(file, {
      ids: allIds(html),
      headingIds: articleHeadings(html).filter((h) => h.level >= 2 && h.id).map((h) => h.id),
    });
  }
  return pages.get(file);
}

// One chunk -> null when it resolves, else {reason, detail?, suggestions?}.
function check(url) {
  if (typeof url !== 'string' || !url) return { reason: 'no url' };
  const u = new URL(url, 'http://site.invalid'); // tolerate absolute URLs: only path and fragment matter
  if (!u.pathname.startsWith(baseUrl)) return { reason: 'outside baseUrl', detail: `path does not start with ${baseUrl}` };
  let rel;
  try {
    rel = decodeURIComponent(u.pathname.slice(baseUrl.length));
  } catch {
    return { reason: 'bad percent-encoding in path' };
  }
  const file = pageFile(buildDir, rel);
  if (!file) return { reason: 'no such page', detail: `none of ${pageCandidates(rel).join(', ')} in the build` };
  if (!u.hash) return null;
  let anchor;
  try {
    anchor = decodeURIComponent(u.hash.slice(1));
  } catch {
    return { reason: 'bad percent-encoding in anchor' };
  }
  const p = page(file);
  if (p.ids.has(anchor)) return null;
  return { reason: 'anchor missing', detail: `#${anchor} not in ${path.relative(buildDir, file)}`, suggestions: closest(anchor, p.headingIds) };
}

const chunks = readChunks(opt.chunks);
const misses = [];
const referenced = new Set();
for (const c of chunks) {
  const miss = check(c.url);
  if (miss) misses.push({ chunk_id: c.chunk_id, url: c.url, heading_path: c.heading_path, ...miss });
  try {
    const f = pageFile(buildDir, decodeURIComponent(new URL(c.url, 'http://site.invalid').pathname.slice(baseUrl.length)));
    if (f) referenced.add(path.relative(buildDir, f));
  } catch { /* already reported */ }
}

// Doc pages in the build that no chunk points to: the chunker missed a doc.
const docPages = htmlFiles(buildDir).filter((f) => isDocPage(fs.readFileSync(path.join(buildDir, f), 'utf8')));
const unreferenced = docPages.filter((f) => !referenced.has(f)).sort();

const resolved = chunks.length - misses.length;
const pct = chunks.length ? (100 * resolved) / chunks.length : 0;
const summary = {
  build: buildDir,
  chunks: chunks.length,
  pages_referenced: referenced.size,
  doc_pages_in_build: docPages.length,
  doc_pages_unreferenced: unreferenced.length,
  resolved,
  pct: Number(pct.toFixed(2)),
  min_pct: minPct,
  ok: pct >= minPct,
};

if (opt.json) {
  console.log(JSON.stringify({ ...summary, misses, unreferenced_doc_pages: unreferenced }, null, 2));
} else {
  console.log(`build:              ${buildDir}`);
  console.log(`doc pages in build: ${docPages.length}`);
  console.log(`pages referenced:   ${referenced.size} (doc pages no chunk points to: ${unreferenced.length})`);
  console.log(`chunks:             ${chunks.length}`);
  console.log(`URLs resolving:     ${resolved}/${chunks.length} = ${pct.toFixed(2)}% (min ${minPct}%)`);
  for (const m of misses) {
    console.log(`MISS ${m.chunk_id} ${m.url}: ${m.reason}${m.detail ? ` (${m.detail})` : ''}`);
    if (m.heading_path) console.log(`     heading_path: ${JSON.stringify(m.heading_path)}`);
    if (m.suggestions) console.log(`     closest heading ids: ${m.suggestions.join(', ') || '(page has no h2-h6 ids)'}`);
  }
  for (const f of unreferenced.slice(0, 20)) console.log(`UNREFERENCED doc page ${f}`);
  if (unreferenced.length > 20) console.log(`UNREFERENCED ... and ${unreferenced.length - 20} more`);
}
process.exit(summary.ok ? 0 : 1);
