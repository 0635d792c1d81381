import { useState } from "react";
import { NavLink, useLocation } from "react-router";
import { isPage } from "../../shared/pages";
import { Icon } from "../../ui/icons";
import type { MenuItem } from "./menu";

const MAX_TABS = 6;

const tabClass = (active: boolean) =>
  `flex min-w-0 flex-1 flex-col items-center justify-center gap-1 rounded-control px-0.5 py-1.5 text-[10.5px] font-medium leading-tight no-underline focus-ring ${
    active ? "text-fg bg-panel-strong" : "text-muted hover:text-fg"
  }`;

/**
 * Mobile navigation for normal users: thumb-reachable tabs. Six fit a 360 px screen with
 * readable labels (the spec's five and "More"); beyond that the last tab opens a sheet.
 */
export function BottomTabs({ items }: { items: MenuItem[] }) {
  const [moreOpen, setMoreOpen] = useState(false);
  const { pathname } = useLocation();
  const overflow = items.length > MAX_TABS;
  const tabs = overflow ? items.slice(0, MAX_TABS - 1) : items;
  const rest = overflow ? items.slice(MAX_TABS - 1) : [];
  const restActive = rest.some((i) => isPage(pathname, i.to));

  return (
    <nav aria-label="Dashboard" className="fixed inset-x-0 bottom-0 z-40 border-t border-line-subtle bg-ink-raised/95 pb-[env(safe-area-inset-bottom)] backdrop-blur lg:hidden">
      {moreOpen && (
        <ul id="more-sheet" className="m-0 grid list-none gap-1 border-b border-line-subtle p-2">
          {rest.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                onClick={() => setMoreOpen(false)}
                className={({ isActive }) => `flex items-center gap-3 rounded-control px-3 py-3 text-sm font-medium no-underline focus-ring ${isActive ? "bg-panel-strong text-fg" : "text-fg-soft"}`}
              >
                <Icon name={item.icon} className="text-lg" />
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      )}
      <ul className="m-0 flex list-none gap-0.5 p-1">
        {tabs.map((item) => (
          <li key={item.to} className="flex min-w-0 flex-1">
            <NavLink to={item.to} end={item.end} onClick={() => setMoreOpen(false)} className={({ isActive }) => tabClass(isActive)}>
              <Icon name={item.icon} className="text-xl" />
              <span className="max-w-full truncate">{item.label}</span>
            </NavLink>
          </li>
        ))}
        {overflow && (
          <li className="flex min-w-0 flex-1">
            <button
              type="button"
              aria-expanded={moreOpen}
              aria-controls="more-sheet"
              onClick={() => setMoreOpen((o) => !o)}
              className={`${tabClass(restActive || moreOpen)} cursor-pointer border-0 ${restActive || moreOpen ? "" : "bg-transparent"}`}
            >
              <Icon name={moreOpen ? "close" : "more"} className="text-xl" />
              <span>More</span>
            </button>
          </li>
        )}
      </ul>
    </nav>
  );
}
