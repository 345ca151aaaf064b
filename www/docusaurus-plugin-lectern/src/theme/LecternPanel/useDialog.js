// The panel as a dialog: Escape closes it (so does Ctrl/⌘+I, the widget's shortcut); on
// narrow screens it is a modal sheet over the page, so the page behind it does not scroll
// and Tab cycles inside it. No key typed in it reaches the page's own shortcuts.
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { keepKeys } from '../LecternWidget/layer';

const NARROW = '(max-width: 600px)';

/** @param {string} query */
function useMediaQuery(query) {
  const subscribe = useCallback(
    (/** @type {() => void} */ onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false);
}

/**
 * Returns {narrow (the panel is a modal sheet), onKeyDown and onKeyUp (for the dialog's
 * element)}. `shortcut`: Ctrl/⌘+I closes it (the widget's own listener never sees keys
 * typed here).
 * @param {import('react').RefObject<HTMLElement | null>} panel
 * @param {{open: boolean, onClose: () => void, shortcut?: boolean}} options
 */
export default function useDialog(panel, { open, onClose, shortcut = false }) {
  const narrow = useMediaQuery(NARROW);

  // The sheet (narrow screens) is modal: the page behind it does not scroll.
  useEffect(() => {
    if (!open || !narrow) return undefined;
    const root = document.documentElement;
    const before = root.style.overflow;
    root.style.overflow = 'hidden';
    return () => {
      root.style.overflow = before;
    };
  }, [open, narrow]);

  /** @param {import('react').KeyboardEvent} e */
  const onKeyDown = (e) => {
    keepKeys(e);
    if (shortcut && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.code === 'KeyI' || e.key?.toLowerCase() === 'i')) {
      e.preventDefault();
      onClose();
      return;
    }
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key === 'Tab' && narrow && panel.current) {
      // The sheet is modal: Tab cycles inside it.
      const focusable = panel.current.querySelectorAll('a[href], button:not([disabled]), textarea, select, [tabindex="0"]');
      const first = /** @type {HTMLElement} */ (focusable[0]);
      const last = /** @type {HTMLElement} */ (focusable[focusable.length - 1]);
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  };

  return { narrow, onKeyDown, onKeyUp: keepKeys };
}
