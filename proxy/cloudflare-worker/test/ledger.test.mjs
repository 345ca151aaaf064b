// Tests of the daily ledger (src/ledger.mjs) on its own: the quota, the token budget's
// reservations and settlements, Turnstile verdicts and their expiry, the UTC day, the
// sweep, and exact counts when many questions arrive at once. The LIMITS Durable Object
// runs this same class on its storage (test/abuse.test.mjs and wrangler-dev.test.mjs).
// Run: ./test.sh, or node --test test/ledger.test.mjs
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { Ledger, MemoryStorage, utcDay, secondsUntilNextDay } from "../src/ledger.mjs";

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0); // 2026-11-25 12:00 UTC
const NEXT_DAY = Date.UTC(2026, 10, 26, 0, 0, 5);

function ledger() {
  const storage = new MemoryStorage();
  const days = [];
  return { storage, days, ledger: new Ledger(storage, { onNewDay: (day) => days.push(day) }) };
}

describe("the day", () => {
  test("is the UTC date; a refusal waits until the next 00:00 UTC", () => {
    assert.equal(utcDay(T0), "2026-11-25");
    assert.equal(utcDay(Date.UTC(2026, 10, 25, 23, 59, 59, 999)), "2026-11-25");
    assert.equal(secondsUntilNextDay(T0), 12 * 3600);
    assert.equal(secondsUntilNextDay(Date.UTC(2026, 10, 25, 23, 59, 59, 500)), 1);
    assert.equal(secondsUntilNextDay(Date.UTC(2026, 10, 26)), 86400);
  });
});

describe("the per-client daily quota", () => {
  test("admits `quota` questions per client, then DAILY_QUOTA with the seconds to midnight", async () => {
    const { ledger: l, storage } = ledger();
    const ask = (client, at = T0) => l.admit({ client, at, quota: 3 });
    for (let i = 0; i < 3; i++) assert.deepEqual(await ask("a"), { admitted: true, day: "2026-11-25" });
    assert.deepEqual(await ask("a"), { admitted: false, code: "DAILY_QUOTA", retryAfter: 12 * 3600 });
    assert.equal((await ask("b")).admitted, true, "another client has its own count");
    assert.equal(await storage.get("q:2026-11-25:a"), 3, "a refused question is not counted");
    assert.equal((await ask("a", NEXT_DAY)).admitted, true, "a new UTC day starts again");
  });

  test("a question the LLM never answered is refunded", async () => {
    const { ledger: l } = ledger();
    const first = await l.admit({ client: "a", at: T0, quota: 1 });
    assert.equal((await l.admit({ client: "a", at: T0, quota: 1 })).code, "DAILY_QUOTA");
    await l.settle({ client: "a", day: first.day, refundQuestion: true });
    assert.equal((await l.admit({ client: "a", at: T0, quota: 1 })).admitted, true);
  });

  test("is exact when many questions of one client arrive at once", async () => {
    const { ledger: l } = ledger();
    const all = await Promise.all(Array.from({ length: 50 }, () => l.admit({ client: "a", at: T0, quota: 7 })));
    assert.equal(all.filter((r) => r.admitted).length, 7);
    assert.equal(all.filter((r) => r.code === "DAILY_QUOTA").length, 43);
  });
});

describe("the site's daily token budget", () => {
  test("reserves each question's worst case and refuses what would pass the budget", async () => {
    const { ledger: l, storage } = ledger();
    const ask = (reserve) => l.admit({ client: "a", at: T0, budget: 1000, reserve });
    assert.equal((await ask(400)).admitted, true);
    assert.equal((await ask(400)).admitted, true);
    assert.deepEqual(await ask(201), { admitted: false, code: "SITE_BUDGET_EXHAUSTED", retryAfter: 12 * 3600 });
    assert.equal((await ask(200)).admitted, true, "exactly the budget fits");
    assert.equal(await storage.get("b:2026-11-25"), 1000);
    assert.equal((await ask(1)).code, "SITE_BUDGET_EXHAUSTED");
  });

  test("settling replaces the reservation by what was used, freeing the rest", async () => {
    const { ledger: l, storage } = ledger();
    const a = await l.admit({ client: "a", at: T0, budget: 1000, reserve: 600 });
    assert.equal((await l.admit({ client: "b", at: T0, budget: 1000, reserve: 600 })).code, "SITE_BUDGET_EXHAUSTED");
    await l.settle({ client: "a", day: a.day, reserved: 600, used: 150 });
    assert.equal(await storage.get("b:2026-11-25"), 150);
    assert.equal((await l.admit({ client: "b", at: T0, budget: 1000, reserve: 600 })).admitted, true);
    // A provider that reports more than was reserved is charged what it reported.
    await l.settle({ client: "b", day: a.day, reserved: 600, used: 700 });
    assert.equal(await storage.get("b:2026-11-25"), 850);
  });

  test("concurrent questions can never together pass the budget", async () => {
    const { ledger: l, storage } = ledger();
    const all = await Promise.all(
      Array.from({ length: 100 }, (_, i) => l.admit({ client: `c${i}`, at: T0, budget: 10_000, reserve: 333 })),
    );
    assert.equal(all.filter((r) => r.admitted).length, Math.floor(10_000 / 333));
    assert.equal(await storage.get("b:2026-11-25"), 30 * 333);
  });

  test("a refused question changes neither count; the quota is checked first", async () => {
    const { ledger: l, storage } = ledger();
    assert.equal((await l.admit({ client: "a", at: T0, quota: 5, budget: 100, reserve: 101 })).code, "SITE_BUDGET_EXHAUSTED");
    assert.equal(await storage.get("q:2026-11-25:a"), undefined);
    assert.equal(await storage.get("b:2026-11-25"), undefined);
    assert.equal((await l.admit({ client: "a", at: T0, quota: 1, budget: 100, reserve: 10 })).admitted, true);
    assert.equal((await l.admit({ client: "a", at: T0, quota: 1, budget: 100, reserve: 10 })).code, "DAILY_QUOTA");
    assert.equal(await storage.get("b:2026-11-25"), 10);
  });

  test("a settlement after the day's counts were swept changes nothing", async () => {
    const { ledger: l, storage } = ledger();
    const a = await l.admit({ client: "a", at: T0, budget: 100, reserve: 50 });
    await l.admit({ client: "a", at: NEXT_DAY, budget: 100, reserve: 10 });
    await l.sweep(NEXT_DAY);
    await l.settle({ client: "a", day: a.day, reserved: 50, used: 5 });
    assert.equal(await storage.get("b:2026-11-25"), undefined);
    assert.equal(await storage.get("b:2026-11-26"), 10);
  });
});

describe("Turnstile verdicts", () => {
  test("a passed check is remembered for cacheMs; then TURNSTILE_REQUIRED again", async () => {
    const { ledger: l } = ledger();
    const ask = (at, passed = false) => l.admit({ client: "a", at, turnstile: { passed, cacheMs: 60_000 } });
    assert.deepEqual(await ask(T0), { admitted: false, code: "TURNSTILE_REQUIRED" });
    assert.equal((await ask(T0, true)).admitted, true);
    assert.equal((await ask(T0 + 59_999)).admitted, true);
    assert.equal((await ask(T0 + 60_000)).code, "TURNSTILE_REQUIRED");
    assert.equal((await l.admit({ client: "b", at: T0, turnstile: { passed: false, cacheMs: 60_000 } })).code, "TURNSTILE_REQUIRED");
  });

  test("cacheMs 0 remembers nothing: every question needs its own token", async () => {
    const { ledger: l, storage } = ledger();
    assert.equal((await l.admit({ client: "a", at: T0, turnstile: { passed: true, cacheMs: 0 } })).admitted, true);
    assert.equal((await l.admit({ client: "a", at: T0, turnstile: { passed: false, cacheMs: 0 } })).code, "TURNSTILE_REQUIRED");
    assert.equal(storage.map.size, 0);
  });

  test("the verdict is kept even when the quota then refuses", async () => {
    const { ledger: l } = ledger();
    await l.admit({ client: "a", at: T0, quota: 1 });
    assert.equal((await l.admit({ client: "a", at: T0, quota: 1, turnstile: { passed: true, cacheMs: 1000 } })).code, "DAILY_QUOTA");
    // Without a new token, the remembered verdict lets the next question reach the quota check.
    assert.equal((await l.admit({ client: "a", at: T0 + 500, quota: 1, turnstile: { passed: false, cacheMs: 1000 } })).code, "DAILY_QUOTA");
    assert.equal((await l.admit({ client: "a", at: T0 + 500, quota: 2, turnstile: { passed: false, cacheMs: 1000 } })).admitted, true);
  });
});

describe("the sweep", () => {
  test("a new day is announced once; the sweep deletes earlier days and expired verdicts only", async () => {
    const { ledger: l, storage, days } = ledger();
    await l.admit({ client: "a", at: T0, quota: 5, budget: 100, reserve: 1, turnstile: { passed: true, cacheMs: 3_600_000 } });
    await l.admit({ client: "b", at: T0, quota: 5, turnstile: { passed: true, cacheMs: 86_400_000 } });
    await l.admit({ client: "a", at: T0 + 1000, quota: 5 });
    await l.admit({ client: "a", at: NEXT_DAY, quota: 5 });
    assert.deepEqual(days, ["2026-11-25", "2026-11-26"]);
    assert.equal(await l.sweep(NEXT_DAY), false);
    assert.deepEqual([...storage.map.keys()].sort(), ["q:2026-11-26:a", "v:b"]);
  });

  test("works in batches and says when more remain", async () => {
    const { ledger: l, storage } = ledger();
    for (let i = 0; i < 5; i++) await l.admit({ client: `c${i}`, at: T0, quota: 1 });
    await l.admit({ client: "x", at: NEXT_DAY, quota: 1 });
    assert.equal(await l.sweep(NEXT_DAY, 3), true);
    assert.equal(await l.sweep(NEXT_DAY, 3), false);
    assert.deepEqual([...storage.map.keys()], ["q:2026-11-26:x"]);
  });
});

describe("MemoryStorage", () => {
  test("stays under maxEntries, dropping the oldest written", async () => {
    const s = new MemoryStorage({ maxEntries: 3 });
    for (const k of ["a", "b", "c", "d"]) await s.put(k, 1);
    await s.put("b", 2);
    await s.put("e", 1);
    assert.deepEqual([...s.map.keys()], ["d", "b", "e"]);
  });

  test("lists like the Durable Object storage: sorted, prefix, startAfter, end, limit", async () => {
    const s = new MemoryStorage();
    for (const k of ["v:2", "q:b", "v:1", "q:a", "v:3"]) await s.put(k, k);
    assert.deepEqual([...(await s.list({ prefix: "v:" })).keys()], ["v:1", "v:2", "v:3"]);
    assert.deepEqual([...(await s.list({ prefix: "v:", startAfter: "v:1", limit: 1 })).keys()], ["v:2"]);
    assert.deepEqual([...(await s.list({ prefix: "q:", end: "q:b" })).keys()], ["q:a"]);
    assert.equal(await s.delete(["v:1", "v:9"]), 1);
  });
});
