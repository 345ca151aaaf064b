// The in-isolate per-client rate limit: a sliding window of request times per key. It needs
// no binding and costs nothing, but each of Cloudflare's isolates keeps its own, so it is a
// best-effort limit (README.md, "Why two rate limits"). The chat and the events route each
// have one, so events never eat into a reader's questions.

// Bounds the memory: past this many tracked clients, the least recently seen go first.
const MAX_TRACKED_CLIENTS = 10_000;

/** A window of `windowMs`; `now` is injectable for tests. */
export function createSlidingWindow({ now, windowMs = 60_000, maxTracked = MAX_TRACKED_CLIENTS }) {
  const windows = new Map(); // client key -> ascending request times within the window

  /** Counts a request: null if allowed, else seconds until a slot frees up. `limit` 0: off. */
  return function hit(key, limit) {
    if (!(limit > 0)) return null;
    const t = now();
    const times = (windows.get(key) ?? []).filter((x) => x > t - windowMs);
    if (times.length >= limit) {
      windows.set(key, times);
      return Math.max(1, Math.ceil((times[0] + windowMs - t) / 1000));
    }
    times.push(t);
    windows.delete(key); // re-insert so Map order is least-recently-used first
    windows.set(key, times);
    if (windows.size > maxTracked) {
      for (const k of windows.keys()) {
        windows.delete(k);
        if (windows.size <= maxTracked) break;
      }
    }
    return null;
  };
}
