import { NavLink } from "react-router";
import { Icon } from "../../ui/icons";
import type { MenuItem } from "./menu";

/** The vertical menu used by the desktop sidebar and the admin drawer. */
export function NavItems({ items, onNavigate }: { items: MenuItem[]; onNavigate?: () => void }) {
  return (
    <ul className="m-0 grid list-none gap-1 p-0">
      {items.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end={item.end}
            onClick={onNavigate}
            className={({ isActive }) =>
              `flex items-center gap-3 rounded-control px-3 py-2.5 text-sm font-medium no-underline transition duration-150 focus-ring ${
                isActive
                  ? "bg-gradient-to-r from-brand-blue/30 to-brand-violet/30 text-fg ring-1 ring-line-strong/60"
                  : "text-fg-soft hover:bg-panel-strong hover:text-fg"
              }`
            }
          >
            <Icon name={item.icon} className="text-lg" />
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
