// The panel's conversation with the chat layer (www/lectern-js/chat.d.ts): waits for the
// runtime, sends a question or a retry, streams its events into the live answer, stops it,
// starts a new conversation, and keeps the shown messages and the screen reader's
// announcement in step. It holds no layout: the panel's parts draw what it returns.
import { useCallback, useEffect, useRef, useState } from 'react';
import { strings } from './strings';
import { emit } from '../LecternWidget/events';

/** @typedef {import('lectern/chat').Message} Message */
/** @typedef {import('lectern/chat').ChatEvent} ChatEvent */
/**
 * The answer being streamed (Message.js draws it like a stored one).
 * @typedef {Omit<Partial<Message>, 'status'> & {id: string, role: 'assistant', content: string, status: 'streaming', phase: 'retrieving' | 'generating', slow: boolean, slowMessage?: string}} LiveAnswer
 */
/** @typedef {{id: string, role: 'user', content: string, mode: 'global' | 'selected', selection?: string}} LiveQuestion */
/** @typedef {{user: LiveQuestion | null, answer: LiveAnswer}} Live */
/**
 * How a turn ended: "answered"; "kept" (it failed, and the conversation keeps the question
 * and the error); "refused" (refused before anything was kept: validation, rate limit);
 * "unavailable" (the runtime never loaded).
 * @typedef {'answered' | 'kept' | 'refused' | 'unavailable'} Outcome
 */

/**
 * `followUps`: after each answer, ask the chat layer for the follow-up questions the site
 * answers (the plugin's `followUpSuggestions`).
 * @param {{session: import('./session').Session, persona: string, followUps?: boolean}} options
 */
export default function useAnswerStream({ session, persona, followUps: suggest = true }) {
  const s = strings();
  // The runtime once `session` is ready (null before, and at once when the session changes).
  const [loaded, setLoaded] = useState(/** @type {{session: import('./session').Session, runtime: import('./session').Runtime} | null} */ (null));
  const runtime = loaded?.session === session ? loaded.runtime : null;
  const [messages, setMessages] = useState(/** @type {Message[]} */ ([]));
  const [live, setLive] = useState(/** @type {Live | null} */ (null));
  const [busy, setBusy] = useState(false);
  const [retrying, setRetrying] = useState(/** @type {string | null} */ (null));
  const [error, setError] = useState(/** @type {{code?: string, message: string, suggestion: string} | null} */ (null));
  const [notice, setNotice] = useState(/** @type {string | null} */ (null));
  const [announce, setAnnounce] = useState('');
  // The follow-up questions under the answer `messageId` (the last one), once chosen.
  const [followUps, setFollowUps] = useState(/** @type {{messageId: string, items: import('lectern/chat').FollowUp[]} | null} */ (null));
  const controller = useRef(/** @type {AbortController | null} */ (null));

  const sync = useCallback((/** @type {import('./session').Runtime} */ rt) => setMessages(rt.chat.conversation.messages), []);

  useEffect(() => {
    let alive = true;
    session.ready.then(
      (rt) => {
        if (!alive) return;
        setLoaded({ session, runtime: rt });
        sync(rt);
        if (rt.chat.storageNotice) setNotice(rt.chat.storageNotice);
      },
      () => {},
    );
    return () => {
      alive = false;
    };
  }, [session, sync]);

  /**
   * Sends a question (in selected mode when `selection` is given) or retries the last one,
   * retrieving within `filters` (the docs versions in scope; undefined: all).
   * Returns null when nothing was sent (busy, or an empty question), else the turn, which
   * resolves to its Outcome once the answer has ended.
   * @param {{question: string, selection?: string | null, retry?: boolean, filters?: {versions?: string[]}}} request
   * @returns {Promise<Outcome> | null}
   */
  const ask = useCallback(
    ({ question, selection = null, retry = false, filters = undefined }) => {
      if (busy) return null;
      const text = question.trim();
      const mode = !retry && selection ? 'selected' : 'global';
      if (!retry && !text) return null;
      setError(null);
      setFollowUps(null);
      setBusy(true);
      const abort = new AbortController();
      controller.current = abort;
      /** @type {LiveQuestion | null} */
      const user = retry ? null : { id: 'lectern-live-question', role: 'user', content: text, mode, selection: mode === 'selected' ? selection : undefined };
      /** @type {LiveAnswer} */
      let answer = { id: 'lectern-live-answer', role: 'assistant', content: '', sources: [], status: 'streaming', phase: 'retrieving', slow: false };
      const update = (/** @type {Partial<LiveAnswer>} */ patch) => {
        answer = { ...answer, ...patch };
        setLive((l) => (l ? { ...l, answer } : l));
      };
      setLive({ user, answer });
      setAnnounce(s.thinking);

      /** @param {ChatEvent} event */
      const onEvent = (event) => {
        switch (event.type) {
          case 'status':
            if (event.state === 'slow') update({ slow: true, slowMessage: event.message });
            else update({ phase: event.state });
            break;
          case 'sources':
            update({ sources: event.citations });
            break;
          case 'token':
            update({ content: answer.content + event.content, phase: 'generating', slow: false });
            break;
          case 'notice':
            setNotice(event.message);
            break;
          default:
        }
      };

      return (async () => {
        let rt;
        try {
          rt = await session.ready;
        } catch {
          // The status bar says why; the caller puts the question back into the box.
          setLive(null);
          setBusy(false);
          return 'unavailable';
        }
        const before = rt.chat.conversation.messages.length;
        const lastAssistant = rt.chat.conversation.messages.at(-1);
        if (retry && lastAssistant?.role === 'assistant') setRetrying(lastAssistant.id);
        if (!retry) emit('question', { question: text, mode, selection: mode === 'selected' ? selection : null, persona });
        try {
          const options = { onEvent, signal: abort.signal, filters };
          const chatPersona = /** @type {import('lectern/chat').AskRequest['persona']} */ (persona);
          const response = retry
            ? await rt.chat.retry(options)
            : await rt.chat.ask({ question: text, mode, persona: chatPersona, ...(mode === 'selected' ? { selection } : {}) }, options);
          const message = response.message ?? /** @type {Partial<Message>} */ ({});
          setAnnounce(`${s.answerDone} ${response.answer ?? ''}`.slice(0, 2000));
          emit('answer', {
            messageId: message.id,
            question: text || null,
            answer: response.answer,
            sources: response.sources,
            confidence: response.confidence,
            kind: response.kind,
            status: response.status,
            mode: response.mode_used,
          });
          if (suggest && message.id) {
            // Searched after the answer, so they never hold it up; a newer question drops them.
            rt.chat.followUps(response, { signal: abort.signal }).then(
              (items) => !abort.signal.aborted && setFollowUps({ messageId: message.id, items }),
              () => {},
            );
          }
          return 'answered';
        } catch (e) {
          const after = rt.chat.conversation.messages.length;
          const stored = after !== before || retry;
          if (!stored) {
            // Refused before anything was kept (validation, rate limit): the caller puts the
            // question back into the box, with the reason under it.
            setError({ code: e?.code, message: e?.message ?? String(e), suggestion: e?.suggestion ?? '' });
            setAnnounce(e?.message ?? '');
          } else {
            setAnnounce(`${s.errorTitle} ${e?.message ?? ''}`);
          }
          emit('error', { code: e?.code ?? 'INTERNAL', message: e?.message ?? String(e), detail: e?.detail ?? null });
          return stored ? 'kept' : 'refused';
        } finally {
          sync(rt);
          setLive(null);
          setRetrying(null);
          setBusy(false);
          controller.current = null;
        }
      })();
    },
    [busy, persona, session, sync, s, suggest],
  );

  /** Stops the answer being streamed; what has arrived stays. */
  const stop = useCallback(() => {
    controller.current?.abort();
    runtime?.chat.stop();
  }, [runtime]);

  const newConversation = useCallback(() => {
    controller.current?.abort();
    if (runtime) {
      runtime.chat.newConversation();
      sync(runtime);
    }
    setError(null);
    setFollowUps(null);
    setAnnounce('');
    emit('new-conversation');
  }, [runtime, sync]);

  const clearError = useCallback(() => setError(null), []);
  const dismissNotice = useCallback(() => setNotice(null), []);

  return { runtime, messages, live, busy, retrying, error, clearError, notice, dismissNotice, announce, followUps, ask, stop, newConversation };
}
