import { useId } from "react";
import { PAGES } from "../shared/pages";
import { colors } from "../shared/tokens";
import { brand } from "./content";
import { CUBE } from "./icons";

/** Brand mark and name, linking to the (server-rendered) home page: a plain link, a full load. */
export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <a href={PAGES.home} className="flex items-center gap-2 rounded-control text-lg font-bold text-fg no-underline focus-ring">
      <svg viewBox="0 0 32 32" width="30" height="30" aria-hidden="true" focusable="false" className="shrink-0">
        <path d={CUBE.body} className="fill-brand-violet" />
        <path d={CUBE.top} className="fill-brand-blue" />
        <path d={CUBE.mark} stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
      </svg>
      <span className={compact ? "sr-only" : ""}>{brand.name}</span>
    </a>
  );
}

/** The marketing site's logo: the same cube split into the two gradient tones. */
export function Logo({ size = 32 }: { size?: number }) {
  // The logo appears twice on a page (header, footer): each needs its own gradient id.
  const id = useId();
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={colors.brand.blue} />
          <stop offset="1" stopColor={colors.brand.violet} />
        </linearGradient>
      </defs>
      <path d={CUBE.body} fill={`url(#${id})`} />
      <path d={CUBE.top} fill="#fff" fillOpacity=".28" />
      <path d={CUBE.side} fill={colors.ink.DEFAULT} fillOpacity=".25" />
      <path d={CUBE.mark} stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}
