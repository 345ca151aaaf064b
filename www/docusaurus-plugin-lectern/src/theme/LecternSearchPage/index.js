// The full list of results at <baseUrl>search?q=…&version=… (the searchPagePath option): the
// query and the version filter live in the URL, so a search can be linked to and the Back
// button returns to it (the version by name; `instance:name` when several docs instances
// are versioned). On a versioned site the filter starts at the version the reader was
// reading (or the latest). Each result is a link to its section; "Ask AI" asks the
// chat panel with the same query and scope. The settled query and each result followed are
// usage events, as in the navbar's dialog (LecternSearch/useSearchUsage.js).
import React, { useEffect, useState } from 'react';
import Layout from '@theme/Layout';
import Head from '@docusaurus/Head';
import Link from '@docusaurus/Link';
import { useHistory, useLocation } from '@docusaurus/router';
import { usePluginData } from '@docusaurus/useGlobalData';
import useIsBrowser from '@docusaurus/useIsBrowser';
import { usePluralForm } from '@docusaurus/theme-common';
import { requestPanel } from '../LecternWidget/host';
import { searchFormat, searchStrings } from '../LecternSearch/strings';
import { useDocsScope, useDocsVersions, versionLabel } from '../LecternSearch/scope';
import { Highlight, RowContent, VersionBadge } from '../LecternSearch/Results';
import useTypeahead from '../LecternSearch/useTypeahead';
import useSearchUsage from '../LecternSearch/useSearchUsage';
import { addSearchStyles } from '../LecternSearch/styles';
import './styles.css';

addSearchStyles();

const PLUGIN = 'docusaurus-plugin-lectern';

/** The query and the version filter from the URL's ?q= and &version= ("all", or a name).
 * Empty until hydrated: the page's HTML was rendered without a query, and the first render
 * in the browser must match it (the query arrives one render later). */
function useUrlState() {
  const location = useLocation();
  const browser = useIsBrowser();
  const params = new URLSearchParams(browser ? location.search : '');
  return { q: params.get('q') ?? '', version: params.get('version') };
}

function SearchPageContent({ pluginId }) {
  const config = /** @type {import('docusaurus-plugin-lectern').ClientOptions} */ (usePluginData(PLUGIN, pluginId));
  const s = searchStrings();
  const { selectMessage } = usePluralForm();
  const history = useHistory();
  const location = useLocation();
  const url = useUrlState();
  const [query, setQuery] = useState(url.q);
  const scope = useDocsScope(config.contextualSearch);
  const versions = useDocsVersions();
  // The filter's value for a version: its name, prefixed by its instance when several docs
  // instances have versions (two may both have a "1.0").
  const several = new Set(versions.map((v) => v.instance)).size > 1;
  const keyOf = (/** @type {{instance?: string, name: string}} */ v) => (several ? `${v.instance}:${v.name}` : v.name);
  // The version in the URL, else the page's default scope: its first instance's version
  // (the others stay at theirs), or all on an unversioned site.
  const first = scope?.versions[0];
  const fromScope = first ? versions.find((v) => v.instance === first.instance && v.name === first.version) : undefined;
  const version = url.version ?? (fromScope ? keyOf(fromScope) : 'all');
  // The chosen version of its instance; the other instances stay at the page's scope.
  const chosen = versions.find((v) => keyOf(v) === version);
  const others = (scope?.versions ?? []).filter((v) => v.instance !== chosen?.instance);
  const pinned = chosen ? [{ instance: chosen.instance, version: chosen.name }, ...others] : null;
  const filters = pinned ? { versions: pinned } : undefined;
  const search = useTypeahead(config, query, filters, { k: 30, semanticK: 10 });
  const q = query.trim();
  const results = search.status === 'ready' ? search.results : null;
  const { reportClick } = useSearchUsage(q, results);

  // The URL follows the box and the filter (replaced, not pushed: one history entry).
  const write = (/** @type {string} */ nextQuery, /** @type {string | null} */ nextVersion) => {
    const params = new URLSearchParams();
    if (nextQuery.trim()) params.set('q', nextQuery);
    if (nextVersion && versions.length) params.set('version', nextVersion);
    const text = params.toString();
    history.replace({ pathname: location.pathname, search: text ? `?${text}` : '' });
  };
  // Back/Forward to another ?q=: the box follows the URL.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the URL changed under the page (Back): the box shows its query
    setQuery((current) => (current.trim() === url.q.trim() ? current : url.q));
  }, [url.q]);

  const count = results?.count ?? 0;
  const pages = results?.pages ?? [];
  // A result's rank among the sections, in the order shown (from 1).
  const rows = pages.flatMap((page) => page.rows);
  return (
    <main className="container margin-vert--lg lectern-search-page">
      <Head>
        <title>{q ? searchFormat.resultsTitle(q) : s.pageTitle}</title>
        <meta name="robots" content="noindex, follow" />
      </Head>
      <h1>{q ? searchFormat.resultsTitle(q) : s.pageTitle}</h1>
      <form className="lectern-search-page__form" role="search" onSubmit={(e) => e.preventDefault()}>
        <input
          type="search"
          className="lectern-search-page__input"
          aria-label={s.pageInputLabel}
          placeholder={s.pagePlaceholder}
          maxLength={config.limits.questionMaxChars}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            write(e.target.value, url.version);
          }}
        />
        {versions.length > 0 && (
          <label className="lectern-search-page__version">
            {s.versionLabel}{' '}
            <select value={version} onChange={(e) => write(query, e.target.value)}>
              <option value="all">{s.allVersions}</option>
              {versions.map((v) => (
                <option key={keyOf(v)} value={keyOf(v)}>
                  {several ? `${v.label} (${v.instance})` : v.label}
                </option>
              ))}
            </select>
          </label>
        )}
      </form>
      {q && (
        <button
          type="button"
          className="button button--secondary lectern-search-page__ask"
          data-lectern-ask-ai=""
          onClick={() => requestPanel({ question: q, scope: pinned ?? 'all' })}>
          {s.askAi}
          <strong>{q}</strong>
        </button>
      )}
      <p className="lectern-search-page__status" role="status" aria-live="polite">
        {!q ? '' : search.status === 'loading' ? s.pageFetching : search.status === 'error' ? `${s.errorTitle}: ${search.error?.message}` : count ? selectMessage(count, searchFormat.documentsFound(count)) : s.pageNoResults}
      </p>
      {pages.map((page, n) => (
        <section key={`${page.semantic ? 's' : 'k'}${n}`} className={`lectern-search-page__page${page.semantic ? ' lectern-search-page__page--semantic' : ''}`}>
          {page.semantic && (n === 0 || !pages[n - 1].semantic) && <h2 className="lectern-search__heading lectern-search__heading--semantic">{s.semanticTitle}</h2>}
          <h2 className="lectern-search-page__page-title">
            <Link to={page.url} autoAddBaseUrl={false}>
              <Highlight text={page.title} ranges={page.titleRanges} />
            </Link>
            {!pinned && page.version && <VersionBadge label={versionLabel(versions, page.instance, page.version)} />}
          </h2>
          <ul className="lectern-search-page__rows">
            {page.rows.map((row) => (
              <li key={row.index}>
                <Link to={row.url} autoAddBaseUrl={false} className="lectern-result" onClick={() => reportClick(row.url, rows.indexOf(row) + 1)}>
                  <RowContent row={row} />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </main>
  );
}

/** @param {{pluginId?: string}} props */
export default function LecternSearchPage({ pluginId }) {
  return (
    <Layout>
      <SearchPageContent pluginId={pluginId} />
    </Layout>
  );
}
