// The page's side of tests/browser/rpc.test.mjs: a connection (pkg/rpc.js) to a fresh
// rpc-test-worker.js that records the worker's events and crashes.

import { connect } from "/pkg/rpc.js";
import { LecternError } from "/pkg/errors.js";

/** {rpc, worker, events: [[type, data]], crashes: [error]}; `lecternErrors`: requests
 * reject with LecternError, as index.js's do. */
export function start({ lecternErrors = false } = {}) {
  const worker = new Worker("/page/rpc-test-worker.js", { type: "module" });
  const events = [];
  const crashes = [];
  const rpc = connect(worker, {
    name: "test worker",
    onEvent: (type, data) => events.push([type, data]),
    onCrash: (error) => crashes.push(error),
    ...(lecternErrors ? { toError: (init) => new LecternError(init) } : {}),
  });
  return { rpc, worker, events, crashes };
}

/** What a promise settled with: {ok: value} or {error: its own fields, name, message and
 * what it is} ({error: {value}} for a value that is not an object); no undefined fields. */
export function outcome(promise) {
  const described = (e) =>
    e !== null && typeof e === "object"
      ? JSON.parse(JSON.stringify({ ...e, name: e.name, message: e.message, isError: e instanceof Error, isLecternError: e instanceof LecternError }))
      : { value: e };
  return promise.then(
    (ok) => ({ ok }),
    (e) => ({ error: described(e) }),
  );
}
