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

test("usage events: the emitter's module holds the options and the site's onEvent module, found at startup (path from the site, extension optional)", async (t) => {
  const { dir, runtime, bundle } = tempSite(t);
  fs.mkdirSync(path.join(dir, "src"));
  const hook = path.join(dir, "src", "lectern-events.js");
  fs.writeFileSync(hook, "export default function onEvent() {}\n");
  const start = (options) => plugin(context(dir), plugin.validateOptions({ options: { bundleDir: bundle, runtimeDir: runtime, ...options } }));
  const aliased = (p) => {
    const [client, server] = [false, true].map((isServer) => p.configureWebpack({}, isServer).resolve.alias["@lectern/usage-options"]);
    assert.equal(client, server, "the same module in both bundles");
    return fs.readFileSync(client, "utf8");
  };
  for (const given of ["./src/lectern-events.js", "src/lectern-events", "@site/src/lectern-events.js"]) {
    const source = aliased(await start({ onEvent: given, eventsToAnalytics: true, eventsEndpoint: "/api/proxy/v1/events" }));
    assert.ok(source.split("\n").includes(`export { default as onEvent } from ${JSON.stringify(hook)};`), `${given}: ${source}`);
    assert.match(source, /^export const options = \{"analytics":true,"endpoint":"\/api\/proxy\/v1\/events","includeText":false\};$/m);
  }
  const none = aliased(await start({}));
  assert.match(none, /^export const onEvent = null;$/m);
  assert.match(none, /^export const options = \{"analytics":false,"endpoint":null,"includeText":false\};$/m);
  await assert.rejects(start({ onEvent: "./src/missing.js" }), /\[docusaurus-plugin-lectern\] "onEvent": no module at "\.\/src\/missing\.js".*give a path from the site's folder/);
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

/** A stand-in `lectern` that writes a bundle and the llms files where it is told, reports
 * embedding's progress as `--progress json` does, and prints a summary like the real one. */
function standInCli(dir) {
  const file = path.join(dir, "lectern-stand-in.js");
  const script = `#!${process.execPath}
const fs = require("node:fs"), path = require("node:path");
const args = process.argv.slice(2), arg = (name) => args[args.indexOf(name) + 1];
fs.writeFileSync(${JSON.stringify(path.join(dir, "cli-args.json"))}, JSON.stringify(args));
fs.mkdirSync(arg("--out"), { recursive: true });
fs.writeFileSync(path.join(arg("--out"), "manifest.json"), JSON.stringify({ format: "lectern-index" }));
// As \`lectern build --locale\`: a locale other than the default one (en here) inside the default's.
if (args.includes("--locale") && arg("--locale") !== "en") {
  fs.mkdirSync(path.join(arg("--out"), arg("--locale")), { recursive: true });
  fs.writeFileSync(path.join(arg("--out"), arg("--locale"), "manifest.json"), JSON.stringify({ format: "lectern-index", site: { language: arg("--locale") } }));
}
const progress = (message) => process.stderr.write(JSON.stringify({ progress: { message } }) + "\\n");
progress("embedding 2 sections");
process.stderr.write("a note that is not progress\\n");
progress("embedded 2/2 sections (100 %)");
let llms;
if (args.includes("--llms-out")) {
  const out = arg("--llms-out");
  fs.mkdirSync(path.join(out, "docs"), { recursive: true });
  for (const [name, text] of [["llms.txt", "# Site\\n"], ["llms-full.txt", "# Site\\n\\n# Intro\\n"], ["docs/intro.md", "# Intro\\n"]]) fs.writeFileSync(path.join(out, name), text);
  llms = { dir: out, llms_txt_bytes: 7, llms_full_txt_bytes: 17, markdown_twins: { count: 1, bytes: 8, suffixes: { file: ".md", folder: "index.html.md" },
    versions: [{ instance: "default", version: "current" }, { instance: "community", version: "2.0" }, { instance: "community", version: "current" }] } };
}
console.log(JSON.stringify({ pages: 1, chunks: 2, embedded: 2, reused: 0, content_dirs: [], llms }));
`;
  fs.writeFileSync(file, script, { mode: 0o755 });
  return file;
}

test("the llms files: written by the CLI at the site's root, a static one of the site's wins, twins linked through global data", async (t) => {
  const { dir, runtime } = tempSite(t);
  const info = t.mock.method(console, "info", () => {});
  const warn = t.mock.method(console, "warn", () => {});
  fs.mkdirSync(path.join(dir, "static"));
  fs.writeFileSync(path.join(dir, "static", "llms-full.txt"), "the site's own\n");
  const p = await plugin(context(dir), plugin.validateOptions({ options: { cli: standInCli(dir), runtimeDir: runtime, llmsVersions: "all", llmsFullTxt: true } }));
  const content = await p.loadContent();
  const args = JSON.parse(fs.readFileSync(path.join(dir, "cli-args.json"), "utf8"));
  const llmsDir = path.join(dir, "node_modules", ".cache", "lectern", "default", "llms");
  assert.deepEqual(args.slice(args.indexOf("--llms-out"), args.indexOf("--llms-out") + 4), ["--llms-out", llmsDir, "--llms-versions", "all"]);
  assert.ok(args.includes("--progress") && !args.includes("--no-markdown-twins"));
  assert.ok(content.files.includes("llms.txt") && content.files.includes("docs/intro.md"), content.files.join(" "));
  assert.ok(!content.files.includes("llms-full.txt"), "the site's static llms-full.txt is not overwritten");
  const infos = info.mock.calls.map((c) => c.arguments[0]);
  assert.ok(infos.includes("[lectern] embedding 2 sections") && infos.includes("[lectern] embedded 2/2 sections (100 %)"), infos.join("\n"));
  assert.ok(infos.some((l) => /^\[lectern\] for AI agents: llms\.txt \(0\.0 KB\), 1 Markdown twins/.test(l)), infos.join("\n"));
  assert.ok(warn.mock.calls.some((c) => /the site has its own llms-full\.txt/.test(c.arguments[0])));
  let data;
  await p.contentLoaded({ content, actions: { setGlobalData: (d) => (data = d), addRoute: () => {} } });
  assert.deepEqual(data.markdownTwins, { fileSuffix: ".md", folderSuffix: "index.html.md", versions: { default: ["current"], community: ["2.0", "current"] } });

  // Each file can be turned off; with all three off the CLI is not asked for any.
  const off = await plugin(context(dir), plugin.validateOptions({ options: { cli: standInCli(dir), runtimeDir: runtime, llmsTxt: false, llmsFullTxt: false, markdownTwins: false } }));
  const none = await off.loadContent();
  assert.ok(!JSON.parse(fs.readFileSync(path.join(dir, "cli-args.json"), "utf8")).includes("--llms-out"));
  assert.ok(!none.files.some((f) => f.endsWith(".md") || f.startsWith("llms")));
  assert.equal(none.markdownTwins, null);
});

test("locales: each of Docusaurus' locale builds indexes its own locale and ships only that bundle", async (t) => {
  const { dir, runtime } = tempSite(t);
  t.mock.method(console, "info", () => {});
  const built = async (currentLocale) => {
    const localized = { ...context(dir), baseUrl: currentLocale === "en" ? "/docs-site/" : `/docs-site/${currentLocale}/`, i18n: { currentLocale, defaultLocale: "en" } };
    const p = await plugin(localized, plugin.validateOptions({ options: { cli: standInCli(dir), runtimeDir: runtime } }));
    const content = await p.loadContent();
    let data;
    await p.contentLoaded({ content, actions: { setGlobalData: (d) => (data = d), addRoute: () => {} } });
    return { args: JSON.parse(fs.readFileSync(path.join(dir, "cli-args.json"), "utf8")), content, data, p };
  };
  const out = path.join(dir, "node_modules", ".cache", "lectern", "default", "bundle");
  const zh = await built("zh-CN");
  assert.deepEqual(zh.args.slice(zh.args.indexOf("--locale"), zh.args.indexOf("--locale") + 2), ["--locale", "zh-CN"]);
  assert.equal(zh.args[zh.args.indexOf("--out") + 1], out, "one folder for every locale: the CLI puts zh-CN/ inside");
  assert.ok(!zh.args.includes("--llms-out"), "the files for AI agents are the default locale's");
  // Its pages' URL prefix is the one Docusaurus builds it under (not the locale added twice).
  assert.equal(zh.args[zh.args.indexOf("--locale-base-url") + 1], "/docs-site/zh-CN/");
  // The emitted bundle is the Chinese one, at the locale's own URL.
  const emitted = zh.p.configureWebpack({}, false).plugins[0].state.files;
  const manifest = emitted.find((f) => f.to === "lectern/bundle/manifest.json");
  assert.equal(manifest?.from, path.join(out, "zh-CN", "manifest.json"));
  assert.ok(!zh.content.files.some((f) => f.includes("zh-CN/")), zh.content.files.join(" "));
  assert.equal(zh.data.bundleUrl, "/docs-site/zh-CN/lectern/bundle/");
  const en = await built("en");
  assert.deepEqual(en.args.slice(en.args.indexOf("--locale"), en.args.indexOf("--locale") + 2), ["--locale", "en"]);
  assert.ok(en.args.includes("--llms-out"));
  assert.ok(!en.args.includes("--locale-base-url"), "the default locale is served at the site's baseUrl");
  assert.equal(en.data.bundleUrl, "/docs-site/lectern/bundle/");
});

test("on Docusaurus 3.6+, the build waits for allContentLoaded and gives the CLI the sidebars Docusaurus loaded", async (t) => {
  const { dir, runtime } = tempSite(t);
  t.mock.method(console, "info", () => {});
  t.mock.method(console, "warn", () => {});
  // The site's Docusaurus, as the plugin finds it.
  const core = path.join(dir, "node_modules", "@docusaurus", "core");
  fs.mkdirSync(core, { recursive: true });
  fs.writeFileSync(path.join(core, "package.json"), JSON.stringify({ name: "@docusaurus/core", version: "3.9.2" }));
  const p = await plugin(context(dir), plugin.validateOptions({ options: { cli: standInCli(dir), runtimeDir: runtime } }));
  const argsFile = path.join(dir, "cli-args.json");
  const content = await p.loadContent();
  assert.equal(content, null);
  assert.ok(!fs.existsSync(argsFile), "no build before the docs plugin's sidebars are known");
  let data = null;
  const routes = [];
  const actions = { setGlobalData: (/** @type {any} */ d) => (data = d), addRoute: (/** @type {any} */ r) => routes.push(r) };
  await p.contentLoaded({ content, actions });
  assert.equal(data, null, "the widget's options wait for the build");

  const sidebar = (label) => ({ s: [{ type: "doc", id: "intro" }, { type: "category", label, items: [{ type: "doc", id: "guide/a" }] }] });
  const allContent = (label) => ({
    "docusaurus-plugin-content-docs": {
      default: { loadedVersions: [{ versionName: "current", sidebars: sidebar(label) }, { versionName: "1.0", sidebars: sidebar("Old") }] },
      community: { loadedVersions: [{ versionName: "current", sidebars: { c: [{ type: "doc", id: "team" }] } }] },
    },
    "docusaurus-plugin-content-pages": { default: [] },
  });
  await p.allContentLoaded({ allContent: allContent("Guides"), actions });
  const args = JSON.parse(fs.readFileSync(argsFile, "utf8"));
  const file = args[args.indexOf("--llms-sidebars") + 1];
  assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), {
    default: { current: sidebar("Guides"), "1.0": sidebar("Old") },
    community: { current: { c: [{ type: "doc", id: "team" }] } },
  });
  assert.equal(data?.bundleUrl, "/docs-site/lectern/bundle/");
  assert.equal(routes.length, 1);

  // Another plugin reloaded: the same sidebars, no page changed, so no new build.
  fs.rmSync(argsFile);
  await p.allContentLoaded({ allContent: allContent("Guides"), actions });
  assert.ok(!fs.existsSync(argsFile));
  assert.equal(data?.bundleUrl, "/docs-site/lectern/bundle/");
  // The sidebars changed (sidebars.js edited): built again.
  await p.allContentLoaded({ allContent: allContent("Tutorials"), actions });
  assert.ok(fs.existsSync(argsFile));
  assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).default.current.s[1].label, "Tutorials");
  // A page changed (this plugin's content loaded again): built again.
  fs.rmSync(argsFile);
  await p.loadContent();
  await p.allContentLoaded({ allContent: allContent("Tutorials"), actions });
  assert.ok(fs.existsSync(argsFile));
});
