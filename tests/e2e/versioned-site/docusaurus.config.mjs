// A small versioned Docusaurus site for the e2e tests of the search box's and the chat's
// version scope (tests/e2e/versioned.test.mjs): version 1.0 (served at /docs/) and the
// current docs ("Next", at /docs/next/) of an imaginary tool, whose pages say different
// things in each version; and a second docs instance (plugin id `api`, at /api/ and
// /api/next/) with versions of the same names, which a scope must not mix with the first's. It also places the floating launcher in the other corner (the
// launcher option), turns the selection button off (selection.test.mjs checks that none
// appears), and turns every usage-event option on (tests/e2e/events.test.mjs): to
// the site's onEvent module (src/lectern-events.js), the page's analytics and the proxy's
// /v1/events (tests/e2e/server.mjs serves the reference proxy's sink there), with the
// readers' texts. tests/e2e/run.sh builds it from www/example, whose node_modules hold
// Docusaurus and the plugin.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../../www/example/package.json', import.meta.url));

export default {
  title: 'Orbit',
  url: 'http://127.0.0.1',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  markdown: { hooks: { onBrokenMarkdownLinks: 'throw' } },
  presets: [[require.resolve('@docusaurus/preset-classic'), { docs: { sidebarPath: undefined }, blog: false, theme: {} }]],
  plugins: [
    [require.resolve('@docusaurus/plugin-content-docs'), { id: 'api', path: 'api', routeBasePath: 'api', sidebarPath: undefined }],
    [
      require.resolve('docusaurus-plugin-lectern'),
      {
        endpoint: process.env.LECTERN_ENDPOINT || null,
        launcher: { position: 'bottom-left', offsetX: 24, offsetY: 24 },
        onEvent: './src/lectern-events.js',
        eventsToAnalytics: true,
        eventsEndpoint: '/api/proxy/v1/events',
        eventsIncludeText: true,
        askAboutSelection: false,
      },
    ],
  ],
  themeConfig: {
    navbar: { title: 'Orbit', items: [{ type: 'docsVersionDropdown', position: 'right' }] },
  },
};
