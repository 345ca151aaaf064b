// The plugin's startup checks and the files it emits, with stand-ins for the CLI and runtime.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const plugin = require("../src/index");
const { findCli } = require("../src/cli");
const { wasmFileNames } = require("../src/assets");

const PKG = path.join(__dirname, "..", "..", "..", "pkg");

function tempSite(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-plugin-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const runtime = path.join(dir, "runtime");
  fs.mkdirSync(runtime);
  for (const f of ["index.js", "worker.js", "chat.js", "runtime.js", "lectern_embed.js", "error-codes.js"]) fs.writeFileSync(path.join(runtime, f), "// stand-in\n");
  // The core module is the real one (pkg/, scripts/build-pkg.sh): the plugin checks the
  // chat options with it at startup.
  const coreWasm = wasmFileNames(PKG).CORE_WASM_FILE;
  for (const f of ["lectern_core.js", coreWasm]) fs.copyFileSync(path.join(PKG, f), path.join(runtime, f));
  fs.writeFileSync(path.join(runtime, "wasm-file.js"), `export const CORE_WASM_FILE = "${coreWasm}";\nexport const EMBED_WASM_FILE = "lectern_embed_bg.0123456789ab.wasm";\n`);
  fs.writeFileSync(path.join(runtime, "lectern_embed_bg.0123456789ab.wasm"), "");
  fs.writeFileSync(path.join(runtime, "index.d.ts"), "");
  const bundle = path.join(dir, "bundle");
  fs.mkdirSync(bundle);
  fs.writeFileSync(path.join(bundle, "manifest.json"), JSON.stringify({ format: "lectern-index", format_version: 1 }));
  fs.writeFileSync(path.join(bundle, "chunks.0123456789ab.json"), "[]");
  return { dir, runtime, bundle };
}

const context = (siteDir) => ({ siteDir, siteConfig: { baseUrl: "/docs-site/" }, siteConfigPath: path.join(siteDir, "docusaurus.config.js"), baseUrl: "/docs-site/" });

test("with a prebuilt bundle: emits bundle and runtime under <baseUrl><path>/, and tells the widget where", async (t) => {
  const { dir, runtime, bundle } = tempSite(t);
  // Docusaurus passes the plugin what validateOptions returned.
  const p = await plugin(context(dir), plugin.validateOptions({ options: { bundleDir: bundle, runtimeDir: runtime, endpoint: "/api/chat" } }));
  const content = await p.loadContent();
  const runtimeFiles = fs.readdirSync(runtime).filter((f) => /\.(js|wasm)$/.test(f)).map((f) => `lectern/runtime/${f}`);
  assert.deepEqual(content.files.sort(), ["lectern/bundle/chunks.0123456789ab.json", "lectern/bundle/manifest.json", ...runtimeFiles].sort());
  let data;
  const routes = [];
  await p.contentLoaded({ content, actions: { setGlobalData: (d) => (data = d), addRoute: (r) => routes.push(r) } });
  assert.equal(data.bundleUrl, "/docs-site/lectern/bundle/");
  assert.equal(data.runtimeUrl, "/docs-site/lectern/runtime/");
  assert.equal(data.chat.endpoint, "/api/chat");
  assert.equal(data.searchPageUrl, "/docs-site/search");
  assert.deepEqual(data.launcher, { type: "floating", position: "bottom-right", offsetX: 20, offsetY: 20 });
  // The search page, for the default plugin instance.
  assert.deepEqual(routes, [{ path: "/docs-site/search", component: "@theme/LecternSearchPage", exact: true, props: { pluginId: "default" } }]);
  for (const component of ["LecternWidget", "DocsRoot", "SearchBar", "LecternSearch", "LecternSearchPage"]) {
    assert.ok(fs.existsSync(path.join(p.getThemePath(), component, "index.js")), component);
  }
  assert.equal(p.configureWebpack({}, false).plugins.length, 1);
});

test("startup fails clearly when the runtime is not built, the bundle is not one, or the chat options are refused", async (t) => {
  const { dir, runtime, bundle } = tempSite(t);
  await assert.rejects(plugin(context(dir), { bundleDir: bundle, runtimeDir: runtime, slowAfterMs: 0 }), /"slowAfterMs" must be an integer from 1 to 600000; got 0 \(INVALID_CONFIG\)/);
  fs.rmSync(path.join(runtime, "chat.js"));
  await assert.rejects(plugin(context(dir), { bundleDir: bundle, runtimeDir: runtime }), /lacks chat.js: it is not built, or too old.*scripts\/build-pkg.sh/);
  fs.writeFileSync(path.join(runtime, "chat.js"), "");
  fs.rmSync(path.join(bundle, "manifest.json"));
  await assert.rejects(plugin(context(dir), { bundleDir: bundle, runtimeDir: runtime }), /is not a Lectern bundle \(manifest.json: missing\)/);
});

test("the CLI: an explicit path must exist; otherwise the message names the package to install", (t) => {
  const { dir } = tempSite(t);
  const none = { siteDir: dir, env: { PATH: "/nonexistent", LECTERN_CACHE: "/nonexistent/cache" } };
  assert.throws(() => findCli("/nonexistent/lectern", none), /the "cli" option points to \/nonexistent\/lectern, which is not an executable file/);
  assert.throws(() => findCli(null, { ...none, env: { LECTERN_BIN: "/nonexistent/lectern" } }), /\$LECTERN_BIN points to/);
  assert.throws(() => findCli(null, none), /`lectern` CLI is not installed: `npm install @lectern\/cli`/);
  const bin = findCli(null, { siteDir: dir, env: { PATH: "/nonexistent", LECTERN_BIN: process.execPath, LECTERN_MODEL_DIR: "/m" } });
  assert.deepEqual([bin.file, bin.via, bin.env.LECTERN_MODEL_DIR], [process.execPath, "$LECTERN_BIN", "/m"]);
});

test("the CLI: the installed @lectern/cli package comes before $PATH, with the installed model", (t) => {
  const { dir } = tempSite(t);
  const modules = path.join(dir, "node_modules", "@lectern");
  const cliSrc = path.join(__dirname, "..", "..", "..", "npm", "cli");
  fs.mkdirSync(path.join(modules, "cli"), { recursive: true });
  for (const f of ["index.js", "platforms.json", "package.json"]) {
    const from = path.join(cliSrc, f);
    fs.writeFileSync(path.join(modules, "cli", f), f === "package.json" ? '{"name":"@lectern/cli","main":"index.js"}' : fs.readFileSync(from));
  }
  fs.mkdirSync(path.join(modules, "model-all-minilm-l6-v2"), { recursive: true });
  fs.writeFileSync(path.join(modules, "model-all-minilm-l6-v2", "package.json"), '{"name":"@lectern/model-all-minilm-l6-v2"}');
  const env = { PATH: path.dirname(process.execPath) };
  // No binary package for this platform: the message names the portable one.
  assert.throws(() => findCli(null, { siteDir: dir, env }), /cannot run on this machine.*npm install @lectern\/cli-wasm32-wasi/);
  const platform = require(path.join(modules, "cli")).currentPlatform();
  if (!platform) return t.skip(`no prebuilt platform for ${process.platform}-${process.arch}`);
  const binDir = path.join(modules, `cli-${platform.name}`, "bin");
  fs.mkdirSync(binDir, { recursive: true });
  fs.writeFileSync(path.join(binDir, "..", "package.json"), `{"name":"@lectern/cli-${platform.name}"}`);
  fs.writeFileSync(path.join(binDir, "lectern"), "#!/bin/sh\n", { mode: 0o755 });
  const cli = findCli(null, { siteDir: dir, env });
  assert.equal(cli.file, path.join(binDir, "lectern"));
  assert.equal(cli.via, `@lectern/cli-${platform.name}`);
  assert.equal(cli.env.LECTERN_MODEL_DIR, path.join(modules, "model-all-minilm-l6-v2"));
});

test("swizzle config lists the widget's and the search box's components", () => {
  const { components } = plugin.getSwizzleConfig();
  assert.deepEqual(Object.keys(components), ["SearchBar", "LecternSearch", "LecternSearchPage", "LecternWidget", "LecternPanel", "LecternPanel/Message", "LecternPanel/Markdown", "DocsRoot"]);
  assert.equal(components.LecternWidget.actions.wrap, "safe");
  assert.equal(components.SearchBar.actions.eject, "safe");
});

test("searchBar: false leaves the site's own SearchBar: the theme has every other component, and no search page", async (t) => {
  const { dir, runtime, bundle } = tempSite(t);
  const p = await plugin(context(dir), plugin.validateOptions({ options: { bundleDir: bundle, runtimeDir: runtime, searchBar: false } }));
  const theme = p.getThemePath();
  const listing = (root) => {
    const out = [];
    const walk = (d, prefix) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const rel = prefix ? `${prefix}/${e.name}` : e.name;
        if (e.isDirectory()) walk(path.join(d, e.name), rel);
        else if (/\.js$/.test(e.name)) out.push(rel);
      }
    };
    walk(root, "");
    return out.sort();
  };
  const all = listing(path.join(__dirname, "..", "src", "theme"));
  const kept = listing(theme);
  assert.deepEqual(kept, all.filter((f) => !f.startsWith("SearchBar/")));
  assert.ok(all.includes("SearchBar/index.js"));
  // Each is the component itself, re-exported (no second copy to keep in step).
  const widget = fs.readFileSync(path.join(theme, "LecternWidget", "index.js"), "utf8");
  assert.match(widget, /export \{ default \} from ".*src[\\/]+theme[\\/]+LecternWidget[\\/]+index\.js";/);
  const session = fs.readFileSync(path.join(theme, "LecternPanel", "session.js"), "utf8");
  assert.doesNotMatch(session, /default/, "a module without a default export re-exports its names only");
  const routes = [];
  let data;
  await p.contentLoaded({ actions: { setGlobalData: (d) => (data = d), addRoute: (r) => routes.push(r) } });
  assert.deepEqual(routes, []);
  assert.equal(data.searchPageUrl, null);
  assert.equal(data.searchBar, false);
});
