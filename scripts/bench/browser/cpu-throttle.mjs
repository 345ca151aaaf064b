// A slower CPU for a page and its workers, and the check that it took.
//
// The page: CDP `Emulation.setCPUThrottlingRate`. Its workers: the same command, sent to each
// worker target as it starts (auto-attached, paused until throttled). Chromium 156 refuses it
// there ("Operation is only supported for pages, not workers": blink's
// InspectorEmulationAgent::AssertPage), and the page's rate does not reach the worker's thread.
// So, where the machine allows it, each worker thread gets its own cgroup (v1 `cpu`
// controller, which places single threads) capped at 1/rate of one core — the same share of
// wall time that CDP's throttler leaves the page's main thread. Elsewhere the workers run at
// full speed and the result says so.
//
// Playwright resumes a new worker as soon as it has attached itself, so a worker may run a few
// milliseconds (one CDP round trip) before its cap applies.
//
// Whether it took is measured, not assumed: PROBE_LOOP (a fixed integer loop) timed on the page
// and in each worker after a visit, against the same loop unthrottled (`baseline`).
//
//   const caps = threadCaps(4);                      // once; caps.close() at the end
//   const t = await throttle(context, page, { rate: 4, caps });
//   ... the visit ...
//   await t.probe()  // {page: ms, workers: [{url, ms, via}]}

import { mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** ~50 ms unthrottled on the project's machine: long enough to see a 4× cap, short enough to
 * run after every visit. */
export const PROBE_LOOP = `(() => { const t0 = performance.now(); let x = 0; for (let i = 0; i < 2e7; i++) x = (x + i * 7) % 1000003; return performance.now() - t0 + (x < 0 ? 1 : 0); })()`;

const CGROUP_CPU = "/sys/fs/cgroup/cpu";
const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The cap's accounting period: short, so a 4× cap slows short tasks as well as long ones. */
const PERIOD_US = 20_000;

/** Process ids of every descendant of `root` (the browser's processes, under this Node). */
function descendants(root) {
  const parent = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const walk = (pid) => {
    for (const [child, ppid] of parent) {
      if (ppid === pid) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return out;
}

/** Thread ids of dedicated workers in the browser's processes (Chromium names each worker's
 * thread "DedicatedWorker thread"; /proc keeps 15 characters). */
function workerThreads() {
  const tids = [];
  for (const pid of descendants(process.pid)) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        if (readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").startsWith("DedicatedWorker")) tids.push(Number(tid));
      } catch {
        // ended meanwhile
      }
    }
  }
  return tids;
}

/**
 * Per-thread CPU caps at 1/rate of a core. {available, reason, capWorkers(): newly capped
 * thread ids, allCapped(), stat(tid), close()}.
 */
export function threadCaps(rate) {
  const parent = path.join(CGROUP_CPU, `lectern-bench-${process.pid}`);
  const capped = new Map(); // tid -> its cgroup folder
  const none = (reason) => ({ available: false, reason, capWorkers: () => [], allCapped: () => false, stat: () => null, close() {} });
  if (!(rate > 1)) return none("no slowdown asked");
  try {
    readFileSync(path.join(CGROUP_CPU, "cpu.cfs_quota_us"));
    mkdirSync(parent, { recursive: true });
  } catch (e) {
    return none(`no writable cgroup v1 cpu controller at ${CGROUP_CPU} (${e.code ?? e.message})`);
  }
  return {
    available: true,
    reason: `cgroup v1 cpu: each worker thread capped at ${(100 / rate).toFixed(0)} % of a core (quota ${Math.round(PERIOD_US / rate)} µs per ${PERIOD_US} µs)`,
    capWorkers() {
      const fresh = workerThreads().filter((tid) => !capped.has(tid));
      for (const tid of fresh) {
        const dir = path.join(parent, `t${tid}`);
        try {
          mkdirSync(dir, { recursive: true });
          writeFileSync(path.join(dir, "cpu.cfs_period_us"), String(PERIOD_US));
          writeFileSync(path.join(dir, "cpu.cfs_quota_us"), String(Math.round(PERIOD_US / rate)));
          writeFileSync(path.join(dir, "tasks"), String(tid));
          capped.set(tid, dir);
        } catch {
          // the thread ended between the scan and the move
        }
      }
      return fresh.filter((tid) => capped.has(tid));
    },
    /** Whether every worker thread there is now is capped. */
    allCapped: () => workerThreads().every((tid) => capped.has(tid)),
    /** The kernel's own account of a capped thread (cpu.stat): periods it ran in, periods it
     * was held back in, ms held back. */
    stat(tid) {
      try {
        const kv = Object.fromEntries(
          readFileSync(path.join(capped.get(tid), "cpu.stat"), "utf8")
            .trim()
            .split("\n")
            .map((l) => l.split(" ")),
        );
        return { tid, periods: Number(kv.nr_periods), throttled: Number(kv.nr_throttled), throttledMs: Number(kv.throttled_time) / 1e6 };
      } catch {
        return null;
      }
    },
    close() {
      for (const dir of capped.values()) {
        try {
          // Threads still alive go back to the root group; then the folder can go.
          for (const tid of readFileSync(path.join(dir, "tasks"), "utf8").split("\n").filter(Boolean)) {
            writeFileSync(path.join(CGROUP_CPU, "tasks"), tid);
          }
          rmdirSync(dir);
        } catch {
          // left for the next run's reader to see; harmless
        }
      }
      try {
        rmdirSync(parent);
      } catch {
        // not empty: a folder above could not go
      }
    },
  };
}

/**
 * Throttles `page` (before it navigates) and every worker it starts. Resolves to
 * {page: "cdp" | null, workers: [{url, via, refused, tids}], probe(), detach()}.
 */
export async function throttle(context, page, { rate, caps }) {
  const cdp = await context.newCDPSession(page);
  const result = { page: null, pageRefused: null, workers: [] };
  if (rate > 1) {
    try {
      await cdp.send("Emulation.setCPUThrottlingRate", { rate });
      result.page = "cdp";
    } catch (e) {
      result.pageRefused = e.message;
    }
  }

  // Worker sessions, attached non-flat: commands travel inside Target.sendMessageToTarget
  // (playwright-core gives no session object for a worker).
  let nextId = 1;
  const pending = new Map();
  cdp.on("Target.receivedMessageFromTarget", ({ sessionId, message }) => {
    const msg = JSON.parse(message);
    const p = pending.get(`${sessionId}:${msg.id}`);
    if (!p) return;
    pending.delete(`${sessionId}:${msg.id}`);
    if (msg.error) p.reject(new Error(msg.error.message));
    else p.resolve(msg.result);
  });
  const sendTo = (sessionId, method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(`${sessionId}:${id}`, { resolve, reject });
      cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });

  cdp.on("Target.attachedToTarget", async ({ sessionId, targetInfo, waitingForDebugger }) => {
    const worker = { url: targetInfo.url, type: targetInfo.type, sessionId, via: null, refused: null, tids: [], alive: true };
    if (targetInfo.type === "worker") result.workers.push(worker);
    try {
      if (targetInfo.type === "worker" && rate > 1) {
        try {
          await sendTo(sessionId, "Emulation.setCPUThrottlingRate", { rate });
          worker.via = "cdp";
        } catch (e) {
          worker.refused = e.message;
          // (The sweep below may have capped the new thread already.)
          worker.tids = caps?.capWorkers() ?? [];
          if (caps?.allCapped()) worker.via = "cgroup";
        }
      }
    } finally {
      if (waitingForDebugger) await sendTo(sessionId, "Runtime.runIfWaitingForDebugger").catch(() => {});
    }
  });
  cdp.on("Target.detachedFromTarget", ({ sessionId }) => {
    for (const w of result.workers) if (w.sessionId === sessionId) w.alive = false;
  });
  await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  // A worker started by a worker is not attached above: its thread is capped when it shows.
  result.cappedLater = [];
  const sweep = rate > 1 && caps?.available ? setInterval(() => result.cappedLater.push(...caps.capWorkers()), 250).unref() : null;

  return {
    result,
    /** PROBE_LOOP's time on the page and in every live worker (ms, median of `n`). */
    async probe(n = 3) {
      const pageMs = [];
      for (let i = 0; i < n; i++) pageMs.push(await page.evaluate(PROBE_LOOP));
      const workers = [];
      for (const w of result.workers.filter((x) => x.alive)) {
        const ms = [];
        let error;
        for (let i = 0; i < n; i++) {
          const r = await sendTo(w.sessionId, "Runtime.evaluate", { expression: PROBE_LOOP, returnByValue: true }).catch((e) => ({ error: e.message }));
          if (r?.error) error = r.error;
          else ms.push(r.result.value);
        }
        workers.push({ url: w.url, via: w.via, ms: ms.length ? mid(ms) : null, samples: ms, error });
      }
      // What the kernel did to the threads capped during this visit.
      const tids = [...new Set([...result.workers.flatMap((w) => w.tids), ...result.cappedLater])];
      const cgroups = tids.map((tid) => caps?.stat(tid)).filter(Boolean);
      return { page: mid(pageMs), pageSamples: pageMs, workers, cgroups };
    },
    detach: () => {
      clearInterval(sweep);
      return cdp.detach().catch(() => {});
    },
  };
}

/** PROBE_LOOP unthrottled, on a page and in a worker of a fresh context on `url` (median of
 * `n`): what the probes are divided by. */
export async function baseline(browser, url, n = 3) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    const pageMs = [];
    const workerMs = [];
    for (let i = 0; i < n; i++) {
      pageMs.push(await page.evaluate(PROBE_LOOP));
      workerMs.push(
        await page.evaluate(
          (src) =>
            new Promise((resolve, reject) => {
              const w = new Worker(URL.createObjectURL(new Blob([`postMessage(${src})`], { type: "text/javascript" })));
              w.onmessage = (e) => {
                resolve(e.data);
                w.terminate();
              };
              w.onerror = (e) => reject(new Error(e.message));
            }),
          PROBE_LOOP,
        ),
      );
    }
    return { page: mid(pageMs), worker: mid(workerMs), samples: { page: pageMs, worker: workerMs } };
  } finally {
    await context.close();
  }
}
