// The daily ledger: the one place that decides whether a question may go to the LLM under
// the abuse limits, and keeps the counts that decision needs:
//   - Turnstile verdicts per client (`v:<client>` -> until when, ms), so a client verified
//     once is not asked for a new token on every question;
//   - questions per client per UTC day (`q:<day>:<client>`), for DAILY_QUOTA_PER_CLIENT;
//   - tokens charged to the site per UTC day (`b:<day>`), for DAILY_TOKEN_BUDGET.
//
// It runs inside the LIMITS Durable Object (limits-object.mjs) on its transactional
// storage, so there is exactly one ledger per deployment and every count is exact under any
// concurrency: Cloudflare runs one instance of a Durable Object, and the ledger also runs
// its operations one after another (a queue), so no read-modify-write interleaves with
// another even across the storage awaits. Without the binding (Turnstile only), the proxy
// keeps one in each isolate on a MemoryStorage.
//
// The token budget is enforced on reservations: a question is admitted only if what is
// already charged plus its worst case (its prompt estimate plus the max_tokens sent
// upstream) fits, and that worst case is charged at once; when its answer ends, `settle`
// replaces the reservation by what the answer used. So concurrent answers can never
// together pass the budget, whatever their timing.

import { DAILY_QUOTA, SITE_BUDGET_EXHAUSTED, TURNSTILE_REQUIRED } from "./core-contract.mjs";

const DAY_MS = 86_400_000;

/** The UTC day of a time, "YYYY-MM-DD": the daily limits reset at 00:00 UTC. */
export function utcDay(at) {
  return new Date(at).toISOString().slice(0, 10);
}

/** Whole seconds from `at` to the next 00:00 UTC (at least 1): a daily refusal's Retry-After. */
export function secondsUntilNextDay(at) {
  return Math.max(1, Math.ceil((DAY_MS - (at % DAY_MS)) / 1000));
}

export class Ledger {
  /**
   * `storage`: the Durable Object storage API's get/put/delete/list (or a MemoryStorage).
   * `onNewDay(day, at)`: called when the first question of a new UTC day arrives (and after a
   * restart), to schedule `sweep` (a Durable Object alarm; queued at once in an isolate).
   */
  constructor(storage, { onNewDay = () => {} } = {}) {
    this.storage = storage;
    this.onNewDay = onNewDay;
    this.day = null;
    this.queue = Promise.resolve();
  }

  /** Runs `op` after every operation queued before it (so each is atomic). */
  run(op) {
    const result = this.queue.then(op);
    this.queue = result.catch(() => {});
    return result;
  }

  /**
   * Decides one question. Arguments:
   *   client, at (ms; the day is its UTC day);
   *   turnstile: null (off) or {cacheMs, passed}: `passed` when the proxy has just verified
   *     a token for this request; otherwise a remembered verdict must still be valid;
   *   quota: questions per client per day (0: off);
   *   budget: tokens per day for the site (0: off), reserve: this question's worst case.
   * Resolves to {admitted: true, day} (pass `day` back to `settle`) or {admitted: false,
   * code} with code TURNSTILE_REQUIRED, or DAILY_QUOTA or SITE_BUDGET_EXHAUSTED with
   * `retryAfter`, the seconds until the counts reset. A refused question changes no count.
   */
  admit(args) {
    return this.run(() => this.#admit(args));
  }

  async #admit({ client, at, turnstile = null, quota = 0, budget = 0, reserve = 0 }) {
    const day = utcDay(at);
    this.#see(day, at);
    const daily = (code) => ({ admitted: false, code, retryAfter: secondsUntilNextDay(at) });
    if (turnstile) {
      const key = `v:${client}`;
      if (turnstile.passed) {
        if (turnstile.cacheMs > 0) await this.storage.put(key, at + turnstile.cacheMs);
      } else {
        const until = await this.storage.get(key);
        if (!(until > at)) return { admitted: false, code: TURNSTILE_REQUIRED };
      }
    }
    const questionKey = `q:${day}:${client}`;
    const asked = quota > 0 ? (await this.storage.get(questionKey)) ?? 0 : 0;
    if (quota > 0 && asked >= quota) return daily(DAILY_QUOTA);
    if (budget > 0) {
      const charged = (await this.storage.get(`b:${day}`)) ?? 0;
      if (charged + reserve > budget) return daily(SITE_BUDGET_EXHAUSTED);
      await this.storage.put(`b:${day}`, charged + reserve);
    }
    if (quota > 0) await this.storage.put(questionKey, asked + 1);
    return { admitted: true, day };
  }

  /**
   * Closes an admitted question: its reservation is replaced by `used` tokens; with
   * `refundQuestion` (the LLM never answered) it no longer counts against the client's
   * quota either. It goes by the stored counts, not by memory, so it holds when the Durable
   * Object was restarted while the answer streamed; once a day's counts are swept, a late
   * settlement for that day changes nothing.
   */
  settle(args) {
    return this.run(() => this.#settle(args));
  }

  async #settle({ client, day, reserved = 0, used = 0, refundQuestion = false }) {
    if (reserved > 0 || used > 0) {
      const charged = await this.storage.get(`b:${day}`);
      if (charged !== undefined) await this.storage.put(`b:${day}`, Math.max(0, charged - reserved + used));
    }
    if (refundQuestion) {
      const key = `q:${day}:${client}`;
      const asked = await this.storage.get(key);
      if (asked > 0) await this.storage.put(key, asked - 1);
    }
    return { settled: true };
  }

  #see(day, at) {
    if (this.day !== null && day <= this.day) return;
    this.day = day;
    this.onNewDay(day, at);
  }

  /**
   * Deletes the counts of days before `at`'s (at most `batch` keys of each kind per call) and
   * every verdict expired at `at`; resolves to true when old counts remain (call again).
   */
  sweep(at, batch = 1000) {
    return this.run(async () => {
      const day = utcDay(at);
      let more = false;
      for (const prefix of ["q:", "b:"]) {
        const old = await this.storage.list({ prefix, end: `${prefix}${day}`, limit: batch });
        await deleteKeys(this.storage, [...old.keys()]);
        more ||= old.size === batch;
      }
      for (let after; ;) {
        const page = await this.storage.list(after === undefined ? { prefix: "v:", limit: batch } : { prefix: "v:", startAfter: after, limit: batch });
        await deleteKeys(this.storage, [...page].filter(([, until]) => !(until > at)).map(([k]) => k));
        if (page.size < batch) break;
        after = [...page.keys()].at(-1);
      }
      return more;
    });
  }
}

async function deleteKeys(storage, keys) {
  // The Durable Object storage deletes at most 128 keys per call.
  for (let i = 0; i < keys.length; i += 128) await storage.delete(keys.slice(i, i + 128));
}

/**
 * The part of the Durable Object storage API the ledger uses, in memory: the ledger of an
 * isolate without the LIMITS binding (Turnstile verdicts only). Past `maxEntries` keys the
 * oldest written go first, so memory stays bounded whatever the number of clients.
 */
export class MemoryStorage {
  constructor({ maxEntries = 10_000 } = {}) {
    this.map = new Map();
    this.maxEntries = maxEntries;
  }

  async get(key) {
    return this.map.get(key);
  }

  async put(key, value) {
    this.map.delete(key);
    this.map.set(key, value);
    for (const k of this.map.keys()) {
      if (this.map.size <= this.maxEntries) break;
      this.map.delete(k);
    }
  }

  async delete(keys) {
    let n = 0;
    for (const k of Array.isArray(keys) ? keys : [keys]) n += this.map.delete(k) ? 1 : 0;
    return Array.isArray(keys) ? n : n === 1;
  }

  /** Keys in order, as the Durable Object storage lists them: prefix, startAfter, end (exclusive), limit. */
  async list({ prefix = "", startAfter, end, limit = Infinity } = {}) {
    const keys = [...this.map.keys()]
      .filter((k) => k.startsWith(prefix) && (startAfter === undefined || k > startAfter) && (end === undefined || k < end))
      .sort();
    return new Map(keys.slice(0, limit).map((k) => [k, this.map.get(k)]));
  }
}
