// The page the reader asks from, and links that ask a question on a page. Every question
// carries the page (its address and title): the core ranks that page's sections higher and
// names the page to the LLM. A shared question is the page's address with `?ask=<question>`
// (LecternWidget/shared-question.js reads it); it carries nothing but the question.

/** The query parameter of a shared question. */
export const ASK_PARAM = 'ask';

/** The page the reader is on: its address (without `?ask=` or an anchor) and its title (the
 * article's heading, else the document's title). `only`: retrieve from this page alone. */
export function currentPage(only = false) {
  const url = new URL(window.location.href);
  url.searchParams.delete(ASK_PARAM);
  url.hash = '';
  const heading = document.querySelector('article h1, main h1')?.textContent?.trim();
  return { url: url.href, title: heading || document.title, ...(only ? { only: true } : {}) };
}

/** The link that asks `question` on the page at `pageUrl`: that page, `?ask=` the question
 * (its other parameters and anchor dropped: the link says nothing else). */
export function questionLink(pageUrl, question) {
  const url = new URL(pageUrl, window.location.href);
  url.search = '';
  url.hash = '';
  url.searchParams.set(ASK_PARAM, question);
  return url.href;
}
