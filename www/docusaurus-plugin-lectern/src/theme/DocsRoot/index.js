// Every docs page gets the widget: DocsRoot is the layout route around all pages of a docs
// plugin instance, so the widget stays mounted (and its panel open) while the reader moves
// between pages. Wraps the theme's own DocsRoot (@theme-init), so a site's swizzled
// DocsRoot still works. Each page also links its Markdown twin (MarkdownTwinLink).
import React from 'react';
import DocsRoot from '@theme-init/DocsRoot';
import LecternWidget from '@theme/LecternWidget';
import MarkdownTwinLink from './MarkdownTwinLink';

export default function DocsRootWithLectern(props) {
  return (
    <>
      <MarkdownTwinLink />
      <DocsRoot {...props} />
      <LecternWidget />
    </>
  );
}
