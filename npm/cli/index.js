// @lectern/cli: finds the `lectern` binary that npm installed for this machine (one
// optional platform package per os/cpu/libc, as esbuild and Biome do) and the model
// package, and says how to run it. Used by bin/lectern.js and by docusaurus-plugin-lectern.
"use strict";

const path = require("node:path");
const { native, wasi } = require("./platforms.json");

const SCOPE = "@lectern";
const MODEL_PACKAGE = `${SCOPE}/model-all-minilm-l6-v2`;
const WASI_PACKAGE = `${SCOPE}/cli-${wasi.name}`;

let cachedLibc;
/** glibc or musl on Linux, null elsewhere or when it cannot be told; npm's own order
 * (npm-install-checks): the text of /usr/bin/ldd, then Node's report. */
function libcOf(proc = process) {
  if (proc.platform !== "linux") return null;
  if (proc === process && cachedLibc !== undefined) return cachedLibc;
  // (A stand-in process, in tests, is described by its report alone.)
  let libc = proc === process ? libcOfLdd() : null;
  if (!libc && proc.report?.getReport) {
    if ("excludeNetwork" in proc.report) proc.report.excludeNetwork = true; // a report can otherwise take seconds
    const report = proc.report.getReport();
    if (report?.header?.glibcVersionRuntime) libc = "glibc";
    else if ((report?.sharedObjects ?? []).some((f) => f.includes("ld-musl-") || f.includes("libc.musl-"))) libc = "musl";
  }
  if (proc === process) cachedLibc = libc;
  return libc;
}

function libcOfLdd() {
  try {
    const ldd = require("node:fs").readFileSync("/usr/bin/ldd", "utf8");
    if (ldd.includes("musl")) return "musl";
    if (ldd.includes("GNU C Library") || ldd.includes("GLIBC")) return "glibc";
  } catch {
    // no ldd: Node's report decides
  }
  return null;
}

/** The platform entry (from platforms.json) for this machine, or null. */
function currentPlatform(proc = process) {
  const libc = libcOf(proc);
  return native.find((p) => p.os === proc.platform && p.cpu === proc.arch && (!p.libc || p.libc === libc)) ?? null;
}

function describe(proc = process) {
  const libc = libcOf(proc);
  return `${proc.platform}-${proc.arch}${libc ? ` (${libc})` : ""}`;
}

/** The installed package's folder, or null when it is not installed. */
function packageDir(name, resolve = require.resolve) {
  try {
    return path.dirname(resolve(`${name}/package.json`, { paths: [__dirname] }));
  } catch {
    return null;
  }
}

/** The folder of the installed model package; throws naming the package when it is missing. */
function modelDir(resolve = require.resolve) {
  const dir = packageDir(MODEL_PACKAGE, resolve);
  if (!dir) {
    throw new Error(`the Lectern model package is not installed: run \`npm install ${MODEL_PACKAGE}\` (@lectern/cli depends on it, so a complete \`npm install\` brings it).`);
  }
  return dir;
}

/**
 * How to run `lectern` here: `{ file, args, env, via }`, where `args` go before the CLI's
 * own arguments and `via` names the package the binary came from. The platform's native
 * package comes first; the portable wasm32-wasi package (run by Node) is the fallback.
 * Throws with the supported platforms and what to do when neither is installed.
 */
function resolveCli({ proc = process, env: baseEnv = proc.env, resolve = require.resolve } = {}) {
  const env = { ...baseEnv, LECTERN_MODEL_DIR: baseEnv.LECTERN_MODEL_DIR || modelDir(resolve) };
  const platform = currentPlatform(proc);
  if (platform) {
    const name = `${SCOPE}/cli-${platform.name}`;
    const dir = packageDir(name, resolve);
    if (dir) return { file: path.join(dir, "bin", platform.os === "win32" ? "lectern.exe" : "lectern"), args: [], env, via: name };
  }
  const wasiDir = packageDir(WASI_PACKAGE, resolve);
  // --no-incremental-marking: Node 20's V8 was seen to abort ("unreachable code" in the
  // garbage collector) while the module's memory grew during a build; without it, it does not.
  if (wasiDir) return { file: proc.execPath, args: ["--no-warnings", "--no-incremental-marking", path.join(wasiDir, "run.js")], env, via: WASI_PACKAGE };
  const supported = native.map((p) => p.name).join(", ");
  const what = platform
    ? `its package ${SCOPE}/cli-${platform.name} is not installed (npm skipped the optional dependency: reinstall without --no-optional / --omit=optional, and keep package-lock.json from another platform out of the way)`
    : `there is no prebuilt binary for ${describe(proc)} (prebuilt: ${supported})`;
  throw new Error(
    `the \`lectern\` CLI cannot run on this machine: ${what}. ` +
      `Install the portable build, run by Node on any platform (slower to index): \`npm install ${WASI_PACKAGE}\`.`,
  );
}

module.exports = { resolveCli, modelDir, currentPlatform, libcOf, MODEL_PACKAGE, WASI_PACKAGE };
