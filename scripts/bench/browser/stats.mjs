// Order statistics shared by the browser benches (bench.mjs, first-seconds.mjs).

export const sorted = (xs) => [...xs].sort((a, b) => a - b);

export const median = (xs) => {
  const s = sorted(xs);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Nearest-rank p95. */
export const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)];

export const stats = (xs) => ({ n: xs.length, median: median(xs), p95: p95(xs), min: Math.min(...xs), max: Math.max(...xs) });
