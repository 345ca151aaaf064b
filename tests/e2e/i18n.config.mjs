// The translated fixture (tests/fixtures/i18n-site: English and Simplified Chinese, the
// current docs "Next" at /docs/next/ and version 1.0 at /docs/) built by Docusaurus with the
// plugin, for tests/e2e/i18n.test.mjs: the fixture's own config (which `lectern build` and the
// Rust locale tests read) with the packages resolved from www/example, whose node_modules
// hold Docusaurus and the plugin, and docusaurus-plugin-lectern added. tests/e2e/run.sh
// builds it with `--config` from the fixture's folder, every locale in one run.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../www/example/package.json', import.meta.url));
const fixture = createRequire(import.meta.url)('../fixtures/i18n-site/docusaurus.config.js');

export default {
  ...fixture,
  url: 'http://127.0.0.1',
  // The fixture has docs only: the navbar's title links to a home page it does not have.
  onBrokenLinks: 'warn',
  presets: [[require.resolve('@docusaurus/preset-classic'), { docs: { sidebarPath: undefined }, blog: false, theme: {} }]],
  plugins: [[require.resolve('docusaurus-plugin-lectern'), { endpoint: process.env.LECTERN_ENDPOINT || null }]],
  themeConfig: {
    navbar: {
      title: fixture.title,
      items: [
        { type: 'docsVersionDropdown', position: 'right' },
        { type: 'localeDropdown', position: 'right' },
      ],
    },
  },
};
