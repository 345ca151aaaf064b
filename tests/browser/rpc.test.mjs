// The runtime's one RPC module (pkg/rpc.js), both sides, in headless Chromium: a real module
// worker (page/rpc-test-worker.js) serves requests and fails in the ways a Lectern worker
// can. Run through tests/browser/run.sh.

import { test } from "node:test";
import assert from "node:assert/strict";
import { inPage, openPage as openTestPage, useBrowser } from "./harness.mjs";

const env = useBrowser();
// A request that is never settled would hang the run: each test fails after a minute instead.
const openPage = (t) => openTestPage(t, env);

/** Runs `fn({start, outcome, adviceFor}, arg)` in a fresh page (page/rpc-harness.js;
 * adviceFor: the core's advice table, pkg/error-codes.js). */
async function inRpcPage(t, fn, arg) {
  const page = await openPage(t);
  const source = fn.toString();
  const { value, error } = await inPage(
    page,
    async ({ source, arg }) => {
      const tools = { ...(await import("/page/rpc-harness.js")), adviceFor: (await import("/pkg/error-codes.js")).adviceFor };
      // eslint-disable-next-line no-new-func
      return new Function(`return (${source})`)()(tools, arg);
    },
    { source, arg },
  );
  assert.equal(error, undefined, JSON.stringify(error));
  return value;
}

test("rpc: results, events both ways, and coded errors that keep code, detail, what the reader is told and their fields", { timeout: 60_000 }, async (t) => {
  const r = await inRpcPage(t, async ({ start, outcome, adviceFor }) => {
    const plain = start();
    const echoed = await plain.rpc.request("echo", { a: [1, "two"], b: null });
    plain.rpc.notify("ping", { n: 42 });
    const failed = await outcome(plain.rpc.request("fail", { code: "TEXT_UNAVAILABLE", detail: "HTTP_404" }));
    const thrown = await outcome(plain.rpc.request("throwError"));
    const unknown = await outcome(plain.rpc.request("toString"));
    plain.rpc.close();
    const typed = start({ lecternErrors: true });
    const typedFail = await outcome(typed.rpc.request("fail", { code: "INDEX_UNAVAILABLE", detail: "CHECKSUM_MISMATCH" }));
    typed.rpc.close();
    const told = { TEXT_UNAVAILABLE: adviceFor("TEXT_UNAVAILABLE", "HTTP_404"), INDEX_UNAVAILABLE: adviceFor("INDEX_UNAVAILABLE", "CHECKSUM_MISMATCH"), INTERNAL: adviceFor("INTERNAL") };
    return { echoed, events: plain.events, failed, thrown, unknown, typedFail, told };
  });
  assert.deepEqual(r.echoed, { a: [1, "two"], b: null });
  assert.deepEqual(r.events, [["pong", { n: 42 }]]);
  assert.ok(r.told.TEXT_UNAVAILABLE.suggestion && r.told.INDEX_UNAVAILABLE.suggestion, "the core's table has the suggestions");
  const { isError, ...fields } = r.failed.error;
  assert.deepEqual(fields, {
    code: "TEXT_UNAVAILABLE",
    message: r.told.TEXT_UNAVAILABLE.message,
    suggestion: r.told.TEXT_UNAVAILABLE.suggestion,
    action: "retry",
    detail: "HTTP_404",
    technical: "failed with TEXT_UNAVAILABLE as asked",
    file: "terms.0.bin",
    shard: 7,
    isLecternError: false,
  });
  assert.equal(isError, false, "without toError, a request rejects with the plain object");
  assert.equal(r.thrown.error.code, "INTERNAL", "a thrown Error becomes INTERNAL");
  assert.equal(r.thrown.error.technical, "a plain Error", "its own message is the technical text");
  assert.equal(r.thrown.error.message, r.told.INTERNAL.message);
  assert.equal(r.thrown.error.suggestion, r.told.INTERNAL.suggestion);
  assert.equal(r.unknown.error.code, "INTERNAL");
  assert.match(r.unknown.error.technical, /unknown request toString/);
  assert.equal(r.typedFail.error.isLecternError, true, "toError makes a LecternError");
  assert.equal(r.typedFail.error.name, "LecternError");
  assert.equal(r.typedFail.error.code, "INDEX_UNAVAILABLE");
  assert.equal(r.typedFail.error.detail, "CHECKSUM_MISMATCH");
  assert.equal(r.typedFail.error.suggestion, r.told.INDEX_UNAVAILABLE.suggestion, "the advice for the code and its cause");
  assert.equal(r.typedFail.error.action, "contact_site");
  assert.equal(r.typedFail.error.shard, 7);
});

test("rpc: buffers in a transfer list and a moved result are moved, not copied", { timeout: 60_000 }, async (t) => {
  const r = await inRpcPage(t, async ({ start }) => {
    const { rpc } = start();
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 256);
    const answer = rpc.request("bytes", { bytes }, { transfer: [bytes.buffer] });
    const sentLeft = bytes.buffer.byteLength; // 0 once moved
    const result = await answer;
    const backSum = result.bytes.reduce((a, b) => a + b, 0);
    const movedAway = await rpc.request("movedAway");
    // Without a transfer list the caller keeps its bytes (a copy is sent).
    const kept = new Uint8Array(8);
    await rpc.request("bytes", { bytes: kept });
    rpc.close();
    return { sentLeft, length: result.length, sum: result.sum, backLength: result.bytes.length, backSum, movedAway, keptLength: kept.buffer.byteLength };
  });
  const sum = Array.from({ length: 1000 }, (_, i) => i % 256).reduce((a, b) => a + b, 0);
  assert.equal(r.sentLeft, 0, "the request's buffer left the page");
  assert.deepEqual({ length: r.length, sum: r.sum }, { length: 1000, sum }, "it arrived whole");
  assert.deepEqual({ backLength: r.backLength, backSum: r.backSum }, { backLength: 1000, backSum: sum });
  assert.equal(r.movedAway, true, "the result's buffer left the worker");
  assert.equal(r.keptLength, 8);
});

test("rpc: a cancelled request rejects at once with the signal's reason, and the worker is told", { timeout: 60_000 }, async (t) => {
  const r = await inRpcPage(t, async ({ start, outcome }) => {
    const { rpc, events } = start();
    const control = new AbortController();
    const waiting = outcome(rpc.request("untilCancelled", { tag: "first" }, { signal: control.signal }));
    await rpc.request("echo", {}); // the first request has reached the worker
    control.abort({ code: "ABORTED", detail: "SUPERSEDED" });
    const cancelled = await waiting;
    const preAborted = await outcome(rpc.request("echo", { x: 1 }, { signal: AbortSignal.abort("already") }));
    // The worker's late answer is dropped; the connection goes on working.
    const after = await rpc.request("echo", { after: true });
    rpc.close();
    return { cancelled, preAborted, events, after };
  });
  assert.deepEqual(r.cancelled, { error: { code: "ABORTED", detail: "SUPERSEDED", isError: false, isLecternError: false } });
  assert.deepEqual(r.preAborted, { error: { value: "already" } });
  assert.deepEqual(r.events, [["cancelled", "first"]], "the worker's signal aborted");
  assert.deepEqual(r.after, { after: true });
});

test("rpc: a wasm trap in the worker rejects every pending request, and every later one, with WORKER_CRASHED", { timeout: 60_000 }, async (t) => {
  const r = await inRpcPage(t, async ({ start, outcome }) => {
    const direct = start({ lecternErrors: true });
    const pending = outcome(direct.rpc.request("hang"));
    const trapped = await outcome(direct.rpc.request("trap"));
    const later = await outcome(direct.rpc.request("echo", {}));
    // A trap that the handler catches still ends the worker (its module is poisoned).
    const caught = start();
    const caughtPending = outcome(caught.rpc.request("hang"));
    const caughtTrap = await outcome(caught.rpc.request("trapCaught"));
    return { pending: await pending, trapped, later, crashes: direct.crashes.map((e) => e.code), caughtPending: await caughtPending, caughtTrap, caughtCrashes: caught.crashes.length };
  });
  for (const o of [r.pending, r.trapped, r.later, r.caughtPending, r.caughtTrap]) assert.equal(o.error?.code, "WORKER_CRASHED", JSON.stringify(o));
  assert.match(r.trapped.error.technical, /^The test worker stopped: The test module crashed: unreachable/);
  assert.equal(r.trapped.error.isLecternError, true);
  assert.ok(r.trapped.error.suggestion, "the suggestion comes from the core's table");
  assert.deepEqual(r.crashes, ["WORKER_CRASHED"], "onCrash runs once");
  assert.equal(r.caughtCrashes, 1);
});

test("rpc: an uncaught error in the worker, or a message that cannot be read, rejects what is pending with WORKER_CRASHED", { timeout: 60_000 }, async (t) => {
  const r = await inRpcPage(t, async ({ start, outcome }) => {
    const thrower = start();
    const pending = outcome(thrower.rpc.request("hang"));
    const uncaught = await outcome(thrower.rpc.request("uncaught"));
    const unreadable = start();
    await unreadable.rpc.request("echo", {});
    const waiting = outcome(unreadable.rpc.request("hang"));
    unreadable.worker.dispatchEvent(new MessageEvent("messageerror"));
    const broken = start();
    broken.worker.dispatchEvent(new Event("error", { cancelable: true }));
    return { pending: await pending, uncaught, unreadable: await waiting, crashes: [thrower.crashes.length, unreadable.crashes.length, broken.crashes.length] };
  });
  for (const o of [r.pending, r.uncaught, r.unreadable]) assert.equal(o.error?.code, "WORKER_CRASHED", JSON.stringify(o));
  assert.match(r.uncaught.error.technical, /^The test worker stopped: .*uncaught in the test worker/);
  assert.match(r.unreadable.error.technical, /could not be read/);
  assert.deepEqual(r.crashes, [1, 1, 1]);
});

test("rpc: close(reason) rejects what is pending with the reason; a payload that cannot be cloned throws at once", { timeout: 60_000 }, async (t) => {
  const r = await inRpcPage(t, async ({ start, outcome }) => {
    const { rpc, crashes } = start();
    let thrown = null;
    try {
      rpc.request("echo", { f: () => 1 });
    } catch (e) {
      thrown = e.name;
    }
    const stillWorks = await rpc.request("echo", { ok: 1 });
    const pending = outcome(rpc.request("hang"));
    rpc.close({ code: "ABORTED", detail: "CLOSED" });
    const later = await outcome(rpc.request("echo", {}));
    return { thrown, stillWorks, pending: await pending, later, crashes: crashes.length };
  });
  assert.equal(r.thrown, "DataCloneError");
  assert.deepEqual(r.stillWorks, { ok: 1 });
  assert.equal(r.pending.error.detail, "CLOSED");
  assert.equal(r.later.error.detail, "CLOSED");
  assert.equal(r.crashes, 0, "closing is not a crash");
});
