// Renders an answer's Markdown as React elements (see markdown.mjs: no HTML string is ever
// made, so nothing in an answer can run). Numbered citations become links to their source
// section; links to this site navigate inside it; other links open in a new tab; a link
// whose URL is not http(s)/mailto/relative is shown as plain text.
import React, { useMemo, useState } from 'react';
import { parseMarkdown } from './markdown.mjs';
import { strings, format } from './strings';
import { copyText } from './clipboard';
import { SiteLink, isSiteLink, sourceHref, sourceTitle } from './links';

function Citation({ numbers, raw, ctx }) {
  const found = numbers.map((n) => ctx.sources.find((s) => s.n === n));
  if (!found.some(Boolean)) return raw;
  return (
    <span className="lectern-cites">
      {numbers.map((n, i) =>
        found[i] ? (
          <SiteLink key={n} href={sourceHref(found[i])} className="lectern-cite" aria-label={format.source(n, sourceTitle(found[i]))} title={sourceTitle(found[i])} onNavigate={() => {
              ctx.onCite?.(n);
              ctx.onNavigate?.();
            }}>
            {n}
          </SiteLink>
        ) : (
          <span key={n} className="lectern-cite lectern-cite--missing">
            {n}
          </span>
        ),
      )}
    </span>
  );
}

function Inlines({ nodes, ctx }) {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return <React.Fragment key={i}>{node.value}</React.Fragment>;
      case 'br':
        return <br key={i} />;
      case 'strong':
        return (
          <strong key={i}>
            <Inlines nodes={node.children} ctx={ctx} />
          </strong>
        );
      case 'em':
        return (
          <em key={i}>
            <Inlines nodes={node.children} ctx={ctx} />
          </em>
        );
      case 'del':
        return (
          <del key={i}>
            <Inlines nodes={node.children} ctx={ctx} />
          </del>
        );
      case 'code':
        return <code key={i}>{node.value}</code>;
      case 'cite':
        return <Citation key={i} numbers={node.numbers} raw={node.raw} ctx={ctx} />;
      case 'link':
        return node.href && isSiteLink(node.href) ? (
          <SiteLink key={i} href={node.href} onNavigate={ctx.onNavigate}>
            <Inlines nodes={node.children} ctx={ctx} />
          </SiteLink>
        ) : (
          <span key={i} className="lectern-link-removed" title={node.href ?? undefined}>
            <Inlines nodes={node.children} ctx={ctx} />
          </span>
        );
      default:
        return null;
    }
  });
}

function CodeBlock({ lang, text }) {
  const [copied, setCopied] = useState(false);
  const s = strings();
  return (
    <div className="lectern-code">
      <div className="lectern-code__bar">
        <span className="lectern-code__lang">{lang}</span>
        <button
          type="button"
          className="lectern-icon-button lectern-code__copy"
          aria-label={s.copyCode}
          onClick={() =>
            copyText(text).then((ok) => {
              setCopied(ok);
              if (ok) setTimeout(() => setCopied(false), 2000);
            })
          }>
          {copied ? s.copied : s.copyCode}
        </button>
      </div>
      <pre tabIndex={0}>
        <code>{text}</code>
      </pre>
    </div>
  );
}

function Blocks({ blocks, ctx }) {
  return blocks.map((block, i) => {
    switch (block.type) {
      case 'paragraph':
        return (
          <p key={i}>
            <Inlines nodes={block.children} ctx={ctx} />
          </p>
        );
      case 'heading': {
        const Tag = /** @type {'h3' | 'h4' | 'h5' | 'h6'} */ (`h${Math.min(6, block.level + 2)}`);
        return (
          <Tag key={i} className="lectern-md-heading">
            <Inlines nodes={block.children} ctx={ctx} />
          </Tag>
        );
      }
      case 'code':
        return <CodeBlock key={i} lang={block.lang} text={block.text} />;
      case 'list': {
        const Tag = block.ordered ? 'ol' : 'ul';
        return (
          <Tag key={i} start={block.ordered && block.start !== 1 ? block.start : undefined}>
            {block.items.map((item, j) => (
              <li key={j}>
                {item.length === 1 && item[0].type === 'paragraph' ? <Inlines nodes={item[0].children} ctx={ctx} /> : <Blocks blocks={item} ctx={ctx} />}
              </li>
            ))}
          </Tag>
        );
      }
      case 'blockquote':
        return (
          <blockquote key={i}>
            <Blocks blocks={block.children} ctx={ctx} />
          </blockquote>
        );
      case 'table':
        return (
          <div key={i} className="lectern-table" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  {block.header.map((cell, c) => (
                    <th key={c} style={block.align[c] ? { textAlign: block.align[c] } : undefined}>
                      <Inlines nodes={cell} ctx={ctx} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {block.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, c) => (
                      <td key={c} style={block.align[c] ? { textAlign: block.align[c] } : undefined}>
                        <Inlines nodes={cell} ctx={ctx} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      case 'hr':
        return <hr key={i} />;
      default:
        return null;
    }
  });
}

/** Props: text (Markdown), sources (SourceReference[] for [n] citations), onNavigate,
 * onCite(n) (a citation was followed). */
export default function Markdown({ text, sources = [], onNavigate, onCite = undefined }) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  const ctx = useMemo(() => ({ sources, onNavigate, onCite }), [sources, onNavigate, onCite]);
  return (
    <div className="lectern-markdown">
      <Blocks blocks={blocks} ctx={ctx} />
    </div>
  );
}
