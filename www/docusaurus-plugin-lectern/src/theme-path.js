// Where the plugin's theme components come from. Normally src/theme/, which includes the
// navbar's SearchBar. With `searchBar: false` the site's own SearchBar (DocSearch, or a local
// search plugin) must stay: Docusaurus lets the last plugin that provides a theme component
// win and gives a plugin no way to wrap the one before it (@theme-original is for the site's
// own src/theme, @theme-init is the first provider, not the previous one). So the plugin
// then points Docusaurus at a folder of its own components without SearchBar: one
// re-export per file of src/theme/, written from the folder's listing (nothing to keep in
// step by hand), plain ES modules that need no transpiling.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const THEME = path.join(__dirname, "theme");
const COMPONENT = /\.(js|jsx|ts|tsx)$/;

/** Every component file under `dir`, relative to it (posix separators). */
function componentFiles(dir, prefix = "") {
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...componentFiles(path.join(dir, entry.name), rel));
    else if (COMPONENT.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(rel);
  }
  return files;
}

/**
 * The theme folder for these options: src/theme/, or (searchBar false) a folder under
 * `workDir` re-exporting every component of src/theme/ except SearchBar.
 * @param {{searchBar: boolean}} options
 * @param {string} workDir the plugin instance's cache folder
 */
function themePath(options, workDir) {
  if (options.searchBar) return THEME;
  const out = path.join(workDir, "theme-without-searchbar");
  fs.rmSync(out, { recursive: true, force: true });
  for (const rel of componentFiles(THEME)) {
    if (rel === "SearchBar" || rel.startsWith("SearchBar/") || /^SearchBar\.[jt]sx?$/.test(rel)) continue;
    const target = path.join(out, rel.replace(/\.(jsx|ts|tsx)$/, ".js"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const file = path.join(THEME, rel);
    const source = JSON.stringify(file);
    const hasDefault = /^export default |^export \{[^}]*\bdefault\b/m.test(fs.readFileSync(file, "utf8"));
    const lines = ["// Written by docusaurus-plugin-lectern (searchBar: false): see its src/theme-path.js.", `export * from ${source};`];
    if (hasDefault) lines.push(`export { default } from ${source};`);
    fs.writeFileSync(target, `${lines.join("\n")}\n`);
  }
  return out;
}

module.exports = { themePath, componentFiles, THEME };
