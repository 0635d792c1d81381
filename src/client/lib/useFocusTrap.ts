import { useEffect, useRef, type RefObject } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The keyboard contract of a dialog (the modal, the admin drawer). While `open`: focus moves
 * into `panel` (its first element matching `initialFocus`, else its first focusable one), Tab
 * and Shift+Tab cycle inside it, Escape calls `onEscape`, and on close focus goes back to
 * whatever opened it.
 */
export function useFocusTrap(panel: RefObject<HTMLElement | null>, open: boolean, onEscape: () => void, initialFocus?: string) {
  // A ref, so the key handler does not re-subscribe (and re-focus) on every render.
  const escape = useRef(onEscape);
  escape.current = onEscape;

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    const focusables = () => Array.from(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
    const items = focusables();
    (items.find((el) => initialFocus !== undefined && el.matches(initialFocus)) ?? items[0])?.focus();

    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        escape.current();
        return;
      }
      if (event.key !== "Tab") return;
      const cycle = focusables();
      const head = cycle[0];
      const tail = cycle[cycle.length - 1];
      if (!head || !tail) return;
      if (event.shiftKey && document.activeElement === head) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && document.activeElement === tail) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      opener?.focus?.();
    };
  }, [open, panel, initialFocus]);
}
