import { useId, type ReactNode } from "react";
import { LineIcon } from "../../../ui/LineIcon";
import { colors } from "../../../shared/tokens";

/** Line icons for the marketing site, drawn for this app. */
const paths: Record<string, ReactNode> = {
  shield: <path d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6l-8-3Zm-3.5 9 2.5 2.5 4.5-5" />,
  bolt: <path d="M13 2 4 14h7l-1 8 9-12h-7l1-8Z" />,
  globe: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3Z" />
    </>
  ),
  chart: <path d="M4 20V10m6 10V4m6 16v-7m4 7H3" />,
  telegram: <path d="m21 4-18 7 6 2 2 6 3-4 5 4 2-15ZM9 13l9-7" />,
  x: <path d="M4 4l16 16M20 4 4 20" />,
  facebook: <path d="M15 3h-2.5A3.5 3.5 0 0 0 9 6.5V10H6.5v3.5H9V21h3.5v-7.5H15l.5-3.5h-3V7a1 1 0 0 1 1-1H15V3Z" />,
  instagram: (
    <>
      <rect x="3.5" y="3.5" width="17" height="17" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <path d="M17.3 6.7h.01" />
    </>
  ),
  pin: (
    <>
      <path d="M12 21s7-6.1 7-11.5a7 7 0 0 0-14 0C5 14.9 12 21 12 21Z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </>
  ),
  phone: <path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2Z" />,
  mail: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3 7 9 6 9-6" />
    </>
  ),
  up: <path d="M12 19V5m-6 6 6-6 6 6" />,
  menu: <path d="M4 7h16M4 12h16M4 17h16" />,
  check: <path d="m5 12 5 5 9-10" />,
  arrow: <path d="M5 12h14m-6-6 6 6-6 6" />,
};

export function LandingIcon({ name, className }: { name: string; className?: string }) {
  return <LineIcon className={className}>{paths[name] ?? paths.check}</LineIcon>;
}

/** The brand mark: an isometric cube split into the two gradient tones. */
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
      <path d="M16 2 29 9.5v13L16 30 3 22.5v-13L16 2Z" fill={`url(#${id})`} />
      <path d="M16 2 29 9.5 16 17 3 9.5 16 2Z" fill="#fff" fillOpacity=".28" />
      <path d="M16 17v13L3 22.5v-13L16 17Z" fill={colors.ink.DEFAULT} fillOpacity=".25" />
      <path d="M11.5 12.5h9M16 12.5v10" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}
