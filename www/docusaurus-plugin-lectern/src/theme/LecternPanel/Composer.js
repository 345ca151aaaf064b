// Where the reader writes: the quoted selection being asked about (with its length limits and
// a trim), the reason a question was refused, the question box (Enter sends, Shift+Enter is a
// new line; it grows with its text), Send — or Stop while an answer streams — and a length
// counter near the limit. Send is off, and says why (its description and tooltip), when the
// index failed, the question is over the limit or the selection outside its limits.
import React, { useEffect, useId } from 'react';
import { strings, format } from './strings';
import { Icon } from './icons';

/**
 * Send; when it is off for a reason, the words that say why describe it (`reason.id`) and are
 * its tooltip.
 * @param {{label: string, disabled: boolean, reason: {id: string, text: string} | null}} props
 */
function SendButton({ label, disabled, reason }) {
  return (
    <button
      type="submit"
      className="lectern-send"
      aria-label={label}
      title={reason ? `${label}: ${reason.text}` : label}
      disabled={disabled}
      aria-describedby={reason?.id}>
      <Icon name="send" />
    </button>
  );
}

/** Cuts a selection to `max` characters, at a word boundary when one is near. */
function trimSelection(text, max) {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return (space > max - 200 ? cut.slice(0, space) : cut).trimEnd();
}

/** @typedef {{question: number, selectionMin: number, selectionMax: number}} Limits */

/** @param {{text: string, limits: Limits, onRemove: () => void, onTrim: () => void, warningId: string}} props */
function SelectionQuote({ text, limits, onRemove, onTrim, warningId }) {
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
          <span id={warningId}>{selectionProblem(text, limits)}</span>{' '}
          <button type="button" className="lectern-button" onClick={onTrim}>
            {format.trim(limits.selectionMax.toLocaleString())}
          </button>
        </p>
      )}
      {length < limits.selectionMin && (
        <p className="lectern-selection__warning" role="alert">
          <span id={warningId}>{selectionProblem(text, limits)}</span>
        </p>
      )}
    </div>
  );
}

/** Why `selection` (null: none) cannot be asked about — the words the reader is shown — or
 * null when it is within its limits. */
export function selectionProblem(/** @type {string | null} */ selection, /** @type {Limits} */ limits) {
  if (selection === null) return null;
  if (selection.length > limits.selectionMax) return format.selectionTooLong(selection.length.toLocaleString(), limits.selectionMax.toLocaleString());
  if (selection.length < limits.selectionMin) return format.selectionTooShort(limits.selectionMin);
  return null;
}

/**
 * Props: inputRef (the question box, which the panel focuses), open, input, onInput(text),
 * selection (the quoted text, or null), onSelection(text | null), limits, error (why the
 * last question was refused, or null), busy (an answer is streaming), unavailable (why nothing
 * can be asked — the index failed —: the id of the words that say so, and the words; or
 * null), selectionWarningId
 * (the id the selection's warning gets, which the quick questions point to too),
 * onAsk(question), onStop().
 * @param {{inputRef: import('react').RefObject<HTMLTextAreaElement | null>, open: boolean, input: string, onInput: (text: string) => void, selection: string | null, onSelection: (text: string | null) => void, limits: Limits, error: {message: string, suggestion: string} | null, busy: boolean, unavailable: {id: string, text: string} | null, selectionWarningId: string, onAsk: (question: string) => void, onStop: () => void}} props
 */
export default function Composer({ inputRef, open, input, onInput, selection, onSelection, limits, error, busy, unavailable, selectionWarningId, onAsk, onStop }) {
  const s = strings();
  const counterId = useId();
  const selectionText = selectionProblem(selection, limits);
  const tooLong = input.trim().length > limits.question;
  // Why Send is off, if it is for a reason the reader must know: the words that say so.
  const reason =
    unavailable ??
    (tooLong ? { id: counterId, text: format.questionTooLong(limits.question.toLocaleString()) } : selectionText ? { id: selectionWarningId, text: selectionText } : null);

  // The question box grows with its text (up to its CSS max-height).
  useEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }, [inputRef, input, open]);

  return (
    <form
      className="lectern-composer"
      onSubmit={(e) => {
        e.preventDefault();
        onAsk(input);
      }}>
      {selection !== null && (
        <SelectionQuote
          text={selection}
          limits={limits}
          onRemove={() => {
            onSelection(null);
            inputRef.current?.focus();
          }}
          onTrim={() => {
            onSelection(trimSelection(selection, limits.selectionMax));
            inputRef.current?.focus();
          }}
          warningId={selectionWarningId}
        />
      )}
      {error && (
        <p className="lectern-composer__error" role="alert">
          <strong>{error.message}</strong> {error.suggestion}
        </p>
      )}
      <div className="lectern-composer__row">
        <textarea
          ref={inputRef}
          rows={1}
          value={input}
          aria-label={s.inputLabel}
          placeholder={selection ? s.placeholderSelection : s.placeholder}
          aria-invalid={tooLong ? 'true' : undefined}
          aria-describedby={tooLong ? counterId : undefined}
          onChange={(e) => onInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              if (!busy && !reason) onAsk(input);
            }
          }}
        />
        {busy ? (
          <button type="button" className="lectern-send lectern-send--stop" aria-label={s.stop} title={s.stop} onClick={onStop}>
            <Icon name="stop" />
          </button>
        ) : (
          <SendButton label={s.send} disabled={!input.trim() || Boolean(reason)} reason={reason} />
        )}
      </div>
      {input.length > limits.question * 0.8 && (
        <p id={counterId} className={`lectern-counter${tooLong ? ' lectern-counter--over' : ''}`}>
          {tooLong ? `${format.questionTooLong(limits.question.toLocaleString())} ` : ''}
          {format.questionLength(input.trim().length, limits.question)}
        </p>
      )}
    </form>
  );
}
