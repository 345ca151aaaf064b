// docusaurus-plugin-lectern: one entry in docusaurus.config turns a docs site into one that
// answers questions about itself.
//
//   plugins: [['docusaurus-plugin-lectern', { endpoint: '/api/chat', starterQuestions: [...] }]]
//
// At startup it validates the options and finds the `lectern` CLI and the browser runtime;
// once every plugin's content is loaded (so the docs plugin's sidebars are known, for
// llms.txt; while loading its own content on Docusaurus before 3.6) it runs `lectern build`
// over the site (incrementally: only changed sections are embedded again); the bundle and the runtime go out as assets under
// <baseUrl><path>/ (written by `docusaurus build`, served by `docusaurus start`), and the
// site's text for AI agents that the same run writes (llms.txt, llms-full.txt, a Markdown
// twin beside every docs page) at the site's root; the theme wraps every docs page
// (DocsRoot) with the widget and the link to the page's twin, and gives the navbar its
// search box (SearchBar) and the site a full-results page (<baseUrl>search), all of which
// load the runtime only when a reader opens them, focuses the box or asks about a selection.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { createRequire } = require("node:module");
const { normalizeOptions, withSiteTitle, validateOptions, applyCoreRules, clientOptions, OptionsError, PLUGIN } = require("./options");
const { loadRules } = require("./rules");
const { summarizeConfig } = require("./config-summary");
const { findCli, runLecternBuild } = require("./cli");
const { findRuntimeDir, runtimeFiles, bundleFiles, llmsFiles, LecternAssetsPlugin } = require("./assets");
const { themePath } = require("./theme-path");
const { USAGE_MODULE, findSiteModule, writeUsageModule } = require("./usage-module");
const { loadedSidebars, hasAllContentLoaded, sidebarsFile } = require("./sidebars");

async function pluginLectern(context, rawOptions) {
  const { siteDir, siteConfig, siteConfigPath, baseUrl } = context;
  // Docusaurus builds each locale as a site of its own (baseUrl then ends in `<locale>/`):
  // this one's bundle holds this locale's pages only, so the reader searches their own.
  const locale = context.i18n?.currentLocale ?? null;
  const otherLocale = locale !== null && locale !== context.i18n?.defaultLocale;
  const dev = process.env.NODE_ENV === "development";
  const log = console;

  // Startup checks: everything that can be known wrong before any build work. The chat
  // options are checked by the runtime's own core, so the build refuses exactly what the
  // browser would. (Docusaurus has normalised already; again makes direct use safe.) The
  // answers name the site by its title unless the options say otherwise.
  const normalized = withSiteTitle(normalizeOptions(rawOptions), siteConfig.title);
  const runtimeDir = findRuntimeDir({ option: normalized.runtimeDir, siteDir });
  const runtime = runtimeFiles(runtimeDir);
  const options = applyCoreRules(normalized, await loadRules(runtimeDir));
  const prebuilt = options.bundleDir ? path.resolve(siteDir, options.bundleDir) : null;
  const indexing = !prebuilt && (!dev || options.indexInDev);
  const cli = indexing ? findCli(options.cli, { siteDir }) : null;
  if (prebuilt) bundleFiles(prebuilt); // throws when it is not a bundle
  if (cli) log.info(`[lectern] CLI: ${cli.file} (${cli.via}); model: ${cli.env.LECTERN_MODEL_DIR ?? "the CLI's default"}`);
  log.info(`[lectern] browser runtime: ${runtimeDir}`);

  const folder = options.path;
  const urls = {
    bundleUrl: prebuilt || indexing ? `${baseUrl}${folder}/bundle/` : null,
    runtimeUrl: `${baseUrl}${folder}/runtime/`,
    searchPageUrl: options.searchPagePath ? `${baseUrl}${options.searchPagePath}` : null,
  };
  // Where `lectern build` keeps its bundle between runs (incremental), per plugin instance.
  const workDir = path.join(siteDir, "node_modules", ".cache", "lectern", options.id);
  // Where the usage events go, and the site's onEvent module (a wrong path stops here).
  const usageModule = writeUsageModule(workDir, options, siteModule(options.onEvent, siteDir));
  /** Shared with the webpack plugin: what to emit at the next compilation. */
  const state = { files: [] };
  /** The site's static folders: an llms file there is the site's own. */
  const staticDirs = (siteConfig.staticDirectories ?? ["static"]).map((d) => path.resolve(siteDir, d));
  /** The folders the last `lectern build` read pages from (every docs instance and version). */
  let watched = [];
  // With allContentLoaded (Docusaurus 3.6+), the build waits for the docs plugin's sidebars:
  // it runs there when this plugin's content was loaded again (a page changed) or the
  // sidebars changed, so a reload of another plugin costs nothing.
  // Under `docusaurus start` the build stays in loadContent, which an edited page re-runs
  // (the llms files are a production build's).
  const afterAllContent = indexing && !dev && hasAllContentLoaded(siteDir);
  let pending = false;
  let builtWithSidebars = /** @type {string | null} */ (null);
  let built = /** @type {Awaited<ReturnType<typeof build>> | null} */ (null);

  /** Runs `lectern build` when indexing, and lists what to emit; `sidebars`: their file, if known. */
  async function build(/** @type {string | null} */ sidebars) {
    // A prebuilt bundle of every locale (`lectern build`) has this locale's inside it.
    const prebuiltLocale = prebuilt && otherLocale ? path.join(prebuilt, locale) : null;
    let bundleDir = prebuiltLocale && fs.existsSync(path.join(prebuiltLocale, "manifest.json")) ? prebuiltLocale : prebuilt;
    let summary = null;
    const llmsDir = path.join(workDir, "llms");
    if (indexing) {
      // `lectern build` writes the default locale's bundle here, every other one's inside it.
      const outDir = path.join(workDir, "bundle");
      bundleDir = otherLocale ? path.join(outDir, locale) : outDir;
      fs.mkdirSync(workDir, { recursive: true });
      // The config as Docusaurus loaded it: the CLI reads this instead of evaluating the file.
      const siteConfigFile = path.join(workDir, "site-config.json");
      fs.writeFileSync(siteConfigFile, JSON.stringify(summarizeConfig(siteConfig)));
      const t0 = Date.now();
      summary = await runLecternBuild({
        cli,
        siteDir,
        configPath: siteConfigPath,
        siteConfigFile,
        outDir,
        baseUrl: siteConfig.baseUrl,
        trailingSlash: siteConfig.trailingSlash,
        locale,
        // Another locale's pages are served under the baseUrl Docusaurus gives its build.
        localeBaseUrl: otherLocale ? baseUrl : null,
        // The files for AI agents are the default locale's.
        llms: otherLocale
          ? null
          : { dir: llmsDir, llmsTxt: options.llmsTxt, llmsFullTxt: options.llmsFullTxt, markdownTwins: options.markdownTwins, llmsVersions: options.llmsVersions, sidebars },
        extraArgs: options.buildArgs,
        log,
      });
      watched = summary.content_dirs ?? [];
      log.info(
        `[lectern] indexed ${summary.pages} pages into ${summary.chunks} sections ` +
          `(${summary.embedded} embedded, ${summary.reused} reused) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
    } else if (!prebuilt) {
      log.warn(`[lectern] "indexInDev" is false: the widget has no index under \`docusaurus start\`.`);
    }
    const files = [];
    if (bundleDir) {
      for (const name of bundleFiles(bundleDir)) files.push({ from: path.join(bundleDir, name), to: `${folder}/bundle/${name}` });
    }
    for (const name of runtime) files.push({ from: path.join(runtimeDir, name), to: `${folder}/runtime/${name}` });
    // The llms files go where the site serves them (their paths are under baseUrl already),
    // except one the site ships itself in a static folder: the site's own wins.
    const llms = summary?.llms ? llmsFiles(llmsDir, staticDirs) : { files: [], shadowed: [] };
    for (const name of llms.shadowed) log.warn(`[lectern] the site has its own ${name} (in a static folder): Lectern's is not written.`);
    files.push(...llms.files);
    state.files = files;
    const twins = summary?.llms?.markdown_twins ?? null;
    if (summary?.llms) log.info(`[lectern] for AI agents: ${describeLlms(summary.llms, llms.shadowed)}`);
    return { summary, files: files.map((f) => f.to), markdownTwins: twins && twinLinks(twins) };
  }

  /** The widget's options and the search page, once the build (if any) has run. */
  function publish(/** @type {any} */ content, /** @type {any} */ actions) {
    actions.setGlobalData(clientOptions(options, urls, content?.markdownTwins ?? null));
    // The full list of results, linkable: <baseUrl>search?q=…&version=…
    if (urls.searchPageUrl) {
      actions.addRoute({ path: urls.searchPageUrl, component: "@theme/LecternSearchPage", exact: true, props: { pluginId: options.id } });
    }
  }

  return {
    name: PLUGIN,

    async loadContent() {
      if (!afterAllContent) return build(null);
      pending = true;
      return null;
    },

    async contentLoaded({ content, actions }) {
      if (!afterAllContent) publish(content, actions);
    },

    async allContentLoaded({ allContent, actions }) {
      if (!afterAllContent) return;
      const sidebars = JSON.stringify(loadedSidebars(allContent));
      if (pending || sidebars !== builtWithSidebars) {
        fs.mkdirSync(workDir, { recursive: true });
        fs.writeFileSync(sidebarsFile(workDir), sidebars);
        built = await build(sidebarsFile(workDir));
        pending = false;
        builtWithSidebars = sidebars;
      }
      publish(built, actions);
    },

    configureWebpack(_config, isServer) {
      // The usage events' options and the site's onEvent module (LecternWidget/usage.js).
      const resolve = { alias: { [USAGE_MODULE]: usageModule } };
      if (!isServer) return { resolve, plugins: [new LecternAssetsPlugin(state)] };
      // The server bundle turns the runtime's `import(url)` into require(): it never runs
      // there (the panel is browser-only), so webpack's warning about it is noise.
      return { resolve, ignoreWarnings: [{ module: /LecternPanel[\\/]session\.js/, message: /Critical dependency/ }] };
    },

    async getDefaultCodeTranslationMessages() {
      // The search box reuses DocSearch's message ids where the meaning is the same
      // (LecternSearch/strings.js): their translations, which Docusaurus ships, apply.
      // And the plugin's own strings in the locales it ships (src/locales/<locale>/lectern.json).
      const locale = context.i18n.currentLocale;
      return { ...(await readTranslations(siteDir, locale, "theme-search-algolia")), ...(await readTranslations(siteDir, locale, "lectern", LOCALES_DIR)) };
    },

    getThemePath() {
      // Without SearchBar when the site keeps its own search box (theme-path.js).
      return themePath(options, workDir);
    },

    getPathsToWatch() {
      // Under `docusaurus start`, an edited page re-runs `lectern build` (incremental): the
      // folders of the site's actual docs instances and versions, as the CLI read them.
      if (!indexing) return [];
      return watched.map((dir) => path.join(path.resolve(siteDir, dir), "**/*.{md,mdx}"));
    },
  };
}

/** The file of the site's onEvent module (null: none), or the OptionsError saying why not. */
function siteModule(given, siteDir) {
  if (given === null) return null;
  try {
    return findSiteModule(given, siteDir);
  } catch (e) {
    throw new OptionsError(e.message);
  }
}

/**
 * What the docs pages need to link their Markdown twin (DocsRoot/MarkdownTwinLink): the
 * suffixes `lectern build` appends to a page's URL and, per docs instance, the versions
 * whose pages have twins.
 * @param {{ suffixes: { file: string, folder: string }, versions: { instance: string, version: string }[] }} twins
 */
function twinLinks(twins) {
  /** @type {Record<string, string[]>} */
  const versions = {};
  for (const { instance, version } of twins.versions) (versions[instance] ??= []).push(version);
  return { fileSuffix: twins.suffixes.file, folderSuffix: twins.suffixes.folder, versions };
}

/** `llms.txt (12.3 KB), llms-full.txt (1.2 MB), 46 Markdown twins (1.1 MB)`. */
function describeLlms(llms, shadowed) {
  const size = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} KB`);
  const parts = [];
  if (llms.llms_txt_bytes != null && !shadowed.includes("llms.txt")) parts.push(`llms.txt (${size(llms.llms_txt_bytes)})`);
  if (llms.llms_full_txt_bytes != null && !shadowed.includes("llms-full.txt")) parts.push(`llms-full.txt (${size(llms.llms_full_txt_bytes)})`);
  if (llms.markdown_twins) parts.push(`${llms.markdown_twins.count} Markdown twins (${size(llms.markdown_twins.bytes)})`);
  return parts.join(", ") || "nothing";
}

/** The translations of the plugin's own strings, one folder per locale. */
const LOCALES_DIR = path.join(__dirname, "locales");

/** The messages `name` in `locale` — DocSearch's from @docusaurus/theme-translations (a
 * dependency of the classic theme), or the plugin's from `dirPath` — found as Docusaurus finds
 * its own ("zh-CN" reads zh-Hans), or none when there are none or the package is missing. */
async function readTranslations(siteDir, locale, name, dirPath = undefined) {
  try {
    const { readDefaultCodeTranslationMessages } = createRequire(path.join(siteDir, "package.json"))("@docusaurus/theme-translations");
    return await readDefaultCodeTranslationMessages({ locale, name, ...(dirPath ? { dirPath } : {}) });
  } catch {
    return {};
  }
}

/** Theme components that `docusaurus swizzle docusaurus-plugin-lectern` may eject or wrap. */
function getSwizzleConfig() {
  const safe = { eject: "safe", wrap: "safe" };
  return {
    components: {
      SearchBar: { actions: safe, description: "The navbar's search box (a button until used; ⌘K / Ctrl+K, /) and the navbar launcher; loads LecternSearch on demand." },
      LecternSearch: { actions: safe, description: "The search dialog (loaded when first used): results as the reader types, “Ask AI”, the version scope, recent searches." },
      LecternSearchPage: { actions: safe, description: "The full-results page (<baseUrl>search?q=…), with the version filter." },
      LecternWidget: { actions: safe, description: "The launcher button, the keyboard shortcut and the “Ask about this” selection button; loads the panel on demand." },
      LecternPanel: { actions: safe, description: "The chat panel (loaded when first opened): header, messages, composer." },
      "LecternPanel/Message": { actions: safe, description: "One question or answer, with its sources, confidence and actions." },
      "LecternPanel/Markdown": { actions: { eject: "unsafe", wrap: "safe" }, description: "The safe Markdown renderer for answers (no raw HTML, no script links)." },
      DocsRoot: { actions: { eject: "forbidden", wrap: "forbidden" }, description: "Only mounts the widget: swizzle the theme's DocsRoot, or LecternWidget, instead." },
    },
  };
}

module.exports = pluginLectern;
module.exports.default = pluginLectern;
module.exports.validateOptions = validateOptions;
module.exports.getSwizzleConfig = getSwizzleConfig;
