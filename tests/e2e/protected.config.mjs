// The example site as a site whose proxy checks Cloudflare Turnstile would configure it, for
// tests/e2e/limits.test.mjs and the renamed selection button of selection.test.mjs: the
// plugin's `turnstile` option with Cloudflare's always-passing test site key and the local
// stand-in for Cloudflare's script (tests/e2e/turnstile/, served from the site's root: this
// machine has no internet), and `askAboutSelection` renamed as a site whose own selection
// menu has an "Ask about this" would. tests/e2e/run.sh builds it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import config from '../../www/example/docusaurus.config.js';
import { PROTECTED_OPTIONS } from './protected-options.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(new URL('../../www/example/package.json', import.meta.url));
const isLectern = (entry) => (Array.isArray(entry) ? entry[0] : entry) === 'docusaurus-plugin-lectern';
const example = path.join(here, '../../www/example');
// The docs and sidebars named from here: `lectern build` reads paths relative to the config file.
const resolvePreset = ([name, options]) =>
  name === 'classic'
    ? [require.resolve('@docusaurus/preset-classic'), { ...options, docs: { ...options.docs, path: path.join(example, 'docs'), sidebarPath: path.join(example, 'sidebars.js') } }]
    : [name, options];

export default {
  ...config,
  staticDirectories: [path.join(example, 'static'), path.join(here, 'turnstile')],
  presets: (config.presets ?? []).map(resolvePreset),
  plugins: (config.plugins ?? []).map((p) =>
    isLectern(p)
      ? [
          require.resolve('docusaurus-plugin-lectern'),
          { ...p[1], ...PROTECTED_OPTIONS },
        ]
      : p,
  ),
};
