// The chat panel, loaded the first time the reader opens the widget. It starts the Lectern
// runtime (session.js), shows the conversation kept in sessionStorage by the chat layer,
// streams answers into it, and handles stop, retry, copy, feedback, personas, a new
// conversation and questions about a selection. The chat layer's contract is
// www/lectern-js/chat.d.ts; this file only calls what that declares.
import React, { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import Message from '@theme/LecternPanel/Message';
import { getSession, resetSession } from './session';
import { strings, format } from './strings';
import { Icon } from './icons';
import { emit } from '../LecternWidget/events';
import './styles.css';

const PERSONA_KEY = 'lectern:persona:v1';
const FEEDBACK_KEY = 'lectern:feedback:v1';
const NARROW = '(max-width: 600px)';

function readStorage(storage, key, fallback) {
  try {
    const value = window[storage].getItem(key);
    return value === null ? fallback : JSON.parse(value);
  } catch {
    return fallback;
  }
}

function writeStorage(storage, key, value) {
  try {
    window[storage].setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the preference lasts for this page only.
  }
}

function useMediaQuery(query) {
  const subscribe = useCallback(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false);
}

function formatBytes(bytes) {
  const lang = document.documentElement.lang || undefined;
  const mb = bytes / 1e6;
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: mb < 10 ? 1 : 0 }).format(mb)} MB`;
}

/** Cuts a selection to `max` characters, at a word boundary when one is near. */
function trimSelection(text, max) {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return (space > max - 200 ? cut.slice(0, space) : cut).trimEnd();
}

function ModelStatus({ state, onRetryIndex }) {
  const s = strings();
  if (state.phase === 'loading') {
    const p = state.index;
    return (
      <div className="lectern-status" data-lectern-status="index">
        <p>{p && p.total > 1 ? format.indexDownload(formatBytes(p.loaded), formatBytes(p.total)) : s.loadingIndex}</p>
        <progress max={p?.total || 1} value={p && p.total > 1 ? p.loaded : undefined} aria-label={s.loadingIndex} />
      </div>
    );
  }
  if (state.phase === 'error') {
    return (
      <div className="lectern-status lectern-status--error" role="alert">
        <p>
          <strong>{s.indexFailed}</strong> {state.error?.message}
        </p>
        <button type="button" className="lectern-button" onClick={onRetryIndex}>
          <Icon name="retry" />
          {s.tryAgain}
        </button>
      </div>
    );
  }
  if (state.model === 'initialising' || (state.model === 'downloading' && state.modelProgress?.total > 0 && state.modelProgress.loaded >= state.modelProgress.total)) {
    return (
      <div className="lectern-status" data-lectern-status="model">
        <p>{s.modelInit}</p>
      </div>
    );
  }
  if (state.model === 'downloading') {
    const p = state.modelProgress;
    const known = p?.total > 0;
    return (
      <div className="lectern-status" data-lectern-status="model">
        <p>{known ? format.modelDownload(formatBytes(p.loaded), formatBytes(p.total)) : s.modelLoading}</p>
        <progress max={known ? p.total : 1} value={known ? p.loaded : undefined} aria-label={s.modelLoading} />
      </div>
    );
  }
  if (state.model === 'failed') {
    return (
      <div className="lectern-status lectern-status--warn">
        <p>{s.modelFailed}</p>
      </div>
    );
  }
  return null;
}

function Welcome({ config, selection, onAsk, disabled }) {
  const s = strings();
  const questions = selection ? [s.explain, s.simplify, s.example] : config.starterQuestions;
  return (
    <div className="lectern-welcome">
      {!selection && <p>{config.welcome || s.welcome}</p>}
      {questions.length > 0 && (
        <>
          {!selection && <p className="lectern-welcome__title">{s.starters}</p>}
          <ul className="lectern-starters">
            {questions.map((q) => (
              <li key={q}>
                <button type="button" className="lectern-chip" disabled={disabled} onClick={() => onAsk(q)}>
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

function SelectionQuote({ text, limits, onRemove, onTrim }) {
  const s = strings();
  const length = text.length;
  return (
    <div className="lectern-selection">
      <div className="lectern-selection__head">
        <span className="lectern-label">
          <Icon name="quote" size={16} />
          {s.selectionLabel}
        </span>
        <button type="button" className="lectern-icon-button" aria-label={s.removeSelection} title={s.removeSelection} onClick={onRemove}>
          <Icon name="close" size={16} />
        </button>
      </div>
      <blockquote className="lectern-quote lectern-quote--scroll" tabIndex={0}>
        {text}
      </blockquote>
      {length > limits.selectionMax && (
        <p className="lectern-selection__warning" role="alert">
          {format.selectionTooLong(length.toLocaleString(), limits.selectionMax.toLocaleString())}{' '}
          <button type="button" className="lectern-button" onClick={onTrim}>
            {format.trim(limits.selectionMax.toLocaleString())}
          </button>
        </p>
      )}
      {length < limits.selectionMin && (
        <p className="lectern-selection__warning" role="alert">
          {format.selectionTooShort(limits.selectionMin)}
        </p>
      )}
    </div>
  );
}

const DEFAULT_LIMITS = { question: 1000, selectionMin: 10, selectionMax: 5000 };

/**
 * Props: open, onClose({restoreFocus}), config (the plugin's client options), request
 * ({id, selection}: a new object each time the widget is opened or asked about a selection).
 */
export default function LecternPanel({ open, onClose, config, request }) {
  const s = strings();
  const titleId = useId();
  const [sessionVersion, setSessionVersion] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const session = useMemo(() => getSession(config), [config, sessionVersion]);
  const state = useSyncExternalStore(session.subscribe, session.getState, session.getState);
  const [runtime, setRuntime] = useState(null);
  const [messages, setMessages] = useState([]);
  const [live, setLive] = useState(null);
  const [busy, setBusy] = useState(false);
  const [input, setInput] = useState('');
  const [selection, setSelection] = useState(null);
  const [composerError, setComposerError] = useState(null);
  const [notice, setNotice] = useState(null);
  const [announce, setAnnounce] = useState('');
  const [retrying, setRetrying] = useState(null);
  const [persona, setPersona] = useState(() => {
    const saved = readStorage('localStorage', PERSONA_KEY, null);
    return config.personas.includes(saved) ? saved : config.defaultPersona;
  });
  const [feedback, setFeedback] = useState(() => readStorage('sessionStorage', FEEDBACK_KEY, {}));
  const narrow = useMediaQuery(NARROW);
  const panel = useRef(null);
  const textarea = useRef(null);
  const list = useRef(null);
  const stick = useRef(true);
  const controller = useRef(null);
  const limits = runtime?.limits ?? DEFAULT_LIMITS;

  const sync = useCallback((rt) => setMessages(rt.chat.conversation.messages), []);

  useEffect(() => {
    let alive = true;
    setRuntime(null);
    session.ready.then(
      (rt) => {
        if (!alive) return;
        setRuntime(rt);
        sync(rt);
        if (rt.chat.storageNotice) setNotice(rt.chat.storageNotice);
      },
      () => {},
    );
    return () => {
      alive = false;
    };
  }, [session, sync]);

  // Each open / "Ask about this" brings the focus to the question box.
  useEffect(() => {
    if (!open || !request) return;
    if (request.selection) {
      setSelection(request.selection);
      setComposerError(null);
    }
    const id = requestAnimationFrame(() => textarea.current?.focus());
    return () => cancelAnimationFrame(id);
  }, [open, request]);

  // The sheet (narrow screens) is modal: the page behind it does not scroll.
  useEffect(() => {
    if (!open || !narrow) return undefined;
    const root = document.documentElement;
    const before = root.style.overflow;
    root.style.overflow = 'hidden';
    return () => {
      root.style.overflow = before;
    };
  }, [open, narrow]);

  // Keep the newest text in view while it streams, unless the reader scrolled up.
  useEffect(() => {
    const el = list.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [messages, live, open]);

  // The question box grows with its text (up to its CSS max-height).
  useEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }, [input, open]);

  const ask = useCallback(
    async ({ question, retry = false }) => {
      if (busy) return;
      const text = question.trim();
      const mode = !retry && selection ? 'selected' : 'global';
      if (!retry && !text) return;
      setComposerError(null);
      setBusy(true);
      stick.current = true;
      const abort = new AbortController();
      controller.current = abort;
      const user = retry ? null : { id: 'lectern-live-question', role: 'user', content: text, mode, selection: mode === 'selected' ? selection : undefined };
      let answer = { id: 'lectern-live-answer', role: 'assistant', content: '', sources: [], status: 'streaming', phase: 'retrieving', slow: false };
      const update = (patch) => {
        answer = { ...answer, ...patch };
        setLive((l) => (l ? { ...l, answer } : l));
      };
      setLive({ user, answer });
      if (!retry) setInput('');
      setAnnounce(s.thinking);

      let rt;
      try {
        rt = await session.ready;
      } catch {
        // The status bar says why; the question goes back into the box.
        setLive(null);
        setBusy(false);
        if (!retry) setInput(question);
        return;
      }
      const before = rt.chat.conversation.messages.length;
      const lastAssistant = rt.chat.conversation.messages.at(-1);
      if (retry && lastAssistant?.role === 'assistant') setRetrying(lastAssistant.id);
      if (!retry) emit('question', { question: text, mode, selection: mode === 'selected' ? selection : null, persona });
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
      try {
        const options = { onEvent, signal: abort.signal };
        const response = retry
          ? await rt.chat.retry(options)
          : await rt.chat.ask({ question: text, mode, persona, ...(mode === 'selected' ? { selection } : {}) }, options);
        if (mode === 'selected') setSelection(null);
        const message = response.message ?? {};
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
      } catch (error) {
        const after = rt.chat.conversation.messages.length;
        const stored = after !== before || retry;
        if (!stored) {
          // Refused before anything was kept (validation, rate limit): the question stays
          // in the box with the reason under it.
          if (!retry) setInput(question);
          setComposerError({ code: error?.code, message: error?.message ?? String(error), suggestion: error?.suggestion ?? '' });
          setAnnounce(error?.message ?? '');
        } else {
          setAnnounce(`${s.errorTitle} ${error?.message ?? ''}`);
        }
        emit('error', { code: error?.code ?? 'INTERNAL', message: error?.message ?? String(error), detail: error?.detail ?? null });
      } finally {
        sync(rt);
        setLive(null);
        setRetrying(null);
        setBusy(false);
        controller.current = null;
      }
    },
    [busy, selection, persona, session, sync, s],
  );

  const stop = useCallback(() => {
    controller.current?.abort();
    runtime?.chat.stop();
    textarea.current?.focus(); // the Stop button is about to go: keep the focus in the panel
  }, [runtime]);

  const newConversation = useCallback(() => {
    controller.current?.abort();
    if (runtime) {
      runtime.chat.newConversation();
      sync(runtime);
    }
    setFeedback({});
    writeStorage('sessionStorage', FEEDBACK_KEY, {});
    setComposerError(null);
    setAnnounce('');
    emit('new-conversation');
    textarea.current?.focus();
  }, [runtime, sync]);

  const rate = useCallback(
    (message, rating) => {
      setFeedback((f) => {
        const next = { ...f };
        if (rating) next[message.id] = rating;
        else delete next[message.id];
        writeStorage('sessionStorage', FEEDBACK_KEY, next);
        return next;
      });
      const index = messages.findIndex((m) => m.id === message.id);
      const question = [...messages.slice(0, index)].reverse().find((m) => m.role === 'user');
      emit('feedback', {
        messageId: message.id,
        rating,
        question: question?.content ?? null,
        answer: message.content,
        sources: message.sources ?? [],
        confidence: message.confidence ?? null,
        conversationId: runtime?.chat.conversation.id ?? null,
      });
    },
    [messages, runtime],
  );

  const onNavigate = useCallback(() => {
    // On a narrow screen the sheet covers the page: close it to show the section.
    if (narrow) onClose({ restoreFocus: false });
  }, [narrow, onClose]);

  const onKeyDown = (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key === 'Tab' && narrow && panel.current) {
      // The sheet is modal: Tab cycles inside it.
      const focusable = panel.current.querySelectorAll('a[href], button:not([disabled]), textarea, select, [tabindex="0"]');
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  };

  const onSubmit = (e) => {
    e.preventDefault();
    ask({ question: input });
  };

  const selectionBlocked = selection !== null && (selection.length > limits.selectionMax || selection.length < limits.selectionMin);
  const shown = messages.filter((m) => m.id !== retrying);
  const last = shown.at(-1);
  // A question left without an answer (e.g. the tab was reloaded mid-answer) can be retried.
  const orphan = !busy && !live && last?.role === 'user';
  const personaHelp = runtime?.personas?.find((p) => p.id === persona)?.modifier;

  return (
    <section
      ref={panel}
      id="lectern-panel"
      className="lectern-panel"
      data-lectern-panel=""
      role="dialog"
      aria-modal={narrow ? 'true' : 'false'}
      aria-labelledby={titleId}
      hidden={!open}
      onKeyDown={onKeyDown}>
      <header className="lectern-header">
        <h2 id={titleId} className="lectern-header__title">
          {s.title}
        </h2>
        {config.personas.length > 1 && (
          <label className="lectern-persona" title={personaHelp}>
            <span className="lectern-sr-only">{s.persona}</span>
            <select
              value={persona}
              onChange={(e) => {
                setPersona(e.target.value);
                writeStorage('localStorage', PERSONA_KEY, e.target.value);
              }}>
              {config.personas.map((id) => (
                <option key={id} value={id}>
                  {s[id] ?? id}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="button" className="lectern-icon-button" aria-label={s.newConversation} title={s.newConversation} onClick={newConversation} disabled={!runtime || (!shown.length && !busy)}>
          <Icon name="plus" />
        </button>
        <button type="button" className="lectern-icon-button" aria-label={s.closeLabel} title={s.closeLabel} onClick={() => onClose()}>
          <Icon name="close" />
        </button>
      </header>

      <ModelStatus
        state={state}
        onRetryIndex={() => {
          resetSession();
          setSessionVersion((v) => v + 1);
        }}
      />
      {notice && (
        <p className="lectern-notice" role="note">
          <Icon name="info" size={16} />
          <span>{notice}</span>
          <button type="button" className="lectern-icon-button" aria-label={s.close} onClick={() => setNotice(null)}>
            <Icon name="close" size={14} />
          </button>
        </p>
      )}

      <div
        ref={list}
        className="lectern-messages"
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}>
        {!shown.length && !live && <Welcome config={config} selection={selection} disabled={busy || state.phase === 'error'} onAsk={(q) => ask({ question: q })} />}
        {shown.map((m, i) => (
          <Message
            key={m.id}
            message={m}
            texts={runtime?.texts}
            feedback={feedback[m.id] ?? null}
            onFeedback={(rating) => rate(m, rating)}
            onCopy={() => emit('copy', { messageId: m.id, answer: m.content })}
            onRetry={() => ask({ question: '', retry: true })}
            canRetry={!busy && i === shown.length - 1}
            onNavigate={onNavigate}
          />
        ))}
        {orphan && (
          <Message
            message={{ id: 'lectern-orphan', role: 'assistant', content: '', status: 'error', error: { message: s.errorTitle, suggestion: '' } }}
            canRetry
            onRetry={() => ask({ question: '', retry: true })}
          />
        )}
        {live?.user && <Message message={live.user} />}
        {live && <Message message={live.answer} texts={runtime?.texts} onNavigate={onNavigate} />}
        {shown.length > 0 && !live && selection && <Welcome config={config} selection={selection} disabled={busy} onAsk={(q) => ask({ question: q })} />}
      </div>

      <form className="lectern-composer" onSubmit={onSubmit}>
        {selection !== null && (
          <SelectionQuote
            text={selection}
            limits={limits}
            onRemove={() => {
              setSelection(null);
              textarea.current?.focus();
            }}
            onTrim={() => {
              setSelection(trimSelection(selection, limits.selectionMax));
              textarea.current?.focus();
            }}
          />
        )}
        {composerError && (
          <p className="lectern-composer__error" role="alert">
            <strong>{composerError.message}</strong> {composerError.suggestion}
          </p>
        )}
        <div className="lectern-composer__row">
          <textarea
            ref={textarea}
            rows={1}
            value={input}
            aria-label={s.inputLabel}
            placeholder={selection ? s.placeholderSelection : s.placeholder}
            aria-invalid={input.trim().length > limits.question ? 'true' : undefined}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                if (!busy && !selectionBlocked) ask({ question: input });
              }
            }}
          />
          {busy ? (
            <button type="button" className="lectern-send lectern-send--stop" aria-label={s.stop} title={s.stop} onClick={stop}>
              <Icon name="stop" />
            </button>
          ) : (
            <button type="submit" className="lectern-send" aria-label={s.send} title={s.send} disabled={!input.trim() || selectionBlocked}>
              <Icon name="send" />
            </button>
          )}
        </div>
        {input.length > limits.question * 0.8 && (
          <p className={`lectern-counter${input.trim().length > limits.question ? ' lectern-counter--over' : ''}`}>{format.questionLength(input.trim().length, limits.question)}</p>
        )}
      </form>
      <p className="lectern-footer">{config.chat.endpoint ? s.disclaimer : s.disclaimerExtractive}</p>
      <div className="lectern-sr-only" role="status" aria-live="polite" aria-atomic="true">
        {announce}
      </div>
    </section>
  );
}
