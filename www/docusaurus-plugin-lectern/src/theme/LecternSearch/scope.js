// The docs versions a search and a question are limited to by default: for each versioned
// docs instance, the version of the page the reader is on if it is that instance's page
// (Docusaurus's active plugin and version), else the version the reader chose last (the
// preferred version) or the latest — the inputs of Docusaurus's contextual search tags
// (useDocsContextualSearchTags), which DocSearch's adapter uses. The filter passes them as
// {instance: pluginId, version: name} pairs; which sections they admit (unversioned
// instances and instances not named are searched whole) is the core's rule
// (src/search/scope.rs). An unversioned site has no scope at all. The reader can widen to
// all versions (ScopeToggle).
import React, { useMemo } from 'react';
import { useAllDocsData, useActivePluginAndVersion, useDocsPreferredVersionByPluginId } from '@docusaurus/plugin-content-docs/client';
import { searchFormat, searchStrings } from './strings';
import './scope.css';

/** @typedef {import('lectern').DocsVersion} DocsVersion */
/** @typedef {{versions: DocsVersion[], labels: string[]}} DocsScope the versions searched, and the labels that say which */
/** @typedef {null | 'all' | DocsVersion[]} ScopeChoice what the reader chose: null follows the page, 'all' widens, a list pins versions */
/** @typedef {{instance: string, name: string, label: string}} VersionEntry one version of one versioned docs instance */

/** The reader's preferred versions, or null outside their provider: the docs widget sits
 * outside the theme's layout, and a site with two copies of the docs plugin has two
 * contexts (DocSearch's adapter catches the same error). */
function usePreferredVersions() {
  try {
    return useDocsPreferredVersionByPluginId();
  } catch {
    return null;
  }
}

/**
 * The page's scope: one version per versioned docs instance, and the labels that say which
 * (on a docs page, its own version's; elsewhere every instance's); null when nothing is
 * versioned or `enabled` (the contextualSearch option) is false.
 * @param {boolean} enabled
 * @returns {DocsScope | null}
 */
export function useDocsScope(enabled) {
  const all = useAllDocsData();
  const active = useActivePluginAndVersion();
  const preferred = usePreferredVersions();
  return useMemo(() => {
    if (!enabled) return null;
    /** @type {DocsVersion[]} */
    const versions = [];
    /** @type {string[]} */
    const labels = [];
    let pageLabel = null;
    for (const [pluginId, data] of Object.entries(all)) {
      if (data.versions.length < 2) continue;
      const onPage = active?.activePlugin.pluginId === pluginId ? active.activeVersion : null;
      const version = onPage ?? preferred?.[pluginId] ?? data.versions.find((v) => v.isLast) ?? data.versions[0];
      versions.push({ instance: pluginId, version: version.name });
      if (onPage) pageLabel = version.label;
      if (!labels.includes(version.label)) labels.push(version.label);
    }
    return versions.length ? { versions, labels: pageLabel ? [pageLabel] : labels } : null;
  }, [enabled, all, active, preferred]);
}

/** Every version of the site's versioned docs instances, for a filter and for labels. */
export function useDocsVersions() {
  const all = useAllDocsData();
  return useMemo(() => {
    /** @type {VersionEntry[]} */
    const entries = [];
    for (const [pluginId, data] of Object.entries(all)) {
      if (data.versions.length < 2) continue;
      for (const v of data.versions) entries.push({ instance: pluginId, name: v.name, label: v.label });
    }
    return entries;
  }, [all]);
}

/**
 * The label of a section's version (`instance` and `version` of its metadata), or its name.
 * @param {VersionEntry[]} versions
 * @param {string | undefined} instance
 * @param {string} version
 */
export function versionLabel(versions, instance, version) {
  return versions.find((v) => v.name === version && (instance === undefined || v.instance === instance))?.label ?? version;
}

/**
 * The search filters for a scope and the reader's choice (undefined: everything).
 * @param {DocsScope | null} scope
 * @param {ScopeChoice} choice
 */
export function scopeFilters(scope, choice) {
  if (choice === 'all') return undefined;
  if (Array.isArray(choice)) return { versions: choice };
  return scope ? { versions: scope.versions } : undefined;
}

/**
 * "Version 1.0 ☐ All versions": what is searched, and the box that widens it. Nothing on
 * an unversioned site.
 * @param {{scope: DocsScope | null, choice: ScopeChoice, onChange: (choice: ScopeChoice) => void, className?: string}} props
 */
export function ScopeToggle({ scope, choice, onChange, className }) {
  const s = searchStrings();
  const versions = useDocsVersions();
  if (!scope && !Array.isArray(choice)) return null;
  const pinned = Array.isArray(choice) ? choice : scope?.versions ?? [];
  // A pinned list names the chosen version first (the search page's filter).
  const labels = Array.isArray(choice) ? choice.slice(0, 1).map((v) => versionLabel(versions, v.instance ?? undefined, v.version)) : scope?.labels ?? [];
  return (
    <div className={`lectern-scope${className ? ` ${className}` : ''}`} data-lectern-scope={choice === 'all' ? 'all' : pinned.map((v) => `${v.instance ?? ''}:${v.version}`).join(',')}>
      {choice !== 'all' && <span className="lectern-scope__current">{searchFormat.version(labels.join(', '))}</span>}
      <label className="lectern-scope__widen">
        <input type="checkbox" checked={choice === 'all'} onChange={(e) => onChange(e.target.checked ? 'all' : null)} />
        {s.allVersions}
      </label>
    </div>
  );
}
