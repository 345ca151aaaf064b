// A citation's passage on the page it leads to. The core chose the sentences
// (SourceReference.passage, src/chat/passage.rs) and named them in the citation's link
// (SourceReference.link: `?passage=start~end`, the passage's first and last words, by the
// rule the core hands the widget as `passageLink`); this file only reads that name from the
// address, finds it on the page and paints it. So a citation followed in this tab, opened in
// a new one, or copied and opened in another browser highlights the same passage. Part of the
// panel's chunk, so a docs page pays nothing for it before it is used: the widget loads it
// only when the address names a passage (LecternWidget/index.js), on a full page load and
// after each client-side navigation.
//
// The name is read once and taken out of the address bar (history.replaceState, keeping the
// router's state): the highlight is a pointer for this arrival, not part of the page's
// address, so a reload, a bookmark or the address copied later shows the section plain, and
// going back does not highlight again. The link in the answer still carries it for sharing.
//
// The page is React's: nothing is inserted into it. The passage is painted with the CSS
// Custom Highlight API (a Range over the rendered text); where that is missing, or the words
// are not found in the cited section (a stale link, a tampered one), nothing is painted and
// the reader still lands on the cited heading (Docusaurus scrolls there). The words are the
// Markdown's clean text, not the HTML: they are matched on letters and digits only, so
// whitespace, punctuation, inline code and links that split a sentence across elements do
// not matter. The highlight goes on the reader's next click or key.

const NAME = 'lectern-passage';
// A marker-pen background that keeps the text's own colour, readable in both themes. Added
// when first drawn, as a constructed stylesheet (outside a Content-Security-Policy's
// style-src), not a .css import: Docusaurus would put that into every page's styles.css.
const RULES = `::highlight(${NAME}) { background-color: rgb(255 214 10 / 45%); }
[data-theme='dark'] ::highlight(${NAME}) { background-color: rgb(255 196 0 / 32%); }`;
let styled = false;
/** How long a followed citation waits for its section to be rendered and found. */
const WAIT_MS = 4_000;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Highlights the passage the address names, if any: takes the name out of the address bar,
 * then tries each frame until the section shows it, the reader has gone elsewhere, or
 * WAIT_MS have passed.
 * @param {{param: string, separator: string, joiner: string, maxChars: number}} rule the core's passageLink
 */
export function followPassage(rule) {
  const url = new URL(window.location.href);
  const value = url.searchParams.get(rule.param);
  if (value === null) return;
  url.searchParams.delete(rule.param);
  try {
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  } catch {
    // A sandboxed document may refuse: the name stays in the address, harmlessly.
  }
  const named = parse(value, rule);
  if (!named) return;
  const until = Date.now() + WAIT_MS;
  const step = () => {
    if (window.location.pathname !== url.pathname || window.location.hash !== url.hash) return;
    if (!draw(named, url.hash, rule.maxChars) && Date.now() < until) requestAnimationFrame(step);
  };
  step();
}

/** The passage's start and end (end: '' when the start is the whole passage) as letters and
 * digits, lower-cased; null for a value the core would not have written: longer than a
 * passage, more than two parts, or anything but words (letters and digits, as Rust's
 * `char::is_alphanumeric`) joined by the joiner. */
function parse(value, { separator, joiner, maxChars }) {
  if (value.length > maxChars) return null;
  const parts = value.split(separator);
  const word = /^[\p{Alphabetic}\p{N}]+$/u;
  if (parts.length > 2 || !parts.every((part) => part.split(joiner).every((w) => word.test(w)))) return null;
  const [start, end = ''] = parts.map(letters);
  return start ? { start, end } : null;
}

function letters(text) {
  let out = '';
  for (const c of text) if (LETTER_OR_DIGIT.test(c)) out += c.toLowerCase();
  return out;
}

/** Highlights the passage in the section `hash` names; false when it is not there (yet). */
function draw(named, hash, maxChars) {
  const id = decodeURIComponent(hash.slice(1));
  const heading = id ? document.getElementById(id) : document.querySelector('article h1');
  if (!heading || !window.CSS?.highlights || typeof Highlight !== 'function' || !('adoptedStyleSheets' in document)) return false;
  const range = find(sectionText(heading), named, maxChars);
  if (!range) return false;
  clear();
  if (!styled) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(RULES);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    styled = true;
  }
  CSS.highlights.set(NAME, new Highlight(range));
  window.addEventListener('pointerdown', clear, true);
  window.addEventListener('keydown', clear, true);
  reveal(heading, range);
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

/** The Range from the passage's start to its end in the section's text: the first end after
 * a start, from the last start before it (the tightest), no longer than `maxChars` letters and
 * digits; null when it is not there. */
function find({ chars, at }, { start, end }, maxChars) {
  let from = chars.indexOf(start);
  if (from < 0) return null;
  const last = end ? chars.indexOf(end, from + start.length) : from;
  if (last < 0) return null;
  for (let later = chars.indexOf(start, from + 1); later >= 0 && later + start.length <= last; later = chars.indexOf(start, later + 1)) from = later;
  const stop = end ? last + end.length : from + start.length;
  if (stop - from > maxChars) return null;
  const [first, offset] = at[from];
  const [lastNode, to] = at[stop - 1];
  // The sentence's closing punctuation too, where it follows in the same text.
  let after = to + 1;
  while (after < lastNode.nodeValue.length && /[.!?:;,)\]"'”’…]/.test(lastNode.nodeValue[after])) after++;
  const range = document.createRange();
  range.setStart(first, offset);
  range.setEnd(lastNode, after);
  return range;
}

/** Keeps the heading in view with the passage under it; when both do not fit, the passage
 * a quarter down the window. Smooth unless the reader asked for reduced motion. */
function reveal(heading, range) {
  const box = range.getBoundingClientRect();
  const top = box.top + window.scrollY;
  const bottom = box.bottom + window.scrollY;
  const margin = parseFloat(getComputedStyle(heading).scrollMarginTop) || 0;
  let target = heading.getBoundingClientRect().top + window.scrollY - margin;
  if (bottom - target > window.innerHeight) target = top - window.innerHeight / 4;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({ top: target, behavior: reduce ? 'auto' : 'smooth' });
}
