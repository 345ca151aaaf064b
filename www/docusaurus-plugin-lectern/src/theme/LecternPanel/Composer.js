// Where the reader writes: the quoted selection being asked about (with its length limits and
// a trim), the reason a question was refused, the question box (Enter sends, Shift+Enter is a
// new line; it grows with its text), Send — or Stop while an answer streams — and a length
// counter near the limit.
import React, { useEffect } from 'react';
import { strings, format } from './strings';
import { Icon } from './icons';

/** Cuts a selection to `max` characters, at a word boundary when one is near. */
function trimSelection(text, max) {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return (space > max - 200 ? cut.slice(0, space) : cut).trimEnd();
}

/** @typedef {{question: number, selectionMin: number, selectionMax: number}} Limits */

/** @param {{text: string, limits: Limits, onRemove: () => void, onTrim: () => void}} props */
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

/**
 * Props: inputRef (the question box, which the panel focuses), open, input, onInput(text),
 * selection (the quoted text, or null), onSelection(text | null), limits, error (why the
 * last question was refused, or null), busy (an answer is streaming), onAsk(question),
 * onStop().
 * @param {{inputRef: import('react').RefObject<HTMLTextAreaElement | null>, open: boolean, input: string, onInput: (text: string) => void, selection: string | null, onSelection: (text: string | null) => void, limits: Limits, error: {message: string, suggestion: string} | null, busy: boolean, onAsk: (question: string) => void, onStop: () => void}} props
 */
export default function Composer({ inputRef, open, input, onInput, selection, onSelection, limits, error, busy, onAsk, onStop }) {
  const s = strings();
  const selectionBlocked = selection !== null && (selection.length > limits.selectionMax || selection.length < limits.selectionMin);
  const tooLong = input.trim().length > limits.question;

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
          onChange={(e) => onInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              if (!busy && !selectionBlocked) onAsk(input);
            }
          }}
        />
        {busy ? (
          <button type="button" className="lectern-send lectern-send--stop" aria-label={s.stop} title={s.stop} onClick={onStop}>
            <Icon name="stop" />
          </button>
        ) : (
          <button type="submit" className="lectern-send" aria-label={s.send} title={s.send} disabled={!input.trim() || selectionBlocked}>
            <Icon name="send" />
          </button>
        )}
      </div>
      {input.length > limits.question * 0.8 && (
        <p className={`lectern-counter${tooLong ? ' lectern-counter--over' : ''}`}>{format.questionLength(input.trim().length, limits.question)}</p>
      )}
    </form>
  );
}
