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

/** The installed `@lectern/cli` package's launcher API, or null when it is not installed. */
function installedCliPackage(siteDir) {
  try {
    return require(require.resolve("@lectern/cli", { paths: [siteDir, __dirname] }));
  } catch (e) {
    if (e.code === "MODULE_NOT_FOUND" && /@lectern\/cli/.test(e.message)) return null;
    throw e;
  }
}

/** The installed model package's folder, or null. */
function installedModelDir(siteDir) {
  try {
    return path.dirname(require.resolve("@lectern/model-all-minilm-l6-v2/package.json", { paths: [siteDir, __dirname] }));
  } catch {
    return null;
  }
}

/** Developer overrides after the package: `lectern` on $PATH, then the cargo target folders
 * a checkout of the Lectern repository builds into. */
function devCandidates(env = process.env) {
  const exe = process.platform === "win32" ? "lectern.exe" : "lectern";
  const list = [];
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) list.push({ file: path.join(dir, exe), from: "$PATH" });
  if (env.CARGO_TARGET_DIR) list.push({ file: path.join(env.CARGO_TARGET_DIR, "release", exe), from: "$CARGO_TARGET_DIR" });
  const cache = env.LECTERN_CACHE ?? path.join(os.homedir(), ".cache", "lectern");
  list.push({ file: path.join(cache, "target", "release", exe), from: "the Lectern build cache" });
  return list;
}

/**
 * How to run the CLI: `{ file, args, env, via }` (see @lectern/cli's `resolveCli`). In
 * order: the "cli" option, $LECTERN_BIN, the installed `@lectern/cli` package (the normal
 * case: npm installed the binary for this platform and the model), then, for developers of
 * Lectern, `lectern` on $PATH or in the cargo cache. The model is $LECTERN_MODEL_DIR, else
 * the installed model package, else the binary's own default. An explicit path that is not
 * an executable is an error, not a reason to look elsewhere.
 */
function findCli(option, { siteDir = process.cwd(), env = process.env } = {}) {
  const withModel = (file, via) => {
    const model = env.LECTERN_MODEL_DIR || installedModelDir(siteDir);
    return { file, args: [], env: model ? { ...env, LECTERN_MODEL_DIR: model } : { ...env }, via };
  };
  for (const [value, from] of [
    [option, 'the "cli" option'],
    [env.LECTERN_BIN, "$LECTERN_BIN"],
  ]) {
    if (!value) continue;
    const file = path.resolve(value);
    if (!isExecutable(file)) throw new Error(`[${PLUGIN}] ${from} points to ${file}, which is not an executable file.`);
    return withModel(file, from);
  }
  const pkg = installedCliPackage(siteDir);
  if (pkg) {
    try {
      return pkg.resolveCli({ env });
    } catch (e) {
      throw new Error(`[${PLUGIN}] ${e.message}`, { cause: e });
    }
  }
  const dev = devCandidates(env).find((c) => isExecutable(c.file));
  if (dev) return withModel(dev.file, dev.from);
  throw new Error(
    `[${PLUGIN}] the \`lectern\` CLI is not installed: \`npm install @lectern/cli\` (a dependency of ${PLUGIN}; ` +
      "reinstalling the plugin brings it). Or set \"bundleDir\" to a bundle built beforehand.",
  );
}

/**
 * The `lectern build` arguments for the llms files (`llms`: the folder, the plugin's options
 * llmsTxt, llmsFullTxt, markdownTwins, llmsVersions, and the file of the sidebars Docusaurus
 * loaded, sidebars.js), or none when all are off.
 * @param {{ dir: string, llmsTxt: boolean, llmsFullTxt: boolean, markdownTwins: boolean, llmsVersions: string, sidebars?: string | null } | null} llms
 */
function llmsArgs(llms) {
  if (!llms || !(llms.llmsTxt || llms.llmsFullTxt || llms.markdownTwins)) return [];
  const args = ["--llms-out", llms.dir, "--llms-versions", llms.llmsVersions];
  if (llms.sidebars) args.push("--llms-sidebars", llms.sidebars);
  if (!llms.llmsTxt) args.push("--no-llms-txt");
  if (!llms.llmsFullTxt) args.push("--no-llms-full-txt");
  if (!llms.markdownTwins) args.push("--no-markdown-twins");
  return args;
}

/** A progress line of `lectern build --progress json` (`{"progress": {"message": …}}`): its message, else null. */
function progressMessage(line) {
  if (!line.startsWith('{"progress"')) return null;
  try {
    const message = JSON.parse(line).progress?.message;
    return typeof message === "string" ? message : null;
  } catch {
    return null;
  }
}

/**
 * Runs `lectern build <siteDir> --out <outDir> --json` with the site's own baseUrl and
 * trailingSlash and, as `--site-config`, the summary of the config Docusaurus has loaded
 * (so the CLI evaluates nothing), for `locale` (the one Docusaurus is building: its bundle is
 * `<outDir>/<locale>/` unless it is the default locale's; `localeBaseUrl`: the URL prefix of its
 * pages, as Docusaurus computed it); resolves with its JSON summary. The bundle folder is kept between builds,
 * so only changed sections are embedded again. With `llms`, the CLI also writes the llms
 * files there. Embedding's progress (a line every few seconds, from the CLI's
 * `--progress json`) is logged as it comes: the first build of a real site takes minutes.
 */
function runLecternBuild({ cli, siteDir, configPath, siteConfigFile, outDir, baseUrl, trailingSlash, locale = null, localeBaseUrl = null, llms = null, extraArgs = [], log = console }) {
  const args = ["build", siteDir, "--out", outDir, "--json", "--progress", "json"];
  if (locale) args.push("--locale", locale);
  // The URL prefix Docusaurus builds this locale under (the site's baseUrl is then the
  // locale's already): the CLI must not add the locale to it again.
  if (locale && localeBaseUrl) args.push("--locale-base-url", localeBaseUrl);
  if (configPath) args.push("--config", configPath);
  if (siteConfigFile) args.push("--site-config", siteConfigFile);
  if (baseUrl) args.push("--base-url", baseUrl);
  if (typeof trailingSlash === "boolean") args.push("--trailing-slash", String(trailingSlash));
  args.push(...llmsArgs(llms), ...extraArgs);
  return new Promise((resolve, reject) => {
    const child = spawn(cli.file, [...cli.args, ...args], { stdio: ["ignore", "pipe", "pipe"], env: cli.env });
    let stdout = "";
    let stderr = "";
    let partial = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      const lines = (partial + d).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        const message = progressMessage(line);
        if (message) log.info(`[lectern] ${message}`);
        else stderr += `${line}\n`;
      }
    });
    child.on("error", (e) => reject(new Error(`[${PLUGIN}] could not run ${cli.file} (${cli.via}): ${e.message}`)));
    child.on("close", (code) => {
      stderr += partial;
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

module.exports = { findCli, devCandidates, runLecternBuild, llmsArgs };
