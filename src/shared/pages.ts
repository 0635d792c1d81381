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
  /** Asks for a password reset link by mail (linked from the login page). */
  forgotPassword: "/forgot-password",
  /** Where a reset link lands: ?token=... and a new password. */
  resetPassword: "/reset-password",
  /** Where an address's confirmation link lands (a sign-up's, an email change's): ?token=... */
  confirmEmail: "/confirm-email",
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
  /** Payments that passed the member by (?program=&level= for one level), linked from the earnings and the levels. */
  missed: `${DASHBOARD}/missed`,
  allUsers: `${DASHBOARD}/all-users`,
  /** One member's record for the operator, under All Users (a route pattern: features/users/memberPaths.ts fills it in). */
  adminMember: `${DASHBOARD}/all-users/:id`,
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

/** The missed earnings page, of one program or one level of it when given. */
export function missedPage(filter: { program?: string; level?: number } = {}): string {
  const query = new URLSearchParams();
  if (filter.program) query.set("program", filter.program);
  if (filter.level !== undefined) query.set("level", String(filter.level));
  const text = query.toString();
  return text ? `${PAGES.missed}?${text}` : PAGES.missed;
}

/** The sign-up link that fills in a member's referral ID. */
export const referralLink = (origin: string, referralId: string) => `${origin}${PAGES.register}?ref=${encodeURIComponent(referralId)}`;
