// The search dialog, loaded the first time the reader shows interest in the navbar's box
// (hover, focus, touch): a modal <dialog> in the browser's top layer (above a page's own
// floating widgets), a full-screen sheet under 600 px. The query box is a combobox over a
// listbox whose first option is "Ask AI: <query>" (the chat panel asks it, with the same
// retrieval and version scope), then the sections found, grouped by page, each a real link;
// the sections found by meaning come below them once the model is in. Empty, it lists the
// recent searches. Arrows move, Enter follows (Ctrl/⌘+Enter: a new tab), Esc closes and
// the focus returns. Keys typed here never reach the page's own shortcuts. A query is recorded
// as a usage event once it has settled (its results shown and unchanged for a moment, or
// followed), not per keystroke, and so is each result followed (useSearchUsage.js).
import React, { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import Link from '@docusaurus/Link';
import { useHistory } from '@docusaurus/router';
import { usePluralForm } from '@docusaurus/theme-common';
import { getSession } from '../LecternPanel/session';
import { requestPanel } from '../LecternWidget/host';
import { keepKeys } from '../LecternWidget/layer';
import { searchFormat, searchStrings } from './strings';
import { ScopeToggle, scopeFilters, useDocsScope, useDocsVersions, versionLabel } from './scope';
import { RowContent, Highlight, VersionBadge } from './Results';
import useTypeahead from './useTypeahead';
import useSearchUsage from './useSearchUsage';
import useRecentSearches from './recent';
import { addSearchStyles } from './styles';

addSearchStyles();

/** Starts the runtime (the core, the manifest and the chunk table; not the model) before
 * the reader types: the SearchBar calls it on hover and focus. */
export function preload(config) {
  getSession(config).lectern.catch(() => {}); // the dialog shows the error when used
}

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** @typedef {{kind: 'ask'} | {kind: 'row', row: import('lectern').TypeaheadRow} | {kind: 'recent', query: string}} Item */

export function SearchIcon({ size = 20 }) {
  return (
    <svg viewBox="0 0 20 20" width={size} height={size} aria-hidden="true" focusable="false">
      <path fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" d="M14.4 14.4 18 18M8.8 15.6a6.8 6.8 0 1 0 0-13.6 6.8 6.8 0 0 0 0 13.6Z" />
    </svg>
  );
}

function SparkIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M10 1.5 11.8 8.2 18.5 10l-6.7 1.8L10 18.5l-1.8-6.7L1.5 10l6.7-1.8L10 1.5Z" />
    </svg>
  );
}

/**
 * Props: open, onClose(), config (the plugin's client options).
 * @param {{open: boolean, onClose: () => void, config: import('docusaurus-plugin-lectern').ClientOptions}} props
 */
export default function LecternSearch({ open, onClose, config }) {
  const s = searchStrings();
  const { selectMessage } = usePluralForm();
  const history = useHistory();
  const dialog = useRef(/** @type {HTMLDialogElement | null} */ (null));
  const input = useRef(/** @type {HTMLInputElement | null} */ (null));
  const listId = useId();
  const [query, setQuery] = useState('');
  const [choice, setChoice] = useState(/** @type {import('./scope').ScopeChoice} */ (null));
  const scope = useDocsScope(config.contextualSearch);
  const filters = scopeFilters(scope, choice);
  const versions = useDocsVersions();
  const search = useTypeahead(config, query, filters);
  const recent = useRecentSearches(config.recentSearches);
  const [active, setActive] = useState(0);
  const q = query.trim();
  const results = search.results;

  // The options, in order: the recent searches (empty box), or "Ask AI", then every row.
  const items = useMemo(() => {
    /** @type {Item[]} */
    const list = [];
    if (!q) {
      for (const r of recent.list) list.push({ kind: 'recent', query: r });
      return list;
    }
    list.push({ kind: 'ask' });
    for (const page of results?.pages ?? []) for (const row of page.rows) list.push({ kind: 'row', row });
    return list;
  }, [q, results, recent.list]);

  // A new query's results: the best section is the one Enter follows ("Ask AI" is just
  // above it). Rows appended by the semantic pass leave the choice where it is.
  const resultsQuery = results?.query ?? null;
  const [activeFor, setActiveFor] = useState(/** @type {string | null} */ (null));
  if (activeFor !== `${q}|${resultsQuery}`) {
    setActiveFor(`${q}|${resultsQuery}`);
    setActive(q && items.length > 1 ? 1 : 0);
  }
  const current = Math.min(active, Math.max(items.length - 1, 0));
  const optionId = (/** @type {number} */ i) => `${listId}-option-${i}`;

  // The dialog follows `open`: modal, in the top layer; the page behind does not scroll.
  useEffect(() => {
    const el = dialog.current;
    if (!el) return undefined;
    if (!open) {
      if (el.open) el.close();
      return undefined;
    }
    if (!el.open) el.showModal();
    input.current?.focus();
    input.current?.select();
    const root = document.documentElement;
    const before = root.style.overflow;
    root.style.overflow = 'hidden';
    return () => {
      root.style.overflow = before;
    };
  }, [open]);

  useEffect(() => {
    if (open) document.getElementById(optionId(current))?.scrollIntoView({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- optionId is derived from listId, which never changes
  }, [open, current]);

  // The usage events (useSearchUsage.js): the settled query, the result followed (its rank
  // among the sections, from 1: "Ask AI" is the first option).
  const count = results?.count ?? 0;
  const ready = search.status === 'ready' && results;
  const { reportSearch, reportClick: reportFollowed } = useSearchUsage(q, ready ? results : null, open);
  const reportClick = useCallback(
    (/** @type {import('lectern').TypeaheadRow} */ row) => reportFollowed(row.url, items.findIndex((item) => item.kind === 'row' && item.row === row)),
    [items, reportFollowed],
  );

  const close = useCallback(() => {
    reportSearch();
    onClose();
  }, [onClose, reportSearch]);

  /** Follows an option: a recent search fills the box; "Ask AI" opens the chat panel with
   * the query; a section opens (in a new tab with Ctrl/⌘). */
  const choose = useCallback(
    (/** @type {Item | undefined} */ item, newTab = false) => {
      if (!item) return;
      if (item.kind === 'recent') {
        setQuery(item.query);
        return;
      }
      recent.save(q);
      if (item.kind === 'row') reportClick(item.row);
      if (item.kind === 'ask') {
        close();
        // Once the dialog has closed and given the focus back, so that closing the panel
        // returns it there.
        setTimeout(() => requestPanel({ question: q, scope: choice }), 0);
      } else if (newTab) {
        window.open(item.row.url, '_blank', 'noopener');
      } else {
        close();
        history.push(item.row.url);
      }
    },
    [q, choice, recent, close, history, reportClick],
  );

  /** @param {import('react').KeyboardEvent<HTMLInputElement>} e */
  const onInputKey = (e) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!items.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + items.length) % items.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(items[current], e.metaKey || e.ctrlKey);
    } else if (e.key === 'Escape') {
      // A search field's own Escape only clears it (the dialog would close on a second
      // one): Esc closes the box at once, the query kept for the next time.
      e.preventDefault();
      close();
    }
  };

  const announce = !q || !ready ? '' : count ? selectMessage(count, searchFormat.documentsFound(count)) : `${s.noResults} “${q}”`;

  let index = 0;
  const option = (/** @type {Item} */ item, /** @type {import('react').ReactNode} */ content, className = '') => {
    const i = index++;
    return (
      <li
        key={i}
        id={optionId(i)}
        role="option"
        aria-selected={i === current}
        className={`lectern-search__option ${className}${i === current ? ' lectern-search__option--active' : ''}`}
        onMouseMove={() => i !== current && setActive(i)}>
        {content}
      </li>
    );
  };

  const pages = results?.pages ?? [];
  const keywordPages = pages.filter((p) => !p.semantic);
  const semanticPages = pages.filter((p) => p.semantic);
  const renderPage = (/** @type {import('lectern').TypeaheadPage} */ page, /** @type {number} */ n) => {
    const headingId = `${listId}-page-${page.semantic ? 's' : 'k'}${n}`;
    return (
      <li key={headingId} role="presentation" className="lectern-search__group">
        <div id={headingId} className="lectern-search__group-title" role="presentation">
          <Highlight text={page.title} ranges={page.titleRanges} />
          {choice === 'all' && page.version && <VersionBadge label={versionLabel(versions, page.instance, page.version)} />}
        </div>
        <ul role="group" aria-labelledby={headingId}>
          {page.rows.map((row) =>
            option(
              { kind: 'row', row },
              <Link
                to={row.url}
                autoAddBaseUrl={false}
                tabIndex={-1}
                className="lectern-result"
                onClick={(e) => {
                  recent.save(q);
                  reportClick(row);
                  if (!(e.metaKey || e.ctrlKey || e.shiftKey || e.button === 1)) close();
                }}>
                <RowContent row={row} />
              </Link>,
              row.semantic ? 'lectern-search__option--semantic' : '',
            ),
          )}
        </ul>
      </li>
    );
  };

  return (
    <dialog
      ref={dialog}
      className="lectern-search"
      aria-label={s.label}
      data-lectern-search=""
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClose={() => open && close()}
      onKeyUp={keepKeys}
      onKeyDown={keepKeys}
      onClick={(e) => {
        // A click on the backdrop (outside the box) closes.
        if (e.target === e.currentTarget) close();
      }}>
      <div className="lectern-search__box">
        <form className="lectern-search__form" role="search" onSubmit={(e) => e.preventDefault()}>
          <SearchIcon />
          <input
            ref={input}
            className="lectern-search__input"
            type="search"
            role="combobox"
            aria-label={s.inputLabel}
            aria-expanded={items.length > 0}
            aria-controls={listId}
            aria-activedescendant={items.length ? optionId(current) : undefined}
            aria-autocomplete="list"
            autoComplete="off"
            autoCorrect="off"
            autoCapitalize="off"
            spellCheck={false}
            enterKeyHint="search"
            maxLength={config.limits.questionMaxChars}
            placeholder={s.placeholder}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={onInputKey}
          />
          {query && (
            <button
              type="button"
              className="lectern-search__reset"
              aria-label={s.reset}
              title={s.reset}
              onClick={() => {
                setQuery('');
                input.current?.focus();
              }}>
              ×
            </button>
          )}
          <button type="button" className="lectern-search__cancel" onClick={close}>
            {s.cancel}
          </button>
        </form>
        <ScopeToggle scope={scope} choice={choice} onChange={setChoice} className="lectern-search__scope" />
        <div className="lectern-search__body" data-lectern-search-status={search.status}>
          {!q && recent.list.length > 0 && <p className="lectern-search__heading">{s.recent}</p>}
          <ul id={listId} role="listbox" aria-label={s.label} className="lectern-search__list">
            {!q &&
              recent.list.map((r) =>
                option(
                  { kind: 'recent', query: r },
                  <div className="lectern-search__recent" onClick={() => setQuery(r)} role="presentation">
                    <span>{r}</span>
                    <button
                      type="button"
                      tabIndex={-1}
                      className="lectern-search__remove"
                      aria-label={s.removeRecent}
                      title={s.removeRecent}
                      onClick={(e) => {
                        e.stopPropagation();
                        recent.remove(r);
                      }}>
                      ×
                    </button>
                  </div>,
                ),
              )}
            {q &&
              option(
                { kind: 'ask' },
                <button type="button" tabIndex={-1} className="lectern-search__ask" data-lectern-ask-ai="" onClick={() => choose({ kind: 'ask' })}>
                  <SparkIcon />
                  <span className="lectern-search__ask-text">
                    <span>
                      {s.askAi}
                      <strong>{q}</strong>
                    </span>
                    <span className="lectern-search__ask-hint">{s.askAiHint}</span>
                  </span>
                </button>,
                'lectern-search__option--ask',
              )}
            {q && keywordPages.map(renderPage)}
            {q && semanticPages.length > 0 && (
              <li role="presentation" className="lectern-search__heading lectern-search__heading--semantic">
                {s.semanticTitle}
              </li>
            )}
            {q && semanticPages.map(renderPage)}
          </ul>
          {!q && !recent.list.length && <p className="lectern-search__note">{config.recentSearches ? s.noRecent : ''}</p>}
          {q && search.status === 'loading' && !results && <p className="lectern-search__note">{s.loading}</p>}
          {q && ready && count === 0 && (
            <p className="lectern-search__note" data-lectern-no-results="">
              {s.noResults} “{q}”
            </p>
          )}
          {q && ready && results.semantic === 'pending' && <p className="lectern-search__note lectern-search__note--pending">{s.semanticPending}</p>}
          {search.status === 'error' && (
            <p className="lectern-search__note lectern-search__note--error" role="alert">
              <strong>{s.errorTitle}</strong> {search.error?.message}
            </p>
          )}
        </div>
        <footer className="lectern-search__footer">
          <span className="lectern-search__keys">
            <kbd aria-label={s.selectKey}>↵</kbd> {s.select}
          </span>
          <span className="lectern-search__keys">
            <kbd aria-label={s.downKey}>↓</kbd>
            <kbd aria-label={s.upKey}>↑</kbd> {s.navigate}
          </span>
          <span className="lectern-search__keys">
            <kbd>{isMac() ? '⌘' : 'Ctrl'}</kbd>
            <kbd aria-label={s.selectKey}>↵</kbd> {s.newTab}
          </span>
          <span className="lectern-search__keys">
            <kbd aria-label={s.closeKey}>Esc</kbd> {s.close}
          </span>
          {config.searchPageUrl && q && ready && count > 0 && (
            <Link
              className="lectern-search__all"
              to={`${config.searchPageUrl}?q=${encodeURIComponent(q)}${choice === 'all' ? '&version=all' : ''}`}
              autoAddBaseUrl={false}
              onClick={() => {
                recent.save(q);
                close();
              }}>
              {searchFormat.seeAll(count)}
            </Link>
          )}
        </footer>
        <div className="lectern-sr-only" role="status" aria-live="polite" aria-atomic="true">
          {announce}
        </div>
      </div>
    </dialog>
  );
}
