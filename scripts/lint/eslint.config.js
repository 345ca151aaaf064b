// ESLint over the Docusaurus plugin (www/docusaurus-plugin-lectern/src) and the browser
// runtime (www/lectern-js): JavaScript's recommended rules and React's hooks rules. Run by
// scripts/lint-www.sh from the repository root, which the paths below are relative to (with
// --config, ESLint takes its working directory as the base path).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default [
  // A suppression that no longer suppresses anything fails too.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['www/docusaurus-plugin-lectern/src/**/*.{js,mjs}', 'www/lectern-js/**/*.js'],
    ...js.configs.recommended,
  },
  {
    // The theme: React components in ES modules, run in the browser (and in Node for the
    // static build).
    files: ['www/docusaurus-plugin-lectern/src/theme/**/*.{js,mjs}'],
    languageOptions: {
      sourceType: 'module',
      parserOptions: { ecmaFeatures: { jsx: true } },
      globals: { ...globals.browser },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      // Docusaurus's convention for theme components (what a swizzle copies): they import
      // React, which the automatic JSX runtime leaves unused.
      'no-unused-vars': ['error', { varsIgnorePattern: '^React$' }],
    },
  },
  {
    // The plugin itself: CommonJS, run by Node at build time.
    files: ['www/docusaurus-plugin-lectern/src/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
  {
    // The runtime: ES modules for the page and its worker.
    files: ['www/lectern-js/**/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.browser, ...globals.worker } },
  },
];
