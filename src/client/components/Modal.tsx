import { useEffect, useId, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { CrossIcon } from "./icons";

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** False while a request runs, so the dialog cannot vanish under a pending send. */
  dismissible?: boolean;
  children: ReactNode;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: focus moves inside on open, Tab cycles within it, Escape and the backdrop
 * close it, and focus returns to whatever opened it.
 */
export function Modal({ open, title, onClose, dismissible = true, children }: ModalProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  // Kept in refs so the key handler does not re-subscribe (and re-focus) on every render.
  const closeRef = useRef(onClose);
  const dismissibleRef = useRef(dismissible);
  closeRef.current = onClose;
  dismissibleRef.current = dismissible;

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    const focusables = () => Array.from(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
    // Prefer the first field over the close button: the user came here to type.
    const first = focusables().find((el) => el.matches("input, select, textarea")) ?? focusables()[0];
    first?.focus();

    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        if (dismissibleRef.current) closeRef.current();
        return;
      }
      if (event.key !== "Tab") return;
      const items = focusables();
      if (items.length === 0) return;
      const head = items[0]!;
      const tail = items[items.length - 1]!;
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
  }, [open]);

  if (!open) return null;
  return createPortal(
    <div
      className="fixed inset-0 z-50 flex items-end justify-center bg-ink-deep/80 p-4 sm:items-center"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && dismissible) onClose();
      }}
    >
      <div ref={panel} role="dialog" aria-modal="true" aria-labelledby={titleId} className="card w-full max-w-md">
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="card-title">
            {title}
          </h2>
          <button type="button" className="btn btn-secondary btn-sm focus-ring" aria-label="Close" onClick={onClose} disabled={!dismissible}>
            <CrossIcon />
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
