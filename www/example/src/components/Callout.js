import React from 'react';

/**
 * A highlighted aside for the textbook.
 *
 * `transcript` is a sentence of prose passed as a string prop (for example
 * the spoken version of the point being made); it is rendered above the
 * children so that it appears in the built HTML.
 */
export default function Callout({transcript, title, children}) {
  return (
    <aside className="callout">
      {title ? <p className="callout__title"><strong>{title}</strong></p> : null}
      {transcript ? <p className="callout__transcript">{transcript}</p> : null}
      <div className="callout__body">{children}</div>
    </aside>
  );
}
