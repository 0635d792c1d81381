import { brand } from "./content";

/** Brand mark and name, linking to the (server-rendered) home page: a plain link, a full load. */
export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <a href="/" className="flex items-center gap-2 rounded-control text-lg font-bold text-fg no-underline focus-ring">
      <svg viewBox="0 0 32 32" width="30" height="30" aria-hidden="true" focusable="false" className="shrink-0">
        <path d="M16 2 29 9.5v13L16 30 3 22.5v-13L16 2Z" className="fill-brand-violet" />
        <path d="M16 2 29 9.5 16 17 3 9.5 16 2Z" className="fill-brand-blue" />
        <path d="M11.5 12.5h9M16 12.5v10" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
      </svg>
      <span className={compact ? "sr-only" : ""}>{brand.name}</span>
    </a>
  );
}
