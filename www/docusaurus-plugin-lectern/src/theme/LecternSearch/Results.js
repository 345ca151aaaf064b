// A result as the search dialog and the search page draw it: the section's heading under
// its path, and a snippet of its text, with the query's words marked where the runtime
// found them (ranges from the core's tokenizer, never guessed here).
import React from 'react';

/**
 * `text` with `ranges` ([start, end) UTF-16 offsets) in <mark>.
 * @param {{text: string, ranges?: import('lectern').TextRange[]}} props
 */
export function Highlight({ text, ranges }) {
  if (!ranges?.length) return <>{text}</>;
  const parts = [];
  let at = 0;
  ranges.forEach(([start, end], i) => {
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={i}>{text.slice(start, end)}</mark>);
    at = end;
  });
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

/**
 * The inside of a row: "Section › Subsection" (the page's title is the group's heading) and
 * the snippet.
 * @param {{row: import('lectern').TypeaheadRow}} props
 */
export function RowContent({ row }) {
  // The path below the page: the parents of the section, then the section itself.
  const parents = row.path.slice(1, -1);
  return (
    <>
      <span className="lectern-result__title">
        {parents.length > 0 && <span className="lectern-result__path">{parents.join(' › ')} › </span>}
        <Highlight text={row.title} ranges={row.titleRanges} />
      </span>
      {row.snippet.text && (
        <span className="lectern-result__snippet">
          <Highlight text={row.snippet.text} ranges={row.snippet.ranges} />
        </span>
      )}
    </>
  );
}

/**
 * The docs version of a page, beside its title when results of several versions are listed
 * (the reader widened the scope): two pages of one title are then told apart.
 * @param {{label: string}} props
 */
export function VersionBadge({ label }) {
  return <span className="badge badge--secondary lectern-version-badge">{label}</span>;
}
