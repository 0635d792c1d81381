import { Brand } from "../../ui/Brand";
import type { MenuItem } from "./menu";
import { NavItems } from "./NavItems";

/** Desktop (lg and up) navigation column. */
export function Sidebar({ items }: { items: MenuItem[] }) {
  return (
    <aside className="sticky top-0 hidden h-screen w-64 shrink-0 flex-col border-r border-line-subtle bg-ink-raised px-4 py-5 lg:flex">
      <div className="mb-8 px-2">
        <Brand />
      </div>
      <nav aria-label="Dashboard" className="flex-1 overflow-y-auto">
        <NavItems items={items} />
      </nav>
    </aside>
  );
}
