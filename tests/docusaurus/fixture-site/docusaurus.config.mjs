// Tiny synthetic site for the URL checker: exercises what the corpora do not
// (non-root baseUrl, trailingSlash: false, explicit heading ids, a body H1
// sharing its text with an h2, headings inside an imported partial).
export default {
  title: 'Lectern fixture',
  url: 'https://example.org',
  baseUrl: '/lectern/',
  trailingSlash: false,
  onBrokenLinks: 'throw',
  markdown: { hooks: { onBrokenMarkdownLinks: 'throw' } },
  presets: [['classic', { docs: { routeBasePath: 'guide' }, blog: false, theme: {} }]],
};
