// The search's usage events, the same for the navbar's dialog and the full search page: a
// query once it has settled — its results shown and unchanged for a moment, a result
// followed, or the dialog closed — once per query, not per keystroke; and each result
// followed, with its rank among the sections (from 1). Delivered by LecternWidget/usage.js.
import { useCallback, useEffect, useRef } from 'react';
import { recordUsage } from '../LecternWidget/usage';

/** A query whose results have stood this long is one the reader read: recorded once. */
const SETTLED_MS = 1200;

/**
 * `q`: the query as searched (trimmed); `results`: its results once shown (null before);
 * `active`: whether the reader sees them (the dialog is open).
 * @param {string} q
 * @param {{count: number} | null | undefined} results
 * @param {boolean} [active]
 */
export default function useSearchUsage(q, results, active = true) {
  const ready = Boolean(results);
  const count = results?.count ?? 0;
  const reported = useRef('');
  const reportSearch = useCallback(() => {
    if (!q || !ready || reported.current === q) return;
    reported.current = q;
    recordUsage({ kind: 'search', query: q, results: count });
  }, [q, ready, count]);
  useEffect(() => {
    if (!active || !ready) return undefined;
    const timer = setTimeout(reportSearch, SETTLED_MS);
    return () => clearTimeout(timer);
  }, [active, ready, reportSearch]);
  const reportClick = useCallback(
    (/** @type {string} */ url, /** @type {number} */ rank) => {
      reportSearch();
      recordUsage({ kind: 'search_click', query: q, url, rank });
    },
    [q, reportSearch],
  );
  return { reportSearch, reportClick };
}
