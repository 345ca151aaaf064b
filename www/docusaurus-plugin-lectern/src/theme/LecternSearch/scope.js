// The docs version a search and a question are limited to by default: on a docs page, the
// version of that page in its docs instance (Docusaurus's active plugin and version);
// elsewhere the version the reader chose last (the preferred version) or the latest — the
// inputs of Docusaurus's contextual search tags (useDocsContextualSearchTags), which
// DocSearch's adapter uses. Only versioned instances limit anything: an unversioned site
// searches everything. The reader can widen to all versions (ScopeToggle).
//
// The bundle records each section's version, and the search filters by version name; the
// docs instance is not recorded yet, so on a site with several versioned instances a
// version name they share matches in both.
import React, { useMemo } from 'react';
import { useAllDocsData, useActivePluginAndVersion, useDocsPreferredVersionByPluginId } from '@docusaurus/plugin-content-docs/client';
import { searchFormat, searchStrings } from './strings';
import './scope.css';

/** @typedef {{versions: string[], labels: string[]}} DocsScope */
/** @typedef {null | 'all' | string[]} ScopeChoice what the reader chose: null follows the page, 'all' widens, a list pins versions */

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
 * The page's scope: the version names to search, and their labels; null when nothing is
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
    const versions = [];
    const labels = [];
    for (const [pluginId, data] of Object.entries(all)) {
      if (data.versions.length < 2) continue;
      const version =
        (active?.activePlugin.pluginId === pluginId ? active.activeVersion : null) ?? preferred?.[pluginId] ?? data.versions.find((v) => v.isLast) ?? data.versions[0];
      if (!versions.includes(version.name)) {
        versions.push(version.name);
        labels.push(version.label);
      }
    }
    return versions.length ? { versions, labels } : null;
  }, [enabled, all, active, preferred]);
}

/** Every version of the site's versioned docs instances: [{name, label}], for a filter. */
export function useDocsVersions() {
  const all = useAllDocsData();
  return useMemo(() => {
    const seen = new Map();
    for (const data of Object.values(all)) {
      if (data.versions.length < 2) continue;
      for (const v of data.versions) if (!seen.has(v.name)) seen.set(v.name, v.label);
    }
    return Array.from(seen, ([name, label]) => ({ name, label })); // not a spread: see LecternWidget/host.js
  }, [all]);
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
  if (!scope && !Array.isArray(choice)) return null;
  const pinned = Array.isArray(choice) ? choice : scope?.versions ?? [];
  const labels = Array.isArray(choice) ? choice : scope?.labels ?? [];
  return (
    <div className={`lectern-scope${className ? ` ${className}` : ''}`} data-lectern-scope={choice === 'all' ? 'all' : pinned.join(',')}>
      {choice !== 'all' && <span className="lectern-scope__current">{searchFormat.version(labels.join(', '))}</span>}
      <label className="lectern-scope__widen">
        <input type="checkbox" checked={choice === 'all'} onChange={(e) => onChange(e.target.checked ? 'all' : null)} />
        {s.allVersions}
      </label>
    </div>
  );
}
