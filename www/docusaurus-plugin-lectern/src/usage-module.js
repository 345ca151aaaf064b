// Where the widget's usage events go, as a module written at startup and bundled with the
// usage-event emitter (src/theme/LecternWidget/usage.js imports it as
// `@lectern/usage-options`, the plugin's webpack alias). Not in the plugin's global data,
// which every page carries: these options and the site's `onEvent` module load only when the
// panel or the search box does. A site's onEvent option names a module of the site; plugin
// options must be serialisable, so the function itself can only arrive this way.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

/** The import the emitter makes (theme-lectern.d.ts declares it). */
const USAGE_MODULE = "@lectern/usage-options";

const EXTENSIONS = [".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx"];

/**
 * The file of the site's `onEvent` module: a path from the site's folder (`./src/lectern-events.js`,
 * or `@site/src/…`), with or without its extension, as webpack would find it. Throws an
 * Error naming the option when there is none, so a wrong path stops the site at startup.
 * @param {string} given
 * @param {string} siteDir
 */
function findSiteModule(given, siteDir) {
  const file = path.resolve(siteDir, given.replace(/^@site\//, ""));
  for (const candidate of [file, ...EXTENSIONS.map((ext) => file + ext)]) {
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  throw new Error(`"onEvent": no module at ${JSON.stringify(given)} (looked for ${file} with ${EXTENSIONS.join(", ")}); give a path from the site's folder, like "./src/lectern-events.js".`);
}

/**
 * The module's source: `options` (analytics, endpoint, includeText) and `onEvent`, the site
 * module's default export or null.
 * @param {{eventsToAnalytics: boolean, eventsEndpoint: string | null, eventsIncludeText: boolean}} options normalised plugin options
 * @param {string | null} onEventFile
 */
function usageModuleSource(options, onEventFile) {
  const settings = { analytics: options.eventsToAnalytics, endpoint: options.eventsEndpoint, includeText: options.eventsIncludeText };
  return [
    "// Written by docusaurus-plugin-lectern at startup: see its src/usage-module.js.",
    `export const options = ${JSON.stringify(settings)};`,
    onEventFile ? `export { default as onEvent } from ${JSON.stringify(onEventFile)};` : "export const onEvent = null;",
    "",
  ].join("\n");
}

/**
 * Writes the module into the plugin instance's cache folder; returns its path (the alias's
 * target).
 * @param {string} workDir
 * @param {Parameters<typeof usageModuleSource>[0]} options
 * @param {string | null} onEventFile
 */
function writeUsageModule(workDir, options, onEventFile) {
  const file = path.join(workDir, "usage-options.js");
  fs.mkdirSync(workDir, { recursive: true });
  fs.writeFileSync(file, usageModuleSource(options, onEventFile));
  return file;
}

module.exports = { USAGE_MODULE, findSiteModule, usageModuleSource, writeUsageModule };
