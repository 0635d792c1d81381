/*
 * The paths of the product's pages, written once. The client's router, menus and links, the
 * server's page shells (src/server/web) and the marketing site's links all read them. Both
 * sides compare paths case-insensitively, so /logIn and /Register are the same pages.
 */

const DASHBOARD = "/userDashboard";

export const PAGES = {
  home: "/",
  login: "/login",
  register: "/register",
  /** The public, server-rendered explanation of programs, slots, cycles, fees and prices. */
  howItWorks: "/how-it-works",
  /** The dashboard's index: the profile. */
  dashboard: DASHBOARD,
  package: `${DASHBOARD}/package`,
  sendGifts: `${DASHBOARD}/send-gifts`,
  deposit: `${DASHBOARD}/deposit`,
  withdraw: `${DASHBOARD}/withdraw`,
  transactions: `${DASHBOARD}/transactions`,
  earnings: `${DASHBOARD}/earnings`,
  partners: `${DASHBOARD}/partners`,
  /** Two-factor authentication: set-up, recovery codes, turning it off. */
  security: `${DASHBOARD}/security`,
  /** The member's notifications (the header's bell). */
  notifications: `${DASHBOARD}/notifications`,
  allUsers: `${DASHBOARD}/all-users`,
  adminDashboard: `${DASHBOARD}/admin-dashboard`,
  adminWithdraw: `${DASHBOARD}/admin-withdraw`,
  adminDeposit: `${DASHBOARD}/admin-deposit`,
  admin3p: `${DASHBOARD}/admin-3p`,
  admin6p: `${DASHBOARD}/admin-6p`,
  adminAudit: `${DASHBOARD}/admin-audit`,
  /** USDT credited at members' own deposit addresses, for the operator to move with their own wallet. */
  adminSweep: `${DASHBOARD}/admin-sweep`,
} as const;

export type PagePath = (typeof PAGES)[keyof typeof PAGES];

/** Where a signed-out visit to the dashboard is sent: the login page, spelt as the spec spells it. */
export const SIGNED_OUT_REDIRECT = "/logIn";

/** A path as pages are compared: lower case, without query, fragment or trailing slashes. */
const normalise = (path: string) => path.split(/[?#]/, 1)[0]!.replace(/(.)\/+$/, "$1").toLowerCase();

/** Whether `path` (any case, a query or trailing slash allowed) is `page`, or with `nested` a page below it. */
export function isPage(path: string, page: PagePath, { nested = false }: { nested?: boolean } = {}): boolean {
  const [here, target] = [normalise(path), normalise(page)];
  return here === target || (nested && here.startsWith(`${target}/`));
}

/** The sign-up link that fills in a member's referral ID. */
export const referralLink = (origin: string, referralId: string) => `${origin}${PAGES.register}?ref=${encodeURIComponent(referralId)}`;
