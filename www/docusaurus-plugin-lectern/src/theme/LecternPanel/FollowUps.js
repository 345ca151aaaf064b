// The follow-up questions under the last answer: up to three questions the site answers
// (the core chose them and searched each; none it would refuse), as buttons that ask one in
// the same conversation. A labelled group of ordinary buttons: Tab reaches each, Enter or
// Space asks.
import React, { useId } from 'react';
import { strings } from './strings';

/**
 * @param {{items: import('lectern/chat').FollowUp[], disabled: boolean, onAsk: (question: string) => void}} props
 */
export default function FollowUps({ items, disabled, onAsk }) {
  const s = strings();
  const titleId = useId();
  if (!items.length) return null;
  return (
    <div className="lectern-follow-ups" role="group" aria-labelledby={titleId}>
      <p className="lectern-follow-ups__title" id={titleId}>
        {s.followUps}
      </p>
      <ul className="lectern-follow-ups__list">
        {items.map((item) => (
          <li key={item.question}>
            <button type="button" className="lectern-chip lectern-follow-up" disabled={disabled} onClick={() => onAsk(item.question)}>
              {item.question}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
