// The example site's config without the Lectern plugin: the baseline the page-weight test
// compares with, so "what the widget adds to a page" is measured, not estimated.
// Docusaurus resolves presets from the config file's folder, so the preset is resolved
// here from the example site's node_modules.
import { createRequire } from 'node:module';
import config from '../../www/example/docusaurus.config.js';

const require = createRequire(new URL('../../www/example/package.json', import.meta.url));
const isLectern = (entry) => (Array.isArray(entry) ? entry[0] : entry) === 'docusaurus-plugin-lectern';
const resolvePreset = ([name, options]) => [name === 'classic' ? require.resolve('@docusaurus/preset-classic') : name, options];

export default {
  ...config,
  presets: (config.presets ?? []).map(resolvePreset),
  plugins: (config.plugins ?? []).filter((p) => !isLectern(p)),
};
