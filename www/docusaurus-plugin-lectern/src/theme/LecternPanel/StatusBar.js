// What the runtime is doing, under the panel's header: being offline (answers use what was
// downloaded), the index download (questions wait for it), an index that failed to load
// (with what helps), the language model's download and start (keyword search already works
// meanwhile) or its failure (with a retry), and the chat layer's one-off notices (history not
// kept, LLM unreachable) until the reader dismisses them. Every failure is told by Failure.js.
import React from 'react';
import { strings, format } from './strings';
import { Icon } from './icons';
import Failure from './Failure';

function formatBytes(bytes) {
  const lang = document.documentElement.lang || undefined;
  const mb = bytes / 1e6;
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: mb < 10 ? 1 : 0 }).format(mb)} MB`;
}

/**
 * @param {{state: import('./session').SessionState, onRetryIndex: () => void, onRetryModel: () => void, messages: {offline: string, offlinePending: string, networkActions: readonly string[]}, statusId: string}} props
 */
function ModelStatus({ state, onRetryIndex, onRetryModel, messages, statusId }) {
  const s = strings();
  const offline = !state.online;
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
    // A configuration the core refuses (the site build checks it, so only a hand-edited
    // build gets here) is not the index's fault: the core says so, and offers no retry.
    return (
      <div className="lectern-status lectern-status--error" role="alert" data-lectern-error={state.error?.code}>
        <Failure error={state.error} fallback={s.indexFailed} offline={offline} offlinePending={messages.offlinePending} networkActions={messages.networkActions} onAction={onRetryIndex} messageId={statusId} />
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
      <div className="lectern-status lectern-status--warn" data-lectern-status="model-failed">
        <Failure error={state.modelError} fallback={s.modelFailed} offline={offline} offlinePending={messages.offlinePending} networkActions={messages.networkActions} onAction={onRetryModel} />
      </div>
    );
  }
  return null;
}

/**
 * Props: state (the session's state, session.js), onRetryIndex(), onRetryModel(), messages
 * (the core's offline texts), statusId (the id of the index's failure, which Send points
 * to), notice (a chat-layer notice or null), onDismissNotice().
 * @param {{state: import('./session').SessionState, onRetryIndex: () => void, onRetryModel: () => void, messages: {offline: string, offlinePending: string, networkActions: readonly string[]}, statusId: string, notice: string | null, onDismissNotice: () => void}} props
 */
export default function StatusBar({ state, onRetryIndex, onRetryModel, messages, statusId, notice, onDismissNotice }) {
  const s = strings();
  return (
    <>
      {!state.online && (
        <div className="lectern-status lectern-status--offline" role="status" data-lectern-status="offline">
          <p>
            <Icon name="info" size={16} /> {messages.offline}
          </p>
        </div>
      )}
      <ModelStatus state={state} onRetryIndex={onRetryIndex} onRetryModel={onRetryModel} messages={messages} statusId={statusId} />
      {notice && (
        <p className="lectern-notice" role="note">
          <Icon name="info" size={16} />
          <span>{notice}</span>
          <button type="button" className="lectern-icon-button" aria-label={s.close} onClick={onDismissNotice}>
            <Icon name="close" size={14} />
          </button>
        </p>
      )}
    </>
  );
}
