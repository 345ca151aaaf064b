// Recent searches, kept in localStorage (the recentSearches option turns them off): the
// queries whose result or "Ask AI" row the reader chose, newest first. Storage that is
// full, disabled or holds something else never stops the search: reads fall back to none,
// writes are dropped.
import { useCallback, useState } from 'react';
import { readStorage, writeStorage } from '../LecternPanel/storage';

const KEY = 'lectern:recent-searches:v1';
const MAX = 5;

/** @returns {string[]} */
function read() {
  const value = readStorage('localStorage', KEY, []);
  return Array.isArray(value) ? value.filter((q) => typeof q === 'string' && q.trim()).slice(0, MAX) : [];
}

/**
 * The recent searches and how to change them; with `enabled` false, none and no writes.
 * @param {boolean} enabled
 */
export default function useRecentSearches(enabled) {
  const [list, setList] = useState(() => (enabled ? read() : []));
  const save = useCallback(
    (/** @type {string} */ query) => {
      const q = query.trim();
      if (!enabled || !q) return;
      const next = [q, ...read().filter((r) => r !== q)].slice(0, MAX);
      writeStorage('localStorage', KEY, next);
      setList(next);
    },
    [enabled],
  );
  const remove = useCallback(
    (/** @type {string} */ query) => {
      const next = read().filter((r) => r !== query);
      writeStorage('localStorage', KEY, next);
      setList(next);
    },
    [],
  );
  return { list: enabled ? list : [], save, remove };
}
