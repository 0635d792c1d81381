import type { ReactNode, SVGProps } from "react";

/*
 * Every line icon of the product (dashboard, menus and the server-rendered marketing site), drawn
 * for it: inline SVG, no icon font and no image request. One drawing per name, and the name is
 * a type, so `<Icon name="walet" />` does not compile.
 */
const ICONS = {
  // States and actions
  check: <path d="m5 12 5 5 9-10" />,
  close: <path d="M6 6l12 12M18 6 6 18" />,
  lock: (
    <>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </>
  ),
  snowflake: (
    <>
      <path d="M12 2v20M4.9 7l14.2 10M4.9 17 19.1 7" />
      <path d="m9 4 3 2 3-2M9 20l3-2 3 2" />
    </>
  ),
  clock: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </>
  ),
  copy: (
    <>
      <rect x="9" y="9" width="11" height="11" rx="2" />
      <path d="M5 15V5a2 2 0 0 1 2-2h8" />
    </>
  ),
  alert: (
    <>
      <path d="M12 3 2 20h20L12 3z" />
      <path d="M12 10v4M12 17h.01" />
    </>
  ),
  eye: (
    <>
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </>
  ),
  "eye-off": <path d="M3 3l18 18M10.6 5.1A10 10 0 0 1 12 5c6.4 0 10 7 10 7a17 17 0 0 1-3.2 4M6.6 6.6C3.8 8.4 2 12 2 12s3.6 7 10 7a9.7 9.7 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2" />,
  menu: <path d="M4 7h16M4 12h16M4 17h16" />,
  more: <path d="M5 12h.01M12 12h.01M19 12h.01" />,
  logout: <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l-5-5 5-5M5 12h11" />,
  arrow: <path d="M5 12h14m-6-6 6 6-6 6" />,
  up: <path d="M12 19V5m-6 6 6-6 6 6" />,

  // Dashboard pages
  profile: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </>
  ),
  package: (
    <>
      <path d="m12 3 8 4.5v9L12 21l-8-4.5v-9L12 3Z" />
      <path d="m4 7.5 8 4.5 8-4.5M12 12v9" />
    </>
  ),
  gift: (
    <>
      <rect x="3" y="8" width="18" height="5" rx="1" />
      <path d="M5 13v8h14v-8M12 8v13M12 8S10.5 3 8 4s-.5 4 4 4Zm0 0s1.5-5 4-4 .5 4-4 4Z" />
    </>
  ),
  deposit: <path d="M12 3v12m-5-5 5 5 5-5M4 21h16" />,
  withdraw: <path d="M12 15V3M7 8l5-5 5 5M4 21h16" />,
  transactions: <path d="M4 7h13l-3-3M20 17H7l3 3" />,
  partners: (
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14a6.5 6.5 0 0 1 3.5 6" />
    </>
  ),
  users: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2.5" />
      <path d="M5.5 17a3.5 3.5 0 0 1 7 0M15 9h3M15 13h3" />
    </>
  ),
  dashboard: <path d="M4 4h7v9H4zM13 4h7v5h-7zM13 11h7v9h-7zM4 15h7v5H4z" />,
  history: (
    <>
      <path d="M3 12a9 9 0 1 0 3-6.7L3 8" />
      <path d="M3 3v5h5M12 8v4l3 2" />
    </>
  ),
  levels: <path d="M4 20h4v-5H4zM10 20h4V10h-4zM16 20h4V4h-4z" />,
  wallet: (
    <>
      <path d="M4 7a2 2 0 0 1 2-2h12v4M4 7v11a2 2 0 0 0 2 2h14V9H6a2 2 0 0 1-2-2Z" />
      <path d="M16 14.5h.01" />
    </>
  ),
  help: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01" />
    </>
  ),

  // Shared with the marketing site (its own icons are in ./siteIcons.tsx)
  shield: <path d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6l-8-3Zm-3.5 9 2.5 2.5 4.5-5" />,
  bell: <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4l2-2Zm4 4h4" />,
  chart: <path d="M4 20V10m6 10V4m6 16v-7m4 7H3" />,
} satisfies Record<string, ReactNode>;

export type IconName = keyof typeof ICONS;

/**
 * One icon in a 24-unit box, stroked in the current text colour and sized to the font.
 * Decorative: the text or label beside it names it.
 */
export function Icon({ name, ...props }: { name: IconName } & SVGProps<SVGSVGElement>) {
  return <IconFrame {...props}>{ICONS[name]}</IconFrame>;
}

/**
 * The 24-unit stroked box every icon is drawn in (./siteIcons.tsx draws in it too). Its size
 * and stroke are the `icon` class's (uno.config.ts), not attributes: the landing page carries
 * a few dozen icons, and its HTML has a size budget.
 */
export function IconFrame({ className = "", children, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className={`icon ${className}`.trim()} {...props}>
      {children}
    </svg>
  );
}

/** The brand's cube, shared by the site's logo and the dashboard's brand mark (32-unit box). */
export const CUBE = {
  body: "M16 2 29 9.5v13L16 30 3 22.5v-13L16 2Z",
  top: "M16 2 29 9.5 16 17 3 9.5 16 2Z",
  side: "M16 17v13L3 22.5v-13L16 17Z",
  mark: "M11.5 12.5h9M16 12.5v10",
};
