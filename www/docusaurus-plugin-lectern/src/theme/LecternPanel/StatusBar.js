// What the runtime is doing, under the panel's header: the index download (questions wait
// for it), an index that failed to load (with a retry), the language model's download and
// start (keyword search already works meanwhile), and the chat layer's one-off notices
// (history not kept, LLM unreachable) until the reader dismisses them.
import React from 'react';
import { strings, format } from './strings';
import { Icon } from './icons';

function formatBytes(bytes) {
  const lang = document.documentElement.lang || undefined;
  const mb = bytes / 1e6;
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: mb < 10 ? 1 : 0 }).format(mb)} MB`;
}

/** @param {{state: import('./session').SessionState, onRetryIndex: () => void}} props */
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
    // A configuration the core refuses (the site build checks it, so only a hand-edited
    // build gets here) is not the index's fault, and trying again cannot help.
    const config = state.error?.code === 'INVALID_CONFIG';
    return (
      <div className="lectern-status lectern-status--error" role="alert" data-lectern-error={state.error?.code}>
        <p>
          <strong>{config ? s.configInvalid : s.indexFailed}</strong> {state.error?.message}
        </p>
        {!config && (
          <button type="button" className="lectern-button" onClick={onRetryIndex}>
            <Icon name="retry" />
            {s.tryAgain}
          </button>
        )}
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

/**
 * Props: state (the session's state, session.js), onRetryIndex(), notice (a chat-layer
 * notice or null), onDismissNotice().
 * @param {{state: import('./session').SessionState, onRetryIndex: () => void, notice: string | null, onDismissNotice: () => void}} props
 */
export default function StatusBar({ state, onRetryIndex, notice, onDismissNotice }) {
  const s = strings();
  return (
    <>
      <ModelStatus state={state} onRetryIndex={onRetryIndex} />
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
