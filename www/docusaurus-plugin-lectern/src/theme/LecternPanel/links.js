// Links out of the panel: to a section of this site (client-side navigation, so the widget
// stays open on wide screens) or elsewhere (a new tab, without referrer or opener).
import React from 'react';
import Link from '@docusaurus/Link';

/** The answer's link policy: a link in an LLM's answer is a link only when it leads to this
 * site (its pages, the cited sections); any other URL is shown as text, never one click away,
 * so a prompt-injected answer cannot send a reader to a look-alike page. */
export function isSiteLink(href) {
  return isSameOrigin(href);
}

function isSameOrigin(href) {
  try {
    return new URL(href, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** Where a citation of `source` leads: its link, which names the passage the answer drew on
 * (the page highlights it, passage.js), else (no passage, or an answer stored before links
 * had one) its section. */
export function sourceHref(source) {
  return source.link || source.url;
}

/** The source's name as the core gave it (an answer stored before sources had one: its page). */
export function sourceTitle(source) {
  return source.title || source.chapter_title || source.url;
}

/** A link to a page of this site (client-side navigation) or elsewhere (new tab). */
export function SiteLink({ href, onNavigate, children, ...rest }) {
  if (isSameOrigin(href)) {
    const url = new URL(href, window.location.href);
    return (
      <Link to={url.pathname + url.search + url.hash} autoAddBaseUrl={false} onClick={onNavigate} {...rest}>
        {children}
      </Link>
    );
  }
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" {...rest}>
      {children}
    </a>
  );
}

