// The search dialog's and the results' styles (the results also on the search page), added
// to the page when this code loads: the first time the reader uses the search box, or on the
// search page. Not a .css import on purpose: Docusaurus puts every imported stylesheet, even
// a lazily loaded component's, into the one styles.css every page loads, and these rules
// serve only once the search is used — out of it, the navbar's box stays within its budget
// of 8 KB gzip before use (tests/e2e/built-site.test.mjs). Nothing they style is in the
// server-rendered HTML (the dialog and the results are drawn in the browser), so nothing
// shows unstyled. A constructed stylesheet is outside a Content-Security-Policy's style-src;
// browsers without one get a <style> element.
//
// Infima's variables throughout, so light/dark mode and the site's colours apply. The dialog
// is in the browser's top layer; under 600 px it is a full-screen sheet.

const CSS = `
/* Group titles and the query's words. */
.lectern-search,
.lectern-search-page {
  --lectern-accent: var(--ifm-color-primary-darker);
}

[data-theme='dark'] .lectern-search,
[data-theme='dark'] .lectern-search-page {
  --lectern-accent: var(--ifm-color-primary-lightest);
}

.lectern-search {
  --lectern-search-radius: calc(var(--ifm-global-radius, 0.4rem) * 2);
  --lectern-search-border: var(--ifm-color-emphasis-300);
  --lectern-search-surface: var(--ifm-background-surface-color, #fff);
  width: min(44rem, calc(100vw - 2rem));
  max-width: none;
  max-height: min(40rem, calc(100vh - 8rem));
  margin: 4rem auto auto;
  padding: 0;
  border: 1px solid var(--lectern-search-border);
  border-radius: var(--lectern-search-radius);
  background: var(--lectern-search-surface);
  color: var(--ifm-font-color-base);
  box-shadow: 0 18px 48px rgb(0 0 0 / 0.28), 0 2px 8px rgb(0 0 0 / 0.12);
  font: var(--ifm-font-size-base) / 1.5 var(--ifm-font-family-base);
  font-weight: normal;
  overflow: hidden;
}

.lectern-search::backdrop {
  background: rgb(15 18 25 / 0.55);
}

.lectern-search[open] {
  display: flex;
}

.lectern-search__box {
  display: flex;
  flex-direction: column;
  flex: 1;
  min-height: 0;
  width: 100%;
}

/* The query box */
.lectern-search__form {
  display: flex;
  align-items: center;
  gap: 0.6rem;
  padding: 0.7rem 0.9rem;
  border-bottom: 1px solid var(--lectern-search-border);
  color: var(--ifm-color-primary);
}

.lectern-search__input {
  flex: 1;
  min-width: 0;
  border: 0;
  background: transparent;
  color: var(--ifm-font-color-base);
  font: inherit;
  font-size: 1.125rem;
  outline: none;
}

.lectern-search__input::-webkit-search-cancel-button {
  display: none;
}

.lectern-search__reset,
.lectern-search__cancel,
.lectern-search__remove {
  border: 0;
  background: transparent;
  color: var(--ifm-color-emphasis-700);
  font: inherit;
  cursor: pointer;
}

.lectern-search__reset {
  font-size: 1.4rem;
  line-height: 1;
  padding: 0 0.3rem;
}

.lectern-search__cancel {
  padding: 0.2rem 0.4rem;
  font-size: 0.875rem;
  color: var(--ifm-color-primary);
}

.lectern-search :focus-visible {
  outline: 2px solid var(--ifm-color-primary-lighter);
  outline-offset: 2px;
}

/* The query box has the focus all along: the form's caret and colour say so. */
.lectern-search .lectern-search__input:focus-visible {
  outline: none;
}

.lectern-search__scope {
  padding: 0.45rem 1rem;
  border-bottom: 1px solid var(--lectern-search-border);
}

/* The list */
.lectern-search__body {
  flex: 1;
  min-height: 0;
  overflow-y: auto;
  overscroll-behavior: contain;
  padding: 0.4rem 0.6rem 0.8rem;
}

.lectern-search__list,
.lectern-search__list ul {
  margin: 0;
  padding: 0;
  list-style: none;
}

.lectern-search__heading,
.lectern-search__group-title {
  margin: 0.7rem 0.4rem 0.3rem;
  font-size: 0.75rem;
  font-weight: var(--ifm-font-weight-semibold, 600);
  letter-spacing: 0.02em;
  text-transform: uppercase;
  color: var(--lectern-accent);
}

.lectern-search__heading--semantic {
  margin-top: 1rem;
  padding-top: 0.7rem;
  border-top: 1px dashed var(--lectern-search-border);
}

.lectern-search__option {
  margin: 0.2rem 0;
  border-radius: var(--ifm-global-radius);
  background: var(--ifm-color-emphasis-100);
  scroll-margin: 0.5rem;
}

/* The active option: a stronger background and a bar in the site's colour (text colours
 * stay, so marks and dark mode keep their contrast). */
.lectern-search__option.lectern-search__option--active {
  background: var(--ifm-color-emphasis-200);
  box-shadow: inset 4px 0 0 var(--ifm-color-primary);
}

.lectern-result,
.lectern-search__ask,
.lectern-search__recent {
  display: flex;
  flex-direction: column;
  gap: 0.1rem;
  width: 100%;
  padding: 0.5rem 0.75rem;
  border: 0;
  background: transparent;
  color: inherit;
  font: inherit;
  text-align: start;
  text-decoration: none;
  cursor: pointer;
}

.lectern-result:hover {
  color: inherit;
  text-decoration: none;
}

.lectern-result__title {
  font-weight: 600;
}

.lectern-result__path {
  font-weight: normal;
  opacity: 0.75;
}

.lectern-result__snippet {
  display: -webkit-box;
  -webkit-box-orient: vertical;
  -webkit-line-clamp: 2;
  overflow: hidden;
  font-size: 0.875rem;
  opacity: 0.85;
}

/* The query's words: underlined in the accent colour (a background would fight the active
 * row's in both themes). */
.lectern-search mark,
.lectern-search-page mark {
  padding: 0;
  background: none;
  color: var(--lectern-accent);
  text-decoration: underline 2px;
  text-underline-offset: 2px;
}

.lectern-version-badge {
  margin-inline-start: 0.5rem;
  text-transform: none;
  vertical-align: middle;
}

/* Found by meaning: set apart by a rule on the left. */
.lectern-search__option--semantic {
  box-shadow: inset 3px 0 0 var(--ifm-color-emphasis-400);
}

/* "Ask AI: <query>" */
.lectern-search__ask {
  flex-direction: row;
  align-items: center;
  gap: 0.65rem;
}

.lectern-search__ask svg {
  flex: none;
  color: var(--ifm-color-primary);
}

.lectern-search__ask-text {
  display: flex;
  flex-direction: column;
  min-width: 0;
}

.lectern-search__ask-text strong {
  overflow-wrap: anywhere;
}

.lectern-search__ask-hint {
  font-size: 0.8125rem;
  opacity: 0.8;
}

.lectern-search__recent {
  flex-direction: row;
  align-items: center;
  justify-content: space-between;
}

.lectern-search__remove {
  color: inherit;
  font-size: 1.2rem;
  line-height: 1;
}

.lectern-search__note {
  margin: 0.8rem 0.4rem;
  color: var(--ifm-color-emphasis-700);
  font-size: 0.9rem;
}

.lectern-search__note--pending {
  font-style: italic;
}

.lectern-search__note--error {
  color: var(--ifm-color-danger-darker);
}

/* The footer: keys, and the link to every result */
.lectern-search__footer {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.3rem 1rem;
  padding: 0.5rem 1rem;
  border-top: 1px solid var(--lectern-search-border);
  font-size: 0.75rem;
  color: var(--ifm-color-emphasis-700);
}

.lectern-search__keys kbd {
  margin-inline-end: 0.15rem;
  padding: 0 0.3rem;
  font-size: 0.7rem;
  box-shadow: none;
}

.lectern-search__all {
  margin-inline-start: auto;
  font-weight: var(--ifm-font-weight-semibold, 600);
}

/* Narrow screens: a full-screen sheet; no keyboard hints. */
@media (max-width: 600px) {
  .lectern-search {
    width: 100%;
    height: 100%;
    height: 100dvh;
    max-height: none;
    margin: 0;
    border: 0;
    border-radius: 0;
  }

  .lectern-search__keys {
    display: none;
  }
}

@media (min-width: 601px) {
  .lectern-search__cancel {
    display: none;
  }
}
`;

let added = false;

/** Adds the rules to the page, once (nothing on the server). */
export function addSearchStyles() {
  if (added || typeof document === 'undefined') return;
  added = true;
  if ('adoptedStyleSheets' in document && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    document.adoptedStyleSheets = Array.from(document.adoptedStyleSheets).concat(sheet);
  } else {
    const style = document.createElement('style');
    style.textContent = CSS;
    document.head.append(style);
  }
}
