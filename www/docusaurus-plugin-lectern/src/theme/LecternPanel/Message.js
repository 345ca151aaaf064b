// One message of the conversation. A question shows its text (and the quoted selection in
// selected mode); an answer shows its Markdown with [n] citations, the numbered source list
// (chapter › section; a source whose text could not be loaded says so), the notes when it
// rests on part of what was found, the confidence, what kind of answer it is, why it failed
// (Failure.js), and its actions: copy, copy a link that asks the question again on its page,
// helpful / not helpful (with a reason), and retry after an error, a stop or a partial answer.
import React, { useEffect, useRef, useState } from 'react';
import Markdown from '@theme/LecternPanel/Markdown';
import { SiteLink, sourceHref, sourceTitle } from './links';
import { strings, format } from './strings';
import { copyText } from './clipboard';
import { Icon } from './icons';
import Failure, { Details } from './Failure';
import { hasFaultNotes } from './provisional';

function Selection({ text }) {
  const s = strings();
  const short = text.length > 280 ? `${text.slice(0, 280).trimEnd()}…` : text;
  return (
    <blockquote className="lectern-quote" aria-label={s.selectionLabel} title={text.length > 280 ? text : undefined}>
      {short}
    </blockquote>
  );
}

function Question({ message }) {
  const s = strings();
  return (
    <div className="lectern-message lectern-message--user">
      <span className="lectern-sr-only">{s.you}: </span>
      {message.mode === 'selected' && message.selection && <Selection text={message.selection} />}
      <p className="lectern-message__text">{message.content}</p>
    </div>
  );
}

function Sources({ sources, onNavigate, onCite }) {
  const s = strings();
  if (!sources?.length) return null;
  return (
    <div className="lectern-sources">
      <p className="lectern-sources__title">{s.sources}</p>
      <ol>
        {sources.map((source) => (
          <li key={source.n} value={source.n} data-lectern-unread={source.unread ? '' : undefined}>
            <SiteLink
              href={sourceHref(source)}
              onNavigate={() => {
                onCite?.(source.n);
                onNavigate?.();
              }}
              className="lectern-sources__link">
              <span className="lectern-cite" aria-hidden="true">
                {source.n}
              </span>
              <span>{sourceTitle(source)}</span>
              {source.unread && <span className="lectern-sources__unread"> ({s.sourceUnread})</span>}
            </SiteLink>
          </li>
        ))}
      </ol>
    </div>
  );
}

function Confidence({ level }) {
  const s = strings();
  if (!level || level === 'none' || !s[level]) return null;
  return (
    <span className={`lectern-confidence lectern-confidence--${level}`} title={s.confidenceLabel}>
      <span className="lectern-confidence__dot" aria-hidden="true" />
      {s[level]}
    </span>
  );
}

function Status({ message }) {
  const s = strings();
  if (message.status !== 'streaming') return null;
  if (message.phase === 'queued') {
    // Waiting its turn (one question per 2 seconds): not an error, a countdown.
    return (
      <p className="lectern-status-line lectern-status-line--queued" data-lectern-queued="">
        <span className="lectern-dots" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
        {format.queued(message.secondsLeft ?? 0)}
      </p>
    );
  }
  let text = message.phase === 'retrieving' ? s.searching : message.content ? null : s.thinking;
  if (message.slow) text = message.slowMessage || s.slow;
  if (!text) return null;
  return (
    <p className={`lectern-status-line${message.slow ? ' lectern-status-line--slow' : ''}`}>
      <span className="lectern-dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
      {text}
    </p>
  );
}

/** The reasons offered after "Not helpful": the code the feedback event carries, and its label. */
const REASONS = /** @type {const} */ ([
  ['incorrect', 'reasonIncorrect'],
  ['incomplete', 'reasonIncomplete'],
  ['off_topic', 'reasonOffTopic'],
  ['unclear', 'reasonUnclear'],
]);

/** After "Not helpful", until one is picked: why (the rating is sent again with it). They
 * come into view under the last answer, where the list would leave them hidden. */
function Reasons({ onPick }) {
  const s = strings();
  const row = useRef(/** @type {HTMLDivElement | null} */ (null));
  useEffect(() => {
    // A block, not an arrow's value: scrollIntoView returns a promise in newer browsers,
    // which React would take for the effect's cleanup.
    row.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <div ref={row} className="lectern-reasons" role="group" aria-label={s.reasonTitle}>
      <span className="lectern-muted lectern-small">{s.reasonTitle}</span>
      {REASONS.map(([code, label]) => (
        <button key={code} type="button" className="lectern-button" data-lectern-reason={code} onClick={() => onPick(code)}>
          {s[label]}
        </button>
      ))}
    </div>
  );
}

/** "Copy link": the link that asks the question again on its page. Says "Link copied" for a
 * moment; when the browser refuses to copy, shows the link selected in a box instead. */
function CopyLink({ link }) {
  const s = strings();
  const [state, setState] = useState(/** @type {'idle' | 'copied' | 'refused'} */ ('idle'));
  return (
    <>
      <button
        type="button"
        className="lectern-button lectern-button--link"
        data-lectern-copy-link=""
        onClick={() =>
          copyText(link).then((ok) => {
            setState(ok ? 'copied' : 'refused');
            if (ok) setTimeout(() => setState('idle'), 2000);
          })
        }>
        <Icon name={state === 'copied' ? 'check' : 'link'} />
        {state === 'copied' ? s.linkCopied : s.copyLink}
      </button>
      <span className="lectern-sr-only" role="status">
        {state === 'copied' ? s.linkCopied : ''}
      </span>
      {state === 'refused' && (
        <label className="lectern-copy-fallback">
          <span className="lectern-small">{s.linkCopyFailed}</span>
          <input type="text" readOnly value={link} data-lectern-link-fallback="" ref={(el) => el?.select()} onFocus={(e) => e.currentTarget.select()} />
        </label>
      )}
    </>
  );
}

function Actions({ message, feedback, onFeedback, onCopy, onRetry, canRetry, link }) {
  const s = strings();
  const [copied, setCopied] = useState(false);
  const [reasoned, setReasoned] = useState(false);
  const done = message.status === 'complete' || message.status === 'stopped';
  const rate = (rating) => {
    setReasoned(false);
    onFeedback?.(feedback === rating ? null : rating);
  };
  return (
    <div className="lectern-actions">
      {/* Excerpts given because the LLM was unreachable, links given because no text could be
          loaded, carry their error, and an answer from part of the index its notes: retry asks again. */}
      {canRetry && (message.status === 'error' || message.status === 'stopped' || message.error || hasFaultNotes(message)) && (
        <button type="button" className="lectern-button lectern-button--primary" onClick={onRetry}>
          <Icon name="retry" />
          {s.retry}
        </button>
      )}
      {done && message.content && (
        <>
          <button
            type="button"
            className="lectern-icon-button"
            aria-label={copied ? s.copied : s.copy}
            title={copied ? s.copied : s.copy}
            onClick={() =>
              copyText(message.content).then((ok) => {
                setCopied(ok);
                if (!ok) return;
                onCopy?.();
                setTimeout(() => setCopied(false), 2000);
              })
            }>
            <Icon name={copied ? 'check' : 'copy'} />
          </button>
          <button type="button" className="lectern-icon-button" aria-label={s.helpful} title={s.helpful} aria-pressed={feedback === 'up'} onClick={() => rate('up')}>
            <Icon name="up" />
          </button>
          <button type="button" className="lectern-icon-button" aria-label={s.notHelpful} title={s.notHelpful} aria-pressed={feedback === 'down'} onClick={() => rate('down')}>
            <Icon name="down" />
          </button>
          {link && <CopyLink link={link} />}
          {feedback && (
            <span className="lectern-muted lectern-small" role="status">
              {s.thanks}
            </span>
          )}
          {feedback === 'down' && !reasoned && (
            <Reasons
              onPick={(reason) => {
                setReasoned(true);
                onFeedback?.('down', reason);
              }}
            />
          )}
        </>
      )}
    </div>
  );
}

function Answer({ message, feedback, onFeedback, onCopy, onRetry, canRetry, onAskAgain = null, link = null, onNavigate, onCite, texts, offline = false, offlinePending = '', networkActions = [], pending = false }) {
  const s = strings();
  const streaming = message.status === 'streaming';
  // An answer given despite a fault (excerpts, links) keeps its error: what helps, and details.
  const degraded = message.status !== 'error' && message.error;
  const refusal = message.kind === 'refusal';
  const suggestion = refusal ? texts?.refusalSuggestion : null;
  const showSuggestion = suggestion && !message.content.includes(suggestion);
  return (
    <div className={`lectern-message lectern-message--assistant${refusal ? ' lectern-message--refusal' : ''}`} aria-busy={streaming}>
      <span className="lectern-sr-only">{s.assistant}: </span>
      {refusal && (
        <p className="lectern-label lectern-label--refusal">
          <Icon name="info" />
          {s.refusalTitle}
        </p>
      )}
      {message.status === 'error' && message.content && <p className="lectern-label">{s.partial}</p>}
      {message.content && (
        <div className={streaming ? 'lectern-streaming' : undefined}>
          <Markdown text={message.content} sources={message.sources ?? []} onNavigate={onNavigate} onCite={onCite} />
        </div>
      )}
      {showSuggestion && <p className="lectern-muted">{suggestion}</p>}
      <Status message={message} />
      {message.status === 'error' && message.error && (
        <div className="lectern-error" role="alert">
          <Failure error={message.error} fallback={s.errorTitle} offline={offline} offlinePending={offlinePending} networkActions={networkActions} inline />
        </div>
      )}
      {!streaming && message.notes?.map((note) => (
        <p key={note.code} className="lectern-note" data-lectern-note={note.code}>
          <Icon name="info" size={16} /> {note.message}
        </p>
      ))}
      {/* A provisional answer, once semantic search is ready: its question asked again. */}
      {!streaming && onAskAgain && (
        <p className="lectern-note lectern-note--action">
          <button type="button" className="lectern-button lectern-button--primary" data-lectern-ask-again="" onClick={onAskAgain}>
            <Icon name="retry" />
            {s.askAgainSemantic}
          </button>
        </p>
      )}
      {!streaming && pending && message.status !== 'error' && <p className="lectern-note">{offlinePending}</p>}
      {!streaming && degraded && <Details error={message.error} />}
      {message.status === 'stopped' && <p className="lectern-muted lectern-small">{format.stopNotice(Boolean(message.content))}</p>}
      {/* An answer that failed before any text has nothing to cite. While it streams, every
          numbered source is there to link its citations; once done, the core has kept those it
          cites (or the first few), and those are listed. */}
      {!refusal && !streaming && message.content && <Sources sources={message.sources} onNavigate={onNavigate} onCite={onCite} />}
      {!streaming && message.content && (
        <div className="lectern-meta">
          <Confidence level={message.confidence} />
          {message.kind === 'extractive' && <span className="lectern-badge">{s.extractive}</span>}
          {message.kind === 'links' && <span className="lectern-badge">{s.linksOnly}</span>}
        </div>
      )}
      {!streaming && <Actions message={message} feedback={feedback} onFeedback={onFeedback} onCopy={onCopy} onRetry={onRetry} canRetry={canRetry} link={message.kind === 'refusal' ? null : link} />}
    </div>
  );
}

/**
 * Props: message (chat.d.ts Message, or the answer being streamed: status "streaming",
 * phase, slow), feedback ("up" | "down" | null), onFeedback(rating | null, reason?) (a
 * reason after "down": incorrect, incomplete, off_topic, unclear), onCopy(),
 * onRetry(), canRetry, onAskAgain() (a provisional answer's question asked again now that
 * semantic search is ready; null: not offered), link (the address that asks its question again on its page: "Copy
 * link"; null: none), onNavigate (a link was followed), onCite(n) (a citation was followed),
 * texts (the chat layer's fixed
 * texts, for the refusal's suggestion), offline, offlinePending and networkActions (while
 * offline, what helps is said to wait for the network if it is one of the core's
 * networkActions), pending (it will be asked again once back online).
 */
export default function Message(props) {
  return props.message.role === 'user' ? <Question message={props.message} /> : <Answer {...props} />;
}
