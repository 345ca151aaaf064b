// A failure as the reader sees it, wherever it is shown (the status bar's index and model
// lines, an answer that could not be completed): the core's message in plain words, the one
// action that helps — or, offline, that it will be done once the browser is back online —
// and, closed by default, the details a site owner needs (the code, the cause, the technical
// text). Nothing technical is ever in the message itself.
import React from 'react';
import { strings } from './strings';
import { Icon } from './icons';

/** Whether `action` needs the network: offline it waits (the panel does it once back online).
 * `networkActions` is the core's list of such actions (src/advice.rs, the plugin's
 * `messages.networkActions`). */
export const needsNetwork = (/** @type {string | undefined} */ action, /** @type {readonly string[]} */ networkActions) => networkActions.includes(action ?? 'retry');

/**
 * The closed disclosure with what a site owner needs; nothing when there is nothing more.
 * @param {{error: import('./session').ShownError | import('lectern/chat').MessageError}} props
 */
export function Details({ error }) {
  const s = strings();
  if (!error?.code) return null;
  const cause = [error.code, error.detail].filter(Boolean).join(' · ');
  return (
    <details className="lectern-details">
      <summary>{s.details}</summary>
      <p>
        <code>{cause}</code>
      </p>
      {error.technical && <p className="lectern-details__text">{error.technical}</p>}
    </details>
  );
}

/**
 * Props: error (message, suggestion, action; without a message, `fallback` is said), offline
 * and offlinePending (the core's text for an action that waits for the network: one of
 * networkActions), onAction
 * (does the action: a retry; reload is the page's), actionLabel, inline (the action's button
 * is elsewhere, e.g. an answer's Retry), messageId (the id of the words, for a control they
 * explain).
 * @param {{error: any, fallback?: string, offline: boolean, offlinePending: string, networkActions: readonly string[], onAction?: () => void, actionLabel?: string, inline?: boolean, messageId?: string}} props
 */
export default function Failure({ error, fallback, offline, offlinePending, networkActions, onAction, actionLabel, inline = false, messageId }) {
  const s = strings();
  const waits = offline && needsNetwork(error?.action, networkActions);
  const suggestion = waits ? offlinePending : error?.suggestion;
  return (
    <>
      <p id={messageId}>
        <strong>{error?.message || fallback}</strong>
        {suggestion ? ` ${suggestion}` : ''}
      </p>
      {!inline && !waits && error?.action === 'retry' && onAction && (
        <button type="button" className="lectern-button" onClick={onAction}>
          <Icon name="retry" />
          {actionLabel ?? s.tryAgain}
        </button>
      )}
      {!inline && !waits && error?.action === 'reload' && (
        <button type="button" className="lectern-button" onClick={() => window.location.reload()}>
          <Icon name="retry" />
          {s.reload}
        </button>
      )}
      <Details error={error} />
    </>
  );
}
