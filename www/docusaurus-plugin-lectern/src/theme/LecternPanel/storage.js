// The panel's small preferences (the persona, the feedback given) in Web Storage, as JSON.
// Storage can be disabled or full: reads fall back, writes are dropped.

/**
 * @param {'localStorage' | 'sessionStorage'} storage
 * @param {string} key
 * @param {any} fallback
 */
export function readStorage(storage, key, fallback) {
  try {
    const value = window[storage].getItem(key);
    return value === null ? fallback : JSON.parse(value);
  } catch {
    return fallback;
  }
}

/**
 * @param {'localStorage' | 'sessionStorage'} storage
 * @param {string} key
 * @param {unknown} value
 */
export function writeStorage(storage, key, value) {
  try {
    window[storage].setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the preference lasts for this page only.
  }
}
