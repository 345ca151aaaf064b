// The navbar's search box: Docusaurus's SearchBar theme component (the plugin's searchBar
// option; swizzle it like any other). Until used it is a button, and nothing of the search
// loads: the dialog (@theme/LecternSearch) and the runtime (the core, the manifest and the
// chunk table) come when the reader hovers, focuses or touches it; the model after the
// first results. ⌘K / Ctrl+K and "/" open it, never while the reader types in a field.
// Beside it, the navbar launcher when the launcher option says "navbar". On a page without
// a docs page's widget it mounts one, so "Ask AI" and that launcher work everywhere.
import React, { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { usePluginData } from '@docusaurus/useGlobalData';
import { translate } from '@docusaurus/Translate';
import LecternWidget from '@theme/LecternWidget';
import { docsWidgetCount, requestPanel, subscribe } from '../LecternWidget/host';
import './styles.css';

const PLUGIN = 'docusaurus-plugin-lectern';

let dialogChunk = null;
const loadDialog = () => {
  dialogChunk ??= import('@theme/LecternSearch').catch((e) => {
    dialogChunk = null;
    throw e;
  });
  return dialogChunk;
};

/** Whether the reader is typing somewhere ("/" and ⌘K are theirs there). */
function typing(target) {
  const el = /** @type {HTMLElement | null} */ (target instanceof Element ? target : null);
  if (!el) return false;
  return el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || Boolean(el.closest('[contenteditable=""], [contenteditable="true"], [data-lectern-panel]'));
}

export default function SearchBar({ pluginId }) {
  const config = /** @type {import('docusaurus-plugin-lectern').ClientOptions} */ (usePluginData(PLUGIN, pluginId));
  const [Dialog, setDialog] = useState(null);
  const [open, setOpen] = useState(false);
  const [mac, setMac] = useState(false);
  const button = useRef(/** @type {HTMLButtonElement | null} */ (null));
  const docsWidgets = useSyncExternalStore(subscribe, docsWidgetCount, () => 0);

  /** The reader shows interest: the dialog's code and the runtime start loading. */
  const prepare = useCallback(() => {
    loadDialog().then(
      (m) => {
        m.preload(config);
        setDialog(() => m.default);
      },
      (e) => console.error('lectern: the search could not be loaded', e),
    );
  }, [config]);

  const show = useCallback(() => {
    prepare();
    setOpen(true);
  }, [prepare]);

  // After the first commit: by then a docs page's widget has registered itself (its effect
  // runs in the same commit), so the SearchBar mounts its own only where there is none.
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the platform is known only in the browser: the first render must match the server's HTML
    if (/Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)) setMac(true);
    setMounted(true);
  }, []);

  // ⌘K / Ctrl+K and "/": open the dialog, unless the reader is typing (in a field of the
  // page, or in Lectern's panel, whose keys never get here anyway).
  useEffect(() => {
    if (!config.searchShortcuts) return undefined;
    const onKeyDown = (/** @type {KeyboardEvent} */ e) => {
      if (open || e.defaultPrevented || e.altKey) return;
      const commandK = (e.metaKey || e.ctrlKey) && !e.shiftKey && (e.code === 'KeyK' || e.key?.toLowerCase() === 'k');
      const slash = e.key === '/' && !e.metaKey && !e.ctrlKey;
      if ((!commandK && !slash) || typing(e.target)) return;
      e.preventDefault();
      show();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [config.searchShortcuts, open, show]);

  const label = translate({ id: 'theme.SearchBar.label', message: 'Search', description: 'The ARIA label and placeholder for search button' });
  const ask = translate({ id: 'lectern.launcher.label', message: 'Ask', description: 'Text of the button that opens the Lectern chat panel' });

  return (
    <div className="lectern-searchbar">
      <button
        ref={button}
        type="button"
        className="lectern-searchbar__button"
        aria-label={label}
        aria-haspopup="dialog"
        aria-keyshortcuts={config.searchShortcuts ? 'Control+K Meta+K /' : undefined}
        data-lectern-search-button=""
        onClick={show}
        onPointerEnter={prepare}
        onFocus={prepare}
        onTouchStart={prepare}>
        <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
          <path fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" d="M14.4 14.4 18 18M8.8 15.6a6.8 6.8 0 1 0 0-13.6 6.8 6.8 0 0 0 0 13.6Z" />
        </svg>
        <span className="lectern-searchbar__label">
          {label}
          {config.searchShortcuts && (
            <span aria-hidden="true">
              {' '}
              <kbd>{mac ? '⌘' : 'Ctrl'}</kbd>
              <kbd>K</kbd>
            </span>
          )}
        </span>
      </button>
      {config.launcher.type === 'navbar' && (
        <button type="button" className="button button--primary button--sm" data-lectern-navbar-launcher="" onClick={() => requestPanel()}>
          {ask}
        </button>
      )}
      {Dialog && <Dialog open={open} onClose={() => setOpen(false)} config={config} />}
      {mounted && docsWidgets === 0 && <LecternWidget pluginId={pluginId} fallback />}
    </div>
  );
}
