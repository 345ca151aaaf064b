// Tracks the reader's text selection in the page's content, for the "Ask about this" button:
// mouse (after the button is released), touch (after the handles settle) and keyboard
// (Shift+arrows). Selections inside form fields, editable areas, the widget itself, or
// outside the main content are ignored, as are ones shorter than `minChars`.
import { useCallback, useEffect, useRef, useState } from 'react';

const IGNORED = 'input, textarea, select, [contenteditable]:not([contenteditable="false"]), [data-lectern-root], nav';
const CONTENT = 'main, article, [role="main"]';

function element(node) {
  return node && (node.nodeType === 1 ? node : node.parentElement);
}

/** The current selection as {text, rect} when it is one the reader may ask about, else null. */
function readSelection(minChars) {
  const selection = window.getSelection?.();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  for (const node of [selection.anchorNode, selection.focusNode, range.commonAncestorContainer]) {
    const el = element(node);
    if (!el || el.closest(IGNORED) || !el.closest(CONTENT)) return null;
  }
  const text = selection.toString().replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  if (text.length < minChars) return null;
  const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 || r.height > 0);
  const box = range.getBoundingClientRect();
  const last = rects.at(-1) ?? box;
  return { text, box, end: last.right };
}

/** The gap between the button and the selection, and the viewport's edge, in pixels. */
const GAP = 8;

/**
 * Where the button goes ({top, left} in viewport pixels) for `selection`: clear of the whole
 * selection (its bounding box), never over the selected text — a page's own selection menu
 * or the reader's next drag would fight it there. Above the selection when there is room
 * (touch: below, clear of the system's own menu, which sits above), else on the other side,
 * else (the selection fills the viewport) at the viewport's top.
 * Horizontally at the selection's end (touch: its middle), kept inside the viewport.
 * @param {{box: {top: number, bottom: number, left: number, right: number}, end: number, touch: boolean}} selection (end: the right edge of its last line)
 * @param {{width: number, height: number}} size the button's size
 */
function placeButton({ box, end, touch }, { width, height }) {
  const vh = window.innerHeight;
  const above = box.top - height - GAP;
  const below = box.bottom + GAP;
  const fits = [above >= GAP ? above : null, below + height <= vh - GAP ? below : null];
  if (touch) fits.reverse();
  const top = fits.find((t) => t !== null) ?? GAP;
  const anchor = touch ? (box.left + box.right) / 2 : end;
  return { top: Math.round(top), left: Math.round(Math.max(GAP, Math.min(anchor - width / 2, document.documentElement.clientWidth - width - GAP))) };
}

/**
 * Returns {selection, position, dismiss}: the askable selection (or null), where to put the
 * button ({top, left} in viewport pixels, for a button `width` wide), and a function that hides
 * it until the selection changes.
 */
export default function useTextSelection({ enabled, minChars, width = 150 }) {
  const [selection, setSelection] = useState(null);
  const pointer = useRef({ down: false, type: 'mouse' });
  const dismissed = useRef(null);
  const timer = useRef(/** @type {ReturnType<typeof setTimeout> | 0} */ (0));

  const update = useCallback(() => {
    if (pointer.current.down) return; // a mouse drag in progress: wait for the release
    const next = readSelection(minChars);
    if (next && dismissed.current === next.text) return setSelection(null);
    if (!next) dismissed.current = null;
    setSelection(next ? { ...next, touch: pointer.current.type === 'touch' } : null);
  }, [minChars]);

  useEffect(() => {
    if (!enabled) return undefined;
    const later = (ms) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(update, ms);
    };
    const onSelectionChange = () => later(pointer.current.type === 'touch' ? 400 : 200);
    const onPointerDown = (e) => {
      if (element(e.target)?.closest('[data-lectern-selection-button]')) return;
      pointer.current = { down: e.pointerType === 'mouse' && e.button === 0, type: e.pointerType || 'mouse' };
    };
    const onPointerUp = (e) => {
      pointer.current = { down: false, type: e.pointerType || pointer.current.type };
      later(10);
    };
    const onKeyDown = (e) => {
      if (e.key === 'Escape') {
        dismissed.current = readSelection(minChars)?.text ?? null;
        setSelection(null);
      } else if (e.shiftKey) pointer.current = { down: false, type: 'keyboard' };
    };
    // Scrolling or resizing moves the selection on screen: re-measure it.
    let frame = 0;
    const onMove = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() =>
        setSelection((s) => {
          if (!s) return s;
          const next = readSelection(minChars);
          return next ? { ...next, touch: s.touch } : null;
        }),
      );
    };
    document.addEventListener('selectionchange', onSelectionChange);
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('pointerup', onPointerUp, true);
    document.addEventListener('pointercancel', onPointerUp, true);
    document.addEventListener('keydown', onKeyDown, true);
    window.addEventListener('scroll', onMove, { capture: true, passive: true });
    window.addEventListener('resize', onMove, { passive: true });
    return () => {
      clearTimeout(timer.current);
      cancelAnimationFrame(frame);
      document.removeEventListener('selectionchange', onSelectionChange);
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('pointerup', onPointerUp, true);
      document.removeEventListener('pointercancel', onPointerUp, true);
      document.removeEventListener('keydown', onKeyDown, true);
      window.removeEventListener('scroll', onMove, { capture: true });
      window.removeEventListener('resize', onMove);
    };
  }, [enabled, update, minChars]);

  const dismiss = useCallback(() => {
    dismissed.current = selection?.text ?? null;
    setSelection(null);
  }, [selection]);

  const position = selection ? placeButton(selection, { width, height: 36 }) : null;
  return { selection, position, dismiss };
}
