#!/usr/bin/env node
// check-llms.mjs --build <build-dir> --llms <llms-dir> [--base-url /] [--sidebars <file>] [--json]
//
// Checks the files `lectern build --llms-out <llms-dir>` wrote against a real Docusaurus
// build of the same site: llms.txt has the shape https://llmstxt.org describes (one H1
// first, one blockquote right after it, notes without headings, then H2 sections of
// `- [title](url): note` lines only); every link of llms.txt and every `Source:` of
// llms-full.txt lands: a Markdown twin's URL on a twin that was written and whose page is in
// the build, a page's URL on a built page. Every twin written is beside a built page. With
// --sidebars (the file docusaurus-plugin-lectern gave `lectern build`: the sidebars Docusaurus
// loaded), llms.txt's sections are the sidebar's top categories, in its order, for the docs
// instance `default`'s version `current`.
// Prints the files' sizes. Exit 1 on any miss, 2 on bad usage.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pageCandidates, pageFile } from './html.mjs';

const { values: opt } = parseArgs({
  options: {
    build: { type: 'string' },
    llms: { type: 'string' },
    'base-url': { type: 'string', default: '/' },
    sidebars: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
if (!opt.build || !opt.llms) {
  console.error('usage: check-llms.mjs --build <build-dir> --llms <llms-dir> [--base-url /] [--sidebars <file>] [--json]');
  process.exit(2);
}
const buildDir = path.resolve(opt.build);
const llmsDir = path.resolve(opt.llms);
const baseUrl = opt['base-url'].replace(/\/?$/, '/');
// The twin suffixes of the llmstxt.org proposal (index-build/src/llms/twin.rs).
const FOLDER_TWIN = 'index.html.md';
const FILE_TWIN = '.md';

const problems = [];
const read = (name) => (fs.existsSync(path.join(llmsDir, name)) ? fs.readFileSync(path.join(llmsDir, name), 'utf8') : null);

/** Problems with llms.txt's shape. */
function checkFormat(text) {
  const out = [];
  const lines = text.split('\n');
  if (lines.at(-1) !== '' || lines.at(-2) === '') out.push('does not end with exactly one newline');
  lines.pop();
  const link = /^- \[(?:[^\]\\]|\\.)+\]\([^\s()]+\)(?:: \S.*)?$/;
  if (!/^# \S/.test(lines[0] ?? '')) out.push(`line 1 is not an H1: ${lines[0]}`);
  if (lines[1] !== '' || !/^> \S/.test(lines[2] ?? '')) out.push('the blockquote summary does not follow the H1');
  if (lines.filter((l) => l.startsWith('>')).length !== 1) out.push('not exactly one blockquote');
  if (lines.filter((l) => l.startsWith('# ')).length !== 1) out.push('not exactly one H1');
  const firstH2 = lines.findIndex((l) => l.startsWith('## '));
  if (firstH2 < 0) out.push('no H2 section');
  else {
    lines.slice(3, firstH2).forEach((l, i) => l.startsWith('#') && out.push(`line ${i + 4}: a heading before the sections: ${l}`));
    lines.slice(firstH2).forEach((l, i) => {
      if (l !== '' && !l.startsWith('## ') && !link.test(l)) out.push(`line ${firstH2 + i + 1}: not a link line: ${l}`);
    });
    lines.slice(firstH2).forEach((l, i, all) => l.startsWith('## ') && !all[i + 2]?.startsWith('- ') && out.push(`line ${firstH2 + i + 1}: an empty section`));
  }
  if (text.includes('\n\n\n')) out.push('two blank lines in a row');
  return out;
}

/** Where `url` lands, or why it does not. */
function lands(url) {
  const u = new URL(url, 'http://site.invalid');
  if (!u.pathname.startsWith(baseUrl)) return `outside baseUrl ${baseUrl}`;
  const rel = decodeURIComponent(u.pathname.slice(baseUrl.length));
  const twin = rel.endsWith(FOLDER_TWIN) ? FOLDER_TWIN : rel.endsWith(FILE_TWIN) ? FILE_TWIN : null;
  if (twin) {
    if (!fs.existsSync(path.join(llmsDir, rel))) return `no twin ${rel} in ${llmsDir}`;
    const page = rel.slice(0, -twin.length);
    if (!pageFile(buildDir, page)) return `twin of no built page: none of ${pageCandidates(page).join(', ')}`;
    return null;
  }
  return pageFile(buildDir, rel) ? null : `no such page: none of ${pageCandidates(rel).join(', ')}`;
}

function twinFiles(dir, rel = '', out = []) {
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) twinFiles(dir, p, out);
    else if (p.endsWith('.md')) out.push(p);
  }
  return out;
}

const llmsTxt = read('llms.txt');
const full = read('llms-full.txt');
const twins = twinFiles(llmsDir);
let links = [];
if (llmsTxt !== null) {
  for (const p of checkFormat(llmsTxt)) problems.push(`llms.txt: ${p}`);
  links = [...llmsTxt.matchAll(/^- \[(?:[^\]\\]|\\.)+\]\(([^\s()]+)\)/gm)].map((m) => m[1]);
  for (const url of links) {
    const miss = lands(url);
    if (miss) problems.push(`llms.txt: ${url}: ${miss}`);
  }
}
// The sidebar's top categories, in its order, against llms.txt's sections that carry their names.
let sidebarCategories = null;
if (opt.sidebars && llmsTxt !== null) {
  const sidebars = JSON.parse(fs.readFileSync(opt.sidebars, 'utf8'))?.default?.current ?? {};
  sidebarCategories = Object.values(sidebars).flat().filter((item) => item?.type === 'category').map((item) => item.label);
  const sections = [...llmsTxt.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
  const named = sections.filter((s) => sidebarCategories.includes(s));
  if (sidebarCategories.length === 0) problems.push(`llms.txt: the sidebars file ${opt.sidebars} has no category`);
  if (JSON.stringify(named) !== JSON.stringify(sidebarCategories)) {
    problems.push(`llms.txt: sections ${JSON.stringify(sections)} are not the sidebar's categories in order ${JSON.stringify(sidebarCategories)}`);
  }
}
let sources = [];
if (full !== null) {
  if (!/^# \S.*\n\n> \S.*\n\n/.test(full)) problems.push('llms-full.txt: does not open with the H1 and the blockquote');
  sources = [...full.matchAll(/^Source: (\S+)$/gm)].map((m) => m[1]);
  for (const url of sources) {
    const miss = lands(url);
    if (miss) problems.push(`llms-full.txt: Source ${url}: ${miss}`);
  }
}
for (const twin of twins) {
  const page = twin.slice(0, -(twin.endsWith(FOLDER_TWIN) ? FOLDER_TWIN : FILE_TWIN).length);
  if (!pageFile(buildDir, page)) problems.push(`twin ${twin}: no built page beside it`);
}

const size = (name) => (fs.existsSync(path.join(llmsDir, name)) ? fs.statSync(path.join(llmsDir, name)).size : null);
const summary = {
  llms_dir: llmsDir,
  build: buildDir,
  llms_txt_bytes: size('llms.txt'),
  llms_txt_links: links.length,
  llms_txt_sections: llmsTxt === null ? 0 : (llmsTxt.match(/^## /gm) ?? []).length,
  sidebar_categories: sidebarCategories,
  llms_full_txt_bytes: size('llms-full.txt'),
  llms_full_txt_pages: sources.length,
  twins: twins.length,
  twins_bytes: twins.reduce((sum, t) => sum + fs.statSync(path.join(llmsDir, t)).size, 0),
  problems,
  ok: problems.length === 0,
};
if (opt.json) console.log(JSON.stringify(summary, null, 2));
else {
  console.log(`llms.txt:      ${summary.llms_txt_bytes ?? '-'} bytes, ${summary.llms_txt_links} links in ${summary.llms_txt_sections} sections`);
  console.log(`llms-full.txt: ${summary.llms_full_txt_bytes ?? '-'} bytes, ${summary.llms_full_txt_pages} pages`);
  console.log(`twins:         ${summary.twins} (${summary.twins_bytes} bytes)`);
  if (sidebarCategories) console.log(`sidebar:       ${sidebarCategories.length} top categories, in llms.txt's order`);
  for (const p of problems.slice(0, 40)) console.log(`  ${p}`);
  if (problems.length > 40) console.log(`  … and ${problems.length - 40} more`);
  console.log(problems.length ? `FAILED: ${problems.length} problems` : 'ok: the format holds and every URL lands');
}
process.exit(problems.length ? 1 : 0);
