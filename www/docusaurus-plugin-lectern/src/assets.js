// The files the plugin puts on the site: the index bundle (`lectern build`'s output), the
// browser runtime (the `lectern` package: JS API, worker, chat layer, wasm) and the llms
// files `lectern build --llms-out` writes (llms.txt, llms-full.txt, Markdown twins). They go out as
// webpack assets, so `docusaurus build` writes them into the build folder and
// `docusaurus start` serves them from memory — one code path for both.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { PLUGIN } = require("./options");

/** Files the widget imports or the runtime needs by name. */
const RUNTIME_REQUIRED = ["index.js", "worker.js", "chat.js", "runtime.js", "wasm-file.js", "error-codes.js"];

/**
 * The browser runtime's folder: the "runtimeDir" option, else $LECTERN_RUNTIME_DIR, else the
 * installed `lectern` package. Throws when it is missing or not built.
 */
function findRuntimeDir({ option, siteDir, env = process.env }) {
  let dir = option ? path.resolve(siteDir, option) : env.LECTERN_RUNTIME_DIR ? path.resolve(env.LECTERN_RUNTIME_DIR) : null;
  const from = option ? 'the "runtimeDir" option' : env.LECTERN_RUNTIME_DIR ? "$LECTERN_RUNTIME_DIR" : "the `lectern` package";
  if (!dir) {
    try {
      dir = path.dirname(require.resolve("lectern/package.json", { paths: [siteDir, __dirname] }));
    } catch {
      throw new Error(
        `[${PLUGIN}] the Lectern browser runtime (npm package \`lectern\`, a dependency of ${PLUGIN}) is not installed in ${siteDir}: ` +
          '`npm install lectern` (reinstalling the plugin brings it). Developers of Lectern: set the "runtimeDir" option or $LECTERN_RUNTIME_DIR to a folder built by scripts/build-pkg.sh.',
      );
    }
  }
  const missing = RUNTIME_REQUIRED.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) {
    throw new Error(
      `[${PLUGIN}] the Lectern browser runtime in ${dir} (${from}) lacks ${missing.join(", ")}: ` +
        "it is not built, or too old for this plugin: install the `lectern` version the plugin depends on (or, in the Lectern repository, run scripts/build-pkg.sh).",
    );
  }
  return dir;
}

/** The content-hashed wasm modules that the runtime's generated wasm-file.js names:
 * `{ CORE_WASM_FILE, EMBED_WASM_FILE }`. */
function wasmFileNames(dir) {
  const text = fs.readFileSync(path.join(dir, "wasm-file.js"), "utf8");
  return Object.fromEntries([...text.matchAll(/export const (\w+)\s*=\s*"([^"]+\.wasm)"/g)].map((m) => [m[1], m[2]]));
}

/** Every runtime file the browser may load: the top-level .js and .wasm files. */
function runtimeFiles(dir) {
  const files = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && /\.(m?js|wasm)$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => e.name);
  // wasm-file.js names the content-hashed wasm modules (core, embedder): each must be here.
  const named = Object.values(wasmFileNames(dir));
  const missing = named.length ? named.filter((f) => !files.includes(f)) : ["(none named)"];
  if (missing.length) {
    throw new Error(`[${PLUGIN}] the Lectern browser runtime in ${dir} lacks the wasm module ${missing.join(", ")} that wasm-file.js names: rebuild it (scripts/build-pkg.sh).`);
  }
  return files;
}

/** Every file of a bundle folder, after checking it is one (manifest.json of the right format). */
function bundleFiles(dir) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
  } catch (e) {
    throw new Error(`[${PLUGIN}] ${dir} is not a Lectern bundle (manifest.json: ${e.code === "ENOENT" ? "missing" : e.message}). Build one with \`lectern build <site> --out <dir>\`.`, { cause: e });
  }
  if (manifest.format !== "lectern-index") throw new Error(`[${PLUGIN}] ${dir}/manifest.json is not a Lectern index manifest.`);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith("."))
    .map((e) => e.name);
}

/** The llms files a site may ship itself; a page's twin is always Lectern's. */
const SITE_LEVEL_LLMS_FILES = ["llms.txt", "llms-full.txt"];

/**
 * The files of the llms folder `lectern build` wrote, as `{from, to}` with `to` their path
 * under the site's baseUrl (as the CLI laid them out), leaving out (as `shadowed`) an
 * llms.txt or llms-full.txt that one of the site's static folders already holds.
 * @param {string} dir
 * @param {string[]} staticDirs
 */
function llmsFiles(dir, staticDirs) {
  /** @type {{from: string, to: string}[]} */
  const files = [];
  /** @type {string[]} */
  const shadowed = [];
  const walk = (/** @type {string} */ sub) => {
    for (const e of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) walk(rel);
      else if (SITE_LEVEL_LLMS_FILES.includes(rel) && staticDirs.some((s) => fs.existsSync(path.join(s, rel)))) shadowed.push(rel);
      else if (e.isFile()) files.push({ from: path.join(dir, rel), to: rel });
    }
  };
  walk("");
  return { files, shadowed };
}

/**
 * A webpack plugin that adds the current list of files to the client compilation. It reads
 * `state.files` ([{from, to}]) at each compilation, so a dev-server rebuild after the index
 * changed serves the new files.
 */
class LecternAssetsPlugin {
  constructor(state) {
    this.state = state;
    this.cache = new Map(); // path -> {mtimeMs, size, source}
  }

  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tapPromise({ name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, async () => {
        for (const { from, to } of this.state.files) {
          const stat = await fs.promises.stat(from);
          let hit = this.cache.get(from);
          if (!hit || hit.mtimeMs !== stat.mtimeMs || hit.size !== stat.size) {
            hit = { mtimeMs: stat.mtimeMs, size: stat.size, source: new sources.RawSource(await fs.promises.readFile(from)) };
            this.cache.set(from, hit);
          }
          // `minimized` keeps terser and the CSS minimiser off these files: they ship as built.
          const info = { minimized: true, immutable: /\.[0-9a-f]{12}\./.test(to), sourceFilename: from };
          if (compilation.getAsset(to)) compilation.updateAsset(to, hit.source, info);
          else compilation.emitAsset(to, hit.source, info);
        }
      });
    });
  }
}

module.exports = { findRuntimeDir, runtimeFiles, wasmFileNames, bundleFiles, llmsFiles, LecternAssetsPlugin, RUNTIME_REQUIRED };
