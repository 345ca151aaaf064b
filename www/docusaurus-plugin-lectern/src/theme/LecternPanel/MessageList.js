// The conversation as the reader sees it: the welcome (with the site's starter questions, or
// the quick questions about a selection), the stored messages, a question left without an
// answer (to retry), and the question and answer being streamed. It follows the newest text
// unless the reader has scrolled up.
import React, { useEffect, useRef } from 'react';
import Message from '@theme/LecternPanel/Message';
import FollowUps from './FollowUps';
import { isProvisional } from './provisional';
import { strings } from './strings';
import { emit } from '../LecternWidget/events';
import { questionLink } from './page';

/** The link that asks `question` (a stored question) again on its page, or null: a question
 * about a selection, or asked before pages were kept, has none. */
function shareLink(question) {
  if (question?.role !== 'user' || question.mode === 'selected' || !question.page?.url) return null;
  return questionLink(question.page.url, question.content);
}

/**
 * The quick questions are off while `disabled`; `reason` (the id and text of the words saying
 * why, when the reader should know) describes them. `onAskPage`: on a docs page, "Ask about
 * this page" first.
 * @param {{config: import('docusaurus-plugin-lectern').ClientOptions, selection: string | null, onAsk: (question: string) => void, onAskPage?: (() => void) | null, disabled: boolean, reason: {id: string, text: string} | null}} props
 */
function Welcome({ config, selection, onAsk, onAskPage, disabled, reason }) {
  const s = strings();
  const questions = selection ? [s.explain, s.simplify, s.example] : config.starterQuestions;
  return (
    <div className="lectern-welcome">
      {!selection && <p>{config.welcome || s.welcome}</p>}
      {!selection && onAskPage && (
        <p className="lectern-starters lectern-starters--page">
          <button
            type="button"
            className="lectern-chip lectern-chip--page"
            data-lectern-ask-page=""
            disabled={disabled || Boolean(reason)}
            aria-describedby={reason?.id}
            title={reason?.text}
            onClick={onAskPage}>
            {s.aboutPage}
          </button>
        </p>
      )}
      {questions.length > 0 && (
        <>
          {!selection && <p className="lectern-welcome__title">{s.starters}</p>}
          <ul className="lectern-starters">
            {questions.map((q) => (
              <li key={q}>
                <button
                  type="button"
                  className="lectern-chip"
                  disabled={disabled || Boolean(reason)}
                  aria-describedby={reason?.id}
                  title={reason?.text}
                  onClick={() => onAsk(q)}>
                  {q}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * Props: open, config, messages (the stored messages to show), live (the question and answer
 * being streamed, or null), busy, welcomeBlocked (why the welcome's questions cannot be asked
 * now, which the reader should know: the words' id and text; or null), selection, texts (the
 * chat layer's fixed texts), retryActions (the core's actions with which an answer offers
 * Retry — not a daily limit's; before the runtime is there, every one), feedback (message id → rating), offline (the browser is offline)
 * offlinePending and networkActions (the core's words for an action that waits for the
 * network, and which actions do), pending (the
 * last answer will be asked again once back online), followUps (the questions suggested under
 * the last answer, or null), onRate(message, rating, reason?), onAsk(question),
 * onFollowUp(question), onRetry(), onNavigate(), onCite(message, n) (a citation of an answer
 * was followed), semanticReady (semantic search works now) and onAskAgain(question message)
 * (the last answer is provisional: its question asked again).
 * @param {{
 *   open: boolean,
 *   config: import('docusaurus-plugin-lectern').ClientOptions,
 *   messages: import('lectern/chat').Message[],
 *   live: import('./useAnswerStream').Live | null,
 *   busy: boolean,
 *   welcomeBlocked: {id: string, text: string} | null,
 *   selection: string | null,
 *   offline: boolean,
 *   offlinePending: string,
 *   networkActions: readonly string[],
 *   pending: boolean,
 *   texts?: {refusalSuggestion?: string, slow?: string},
 *   retryActions?: readonly string[],
 *   feedback: Record<string, 'up' | 'down'>,
 *   followUps?: {messageId: string, items: import('lectern/chat').FollowUp[]} | null,
 *   onFollowUp?: (question: string) => void,
 *   onRate: (message: import('lectern/chat').Message, rating: 'up' | 'down' | null, reason?: string) => void,
 *   onAsk: (question: string) => void,
 *   onAskPage?: (() => void) | null,
 *   onRetry: () => void,
 *   onNavigate: () => void,
 *   onCite: (message: import('lectern/chat').Message, n: number) => void,
 *   semanticReady?: boolean,
 *   onAskAgain?: (question: import('lectern/chat').Message) => void,
 * }} props
 */
export default function MessageList({ open, config, messages, live, busy, welcomeBlocked, selection, texts, retryActions, feedback, offline, offlinePending, networkActions, pending, followUps = null, onFollowUp, onRate, onAsk, onAskPage = null, onRetry, onNavigate, onCite, semanticReady = false, onAskAgain }) {
  const s = strings();
  const list = useRef(/** @type {HTMLDivElement | null} */ (null));
  const stick = useRef(true);
  const streaming = useRef(false);
  const last = messages.at(-1);
  // A question left without an answer (e.g. the tab was reloaded mid-answer) can be retried.
  const orphan = !busy && !live && last?.role === 'user';

  // Keep the newest text in view while it streams, unless the reader scrolled up; a new
  // question brings it back into view.
  useEffect(() => {
    if (live && !streaming.current) stick.current = true;
    streaming.current = Boolean(live);
    const el = list.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
    // Suggestions arriving under the last answer come into view too.
  }, [messages, live, open, followUps]);

  // A status line that comes or goes above (offline, the model's state) resizes the list:
  // the newest text stays in view.
  useEffect(() => {
    const el = list.current;
    if (!el || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={list}
      className="lectern-messages"
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}>
      {!messages.length && !live && <Welcome config={config} selection={selection} disabled={busy} reason={welcomeBlocked} onAsk={onAsk} onAskPage={onAskPage} />}
      {messages.map((m, i) => (
        <Message
          key={m.id}
          message={m}
          texts={texts}
          feedback={feedback[m.id] ?? null}
          onFeedback={(rating, reason) => onRate(m, rating, reason)}
          onCopy={() => emit('copy', { messageId: m.id, answer: m.content })}
          link={shareLink(messages[i - 1])}
          onRetry={onRetry}
          canRetry={!busy && i === messages.length - 1 && (!m.error?.action || !retryActions || retryActions.includes(m.error.action))}
          onAskAgain={semanticReady && onAskAgain && !busy && i === messages.length - 1 && isProvisional(m) && messages[i - 1]?.role === 'user' ? () => onAskAgain(messages[i - 1]) : null}
          offline={offline}
          offlinePending={offlinePending}
          networkActions={networkActions}
          pending={pending && i === messages.length - 1}
          onNavigate={onNavigate}
          onCite={(n) => onCite(m, n)}
        />
      ))}
      {!live && followUps && last?.id === followUps.messageId && <FollowUps items={followUps.items} disabled={busy} onAsk={onFollowUp ?? onAsk} />}
      {orphan && (
        <Message
          message={{ id: 'lectern-orphan', role: 'assistant', content: '', status: 'error', error: { message: s.errorTitle, suggestion: '' } }}
          canRetry
          onRetry={onRetry}
          offline={offline}
          offlinePending={offlinePending}
          networkActions={networkActions}
        />
      )}
      {live?.user && <Message message={live.user} />}
      {live && <Message message={live.answer} texts={texts} onNavigate={onNavigate} />}
      {messages.length > 0 && !live && selection && <Welcome config={config} selection={selection} disabled={busy} reason={welcomeBlocked} onAsk={onAsk} />}
    </div>
  );
}
