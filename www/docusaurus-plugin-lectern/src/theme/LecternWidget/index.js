// The part of the widget every docs page carries: the launcher button, the Ctrl/Cmd+I
// shortcut and the "Ask about this" button on a text selection. It is kept small on purpose;
// the panel (@theme/LecternPanel) is a separate chunk loaded when first needed, and the
// panel in turn loads the runtime (wasm, index, model, chat) — nothing heavy before the
// reader asks for it. The navbar's search box asks it for the panel through host.js; on a
// page that is not a docs page the SearchBar mounts it itself (`fallback`: no floating
// launcher, no selection button there). A docs page's address with `?ask=` opens the panel
// asking that question (shared-question.js); one with a citation's `?passage=` highlights
// that passage (the panel's passage.js).
import React, { useCallback, useEffect, useRef, useState } from 'react';
import { usePluginData } from '@docusaurus/useGlobalData';
import { useLocation } from '@docusaurus/router';
import { translate } from '@docusaurus/Translate';
import useTextSelection from './useTextSelection';
import { emit } from './events';
import { docsWidgetCount, registerDocsWidget, subscribe, takeRequest } from './host';
import { keepKeys, useTopLayer } from './layer';
import { takeSharedQuestion } from './shared-question';
import './styles.css';

const PLUGIN = 'docusaurus-plugin-lectern';
const OPEN_KEY = 'lectern:panel-open:v1';

let panelChunk = null;
const loadPanel = () => {
  panelChunk ??= import('@theme/LecternPanel').catch((e) => {
    panelChunk = null;
    throw e;
  });
  return panelChunk;
};

function rememberOpen(open) {
  try {
    window.sessionStorage.setItem(OPEN_KEY, open ? '1' : '0');
  } catch {
    // Storage disabled: the panel just will not reopen after a reload.
  }
}

function wasOpen() {
  try {
    return window.sessionStorage.getItem(OPEN_KEY) === '1';
  } catch {
    return false;
  }
}

function ChatIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm3 6.5a1.5 1.5 0 1 0 0 .01Zm5 0a1.5 1.5 0 1 0 0 .01Zm5 0a1.5 1.5 0 1 0 0 .01Z" />
    </svg>
  );
}

/** The floating launcher's place: its corner (the launcher option) and offsets, in pixels. */
function launcherStyle({ position, offsetX, offsetY }) {
  const [vertical, horizontal] = position.split('-');
  return { [vertical]: offsetY, [horizontal]: offsetX };
}

export default function LecternWidget({ pluginId, fallback = false }) {
  const config = /** @type {import('docusaurus-plugin-lectern').ClientOptions} */ (usePluginData(PLUGIN, pluginId));
  const floating = !fallback && config.launcher.type === 'floating';
  const [open, setOpen] = useState(false);
  const [Panel, setPanel] = useState(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [request, setRequest] = useState(null);
  const [shortcutLabel, setShortcutLabel] = useState('Ctrl+I');
  const root = useRef(null);
  const launcher = useRef(null);
  const returnFocus = useRef(null);
  const focusAfterClose = useRef(false);
  const placeholder = useRef(null);
  // The site may rename the selection button (askAboutSelection: {label}), e.g. when its own
  // selection menu has an "Ask about this"; it is placed clear of the selection at its width.
  const askSelection = /** @type {{label?: string}} */ (config.askAboutSelection).label || translate({ id: 'lectern.selection.ask', message: 'Ask about this', description: 'Button shown next to selected text' });
  const { selection, position, dismiss } = useTextSelection({ enabled: Boolean(config.askAboutSelection) && !fallback, minChars: config.limits.selectionMinChars, width: 48 + 8 * askSelection.length });

  const fetchPanel = useCallback(() => {
    loadPanel().then(
      (m) => setPanel(() => m.default),
      (e) => {
        console.error('lectern: the chat panel could not be loaded', e);
        setLoadFailed(true);
      },
    );
  }, []);

  /** Opens the panel: with `selected`, asking about that text; with `ask.question`, asking
   * that (the search box's "Ask AI"). */
  const show = useCallback(
    (selected, ask = null) => {
      if (!open) {
        const active = document.activeElement;
        returnFocus.current = active && active !== document.body ? active : null;
        emit('open', { selection: Boolean(selected) });
      }
      setLoadFailed(false);
      fetchPanel();
      // A new request object each time: the panel focuses its input / takes the selection
      // or the question.
      setRequest({ id: Date.now() + Math.random(), selection: selected ?? null, question: ask?.question ?? null, scope: ask?.scope ?? null, shared: Boolean(ask?.shared) });
      setOpen(true);
      rememberOpen(true);
    },
    [open, fetchPanel],
  );

  // A docs page's widget says it is there (the SearchBar then mounts none), and every
  // widget takes the navbar's requests for the panel (a fallback only while it is the one).
  useEffect(() => (fallback ? undefined : registerDocsWidget()), [fallback]);
  useEffect(() => {
    const take = () => {
      if (fallback && docsWidgetCount() > 0) return;
      const request = takeRequest();
      if (request) show(null, request);
    };
    take();
    return subscribe(take);
  }, [fallback, show]);
  useTopLayer(placeholder, open && !Panel);

  const hide = useCallback(({ restoreFocus = true } = {}) => {
    setOpen(false);
    rememberOpen(false);
    focusAfterClose.current = restoreFocus;
    emit('close');
  }, []);

  // Focus goes back where it was (or to the launcher) once the panel is gone.
  useEffect(() => {
    if (open || !focusAfterClose.current) return;
    focusAfterClose.current = false;
    const target = returnFocus.current?.isConnected ? returnFocus.current : launcher.current;
    target?.focus?.();
  }, [open]);

  // After a reload, a panel that was open opens again (with its conversation).
  useEffect(() => {
    root.current?.setAttribute('data-lectern-hydrated', ''); // for tests: handlers are live
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the platform is known only in the browser: the first render must match the server's HTML
    if (/Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)) setShortcutLabel('⌘I');
    // A link's `?ask=` (docs pages only: a fallback widget leaves it to the page's own).
    const shared = fallback ? null : takeSharedQuestion();
    if (shared !== null) show(null, { question: shared, shared: true });
    else if (wasOpen()) show(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration: show() changes with `open`, and running again on each open would send the panel a second request
  }, []);

  // An address that names a citation's passage (the core's passageLink: a citation followed
  // here, opened in a new tab, or shared), on load and after each client-side navigation: the
  // highlighter is in the panel's chunk, loaded only for such an address. It takes the name
  // out of the address; `location` is new on every navigation, even to the same address.
  const location = useLocation();
  useEffect(() => {
    const rule = config.passageLink;
    if (rule && new URLSearchParams(location.search).has(rule.param)) loadPanel().then((m) => m.followPassage(rule), () => {});
  }, [location, config.passageLink]);

  // Ctrl/Cmd+I: opens the panel (asking about the selection, if there is one), focuses it
  // when it is open elsewhere, closes it when the focus is already inside.
  useEffect(() => {
    if (!config.shortcut) return undefined;
    const onKeyDown = (e) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || !(e.code === 'KeyI' || e.key?.toLowerCase() === 'i')) return;
      e.preventDefault();
      if (open && document.activeElement?.closest('[data-lectern-panel]')) hide();
      else show(selection?.text ?? null);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [config.shortcut, open, selection, show, hide]);

  const label = translate({ id: 'lectern.launcher.label', message: 'Ask', description: 'Text of the button that opens the Lectern chat panel' });
  const title = translate(
    { id: 'lectern.launcher.title', message: 'Ask a question about this site ({shortcut})', description: 'Tooltip and accessible name of the launcher button' },
    { shortcut: shortcutLabel },
  );

  return (
    <div ref={root} className="lectern" data-lectern-root="" data-lectern-fallback={fallback ? '' : undefined}>
      {floating && (
      <button
        ref={launcher}
        type="button"
        className="lectern-launcher"
        style={launcherStyle(config.launcher)}
        hidden={open}
        aria-label={config.shortcut ? title : label}
        title={config.shortcut ? title : undefined}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls="lectern-panel"
        aria-keyshortcuts={config.shortcut ? 'Control+I Meta+I' : undefined}
        onClick={() => show(null)}
        onPointerEnter={fetchPanel}
        onFocus={fetchPanel}>
        <ChatIcon />
        <span className="lectern-launcher__label">{label}</span>
      </button>
      )}
      {selection && position && (
        <button
          type="button"
          className="lectern-ask-selection"
          data-lectern-selection-button=""
          style={{ top: position.top, left: position.left }}
          // Keep the page's selection while the button is pressed.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            const { text } = selection;
            dismiss();
            show(text);
          }}>
          <ChatIcon />
          {askSelection}
        </button>
      )}
      {Panel ? (
        <Panel open={open} onClose={hide} config={config} request={request} docsPage={!fallback} />
      ) : (
        open && (
          <div
            ref={placeholder}
            id="lectern-panel"
            className="lectern-panel lectern-panel--loading"
            data-lectern-panel=""
            popover="manual"
            role="dialog"
            aria-label={label}
            aria-busy={!loadFailed}
            onKeyUp={keepKeys}
            onKeyDown={(e) => {
              keepKeys(e);
              if (e.key === 'Escape') hide();
            }}>
            {loadFailed ? (
              <p role="alert">
                {translate({ id: 'lectern.panel.loadFailed', message: 'The assistant could not be loaded. Check your connection and try again.' })}{' '}
                <button type="button" className="lectern-button" onClick={() => show(request?.selection ?? null)}>
                  {translate({ id: 'lectern.action.retry', message: 'Retry' })}
                </button>{' '}
                <button type="button" className="lectern-button" onClick={() => hide()}>
                  {translate({ id: 'lectern.action.close', message: 'Close' })}
                </button>
              </p>
            ) : (
              <p className="lectern-muted">{translate({ id: 'lectern.panel.loading', message: 'Loading…' })}</p>
            )}
          </div>
        )
      )}
    </div>
  );
}
