// Starts the proxy under `wrangler dev --local` (Cloudflare's runtime, workerd, on this
// machine) for test/wrangler-dev.test.mjs and scripts/bench/proxy-load.mjs, and runs other
// wrangler commands offline. Offline-friendly: no telemetry, no fetch of the `request.cf`
// sample data (this machine has no network but the npm registry).
import { spawn, execFile } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";

/** proxy/cloudflare-worker/, where wrangler runs (configs are relative to it). */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const WRANGLER = path.join(ROOT, "node_modules", ".bin", "wrangler");
export const HAVE_WRANGLER = existsSync(WRANGLER);
const ENV = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1", CI: "true" };

/** A free local port (asked of the OS, then released for wrangler to take). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `wrangler dev --local` with `config`, `vars` (as --var) and its state under
 * `persistTo`, and resolves when it says "Ready on". Returns {url, pid, stop(), output()};
 * wrangler and workerd run in their own process group (`pid` is its id).
 *
 * `inspector: false` turns off wrangler's DevTools bridge. With it on (the default, as a
 * developer runs `wrangler dev`), wrangler enables the DevTools Network domain on the Worker
 * and relays every network event, one per chunk of every streamed answer, to its node
 * process: under hundreds of concurrent streams that traffic, not the Worker, saturates
 * wrangler (BENCHMARKS.md, "The keyless proxy under load"). wrangler 4.86 has no flag for
 * it; it leaves the bridge off when VSCODE_INSPECTOR_OPTIONS is set (so as not to clash
 * with VS Code's debugger), which is what this sets.
 */
export async function startWrangler({ config = "wrangler.toml", vars = {}, persistTo, inspector = true }) {
  const port = await freePort();
  const inspectorPort = await freePort();
  const args = [
    "dev", "--local", "--config", config, "--ip", "127.0.0.1", "--port", String(port),
    "--inspector-port", String(inspectorPort), "--persist-to", persistTo,
    "--show-interactive-dev-session=false",
  ];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const child = spawn(WRANGLER, args, {
    cwd: ROOT,
    detached: true, // its own process group, so stop() ends workerd too
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...ENV, ...(inspector ? {} : { VSCODE_INSPECTOR_OPTIONS: "{}" }) },
  });
  let out = "";
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not start in 60 s:\n${out}`)), 60_000);
    const onData = (d) => {
      out += d;
      if (/Ready on http/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`wrangler dev exited (${code}):\n${out}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    try { process.kill(-child.pid, "SIGTERM"); } catch {}
    const t = setTimeout(() => { try { process.kill(-child.pid, "SIGKILL"); } catch {} }, 5000);
    await exited;
    clearTimeout(t);
  };
  try {
    await ready;
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop, output: () => out };
}

/** Runs `wrangler <args>` to completion (offline) and resolves to its stdout. */
export async function runWrangler(args) {
  const { stdout } = await promisify(execFile)(WRANGLER, args, { cwd: ROOT, env: { ...process.env, ...ENV } });
  return stdout;
}

/** The keys of a KV binding in wrangler dev's local state (`wrangler kv key list --local`). */
export async function localKvKeys({ binding, config, persistTo }) {
  const listed = await runWrangler(["kv", "key", "list", "--binding", binding, "--local", "--persist-to", persistTo, "--config", config]);
  return JSON.parse(listed.slice(listed.indexOf("["))).map((k) => k.name);
}

/** One KV value from wrangler dev's local state. */
export function localKvGet({ binding, config, persistTo, key }) {
  return runWrangler(["kv", "key", "get", key, "--binding", binding, "--local", "--persist-to", persistTo, "--config", config]);
}
