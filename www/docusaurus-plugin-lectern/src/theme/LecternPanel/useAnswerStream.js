// The panel's conversation with the chat layer (www/lectern-js/chat.d.ts): waits for the
// runtime, sends a question or a retry, streams its events into the live answer, stops it,
// starts a new conversation, and keeps the shown messages and the screen reader's
// announcement in step; it records the turn's usage events (question asked once the core
// admits it, answered or refused, error). It holds no layout: the panel's parts draw what it
// returns.
import { useCallback, useEffect, useRef, useState } from 'react';
import { strings } from './strings';
import { sourceTitle } from './links';
import { emit } from '../LecternWidget/events';
import { recordUsage } from '../LecternWidget/usage';

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
 * @param {{session: import('./session').Session, persona: string}} options
 */
export default function useAnswerStream({ session, persona }) {
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
   * retrieving within `filters` (the docs versions in scope; undefined: all), from `page`
   * (the page the reader is on: its sections rank higher, and the LLM is told it).
   * Returns null when nothing was sent (busy, or an empty question typed), else the turn,
   * which resolves to its Outcome once the answer has ended. A `shared` question (a link's
   * `?ask=`) goes to the core even when empty, so that the reader sees why it is refused.
   * @param {{question: string, selection?: string | null, retry?: boolean, filters?: {versions?: string[]}, page?: import('lectern/chat').AskRequest['page'], shared?: boolean}} request
   * @returns {Promise<Outcome> | null}
   */
  const ask = useCallback(
    ({ question, selection = null, retry = false, filters = undefined, page = undefined, shared = false }) => {
      if (busy) return null;
      const text = question.trim();
      const mode = !retry && selection ? 'selected' : 'global';
      if (!retry && !text && !shared) return null;
      setError(null);
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
      /** @type {string | undefined} */
      let conversationId;
      // The core tells its first status once it has admitted the question (valid, within
      // the rate limit): then it counts as asked. A retry asks nothing new.
      let admitted = retry;

      /** @param {ChatEvent} event */
      const onEvent = (event) => {
        if (!admitted && event.type === 'status') {
          admitted = true;
          recordUsage({ kind: 'question', conversationId, question: text, mode, persona: /** @type {import('lectern/chat').PersonaId} */ (persona) });
        }
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
        conversationId = rt.chat.conversation.id;
        const before = rt.chat.conversation.messages.length;
        const lastAssistant = rt.chat.conversation.messages.at(-1);
        if (retry && lastAssistant?.role === 'assistant') setRetrying(lastAssistant.id);
        try {
          const options = { onEvent, signal: abort.signal, filters };
          const chatPersona = /** @type {import('lectern/chat').AskRequest['persona']} */ (persona);
          const response = retry
            ? await rt.chat.retry(options)
            : await rt.chat.ask({ question: text, mode, persona: chatPersona, ...(mode === 'selected' ? { selection } : {}), ...(page ? { page } : {}) }, options);
          const message = response.message ?? /** @type {Partial<Message>} */ ({});
          setAnnounce(`${s.answerDone} ${response.answer ?? ''}`.slice(0, 2000));
          // A retry's question is the one answered last.
          const question = text || rt.chat.conversation.messages.findLast((m) => m.role === 'user')?.content;
          if (response.kind === 'refusal') recordUsage({ kind: 'refusal', conversationId, messageId: message.id, question });
          else {
            const sources = response.sources.map((source) => ({ url: source.url, title: sourceTitle(source) }));
            recordUsage({ kind: 'answer', conversationId, messageId: message.id, question, confidence: response.confidence, answerKind: response.kind, sources });
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
          recordUsage({ kind: 'error', conversationId, code: e?.code ?? 'INTERNAL', detail: e?.detail, question: text || undefined });
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
    [busy, persona, session, sync, s],
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
    setAnnounce('');
    emit('new-conversation');
  }, [runtime, sync]);

  const clearError = useCallback(() => setError(null), []);
  const dismissNotice = useCallback(() => setNotice(null), []);

  return { runtime, messages, live, busy, retrying, error, clearError, notice, dismissNotice, announce, ask, stop, newConversation };
}
