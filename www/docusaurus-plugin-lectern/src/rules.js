// The chat's rules come from the browser runtime's own core module (the Rust core compiled
// to wasm), run here in Node: the site build accepts exactly the options the reader's
// browser will accept, with the same messages (and the same "did you mean" for the plugin's
// own options), and hands the widget the core's personas, limits and texts. Nothing of it is
// written again in JS.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { wasmFileNames } = require("./assets");

/** Loads the core module of the runtime in `runtimeDir`: `{ validateConfig, didYouMean, rules }`. */
async function loadRules(runtimeDir) {
  const wasmFile = wasmFileNames(runtimeDir).CORE_WASM_FILE;
  if (!wasmFile) throw new Error(`the Lectern browser runtime in ${runtimeDir} names no core module (wasm-file.js): rebuild or reinstall it.`);
  const glue = await import(pathToFileURL(path.join(runtimeDir, "lectern_core.js")).href);
  glue.initSync({ module: fs.readFileSync(path.join(runtimeDir, wasmFile)) });
  return { validateConfig: glue.validateConfig, didYouMean: glue.didYouMean, rules: glue.rules() };
}

module.exports = { loadRules };
