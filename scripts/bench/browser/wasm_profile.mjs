// Where Lectern's embedder spends its time *in Chromium*: V8's sampling CPU profiler (CDP
// Profiler, 50 µs) on the embedding worker while it embeds the 256-token passage of
// examples/bench/texts.json 20 times. Needs a core whose wasm keeps its name section (the
// wasm-bindgen output before wasm-opt, which strips it); scripts/bench/browser.sh --profile
// builds that. Self time is summed per function and per tract kernel family. The 12-word-piece
// query of the same file is profiled too (200 runs).
//
//   LECTERN_PROFILE_PKGS=name=dir[,name=dir]  LECTERN_MODEL_DIR=...  node wasm_profile.mjs

import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "./server.mjs";
import { chromiumLaunchOptions } from "../../lib/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const env = process.env;
const texts = JSON.parse(readFileSync(path.join(root, "examples/bench/texts.json"), "utf8"));
const CASES = [
  ["query", texts.query, 200],
  ["passage", texts.passage, 20],
];
const pkgs = Object.fromEntries((env.LECTERN_PROFILE_PKGS ?? "").split(",").filter(Boolean).map((v) => [v.slice(0, v.indexOf("=")), v.slice(v.indexOf("=") + 1)]));
if (!Object.keys(pkgs).length || !env.LECTERN_MODEL_DIR) {
  console.error("bench/browser: wasm_profile.mjs needs LECTERN_PROFILE_PKGS and LECTERN_MODEL_DIR (run scripts/bench/browser.sh --profile)");
  process.exit(2);
}

/** Function name -> kernel family. Order matters: first match wins. */
const FAMILIES = [
  [/mmm|matmul|gemm|gemv|wasm_f32_(8x8|4x4|32x1|16x1|8x1|4x1)|wasm_i32/i, "matrix multiply kernels (tract-linalg mmm)"],
  [/pack|Packer|panel_extract/i, "packing for matmul"],
  [/softmax|exp/i, "softmax / exp"],
  [/erf|gelu|act_f32|sigmoid|tanh/i, "activations (erf)"],
  [/by_scalar|unicast|BinByScalar|BinUnicast|BinChain|element_wise|ElementWise/i, "elementwise kernels (by-scalar, unicast, chains)"],
  [/ndarray|Zip|broadcast|multi_broadcast|binary|Bin|eval_in_a|eval_out_of_place/i, "generic elementwise / broadcasting (ndarray)"],
  [/reduce|Reduce|rms|RmsNorm|sum/i, "reductions and norms"],
  [/tokeniz|regex|fancy_regex|unicode|normaliz|wordpiece|WordPiece/i, "tokenizer"],
  [/memcpy|memmove|memset|alloc|dealloc|realloc|dlmalloc|Vec|clone|drop_in_place/i, "memory: copy, alloc, drop"],
  [/tract/i, "other tract"],
];

async function main() {
  const server = await startServer({
    pageDir: path.join(here, "page"),
    pkgDir: Object.values(pkgs)[0],
    variants: pkgs,
    bundleDir: env.LECTERN_MODEL_DIR,
    tjsDir: path.join(here, "node_modules/@huggingface/transformers/dist"),
    ortDir: path.join(here, "node_modules/onnxruntime-web/dist"),
    hfDir: path.join(here, "hf-model"),
    modelDir: env.LECTERN_MODEL_DIR,
    cacheDir: path.join(env.LECTERN_CACHE ?? path.join(os.homedir(), ".cache/lectern"), "bench-browser/encoded"),
  });
  const browser = await chromium.launch(chromiumLaunchOptions(env));
  try {
    const cdp = await browser.newBrowserCDPSession();
    for (const name of Object.keys(pkgs)) for (const [label, text, RUNS] of CASES) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.origin}/page/rpc.js`);
      const url = `/page/lectern-embed-worker.js?pkg=${encodeURIComponent(`/pkg-${name}/`)}`;
      await page.evaluate(async (url) => {
        const { spawn } = await import("/page/rpc.js");
        window.w = spawn(url);
        await window.w.call("init", { modelUrl: "/models/all-minilm-l6-v2/onnx/model_quantized.onnx", tokenizerUrl: "/models/all-minilm-l6-v2/tokenizer.json" });
      }, url);
      const embed = (n) => page.evaluate(async ([text, n]) => (await window.w.call("embed", { texts: Array(n).fill(text) })).map((r) => r.ms), [text, n]);
      await embed(5);
      // A persistent (non-flat) session on the worker for the profiler.
      const { targetInfos } = await cdp.send("Target.getTargets");
      const target = targetInfos.filter((t) => t.type === "worker" && t.url.endsWith(url)).at(-1);
      const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
      let id = 0;
      const send = (method, params = {}) =>
        new Promise((resolve, reject) => {
          const my = ++id;
          const on = (m) => {
            if (m.sessionId !== sessionId) return;
            const msg = JSON.parse(m.message);
            if (msg.id !== my) return;
            cdp.off("Target.receivedMessageFromTarget", on);
            msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result);
          };
          cdp.on("Target.receivedMessageFromTarget", on);
          cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: my, method, params }) });
        });
      await send("Profiler.enable");
      await send("Profiler.setSamplingInterval", { interval: 50 });
      await send("Profiler.start");
      const times = await embed(RUNS);
      const { profile } = await send("Profiler.stop");
      await cdp.send("Target.detachFromTarget", { sessionId });
      await context.close();

      const dt = profile.timeDeltas.reduce((a, b) => a + b, 0) / 1e3 / profile.samples.length; // ms per sample
      const self = new Map();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const hits = new Map();
      for (const s of profile.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
      let total = 0;
      for (const [nodeId, count] of hits) {
        const fn = byId.get(nodeId).callFrame.functionName || "(anonymous)";
        if (fn === "(idle)" || fn === "(program)" || fn === "(garbage collector)") continue;
        self.set(fn, (self.get(fn) ?? 0) + count);
        total += count;
      }
      const families = new Map();
      for (const [fn, count] of self) {
        const fam = (FAMILIES.find(([re]) => re.test(fn)) ?? [null, "other"])[1];
        families.set(fam, (families.get(fam) ?? 0) + count);
      }
      const perRun = (count) => (count * dt) / RUNS;
      const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
      console.log(`\n${name}, ${label}: median ${median.toFixed(1)} ms over ${RUNS} profiled runs; ${total} samples of ~${(dt * 1e3).toFixed(0)} µs`);
      console.log("  by kernel family, ms per embedding (share):");
      for (const [fam, count] of [...families].sort((a, b) => b[1] - a[1])) {
        console.log(`    ${fam.padEnd(52)} ${perRun(count).toFixed(1).padStart(7)} ms ${((100 * count) / total).toFixed(1).padStart(5)}%`);
      }
      console.log("  costliest functions (self time):");
      for (const [fn, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
        console.log(`    ${perRun(count).toFixed(1).padStart(7)} ms ${((100 * count) / total).toFixed(1).padStart(5)}%  ${fn.slice(0, 110)}`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(`bench/browser: ${e.stack ?? e.message}`);
  process.exitCode = 1;
});
