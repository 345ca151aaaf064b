// Living beside what a site already has: Lectern's panel and search dialog must be above a
// page's own floating widgets (chat bots at z-index 999999 and more) and keep the keys typed
// in them to themselves.
//
// - The panel is a manual popover, shown in the browser's top layer, above any z-index, and
//   not modal (the page stays usable beside it); where popovers are unsupported it falls
//   back to the --lectern-z-index stacking of the stylesheet.
// - Keys typed inside stop at Lectern's element: a site's own shortcuts (Ctrl+K for its
//   search, "/" …), listening on the document or window, never see them.
import { useEffect } from 'react';

/**
 * Shows `ref`'s element in the top layer while `open` (it must carry popover="manual").
 * @param {import('react').RefObject<HTMLElement | null>} ref
 * @param {boolean} open
 */
export function useTopLayer(ref, open) {
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.showPopover !== 'function') return;
    try {
      const shown = el.matches(':popover-open');
      if (open && !shown) el.showPopover();
      else if (!open && shown) el.hidePopover();
    } catch {
      // Not a popover after all (a swizzled panel): the stylesheet's stacking applies.
    }
  }, [ref, open]);
}

/**
 * For a React onKeyDown/onKeyUp at Lectern's outermost element: the event goes no further
 * than that element (React stops the native event too, before the document and window).
 * @param {import('react').KeyboardEvent} e
 */
export function keepKeys(e) {
  e.stopPropagation();
}
