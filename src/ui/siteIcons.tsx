import type { ReactNode, SVGProps } from "react";
import { Icon, IconFrame, type IconName } from "./icons";

/*
 * The icons only the server-rendered marketing site draws (social links, contact, feature cards).
 * They live apart from ./icons.tsx so that the dashboard's first load does not carry them.
 */
const SITE_ICONS = {
  bolt: <path d="M13 2 4 14h7l-1 8 9-12h-7l1-8Z" />,
  globe: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3Z" />
    </>
  ),
  telegram: <path d="m21 4-18 7 6 2 2 6 3-4 5 4 2-15ZM9 13l9-7" />,
  "x-twitter": <path d="M4 4l16 16M20 4 4 20" />,
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
} satisfies Record<string, ReactNode>;

export type SiteIconName = IconName | keyof typeof SITE_ICONS;

const isSiteOnly = (name: SiteIconName): name is keyof typeof SITE_ICONS => Object.hasOwn(SITE_ICONS, name);

/** Any icon of the product, by name: the site's own or the dashboard's. */
export function SiteIcon({ name, ...props }: { name: SiteIconName } & SVGProps<SVGSVGElement>) {
  return isSiteOnly(name) ? <IconFrame {...props}>{SITE_ICONS[name]}</IconFrame> : <Icon name={name} {...props} />;
}
