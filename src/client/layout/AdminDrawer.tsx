import { useRef } from "react";
import { Brand } from "../../ui/Brand";
import { Icon } from "../../ui/icons";
import { useFocusTrap } from "../lib/useFocusTrap";
import type { MenuItem } from "./menu";
import { NavItems } from "./NavItems";

interface DrawerProps {
  open: boolean;
  onClose: () => void;
  items: MenuItem[];
}

/**
 * Mobile navigation for admins (their menu is too long for tabs): a panel that slides in from
 * the left. Focus moves into it, Tab stays inside, Escape or the backdrop closes it, and
 * focus goes back to the menu button.
 */
export function AdminDrawer({ open, onClose, items }: DrawerProps) {
  const panel = useRef<HTMLDivElement>(null);
  useFocusTrap(panel, open, onClose, "button");

  if (!open) return null;
  return (
    <div className="fixed inset-0 z-50 lg:hidden">
      <div aria-hidden="true" className="absolute inset-0 bg-black/60 animate-[fade-in_150ms_ease-out]" onClick={onClose} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-label="Menu"
        className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col border-r border-line bg-ink-raised px-4 py-5 shadow-raised animate-[slide-in_200ms_ease-out]"
      >
        <div className="mb-6 flex items-center justify-between gap-2 pl-2">
          <Brand />
          <button type="button" onClick={onClose} aria-label="Close menu" className="btn-secondary btn-sm size-9 p-0 text-lg">
            <Icon name="close" />
          </button>
        </div>
        <nav aria-label="Dashboard" className="flex-1 overflow-y-auto">
          <NavItems items={items} onNavigate={onClose} />
        </nav>
      </div>
    </div>
  );
}
