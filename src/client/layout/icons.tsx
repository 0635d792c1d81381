import type { ReactNode } from "react";
import { LineIcon } from "../../ui/LineIcon";

/**
 * The dashboard shell's icon set, addressed by name from featureRoutes (`icon: "deposit"`).
 * Several spellings map to one drawing so a page can pick the word that reads best; an
 * unknown name falls back to a neutral dot rather than breaking the menu.
 */
const D: Record<string, ReactNode> = {
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
  logout: <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l-5-5 5-5M5 12h11" />,
  menu: <path d="M4 7h16M4 12h16M4 17h16" />,
  close: <path d="M6 6l12 12M18 6 6 18" />,
  more: <path d="M5 12h.01M12 12h.01M19 12h.01" />,
  eye: (
    <>
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </>
  ),
  "eye-off": <path d="M3 3l18 18M10.6 5.1A10 10 0 0 1 12 5c6.4 0 10 7 10 7a17 17 0 0 1-3.2 4M6.6 6.6C3.8 8.4 2 12 2 12s3.6 7 10 7a9.7 9.7 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2" />,
  dot: <circle cx="12" cy="12" r="3" />,
};

const ALIASES: Record<string, string> = {
  user: "profile",
  packages: "package",
  box: "package",
  "send-gift": "gift",
  "send-gifts": "gift",
  "all-users": "users",
  admin: "dashboard",
  "admin-dashboard": "dashboard",
  "admin-withdraw": "withdraw",
  "admin-deposit": "deposit",
  "admin-3p": "levels",
  "admin-6p": "levels",
  "3p": "levels",
  "6p": "levels",
  team: "partners",
  list: "transactions",
  ledger: "transactions",
  clock: "history",
};

export function MenuIcon({ name, className = "" }: { name: string; className?: string }) {
  const drawing = D[name] ?? D[ALIASES[name] ?? ""] ?? D.dot;
  return <LineIcon className={`shrink-0 ${className}`}>{drawing}</LineIcon>;
}
