// Finding and running the `lectern` CLI, which reads the site's docs and writes the index
// bundle (see the repository README, "The CLI").
"use strict";

const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { PLUGIN } = require("./options");

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Where `lectern` may be, in order: the `cli` option, $LECTERN_BIN, $PATH, then the cargo
 * target folders a checkout of the Lectern repository builds into. */
function cliCandidates(option, env = process.env) {
  const exe = process.platform === "win32" ? "lectern.exe" : "lectern";
  const list = [];
  if (option) list.push({ file: path.resolve(option), from: 'the "cli" option' });
  if (env.LECTERN_BIN) list.push({ file: path.resolve(env.LECTERN_BIN), from: "$LECTERN_BIN" });
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) list.push({ file: path.join(dir, exe), from: "$PATH" });
  if (env.CARGO_TARGET_DIR) list.push({ file: path.join(env.CARGO_TARGET_DIR, "release", exe), from: "$CARGO_TARGET_DIR" });
  const cache = env.LECTERN_CACHE ?? path.join(os.homedir(), ".cache", "lectern");
  list.push({ file: path.join(cache, "target", "release", exe), from: "the Lectern build cache" });
  return list;
}

/** The CLI's path; throws with what was tried when there is none. An explicit `cli` option
 * or $LECTERN_BIN that does not exist is an error, not a reason to look elsewhere. */
function findCli(option, env = process.env) {
  const candidates = cliCandidates(option, env);
  for (const c of candidates) {
    const explicit = c.from === 'the "cli" option' || c.from === "$LECTERN_BIN";
    if (isExecutable(c.file)) return c.file;
    if (explicit) throw new Error(`[${PLUGIN}] ${c.from} points to ${c.file}, which is not an executable file.`);
  }
  throw new Error(
    `[${PLUGIN}] the \`lectern\` CLI was not found (looked on $PATH and in ${candidates.at(-1).file}). ` +
      "Build it with `cargo build --release -p index-build` in the Lectern repository, then put it on $PATH, " +
      'set $LECTERN_BIN or the plugin\'s "cli" option — or set "bundleDir" to a bundle built beforehand.',
  );
}

/**
 * Runs `lectern build <siteDir> --out <outDir> --json` with the site's own baseUrl and
 * trailingSlash; resolves with its JSON summary. The bundle folder is kept between builds,
 * so only changed sections are embedded again.
 */
function runLecternBuild({ cli, siteDir, configPath, outDir, baseUrl, trailingSlash, extraArgs = [], log = console }) {
  const args = ["build", siteDir, "--out", outDir, "--json"];
  if (configPath) args.push("--config", configPath);
  if (baseUrl) args.push("--base-url", baseUrl);
  if (typeof trailingSlash === "boolean") args.push("--trailing-slash", String(trailingSlash));
  args.push(...extraArgs);
  return new Promise((resolve, reject) => {
    const child = spawn(cli, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (e) => reject(new Error(`[${PLUGIN}] could not run ${cli}: ${e.message}`)));
    child.on("close", (code) => {
      if (code !== 0) {
        const tail = stderr.trim().split("\n").slice(-15).join("\n");
        reject(new Error(`[${PLUGIN}] \`lectern ${args.join(" ")}\` failed (exit ${code}):\n${tail}`));
        return;
      }
      // Pages the CLI skipped (unparseable) are reported on stderr: pass them on.
      for (const line of stderr.split("\n")) if (/warn|skipp/i.test(line)) log.warn(`[lectern] ${line.trim()}`);
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`[${PLUGIN}] \`lectern build\` printed no JSON summary:\n${stdout.slice(0, 500)}`));
      }
    });
  });
}

module.exports = { findCli, cliCandidates, runLecternBuild };
