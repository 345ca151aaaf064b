// The panel's conversation with the chat layer (www/lectern-js/chat.d.ts): waits for the
// runtime, sends a question or a retry, streams its events into the live answer, stops it,
// starts a new conversation, and keeps the shown messages and the screen reader's
// announcement in step; it records the turn's usage events (question asked once the core
// admits it, answered or refused, error). It holds no layout: the panel's parts draw what it
// returns.
//
// Two things a reader should not have to handle: a question sent sooner than the core's
// one-question-per-2-seconds rule allows waits its turn — the core says how long
// (RATE_LIMITED's retryAfterMs), the live answer counts it down — instead of being refused;
// and with the site's Turnstile check on, the question carries a token (useTurnstile.js),
// and one refused for the token (TURNSTILE_REQUIRED / TURNSTILE_FAILED) is asked once more
// with a fresh one.
import { useCallback, useEffect, useRef, useState } from 'react';
import { strings } from './strings';
import { sourceTitle } from './links';
import { emit } from '../LecternWidget/events';
import { recordUsage } from '../LecternWidget/usage';

/** @typedef {import('lectern/chat').Message} Message */
/** @typedef {import('lectern/chat').ChatEvent} ChatEvent */

/** The proxy's refusals that a fresh Turnstile token may overcome (the rest are told). */
const TURNSTILE_RETRY = ['TURNSTILE_REQUIRED', 'TURNSTILE_FAILED'];
/**
 * The answer being streamed (Message.js draws it like a stored one).
 * @typedef {Omit<Partial<Message>, 'status'> & {id: string, role: 'assistant', content: string, status: 'streaming', phase: 'queued' | 'retrieving' | 'generating', secondsLeft?: number, slow: boolean, slowMessage?: string}} LiveAnswer
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
 * @param {{session: import('./session').Session, persona: string, turnstile?: ReturnType<typeof import('./useTurnstile').default>, followUps?: boolean}} options
 */
export default function useAnswerStream({ session, persona, turnstile = null, followUps: suggest = true }) {
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
   * retrieving within `filters` (the docs versions in scope; undefined: all), from `page`
   * (the page the reader is on: its sections rank higher, and the LLM is told it).
   * Returns null when nothing was sent (busy, or an empty question typed), else the turn,
   * which resolves to its Outcome once the answer has ended. A `shared` question (a link's
   * `?ask=`) goes to the core even when empty, so that the reader sees why it is refused.
   * @param {{question: string, selection?: string | null, retry?: boolean, filters?: import('lectern').QueryOptions['filters'], page?: import('lectern/chat').AskRequest['page'], shared?: boolean}} request
   * @returns {Promise<Outcome> | null}
   */
  const ask = useCallback(
    ({ question, selection = null, retry = false, filters = undefined, page = undefined, shared = false }) => {
      if (busy) return null;
      const text = question.trim();
      const mode = !retry && selection ? 'selected' : 'global';
      if (!retry && !text && !shared) return null;
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
        const chatPersona = /** @type {import('lectern/chat').AskRequest['persona']} */ (persona);
        /** Waits `ms` (the core's word for how long), counting down in the live answer; false if stopped meanwhile. */
        const queue = (/** @type {number} */ ms) =>
          new Promise((resolve) => {
            const sendAt = Date.now() + ms;
            const count = () => update({ phase: 'queued', secondsLeft: Math.max(1, Math.ceil((sendAt - Date.now()) / 1000)) });
            count();
            const ticking = setInterval(count, 250);
            const timer = setTimeout(() => {
              clearInterval(ticking);
              abort.signal.removeEventListener('abort', stopped);
              update({ phase: 'retrieving', secondsLeft: undefined });
              resolve(true);
            }, ms);
            const stopped = () => {
              clearInterval(ticking);
              clearTimeout(timer);
              resolve(false);
            };
            abort.signal.addEventListener('abort', stopped, { once: true });
          });
        /** Sends the question (or the retry), waiting its turn as long as the core says. */
        const send = async (/** @type {boolean} */ again, /** @type {string | undefined} */ token) => {
          for (;;) {
            const options = { onEvent, signal: abort.signal, filters, turnstile: token };
            try {
              return again
                ? await rt.chat.retry(options)
                : await rt.chat.ask({ question: text, mode, persona: chatPersona, ...(mode === 'selected' ? { selection } : {}), ...(page ? { page } : {}) }, options);
            } catch (e) {
              if (e?.code !== 'RATE_LIMITED' || typeof e.retryAfterMs !== 'number') throw e;
              if (!(await queue(e.retryAfterMs))) throw Object.assign(new Error('stopped while waiting its turn'), { code: 'ABORTED', queued: true });
            }
          }
        };
        try {
          let response = await send(retry, await turnstile?.take());
          const refusal = response.message?.error?.detail;
          if (turnstile && refusal && TURNSTILE_RETRY.includes(refusal)) {
            // The proxy did not take the token (none arrived, or it was spent or expired): once
            // more with a fresh one; a second refusal is told.
            const fresh = await turnstile.fresh();
            if (fresh) {
              // The refused exchange stays hidden while it is asked again (the retry replaces it).
              setRetrying(rt.chat.conversation.messages.at(-1)?.id ?? null);
              setNotice(null); // the refusal's notice: the retry tells its own, if any
              update({ content: '', sources: [], phase: 'retrieving', slow: false });
              response = await send(true, fresh);
            }
          }
          const message = response.message ?? /** @type {Partial<Message>} */ ({});
          setAnnounce(`${s.answerDone} ${response.answer ?? ''}`.slice(0, 2000));
          // A retry's question is the one answered last.
          const question = text || rt.chat.conversation.messages.findLast((m) => m.role === 'user')?.content;
          if (response.kind === 'refusal') recordUsage({ kind: 'refusal', conversationId, messageId: message.id, question });
          else {
            const sources = response.sources.map((source) => ({ url: source.url, title: sourceTitle(source) }));
            recordUsage({ kind: 'answer', conversationId, messageId: message.id, question, confidence: response.confidence, answerKind: response.kind, sources });
          }
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
          if (e?.queued) {
            // Stopped while it waited its turn: nothing was sent, the question goes back into the box.
            setAnnounce('');
            return stored ? 'kept' : 'refused';
          }
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
    [busy, persona, session, sync, s, turnstile, suggest],
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
