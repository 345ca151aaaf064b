// A worker for tests/browser/rpc.test.mjs: serves requests with the runtime's rpc.js (pkg/),
// so the tests drive its caller's side against real worker failures: a wasm trap, an
// uncaught error, a coded error, moved buffers, a cancelled request.

import { emit, inWasm, move, serve } from "/pkg/rpc.js";
import { codedError } from "/pkg/errors.js";

// A wasm module whose one export, `trap`, executes `unreachable`: a real trap, which is what
// a Rust panic becomes.
const TRAP_WASM = [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 8, 1, 4, 116, 114, 97, 112, 0, 0, 10, 5, 1, 3, 0, 0, 11];
const { trap } = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(TRAP_WASM))).exports;

let lastMoved = null;

serve(
  {
    echo: (payload) => payload,
    /** The received bytes' length and sum (they arrived whole), and the bytes moved back. */
    bytes({ bytes }) {
      lastMoved = bytes;
      return move({ length: bytes.length, sum: bytes.reduce((a, b) => a + b, 0), bytes }, [bytes.buffer]);
    },
    /** Whether the bytes the last `bytes` answered with left this worker (moved, not copied). */
    movedAway: () => lastMoved.buffer.byteLength === 0,
    fail({ code, detail }) {
      throw codedError(code, `failed with ${code} as asked`, detail, { file: "terms.0.bin", shard: 7 });
    },
    throwError() {
      throw new Error("a plain Error");
    },
    trap: () => trap(),
    /** A trap that the handler catches itself: the worker must end all the same. */
    trapCaught() {
      try {
        inWasm(trap);
      } catch {
        // swallowed, as a search that drops one failed result would
      }
      return "went on after a trap";
    },
    hang: () => new Promise(() => {}),
    uncaught() {
      setTimeout(() => {
        throw new Error("uncaught in the test worker");
      });
      return new Promise(() => {});
    },
    /** Waits until the caller cancels it, says so with an event, then answers (too late). */
    untilCancelled: ({ tag }, { signal }) =>
      new Promise((resolve) => {
        signal.addEventListener("abort", () => {
          emit("cancelled", tag);
          resolve("answered after the cancel");
        });
      }),
  },
  { module: "test module", on: { ping: (data) => emit("pong", data) } },
);
