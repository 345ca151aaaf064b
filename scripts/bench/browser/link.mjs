// A simulated access link for the bench's server (server.mjs): every response body, on every
// connection, goes through one pacer, so the page, its chunks, the worker's fetches and the
// LLM stream share the bandwidth as they would on a reader's mobile link. CDP's network
// emulation is per target and does not reliably cover a worker's fetches; pacing at the server
// covers everything the browser downloads, whoever asks.
//
//   const link = createLink({ mbit: 9, rttMs: [40, 150] });
//   await link.delay(isNewConnection);   // before the response's headers: one round trip
//   await link.send(res, bytes);         // the body, paced with every other response's
//   link.writes                          // [{t (epoch ms), bytes, id}] of every chunk written
//
// The pacer is a token bucket kept in virtual time: each chunk is reserved the moment the link
// will have sent it (after everything reserved before, from any connection) and written then.
// Responses interleave chunk by chunk in the order they ask, so concurrent downloads share the
// link fairly, as TCP flows on one bottleneck roughly do. The bucket holds 50 ms of the link's
// bytes (56 KB at 9 Mbit/s): what lets a download keep the full rate although timers fire
// late on a busy machine; an idle link saves up no more than that. Request bytes (upstream) and header bytes are not paced: a few
// hundred bytes per request.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves when `res` can take more (or has closed), leaving no listener behind. */
const drained = (res) =>
  new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
const epochNow = () => performance.timeOrigin + performance.now();

/** A small seeded PRNG (mulberry32), so a run's round trips can be drawn again. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * mbit: the link's rate (Mbit/s; 0 = unlimited). rttMs: [min, max] round trip per request,
 * drawn uniformly (a number: fixed). chunkBytes: the pacing unit.
 */
export function createLink({ mbit = 9, rttMs = [40, 150], chunkBytes = 8192, seed = 1 } = {}) {
  const [rttMin, rttMax] = Array.isArray(rttMs) ? rttMs : [rttMs, rttMs];
  const bytesPerMs = mbit > 0 ? (mbit * 1e6) / 8 / 1000 : Infinity;
  const rand = random(seed);
  /** performance.now() at which the link has sent everything reserved so far. */
  let free = 0;
  /** The bucket's depth, in ms of the link's time. */
  const burstMs = Math.max(50, (2 * chunkBytes) / bytesPerMs);
  let nextId = 1;
  const writes = [];
  const rtts = [];

  /** Waits until `n` more bytes have gone through the link after all reserved before them. */
  async function reserve(n) {
    if (bytesPerMs === Infinity) return;
    const now = performance.now();
    free = Math.max(now - burstMs, free) + n / bytesPerMs;
    const wait = free - now;
    if (wait >= 1) await sleep(wait);
  }

  return {
    mbit,
    rttMs: [rttMin, rttMax],
    writes,
    rtts,
    /** One round trip (request up, first byte down); a new connection pays one more for its
     * TCP handshake. */
    async delay(newConnection = false) {
      let ms = 0;
      for (let i = 0; i < (newConnection ? 2 : 1); i++) ms += rttMin + (rttMax - rttMin) * rand();
      rtts.push(ms);
      if (ms > 0) await sleep(ms);
      return ms;
    },
    /** Writes `body` to `res` at the link's pace (res stays open: the caller ends it). Stops
     * early when the client goes away. Resolves with the bytes written. */
    async send(res, body) {
      const id = nextId++;
      let sent = 0;
      for (let at = 0; at < body.length && !res.destroyed; at += chunkBytes) {
        const chunk = body.subarray(at, Math.min(body.length, at + chunkBytes));
        await reserve(chunk.length);
        if (res.destroyed) break;
        const ok = res.write(chunk);
        writes.push({ t: epochNow(), bytes: chunk.length, id });
        sent += chunk.length;
        if (!ok) await drained(res);
      }
      return sent;
    },
    /** Bytes written with t <= epoch ms `until` (and, if given, t > `from`). */
    bytesBetween(from, until) {
      let n = 0;
      for (const w of writes) if ((from === undefined || w.t > from) && w.t <= until) n += w.bytes;
      return n;
    },
    /** The rate the link delivered over (from, until], epoch ms: Mbit/s. Meaningful over a
     * span when something was always waiting, e.g. while the largest response was in flight. */
    mbitBetween(from, until) {
      return until > from ? (this.bytesBetween(from, until) * 8) / ((until - from) * 1000) : null;
    },
    reset() {
      writes.length = 0;
      rtts.length = 0;
    },
  };
}
