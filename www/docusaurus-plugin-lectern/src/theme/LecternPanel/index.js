// The chat panel, loaded the first time the reader opens the widget. It starts the Lectern
// runtime (session.js) and composes its parts:
//
//   Header.js           title, persona picker, new conversation, close
//   StatusBar.js        index and model loading, load errors, the chat layer's notices
//   MessageList.js      welcome, the conversation (Message.js, Markdown.js), the live answer
//   Composer.js         selection quote, question box, send / stop
//   useAnswerStream.js  the conversation with the chat layer: ask, stream, stop, retry
//   useFeedback.js      the reader's ratings of answers
//   useDialog.js        Escape, and the modal sheet on narrow screens
//   useTurnstile.js     the site's Turnstile check, when it has one (its widget's place is here)
//   provisional.js      an answer found by keywords alone with weak evidence: no Retry, "ask again"
//
// This file keeps what spans the parts: the question box's text, the selection asked about,
// the docs versions answers come from (the page's, or what the reader chose here or in the
// search box, whose "Ask AI" asks through a request), the focus, why nothing can be asked
// (the controls say it), and what waits for the network: offline, a question whose answer
// needed it is asked again once the browser is back online (and a failed index or model
// load is tried again). The chat layer's contract is www/lectern-js/chat.d.ts. The panel is
// a popover in the browser's top layer (LecternWidget/layer.js), above a page's own
// floating widgets.
import React, { useCallback, useEffect, useId, useMemo, useReducer, useRef, useState, useSyncExternalStore } from 'react';
import { getSession, resetSession } from './session';
import { strings, format } from './strings';
import useAnswerStream from './useAnswerStream';
import useFeedback from './useFeedback';
import useDialog from './useDialog';
import useTurnstile from './useTurnstile';
import Header, { usePersona } from './Header';
import StatusBar from './StatusBar';
import MessageList from './MessageList';
import Composer, { selectionProblem } from './Composer';
import { needsNetwork } from './Failure';
import { ScopeToggle, scopeFilters, useDocsScope } from '../LecternSearch/scope';
import { useTopLayer } from '../LecternWidget/layer';
import { recordUsage } from '../LecternWidget/usage';
import { currentPage } from './page';
import { hasFaultNotes } from './provisional';
import './styles.css';

/** Whether `message` (an answer) would be whole if asked again with the network back: it
 * failed for want of it, was given in place of what needed it, or rests on part of the index. */
function waitsForNetwork(message, /** @type {readonly string[]} */ networkActions) {
  if (message?.role !== 'assistant') return false;
  if (message.error) return needsNetwork(message.error.action, networkActions);
  return hasFaultNotes(message);
}


/**
 * Props: open, onClose({restoreFocus}), config (the plugin's client options), request
 * ({id, selection, question, scope, shared}: a new object each time the widget is opened,
 * asked about a selection, or given a question by the search box or a link's `?ask=`),
 * docsPage (the panel is on a docs page: it offers "Ask about this page").
 * @param {import('@theme/LecternPanel').Props} props
 */
// For the widget: a page whose address names a citation's passage highlights it.
export { followPassage } from './passage';

export default function LecternPanel({ open, onClose, config, request, docsPage = false }) {
  const s = strings();
  const titleId = useId();
  const statusId = useId();
  const selectionWarningId = useId();
  // getSession keeps one session per page and configuration; after a failed index load,
  // resetSession() drops it and this re-render starts a new one.
  const [, retryIndex] = useReducer((/** @type {number} */ n) => n + 1, 0);
  const session = getSession(config);
  const state = useSyncExternalStore(session.subscribe, session.getState, session.getState);
  const [persona, choosePersona] = usePersona(config);
  const turnstileBox = useRef(/** @type {HTMLDivElement | null} */ (null));
  const turnstile = useTurnstile(config.turnstile, turnstileBox, open);
  const { runtime, messages, live, busy, retrying, error, clearError, notice, dismissNotice, announce, followUps, ask, stop, newConversation } = useAnswerStream({
    session,
    persona,
    turnstile,
    followUps: config.followUpSuggestions !== false,
  });
  const conversationId = runtime?.chat.conversation.id;
  const { feedback, rate, reset: resetFeedback } = useFeedback(messages, conversationId);
  const [input, setInput] = useState('');
  const [selection, setSelection] = useState(/** @type {string | null} */ (null));
  // The last answer is to be asked again once back online; when the last question was asked.
  const [pending, setPending] = useState(false);
  const panel = useRef(/** @type {HTMLElement | null} */ (null));
  const { narrow, onKeyDown, onKeyUp } = useDialog(panel, { open, onClose, shortcut: config.shortcut });
  useTopLayer(panel, open);
  // The versions answers come from: the page's (null), all, or those the search box pinned.
  const scope = useDocsScope(config.contextualSearch);
  const [scopeChoice, setScopeChoice] = useState(/** @type {import('../LecternSearch/scope').ScopeChoice} */ (null));
  const filters = scopeFilters(scope, scopeChoice);
  const textarea = useRef(/** @type {HTMLTextAreaElement | null} */ (null));
  // The core's limits, passed by the plugin at build time (the runtime may still be loading).
  const limits = runtime?.limits ?? { question: config.limits.questionMaxChars, selectionMin: config.limits.selectionMinChars, selectionMax: config.limits.selectionMaxChars };

  // Each open / "Ask about this" brings the focus to the question box; the search box's
  // "Ask AI" asks its question, in the scope the search had.
  const asked = useRef(/** @type {number | null} */ (null));
  useEffect(() => {
    if (!open || !request) return;
    if (request.selection) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- a request is an event from the widget (a new object per "Ask about this"): its selection is taken once, then the reader may trim or remove it
      setSelection(request.selection);
      clearError();
    }
    if (typeof request.question === 'string' && asked.current !== request.id) {
      asked.current = request.id;
      setScopeChoice(request.scope ?? null);
      const { question, shared } = request;
      const turn = ask({ question, filters: scopeFilters(scope, request.scope ?? null), page: currentPage(), shared });
      // Not sent (an answer is streaming) or refused before it was kept: the question waits
      // in the box.
      if (!turn) setInput(question);
      else turn.then((outcome) => (outcome === 'refused' || outcome === 'unavailable') && setInput(question));
    }
    const id = requestAnimationFrame(() => textarea.current?.focus());
    return () => cancelAnimationFrame(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a request is handled once, when it arrives: `ask` and `scope` change as the answer streams and the reader moves
  }, [open, request, clearError]);

  /** Asks a suggested follow-up: a question of the conversation, about the site (not the
   * selection, if one is still quoted). */
  const askFollowUp = useCallback(
    (/** @type {string} */ question) => {
      ask({ question, filters, page: currentPage() });
    },
    [ask, filters],
  );

  /** Sends the question (about the selection, if one is quoted) or retries the last one. */
  const send = useCallback(
    (/** @type {string} */ question, retry = false) => {
      const turn = ask({ question, selection, retry, filters, page: currentPage() });
      if (!turn) return;
      setPending(false);
      if (!retry) setInput('');
      turn.then(async (outcome) => {
        // Offline, an answer that needed the network is asked again once it is back.
        if ((outcome === 'answered' || outcome === 'kept') && navigator.onLine === false) {
          const rt = await session.ready;
          setPending(waitsForNetwork(rt.chat.conversation.messages.at(-1), config.messages.networkActions));
        }
        if (retry) return;
        if (outcome === 'answered' && selection) setSelection(null);
        // Refused before anything was kept, or no runtime: the question goes back into the box.
        else if (outcome === 'refused' || outcome === 'unavailable') setInput(question);
      });
    },
    [ask, selection, filters, session, config.messages.networkActions],
  );
  const retryLast = useCallback(() => send('', true), [send]);

  /** A provisional answer's question, asked again in the conversation now that semantic
   * search is ready. */
  const askAgain = useCallback(
    (/** @type {import('lectern/chat').Message} */ question) => {
      ask({ question: question.content, selection: question.selection ?? null, filters, page: currentPage() });
    },
    [ask, filters],
  );

  /** "Ask about this page": a question on the page's title, retrieved from the page alone. */
  const askAboutPage = useCallback(() => {
    const page = currentPage(true);
    ask({ question: format.aboutPage(page.title), filters, page });
  }, [ask, filters]);

  const onStop = useCallback(() => {
    stop();
    textarea.current?.focus(); // the Stop button is about to go: keep the focus in the panel
  }, [stop]);

  const onNewConversation = useCallback(() => {
    newConversation();
    resetFeedback();
    textarea.current?.focus();
  }, [newConversation, resetFeedback]);

  const onNavigate = useCallback(() => {
    // On a narrow screen the sheet covers the page: close it to show the section.
    if (narrow) onClose({ restoreFocus: false });
  }, [narrow, onClose]);

  const onCite = useCallback(
    (/** @type {import('lectern/chat').Message} */ message, /** @type {number} */ n) => {
      const url = message.sources?.find((source) => source.n === n)?.url;
      if (url) recordUsage({ kind: 'citation_click', conversationId, messageId: message.id, url, n });
    },
    [conversationId],
  );

  const shown = useMemo(() => messages.filter((m) => m.id !== retrying), [messages, retrying]);

  // Back online: what waited for the network is done now — the pending question asked again
  // (it waits its turn if the core's rate limit says so), a failed index or model load tried
  // again.
  const { online } = state;
  useEffect(() => {
    if (!online) return undefined;
    if (state.phase === 'error' && needsNetwork(state.error?.action, config.messages.networkActions)) {
      resetSession();
      retryIndex();
    }
    session.retryModelIfOffline();
    if (!pending) return undefined;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- coming back online is an event from the browser: the pending question is asked once
    setPending(false);
    send('', true);
    return undefined;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the browser comes back online (or a question starts waiting while it is): not on every state change
  }, [online, pending]);

  // Why nothing can be asked (the controls point to the words that say it), or null.
  const unavailable = state.phase === 'error' ? { id: statusId, text: state.error?.message ?? s.indexFailed } : null;
  const selectionText = selectionProblem(selection, limits);
  const welcomeBlocked = unavailable ?? (selectionText ? { id: selectionWarningId, text: selectionText } : null);

  return (
    <section
      ref={panel}
      id="lectern-panel"
      className="lectern-panel"
      data-lectern-panel=""
      popover="manual"
      role="dialog"
      aria-modal={narrow ? 'true' : 'false'}
      aria-labelledby={titleId}
      hidden={!open}
      onKeyDown={onKeyDown}
      onKeyUp={onKeyUp}>
      <Header
        titleId={titleId}
        config={config}
        persona={persona}
        onPersona={choosePersona}
        personaHelp={runtime?.personas?.find((p) => p.id === persona)?.modifier}
        canReset={Boolean(runtime) && (shown.length > 0 || busy)}
        onNewConversation={onNewConversation}
        onClose={onClose}
      />
      <ScopeToggle scope={scope} choice={scopeChoice} onChange={setScopeChoice} className="lectern-panel__scope" />
      <StatusBar
        state={state}
        onRetryIndex={() => {
          resetSession();
          retryIndex();
        }}
        onRetryModel={session.retryModel}
        messages={config.messages}
        statusId={statusId}
        notice={notice}
        onDismissNotice={dismissNotice}
      />
      <MessageList
        open={open}
        config={config}
        messages={shown}
        live={live}
        busy={busy}
        welcomeBlocked={welcomeBlocked}
        selection={selection}
        texts={runtime?.texts}
        retryActions={runtime?.retryActions}
        feedback={feedback}
        offline={!online}
        offlinePending={config.messages.offlinePending}
        networkActions={config.messages.networkActions}
        pending={pending && !online}
        followUps={followUps}
        onFollowUp={askFollowUp}
        onRate={rate}
        onAsk={send}
        onAskPage={docsPage ? askAboutPage : null}
        onRetry={retryLast}
        semanticReady={state.model === 'ready'}
        onAskAgain={askAgain}
        onNavigate={onNavigate}
        onCite={onCite}
      />
      <Composer
        inputRef={textarea}
        open={open}
        input={input}
        onInput={setInput}
        selection={selection}
        onSelection={setSelection}
        limits={limits}
        error={error}
        busy={busy}
        unavailable={unavailable}
        selectionWarningId={selectionWarningId}
        onAsk={send}
        onStop={onStop}
      />
      {config.turnstile && <div ref={turnstileBox} className="lectern-turnstile" data-lectern-turnstile="" />}
      <p className="lectern-footer">{config.chat.endpoint ? s.disclaimer : s.disclaimerExtractive}</p>
      <div className="lectern-sr-only" role="status" aria-live="polite" aria-atomic="true">
        {announce}
      </div>
    </section>
  );
}
