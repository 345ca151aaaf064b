'use strict';
// What of a Docusaurus config decides the site's URLs and how its docs are read, as one JSON
// object the `lectern` CLI reads (index-build/src/site/config.rs, `config_from_json`). One
// definition, two callers: docusaurus-plugin-lectern summarises the config Docusaurus has
// already loaded and passes it with `lectern build --site-config`; the stand-alone CLI
// runs this file with its Node evaluator (node_config.js, appended to it) on a config file.
//
//   summarizeConfig(config, { isStub, warnings }) -> { ok: true, baseUrl, url, title, … }

/**
 * @param {any} config the site config (Docusaurus's, or what the evaluator loaded)
 * @param {{ isStub?: (value?: unknown) => boolean, warnings?: string[] }} [options]
 */
function summarizeConfig(config, { isStub = () => false, warnings = [] } = {}) {
  const text = (value) => (typeof value === 'string' ? value : undefined);
  const flag = (value) => (typeof value === 'boolean' ? value : undefined);
  const texts = (value) => {
    if (typeof value === 'string') return [value];
    return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : undefined;
  };
  const list = (value) => (Array.isArray(value) ? value : []);
  const plainObject = (value) => (value && typeof value === 'object' && !isStub(value) ? value : null);
  const nameOf = (entry) => {
    if (typeof entry === 'string') return entry;
    if (typeof entry === 'function' && !isStub(entry)) return entry.name || '';
    return '';
  };
  const isClassicPreset = (name) => name === 'classic' || /preset-classic/.test(name);
  const isDocsPlugin = (name) => name === 'content-docs' || /plugin-content-docs/.test(name) || name === 'pluginContentDocs';

  function docsSummary(options, origin) {
    const o = plainObject(options) || {};
    const versions = {};
    const versionOptions = plainObject(o.versions);
    if (versionOptions) {
      for (const [name, value] of Object.entries(versionOptions)) {
        const v = plainObject(value);
        if (v) versions[name] = { path: text(v.path), label: text(v.label) };
      }
    }
    let numberPrefixParser = 'default';
    if (o.numberPrefixParser === false) numberPrefixParser = 'disabled';
    else if (typeof o.numberPrefixParser === 'function' && !isStub(o.numberPrefixParser)) numberPrefixParser = 'custom';
    return {
      origin,
      id: text(o.id),
      path: text(o.path),
      routeBasePath: text(o.routeBasePath),
      include: texts(o.include),
      exclude: texts(o.exclude),
      lastVersion: text(o.lastVersion),
      versions,
      onlyIncludeVersions: texts(o.onlyIncludeVersions),
      includeCurrentVersion: flag(o.includeCurrentVersion),
      disableVersioning: flag(o.disableVersioning),
      numberPrefixParser,
      remarkPlugins: list(o.remarkPlugins).length + list(o.beforeDefaultRemarkPlugins).length,
    };
  }

  const c = plainObject(config) || {};
  const docs = [];
  for (const entry of list(c.presets)) {
    const [preset, options] = Array.isArray(entry) ? entry : [entry, undefined];
    const name = nameOf(preset);
    const presetOptions = plainObject(options) || {};
    if (isClassicPreset(name)) {
      if (presetOptions.docs !== false) docs.push(docsSummary(presetOptions.docs, `preset ${name}`));
    } else if (plainObject(presetOptions.docs)) {
      docs.push(docsSummary(presetOptions.docs, `preset ${name || '(unnamed)'}`));
    }
  }
  for (const entry of list(c.plugins)) {
    const [plugin, options] = Array.isArray(entry) ? entry : [entry, undefined];
    const name = nameOf(plugin);
    if (isDocsPlugin(name)) docs.push(docsSummary(options, `plugin ${name}`));
  }
  const navbar = [];
  const themeConfig = plainObject(c.themeConfig) || {};
  const navbarConfig = plainObject(themeConfig.navbar) || {};
  const collect = (items) => {
    for (const item of list(items)) {
      const i = plainObject(item);
      if (!i) continue;
      navbar.push({ type: text(i.type), label: text(i.label), docsPluginId: text(i.docsPluginId), to: text(i.to) });
      collect(i.items);
    }
  };
  collect(navbarConfig.items);
  const markdown = plainObject(c.markdown) || {};
  const i18n = plainObject(c.i18n) || {};
  return {
    ok: true,
    baseUrl: text(c.baseUrl),
    url: text(c.url),
    title: text(c.title),
    tagline: text(c.tagline),
    trailingSlash: flag(c.trailingSlash),
    markdownFormat: text(markdown.format),
    i18n: { defaultLocale: text(i18n.defaultLocale), locales: texts(i18n.locales) },
    docs,
    navbar,
    warnings,
  };
}

if (typeof module !== 'undefined') module.exports = { summarizeConfig };
