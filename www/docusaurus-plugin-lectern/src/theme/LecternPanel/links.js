// Links out of the panel: to a section of this site (client-side navigation, so the widget
// stays open on wide screens) or elsewhere (a new tab, without referrer or opener).
import React from 'react';
import Link from '@docusaurus/Link';
import { followPassage, rememberPassage } from './passage';

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

/** The source's name as the core gave it (an answer stored before sources had one: its page). */
export function sourceTitle(source) {
  return source.title || source.chapter_title || source.url;
}

/** A link to a page of this site (client-side navigation) or elsewhere (new tab). A
 * citation's `passage` (its sentences, SourceReference.passage) is highlighted on the page it
 * opens, in this tab or a new one (a Ctrl/⌘- or middle-click). */
export function SiteLink({ href, onNavigate, passage = undefined, children, ...rest }) {
  if (isSameOrigin(href)) {
    const url = new URL(href, window.location.href);
    const follow = (event) => {
      rememberPassage(href, passage);
      if (event.type !== 'click') return;
      // In this tab (not a new one): highlight once the router has shown the section.
      if (event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey) followPassage();
      onNavigate?.(event);
    };
    return (
      <Link to={url.pathname + url.search + url.hash} autoAddBaseUrl={false} onClick={follow} onAuxClick={follow} {...rest}>
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

