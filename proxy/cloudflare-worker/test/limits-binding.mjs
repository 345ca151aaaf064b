// The LIMITS binding, in-process, for tests that run the proxy's handler outside the Workers
// runtime (test/abuse.test.mjs, and tests/e2e/limits.test.mjs, which puts the proxy in front
// of the e2e site): a Durable Object namespace whose one object is a real ProxyLimits on a
// MemoryStorage. The real Durable Object is in wrangler-dev.test.mjs.

import { ProxyLimits } from "../src/worker.mjs";
import { MemoryStorage } from "../src/ledger.mjs";

/**
 * The LIMITS binding, in-process: a Durable Object namespace whose one object is a real
 * ProxyLimits on a MemoryStorage. `fail: true` makes every call throw, as an unreachable
 * object would.
 */
export function limitsBinding({ fail = false } = {}) {
  const storage = new MemoryStorage();
  storage.setAlarm = async () => {};
  const object = new ProxyLimits({ storage });
  const names = [];
  return {
    storage,
    names,
    idFromName: (name) => ({ name }),
    get: (id) => ({
      fetch: async (url, init) => {
        names.push(id.name);
        if (fail) throw new Error("Durable Object unavailable");
        return object.fetch(new Request(url, init));
      },
    }),
  };
}

