// The search as the reader types: each change of the query (or of its scope) asks the
// runtime's searchAsYouType (www/lectern-js/typeahead.js), which supersedes the previous one;
// the keyword results come first, the semantic ones are appended when the model is there.
// The results shown stay until the next ones arrive (no flicker between keystrokes). The
// model starts downloading once the first results are drawn.
import { useEffect, useState } from 'react';
import { getSession } from '../LecternPanel/session';

/** @typedef {import('lectern').TypeaheadResults} TypeaheadResults */
/**
 * @typedef {object} TypeaheadState
 * @property {'idle' | 'loading' | 'ready' | 'error'} status "loading": the query's results are not in yet (`results` may be an older query's)
 * @property {TypeaheadResults | null} results
 * @property {{code?: string, message: string, suggestion?: string} | null} error
 */

/**
 * @param {import('docusaurus-plugin-lectern').ClientOptions} config
 * @param {string} query
 * @param {import('lectern').QueryOptions['filters']} filters
 * @param {{k?: number, semanticK?: number}} [sizes]
 * @returns {TypeaheadState}
 */
export default function useTypeahead(config, query, filters, sizes = {}) {
  const [state, setState] = useState(/** @type {{key: string, results: TypeaheadResults | null, error: any}} */ ({ key: '', results: null, error: null }));
  const q = query.trim();
  const filterKey = JSON.stringify(filters ?? null);
  const key = `${q}\u0000${filterKey}`;
  const { k = 8, semanticK = 3 } = sizes;

  useEffect(() => {
    if (!q) return undefined;
    let alive = true;
    const session = getSession(config);
    const scope = filterKey === 'null' ? undefined : JSON.parse(filterKey);
    session.lectern
      .then((lectern) =>
        lectern.searchAsYouType(q, {
          k,
          semanticK,
          filters: scope,
          onUpdate: (results) => {
            if (alive) setState({ key, results, error: null });
          },
        }),
      )
      .then(
        () => {
          if (alive) session.startModel();
        },
        (e) => {
          // Superseded by the next keystroke: its results are on their way.
          if (alive && e?.code !== 'ABORTED') setState({ key, results: null, error: { code: e?.code, message: e?.message ?? String(e), suggestion: e?.suggestion } });
        },
      );
    return () => {
      alive = false;
    };
  }, [config, q, filterKey, key, k, semanticK]);

  if (!q) return { status: 'idle', results: null, error: null };
  if (state.key !== key) return { status: 'loading', results: state.results, error: null };
  if (state.error) return { status: 'error', results: null, error: state.error };
  return { status: 'ready', results: state.results, error: null };
}
