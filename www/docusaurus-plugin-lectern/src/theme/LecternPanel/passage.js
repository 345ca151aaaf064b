// A citation's passage on the page it leads to. The core chose the sentences
// (SourceReference.passage, src/chat/passage.rs); this file only hands them to the page the
// citation opens and finds and paints them there. Part of the panel's chunk, so a docs page
// pays nothing for it before it is used: a citation followed in this tab is drawn from here
// once the router has shown the section (followPassage); one opened in a new tab (Ctrl/⌘- or
// middle-click) is left in localStorage (PASSAGE_KEY), which the widget checks once when it
// mounts and then loads this chunk for.
//
// The page is React's: nothing is inserted into it. The passage is painted with the CSS
// Custom Highlight API (Range objects over the rendered text); where that is missing, or the
// text is not found, the reader still lands on the cited heading (Docusaurus scrolls there).
// The sentences are the Markdown's clean text, not the HTML: they are matched on letters and
// digits only, so whitespace, punctuation, inline code and links that split a sentence
// across elements do not matter. The highlight goes on the reader's next click or key.

/** Where a followed citation leaves its passage for the page it opens. The widget checks this
 * key on every docs page, with the string written out (LecternWidget/index.js). */
export const PASSAGE_KEY = 'lectern:passage:v1';

const NAME = 'lectern-passage';
// A marker-pen background that keeps the text's own colour, readable in both themes. Added
// when first drawn, as a constructed stylesheet (outside a Content-Security-Policy's
// style-src), not a .css import: Docusaurus would put that into every page's styles.css.
const RULES = `::highlight(${NAME}) { background-color: rgb(255 214 10 / 45%); }
[data-theme='dark'] ::highlight(${NAME}) { background-color: rgb(255 196 0 / 32%); }`;
let styled = false;
/** A passage left longer ago than this is stale (a tab opened and never looked at). */
const FRESH_MS = 30_000;
/** How long a followed citation waits for its section to be rendered and found. */
const WAIT_MS = 4_000;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A citation to `href` is being followed: leave its passage for the page it opens (this tab
 * or a new one), or forget any earlier one. */
export function rememberPassage(href, sentences) {
  try {
    if (!sentences?.length) {
      window.localStorage.removeItem(PASSAGE_KEY);
      return;
    }
    const url = new URL(href, window.location.href);
    window.localStorage.setItem(PASSAGE_KEY, JSON.stringify({ path: url.pathname, hash: url.hash, sentences, at: Date.now() }));
  } catch {
    // Storage disabled: the citation still lands on its section.
  }
}

/** Highlights the passage left for this page, once the page shows it: each frame until it
 * is drawn, left for another page, or WAIT_MS have passed (then it is forgotten). */
export function followPassage() {
  const until = Date.now() + WAIT_MS;
  const step = () => {
    const left = pending();
    if (!left) return;
    const here = (p) => p.replace(/\/$/, '') === window.location.pathname.replace(/\/$/, '') && left.hash === window.location.hash;
    if (here(left.path) && draw(left.sentences, left.hash)) forget();
    else if (Date.now() > until) {
      if (here(left.path)) forget();
    } else requestAnimationFrame(step);
  };
  step();
}

/** The passage left by a followed citation, if any and fresh (a stale or damaged one is
 * forgotten). */
function pending() {
  let left;
  try {
    left = JSON.parse(window.localStorage.getItem(PASSAGE_KEY) ?? 'null');
  } catch {
    left = undefined; // storage disabled, or a damaged entry: forgotten below
  }
  if (left === null) return null;
  if (typeof left?.path === 'string' && Array.isArray(left.sentences) && Date.now() - left.at < FRESH_MS) return left;
  forget();
  return null;
}

function forget() {
  try {
    window.localStorage.removeItem(PASSAGE_KEY);
  } catch {
    // Nothing to do: it goes stale.
  }
}

/** Highlights `sentences` in the section `hash` names; false when it is not there (yet). */
function draw(sentences, hash) {
  const id = decodeURIComponent(hash.slice(1));
  const heading = id ? document.getElementById(id) : document.querySelector('article h1');
  if (!heading || !window.CSS?.highlights || typeof Highlight !== 'function' || !('adoptedStyleSheets' in document)) return false;
  const text = sectionText(heading);
  const ranges = sentences.map((s) => find(text, s)).filter(Boolean);
  if (!ranges.length) return false;
  clear();
  if (!styled) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(RULES);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    styled = true;
  }
  CSS.highlights.set(NAME, new Highlight(...ranges));
  window.addEventListener('pointerdown', clear, true);
  window.addEventListener('keydown', clear, true);
  reveal(heading, ranges);
  return true;
}

function clear() {
  window.CSS?.highlights?.delete(NAME);
  window.removeEventListener('pointerdown', clear, true);
  window.removeEventListener('keydown', clear, true);
}

/** The section under `heading` (to the next heading of its level or above; a page's title:
 * the whole article), as its letters and digits lower-cased, each with its text node and
 * offset. */
function sectionText(heading) {
  const level = Number(heading.tagName.slice(1)) || 1;
  const root = heading.closest('article') ?? document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  walker.currentNode = heading;
  let chars = '';
  const at = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.ELEMENT_NODE) {
      const l = /^H([1-6])$/.exec(/** @type {Element} */ (node).tagName);
      if (l && level > 1 && Number(l[1]) <= level && !heading.contains(node)) break;
      continue;
    }
    if (node.parentElement?.closest('button, .hash-link, script, style')) continue;
    const value = node.nodeValue;
    for (let i = 0; i < value.length; i++) {
      const c = value[i];
      if (!LETTER_OR_DIGIT.test(c)) continue;
      for (const lower of c.toLowerCase()) {
        chars += lower;
        at.push([node, i]);
      }
    }
  }
  return { chars, at };
}

/** The Range of `sentence` in the section's text, or null when it is not there. */
function find({ chars, at }, sentence) {
  let needle = '';
  for (const c of sentence) if (LETTER_OR_DIGIT.test(c)) needle += c.toLowerCase();
  const start = needle ? chars.indexOf(needle) : -1;
  if (start < 0) return null;
  const [first, from] = at[start];
  const [last, to] = at[start + needle.length - 1];
  // The sentence's closing punctuation too, where it follows in the same text.
  let end = to + 1;
  while (end < last.nodeValue.length && /[.!?:;,)\]"'”’…]/.test(last.nodeValue[end])) end++;
  const range = document.createRange();
  range.setStart(first, from);
  range.setEnd(last, end);
  return range;
}

/** Keeps the heading in view with the passage under it; when both do not fit, the passage
 * a quarter down the window. Smooth unless the reader asked for reduced motion. */
function reveal(heading, ranges) {
  const top = Math.min(...ranges.map((r) => r.getBoundingClientRect().top)) + window.scrollY;
  const bottom = Math.max(...ranges.map((r) => r.getBoundingClientRect().bottom)) + window.scrollY;
  const margin = parseFloat(getComputedStyle(heading).scrollMarginTop) || 0;
  let target = heading.getBoundingClientRect().top + window.scrollY - margin;
  if (bottom - target > window.innerHeight) target = top - window.innerHeight / 4;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({ top: target, behavior: reduce ? 'auto' : 'smooth' });
}
