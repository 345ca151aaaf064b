// @ts-check
// Docusaurus configuration for the Lectern sample textbook.
// Kept deliberately standard: Lectern's chunker must reproduce the URLs and
// heading anchors that this configuration produces.

import {themes as prismThemes} from 'prism-react-renderer';

/** @type {import('@docusaurus/types').Config} */
const config = {
  title: 'Physical AI & Humanoid Robotics',
  tagline: 'A compact textbook: ROS 2, simulation, perception, control, VLA models and safety',
  favicon: 'img/favicon.svg',

  url: 'http://127.0.0.1',
  baseUrl: '/',

  onBrokenLinks: 'throw',
  onBrokenAnchors: 'warn',
  markdown: {
    hooks: {
      onBrokenMarkdownLinks: 'warn',
    },
  },

  i18n: {
    defaultLocale: 'en',
    locales: ['en'],
  },

  presets: [
    [
      'classic',
      /** @type {import('@docusaurus/preset-classic').Options} */
      ({
        docs: {
          sidebarPath: './sidebars.js',
        },
        blog: false,
        theme: {
          customCss: './src/css/custom.css',
        },
      }),
    ],
  ],

  plugins: [
    [
      'docusaurus-plugin-lectern',
      /** @type {import('docusaurus-plugin-lectern').Options} */
      ({
        // The keyless proxy in front of an LLM (OpenAI-compatible, streaming). Unset: answers
        // are excerpts of the best sections. scripts/demo.sh points it at the local server.
        endpoint: process.env.LECTERN_ENDPOINT || null,
        starterQuestions: [
          'How do ROS 2 nodes discover each other?',
          'When should I use an action instead of a service?',
          'How does ZMP keep a walking humanoid balanced?',
        ],
      }),
    ],
  ],

  themeConfig:
    /** @type {import('@docusaurus/preset-classic').ThemeConfig} */
    ({
      colorMode: {
        defaultMode: 'light',
        disableSwitch: false,
        respectPrefersColorScheme: true,
      },
      navbar: {
        title: 'Physical AI & Humanoid Robotics',
        logo: {
          alt: 'Lectern example logo',
          src: 'img/logo.svg',
        },
        items: [
          {
            type: 'docSidebar',
            sidebarId: 'textbookSidebar',
            position: 'left',
            label: 'Textbook',
          },
          {
            to: '/docs/safety-first',
            label: 'Safety',
            position: 'left',
          },
        ],
      },
      footer: {
        style: 'dark',
        links: [
          {
            title: 'Textbook',
            items: [
              {label: 'Introduction', to: '/docs/intro'},
              {label: 'Safety first', to: '/docs/safety-first'},
            ],
          },
        ],
        copyright: `Lectern example textbook. Built with Docusaurus.`,
      },
      prism: {
        theme: prismThemes.github,
        darkTheme: prismThemes.dracula,
        additionalLanguages: ['bash'],
      },
    }),
};

export default config;
