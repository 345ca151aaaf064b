// Self-test of the URL checker: node --test tests/docusaurus/selftest.test.mjs
//
// Always: a small hand-written "build" exercises chunks-from-html.mjs and
// check-urls.mjs (100% on derived chunks; the right reason for each broken
// URL). When www/example has Docusaurus installed (and LECTERN_SKIP_BUILD is
// unset), fixture-site/ is really built (~15 s) and its headings must come
// out as in fixture-site/expected-chunks.jsonl. With
// LECTERN_SELFTEST_BUILD=<a real docusaurus build dir>, the round trip runs on
// that build too.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const tmpDirs = [];
const tmpdir = (prefix) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(d);
  return d;
};
after(() => tmpDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function run(script, args) {
  const r = spawnSync(process.execPath, [path.join(HERE, script), ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function check(build, chunks, extra = []) {
  const file = path.join(tmpdir('lectern-chunks-'), 'chunks.jsonl');
  fs.writeFileSync(file, chunks.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const r = run('check-urls.mjs', ['--build', build, '--chunks', file, '--json', ...extra]);
  return { code: r.code, report: JSON.parse(r.out) };
}

const page = (canonical, body) => `<!doctype html><html><head>
<link data-rh="true" rel="canonical" href="https://example.org${canonical}">
<script>window.x = '<h2 id="in-script">';</script></head>
<body><div id="__docusaurus"><!-- <h2 id="in-comment"> -->
<article><div class="theme-doc-markdown markdown"><header><h1>Title</h1></header>${body}</div></article>
<nav><a href="#toc-only" id="toc-only">toc</a></nav></div></body></html>`;

function fakeBuild() {
  const dir = tmpdir('lectern-fake-build-');
  const write = (rel, html) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), html);
  };
  write('docs/a/index.html', page('/docs/a', `
    <h2 class="anchor" id="setup">Setup<a class="hash-link" href="#setup">&#8203;</a></h2>
    <h3 class="anchor" id="a--b-x">A &amp; B <code>x</code></h3>
    <h2 id="caf\u00e9">Caf\u00e9</h2><h2 id="-rocket">\u{1F680} Rocket</h2>
    <h3 id='single-quoted'>Single</h3><h2 id="setup-1">Setup</h2>`));
  write('docs/b.html', page('/docs/b', '<h2 id="only">Only</h2>')); // trailingSlash: false layout
  write('docs/c/index.html', page('/docs/c/', '<p>no headings</p>')); // category index: URL ends in /
  write('index.html', '<html><body><p>not a doc page</p></body></html>');
  return dir;
}

test('chunks derived from a build resolve 100%', () => {
  const build = fakeBuild();
  const derived = run('chunks-from-html.mjs', [build]);
  assert.equal(derived.code, 0, derived.err);
  const chunks = derived.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(chunks.map((c) => c.url), [
    '/docs/a', '/docs/a#setup', '/docs/a#a--b-x', '/docs/a#caf%C3%A9', '/docs/a#-rocket',
    '/docs/a#single-quoted', '/docs/a#setup-1', '/docs/b', '/docs/b#only', '/docs/c/',
  ]);
  assert.deepEqual(chunks[2].heading_path, ['Title', 'Setup', 'A & B x']);
  const { code, report } = check(build, chunks);
  assert.equal(code, 0);
  assert.equal(report.pct, 100);
  assert.equal(report.doc_pages_in_build, 3);
  assert.equal(report.doc_pages_unreferenced, 0);
});

test('broken URLs are reported with the right reason', () => {
  const build = fakeBuild();
  const chunks = [
    { chunk_id: 'ok-raw-unicode', url: '/docs/a#café' },
    { chunk_id: 'ok-trailing-slash', url: '/docs/a/#setup' },
    { chunk_id: 'ok-absolute', url: 'https://example.org/docs/b#only' },
    { chunk_id: 'ok-non-heading-id', url: '/docs/a#toc-only' },
    { chunk_id: 'wrong-anchor', url: '/docs/a#setupp' },
    { chunk_id: 'emoji-dash-dropped', url: '/docs/a#rocket' },
    { chunk_id: 'id-only-in-script', url: '/docs/a#in-script' },
    { chunk_id: 'id-only-in-comment', url: '/docs/a#in-comment' },
    { chunk_id: 'wrong-page', url: '/docs/nope#setup' },
    { chunk_id: 'slash-on-html-page', url: '/docs/b/' },
  ];
  const { code, report } = check(build, chunks, ['--min-pct', '50']);
  assert.equal(code, 1); // 4/10 < 50%
  assert.equal(report.resolved, 4);
  const reasons = Object.fromEntries(report.misses.map((m) => [m.chunk_id, m.reason]));
  assert.deepEqual(reasons, {
    'wrong-anchor': 'anchor missing',
    'emoji-dash-dropped': 'anchor missing',
    'id-only-in-script': 'anchor missing',
    'id-only-in-comment': 'anchor missing',
    'wrong-page': 'no such page',
    'slash-on-html-page': 'no such page',
  });
  const miss = report.misses.find((m) => m.chunk_id === 'wrong-anchor');
  assert.equal(miss.suggestions[0], 'setup');
  assert.equal(report.misses.find((m) => m.chunk_id === 'emoji-dash-dropped').suggestions[0], '-rocket');
  assert.equal(check(build, chunks, ['--min-pct', '40']).code, 0);
});

test('baseUrl is stripped, and URLs outside it are misses', () => {
  const build = fakeBuild();
  const { report } = check(build, [
    { chunk_id: 'in', url: '/site/docs/a#setup' },
    { chunk_id: 'out', url: '/docs/a#setup' },
  ], ['--base-url', '/site/', '--min-pct', '0']);
  assert.deepEqual(report.misses.map((m) => [m.chunk_id, m.reason]), [['out', 'outside baseUrl']]);
});

const docusaurus = path.join(HERE, '../../www/example/node_modules/.bin/docusaurus');
test('fixture-site builds to the expected URLs and anchors', {
  skip: process.env.LECTERN_SKIP_BUILD || !fs.existsSync(docusaurus) ? 'no Docusaurus install or LECTERN_SKIP_BUILD set' : false,
  timeout: 300_000,
}, () => {
  const build = path.join(tmpdir('lectern-fixture-'), 'build');
  const built = run('build-site.mjs', [path.join(HERE, 'fixture-site'), build]);
  assert.equal(built.code, 0, built.out + built.err);
  const derived = run('chunks-from-html.mjs', [build, '--base-url', '/lectern/']);
  const expected = fs.readFileSync(path.join(HERE, 'fixture-site/expected-chunks.jsonl'), 'utf8');
  assert.deepEqual(derived.out.trim().split('\n').map(JSON.parse), expected.trim().split('\n').map(JSON.parse));
  const r = run('check-urls.mjs', ['--build', build, '--base-url', '/lectern/', '--chunks', path.join(HERE, 'fixture-site/expected-chunks.jsonl')]);
  assert.equal(r.code, 0, r.out);
});

test('a real build round-trips (LECTERN_SELFTEST_BUILD)', { skip: !process.env.LECTERN_SELFTEST_BUILD }, () => {
  const build = process.env.LECTERN_SELFTEST_BUILD;
  const derived = run('chunks-from-html.mjs', [build]);
  assert.equal(derived.code, 0, derived.err);
  const chunks = derived.out.trim().split('\n').map((l) => JSON.parse(l));
  const { report } = check(build, chunks);
  assert.equal(report.pct, 100, JSON.stringify(report.misses.slice(0, 5)));
  assert.equal(report.doc_pages_unreferenced, 0);
  // Break one anchor and one page: exactly those two must be reported.
  const anchored = chunks.findIndex((c) => c.url.includes('#'));
  chunks[anchored] = { ...chunks[anchored], url: `${chunks[anchored].url}-broken` };
  chunks[0] = { ...chunks[0], url: `${chunks[0].url.replace(/\/$/, '')}-no-such-page` };
  const broken = check(build, chunks).report;
  assert.deepEqual(broken.misses.map((m) => m.reason).sort(), ['anchor missing', 'no such page']);
});
