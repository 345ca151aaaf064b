// A docs page's <link rel="alternate" type="text/markdown" href="…"> to its Markdown twin,
// the page's text that `lectern build --llms-out` writes beside it. Rendered through
// Docusaurus's Head from DocsRoot, the layout route around every page of a docs instance:
// it is in the HTML that agents fetch (server-side rendering), it follows the reader through
// client-side navigation (Head replaces it as the route changes, where a link added to the
// built HTML afterwards would stay behind, naming the first page's twin), and it does not
// depend on LecternWidget, which a site may eject. The twin's URL is the page's with the
// suffix `lectern build` reported (global data), and only versions that have twins link.
import React from 'react';
import Head from '@docusaurus/Head';
import { useLocation } from '@docusaurus/router';
import { useAllPluginInstancesData, usePluginData } from '@docusaurus/useGlobalData';

const PLUGIN = 'docusaurus-plugin-lectern';
const DOCS_PLUGIN = 'docusaurus-plugin-content-docs';

/** @typedef {{ name: string, docs: { id: string, path: string }[] }} DocsVersionData */

/** The path of the doc page at `pathname` among the versions that have twins, or null. */
function twinnedDocPath(/** @type {Record<string, any>} */ docsData, /** @type {Record<string, string[]>} */ twinned, /** @type {string} */ pathname) {
  const bare = (/** @type {string} */ p) => p.replace(/\/+$/, '');
  const here = bare(pathname);
  for (const [pluginId, versionNames] of Object.entries(twinned)) {
    /** @type {DocsVersionData[]} */
    const versions = docsData[pluginId]?.versions ?? [];
    for (const version of versions.filter((v) => versionNames.includes(v.name))) {
      const doc = version.docs.find((d) => bare(d.path) === here);
      if (doc) return doc.path;
    }
  }
  return null;
}

export default function MarkdownTwinLink() {
  const twins = /** @type {import('docusaurus-plugin-lectern').ClientOptions} */ (usePluginData(PLUGIN)).markdownTwins;
  const docsData = useAllPluginInstancesData(DOCS_PLUGIN);
  const { pathname } = useLocation();
  const page = twins ? twinnedDocPath(docsData, twins.versions, pathname) : null;
  if (!page) return null;
  const href = page + (page.endsWith('/') ? twins.folderSuffix : twins.fileSuffix);
  return (
    <Head>
      <link rel="alternate" type="text/markdown" href={href} />
    </Head>
  );
}
