// Small HTML helpers shared by check-urls.mjs and chunks-from-html.mjs.
// Docusaurus output is React-rendered and regular, so a tag/attribute scanner
// is enough; no HTML parser dependency.

import fs from 'node:fs';
import path from 'node:path';

const NAMED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(s) {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return NAMED[e.toLowerCase()] ?? m;
  });
}

// Yields every start/end tag as {name, attrs, start, end, closing}; skips
// comments and the bodies of <script>/<style> (ids in JS strings are not
// elements). Attribute values are entity-decoded.
export function* tags(html) {
  const re = /<(!--|\/?[a-zA-Z][\w:-]*)/g;
  let m;
  while ((m = re.exec(html))) {
    if (m[1] === '!--') {
      const close = html.indexOf('-->', m.index + 4);
      re.lastIndex = close < 0 ? html.length : close + 3;
      continue;
    }
    const closing = m[1][0] === '/';
    const name = (closing ? m[1].slice(1) : m[1]).toLowerCase();
    const attrs = {};
    const attrRe = /\s*([^\s=>\/"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?|\s*(\/?>)/gy;
    attrRe.lastIndex = re.lastIndex;
    let a;
    let end = re.lastIndex; // malformed tag: resume scanning after its name
    while ((a = attrRe.exec(html))) {
      if (a[3]) { end = attrRe.lastIndex; break; }
      let v = a[2] ?? '';
      if (v[0] === '"' || v[0] === "'") v = v.slice(1, -1);
      attrs[a[1].toLowerCase()] = decodeEntities(v);
    }
    yield { name, attrs, start: m.index, end, closing };
    re.lastIndex = end;
    if (!closing && (name === 'script' || name === 'style')) {
      const close = html.toLowerCase().indexOf(`</${name}`, end);
      re.lastIndex = close < 0 ? html.length : close;
    }
  }
}

// Every id in the page, with the tag it is on.
export function allIds(html) {
  const ids = new Map();
  for (const t of tags(html)) if (!t.closing && 'id' in t.attrs && !ids.has(t.attrs.id)) ids.set(t.attrs.id, t.name);
  return ids;
}

// Headings h1-h6 inside the first <article>, in order:
// [{level, id, text}]. Text is the heading's visible text without the
// zero-width space of Docusaurus's hash link.
export function articleHeadings(html) {
  const out = [];
  let depth = 0;
  let open = null;
  for (const t of tags(html)) {
    if (t.name === 'article') {
      depth += t.closing ? -1 : 1;
      if (depth === 0 && t.closing) break;
      continue;
    }
    if (depth === 0 || !/^h[1-6]$/.test(t.name)) continue;
    if (!t.closing) open = { level: +t.name[1], id: t.attrs.id ?? null, from: t.end };
    else if (open) {
      const inner = html.slice(open.from, t.start).replace(/<[^>]*>/g, '');
      out.push({ level: open.level, id: open.id, text: decodeEntities(inner).replace(/\u200b/g, '').trim() });
      open = null;
    }
  }
  return out;
}

// A Docusaurus doc page renders its Markdown inside .theme-doc-markdown.
export const isDocPage = (html) => /class="[^"]*\btheme-doc-markdown\b/.test(html);

// The URL Docusaurus declares for a page (canonical link), path part only.
export function canonicalPath(html) {
  for (const t of tags(html)) {
    if (t.name === 'link' && t.attrs.rel === 'canonical' && t.attrs.href) return new URL(t.attrs.href, 'http://x').pathname;
    if (t.name === 'body') break;
  }
  return null;
}

// The built files a URL path (baseUrl already stripped, no leading slash,
// percent-decoded) may be served from. Docusaurus writes `p/index.html` by
// default and with trailingSlash: true, `p.html` with trailingSlash: false; a
// URL that ends in `/` can only be `p/index.html`.
export const pageCandidates = (relPath) => relPath === '' || relPath.endsWith('/')
  ? [path.join(relPath, 'index.html')]
  : [path.join(relPath, 'index.html'), `${relPath}.html`, relPath];

export function pageFile(buildDir, relPath) {
  return pageCandidates(relPath).map((f) => path.join(buildDir, f))
    .find((f) => fs.existsSync(f) && fs.statSync(f).isFile()) ?? null;
}

// All .html files under a directory, as paths relative to it.
export function htmlFiles(dir, rel = '', out = []) {
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const p = path.join(rel, e.name);
    if (e.isDirectory()) htmlFiles(dir, p, out);
    else if (e.name.endsWith('.html')) out.push(p);
  }
  return out;
}
