import type { ComponentType, LazyExoticComponent } from "react";
import { lazyPage } from "../lib/lazyPage";
import { PAGES, type PagePath } from "../../shared/pages";
import type { IconName } from "../../ui/icons";

/**
 * The dashboard pages under /userDashboard, in menu order. The shell (router, sidebar, mobile
 * tab bar, admin drawer) is built from this list, so a page is added here (and its path to
 * PAGES) and nowhere else. Profile, the index, belongs to the shell and comes first in every menu.
 */
export interface FeatureRoute {
  path: PagePath;
  label: string;
  /** Shown in the menu of admins only. The server enforces the role on every admin call. */
  adminOnly?: boolean;
  icon: IconName;
  page: LazyExoticComponent<ComponentType>;
}

// Each page is its own chunk, fetched the first time it is opened (again once the server is back, if it was away).
export const featureRoutes: FeatureRoute[] = [
  { path: PAGES.package, label: "Packages", icon: "package", page: lazyPage(() => import("../features/package/PackagePage")) },
  { path: PAGES.sendGifts, label: "Send Gift", icon: "gift", page: lazyPage(() => import("../features/gifts/SendGiftsPage")) },
  { path: PAGES.deposit, label: "Deposit", icon: "deposit", page: lazyPage(() => import("../features/deposit/DepositPage")) },
  { path: PAGES.withdraw, label: "Withdraw", icon: "withdraw", page: lazyPage(() => import("../features/withdraw/WithdrawPage")) },
  {
    path: PAGES.transactions,
    label: "Transactions",
    icon: "transactions",
    page: lazyPage(() => import("../features/transactions/TransactionsPage")),
  },
  { path: PAGES.earnings, label: "Earnings", icon: "chart", page: lazyPage(() => import("../features/earnings/EarningsPage")) },
  { path: PAGES.partners, label: "Partners", icon: "partners", page: lazyPage(() => import("../features/partners/PartnersPage")) },
  { path: PAGES.security, label: "Security", icon: "shield", page: lazyPage(() => import("../features/security/SecurityPage")) },
  { path: PAGES.allUsers, label: "All Users", icon: "users", adminOnly: true, page: lazyPage(() => import("../features/users/AllUsersPage")) },
  {
    path: PAGES.adminDashboard,
    label: "Admin Dashboard",
    icon: "dashboard",
    adminOnly: true,
    page: lazyPage(() => import("../features/requests/AdminDashboardPage")),
  },
  {
    path: PAGES.adminWithdraw,
    label: "Admin Withdraw",
    icon: "withdraw",
    adminOnly: true,
    page: lazyPage(() => import("../features/requests/AdminWithdrawPage")),
  },
  {
    path: PAGES.adminDeposit,
    label: "Admin Deposit",
    icon: "deposit",
    adminOnly: true,
    page: lazyPage(() => import("../features/requests/AdminDepositPage")),
  },
  {
    path: PAGES.adminSweep,
    label: "To Sweep",
    icon: "wallet",
    adminOnly: true,
    page: lazyPage(() => import("../features/sweep/AdminSweepPage")),
  },
  { path: PAGES.admin3p, label: "Admin 3P", icon: "levels", adminOnly: true, page: lazyPage(() => import("../features/programs/Admin3pPage")) },
  { path: PAGES.admin6p, label: "Admin 6P", icon: "levels", adminOnly: true, page: lazyPage(() => import("../features/programs/Admin6pPage")) },
  {
    path: PAGES.adminAudit,
    label: "Admin Audit",
    icon: "history",
    adminOnly: true,
    page: lazyPage(() => import("../features/audit/AdminAuditPage")),
  },
];
