// The one conversation between a thread and a worker it started, used by both of the
// runtime's: the page and the search worker (index.js <-> worker.js), the search worker and
// the embedder's worker (embed-client.js <-> embed-worker.js).
//
// On the wire, every message has a `kind`:
//   request {id, type, payload}        answered once by  reply {id, ok, result | error}
//   cancel {id}                        the caller gave up on request `id`
//   event {type, data}                 one way, either way (progress; the page's compiled module)
//   fatal {error}                      the worker ends itself (its wasm module trapped)
// Errors cross as plain coded objects (errors.js): structured clone keeps only an Error's
// name and message. Buffers in a request's `transfer` list, and a result wrapped in
// `move()`, are moved, not copied.
//
// A wasm trap (what a Rust panic becomes) poisons the worker's module, so the worker says so
// and ends. That, an error event or a message that cannot be read rejects every pending
// request with WORKER_CRASHED, and every later one.

import { codedError, plain } from "./errors.js";

// ---- the caller's side -----------------------------------------------------------------

/**
 * Talks to `worker`. `name` says what it is in a crash's message ("search worker").
 * `onEvent(type, data)` receives the worker's events. `onCrash(error)` runs once when the
 * worker fails, after every pending request was rejected with `error`. `toError(init)`
 * makes what requests reject with from a plain error (default: the plain object itself).
 * @param {Worker} worker
 * @param {{name: string, onEvent?: (type: string, data: any) => void, onCrash?: (error: any) => void,
 *   toError?: (init: any) => any}} options
 */
export function connect(worker, { name, onEvent = () => {}, onCrash = () => {}, toError = (init) => init }) {
  const pending = new Map(); // id -> {resolve, reject}
  let nextId = 1;
  let ended = false;
  let endError = null; // what every later request rejects with

  const end = (error) => {
    if (ended) return false;
    ended = true;
    endError = error ?? toError(codedError("WORKER_CRASHED", `The ${name} is not running`));
    for (const p of pending.values()) if (error) p.reject(error);
    pending.clear();
    worker.terminate();
    return true;
  };
  const crash = (why) => {
    const error = toError(codedError("WORKER_CRASHED", `The ${name} stopped: ${why}`));
    if (end(error)) onCrash(error);
  };

  // Listeners, not the on* attributes: in Chromium a messageerror event on a Worker reaches
  // its listeners but not its `onmessageerror` (tests/browser/rpc.test.mjs).
  worker.addEventListener("message", ({ data: msg }) => {
    if (ended) return;
    if (msg.kind === "event") return onEvent(msg.type, msg.data);
    if (msg.kind === "fatal") return crash(msg.error.technical ?? msg.error.message);
    const p = pending.get(msg.id);
    if (!p) return; // cancelled: its caller has had its error
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(toError(msg.error));
  });
  worker.addEventListener("error", (event) => {
    event.preventDefault(); // handled here: not an uncaught error of this thread
    crash(event.message || "it failed to start or threw");
  });
  worker.addEventListener("messageerror", () => crash("a message from it could not be read"));

  return {
    /** Sends request `type` and resolves with its result. `transfer`: buffers moved with it.
     * `signal`: aborting it drops the request (the worker is told, so it can stop) and
     * rejects with the signal's reason. Throws at once when `payload` cannot be cloned.
     * @param {string} type
     * @param {any} [payload]
     * @param {{transfer?: Transferable[], signal?: AbortSignal}} [options]
     * @returns {Promise<any>} */
    request(type, payload = {}, { transfer = [], signal } = {}) {
      if (ended) return Promise.reject(endError);
      if (signal?.aborted) return Promise.reject(signal.reason);
      const id = nextId++;
      worker.postMessage({ kind: "request", id, type, payload }, transfer);
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          if (!pending.delete(id)) return;
          worker.postMessage({ kind: "cancel", id });
          reject(signal.reason);
        };
        const settled = (fn) => (value) => {
          signal?.removeEventListener("abort", onAbort);
          fn(value);
        };
        pending.set(id, { resolve: settled(resolve), reject: settled(reject) });
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    /** Sends event `type` (no answer). */
    notify(type, data, transfer = []) {
      if (!ended) worker.postMessage({ kind: "event", type, data }, transfer);
    },
    /** Ends the worker; what is pending rejects with `reason` (without one, it is dropped). */
    close(reason) {
      end(reason);
    },
  };
}

// ---- the worker's side -----------------------------------------------------------------

/** A result whose buffers move to the caller instead of being copied. */
class Moved {
  constructor(value, transfer) {
    this.value = value;
    this.transfer = transfer;
  }
}

/** Wraps a handler's result so that `transfer` (by default its own buffer) is moved. */
export const move = (value, transfer = [value.buffer]) => new Moved(value, transfer);

let moduleName = "wasm module";
let trapped = false;

/**
 * Answers the caller's requests with `handlers[type](payload, {signal})` (a result or a
 * promise of one; `signal` aborts when the caller cancels) and passes its events to
 * `on[type](data)`. `module` names the worker's wasm module in a trap's message. Returns
 * `busy()`: whether a request is in progress.
 */
export function serve(handlers, { module, on = {} }) {
  moduleName = module;
  const active = new Map(); // id of a request in progress -> its AbortController
  self.onmessage = async ({ data: msg }) => {
    if (msg.kind === "event") return on[msg.type]?.(msg.data);
    if (msg.kind === "cancel") return active.get(msg.id)?.abort();
    const control = new AbortController();
    active.set(msg.id, control);
    try {
      if (!Object.hasOwn(handlers, msg.type)) throw codedError("INTERNAL", `unknown request ${msg.type}`);
      const result = await handlers[msg.type](msg.payload, { signal: control.signal });
      const [value, transfer] = result instanceof Moved ? [result.value, result.transfer] : [result, []];
      self.postMessage({ kind: "reply", id: msg.id, ok: true, result: value }, transfer);
    } catch (e) {
      // After a trap the caller fails everything pending: no reply.
      if (!endOnTrap(e)) self.postMessage({ kind: "reply", id: msg.id, ok: false, error: plain(e) });
    } finally {
      active.delete(msg.id);
    }
  };
  return { busy: () => active.size > 0 };
}

/** Sends event `type` to the caller. */
export function emit(type, data) {
  self.postMessage({ kind: "event", type, data });
}

/** If `e` is a wasm trap, the module is poisoned: the worker says so (once) and ends. */
function endOnTrap(e) {
  if (!(e instanceof WebAssembly.RuntimeError)) return false;
  if (!trapped) {
    trapped = true;
    self.postMessage({ kind: "fatal", error: codedError("WORKER_CRASHED", `The ${moduleName} crashed: ${e.message}`) });
    self.close();
  }
  return true;
}

/** Runs a call into the worker's wasm module. A trap ends the worker even when the caller
 * catches the error (a search that drops one failed result would otherwise go on). */
export function inWasm(fn) {
  try {
    return fn();
  } catch (e) {
    endOnTrap(e);
    throw e;
  }
}
