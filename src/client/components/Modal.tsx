import { useId, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { Icon } from "../../ui/icons";
import { useFocusTrap } from "../lib/useFocusTrap";

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** False while a request runs, so the dialog cannot vanish under a pending send. */
  dismissible?: boolean;
  children: ReactNode;
}

/**
 * A modal dialog: focus moves inside on open (to the first field: the user came here to type),
 * Tab cycles within it, Escape and the backdrop close it, and focus returns to whatever opened it.
 */
export function Modal({ open, title, onClose, dismissible = true, children }: ModalProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useFocusTrap(panel, open, () => dismissible && onClose(), "input, select, textarea");

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
            <Icon name="close" />
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
