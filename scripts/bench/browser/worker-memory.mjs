// The memory of a page's workers in Chromium, read from outside (the runtime is not changed to
// report it): for each dedicated worker, over a browser CDP session attached to it, the V8
// heap (Runtime.getHeapUsage: JS objects, and the ArrayBuffers' backing stores) and the
// linear memory of every WebAssembly.Memory it holds (found with Runtime.queryObjects, since
// wasm memory is counted in neither), and the resident memory of the renderer processes the
// workers run in (/proc, Linux). Used by first-seconds.mjs after a visit's questions.

import { readdirSync, readFileSync } from "node:fs";

/** How long one CDP command to a worker may take: a worker that is ending never answers. */
const CALL_TIMEOUT_MS = 15_000;

/** Sends CDP commands to one target through the browser session (non-flat attach). */
async function attach(cdp, targetId) {
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: false });
  let next = 0;
  const pending = new Map();
  const onMessage = (e) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message);
    const done = pending.get(m.id);
    if (!done) return;
    pending.delete(m.id);
    if (m.error) done.reject(new Error(`${m.error.message} (${m.error.code})`));
    else done.resolve(m.result);
  };
  cdp.on("Target.receivedMessageFromTarget", onMessage);
  return {
    call: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method}: no answer in ${CALL_TIMEOUT_MS / 1000} s`));
        }, CALL_TIMEOUT_MS);
        const settle = (fn) => (x) => {
          clearTimeout(timer);
          fn(x);
        };
        pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
        cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) }).catch(settle(reject));
      }),
    detach: async () => {
      cdp.off("Target.receivedMessageFromTarget", onMessage);
      await cdp.send("Target.detachFromTarget", { sessionId }).catch(() => {});
    },
  };
}

/** Bytes of the linear memories of the WebAssembly.Memory objects alive in a target. */
async function wasmBytes(target) {
  const proto = await target.call("Runtime.evaluate", { expression: "WebAssembly.Memory.prototype" });
  const found = await target.call("Runtime.queryObjects", { prototypeObjectId: proto.result.objectId });
  const sum = await target.call("Runtime.callFunctionOn", {
    objectId: found.objects.objectId,
    functionDeclaration: "function () { return this.reduce((a, m) => a + m.buffer.byteLength, 0); }",
    returnByValue: true,
  });
  return sum.result.value;
}

/** Resident bytes (VmRSS) of each Chromium renderer process descended from `ancestorPid`. */
function rendererRss(ancestorPid) {
  const parent = new Map();
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      // Field 4 of /proc/PID/stat, after the command name in parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const under = (pid) => {
    for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === ancestorPid) return true;
    return false;
  };
  const out = [];
  for (const pid of parent.keys()) {
    if (!under(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer")) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (rss) out.push({ pid, bytes: Number(rss[1]) * 1024 });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/**
 * The memory of every dedicated worker of the browser's pages, by worker name, and of the
 * renderer processes this Node process started (through the browser it launched):
 * {workers: [{name, url, jsUsed, jsTotal, arrayBuffers, wasm} or {name, url, error}],
 * renderers: [{pid, bytes}]}.
 * @param {import("playwright-core").Browser} browser
 */
export async function workerMemory(browser) {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send("Target.getTargets");
    const workers = [];
    for (const info of targetInfos.filter((t) => t.type === "worker")) {
      let target;
      try {
        target = await attach(cdp, info.targetId);
        // Runtime.queryObjects collects garbage first: the heap read after it is what stays.
        const wasm = await wasmBytes(target);
        const heap = await target.call("Runtime.getHeapUsage");
        workers.push({
          name: info.title,
          url: info.url,
          jsUsed: heap.usedSize,
          jsTotal: heap.totalSize,
          arrayBuffers: heap.backingStorageSize ?? null,
          wasm,
        });
      } catch (e) {
        // A worker of a page that is closing: left out, and said so.
        workers.push({ name: info.title, url: info.url, error: String(e?.message ?? e) });
      } finally {
        await target?.detach();
      }
    }
    return { workers, renderers: rendererRss(process.pid) };
  } finally {
    await cdp.detach().catch(() => {});
  }
}
