import { lazy, type ComponentType, type LazyExoticComponent } from "react";
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

// Each page is its own chunk, fetched the first time it is opened.
export const featureRoutes: FeatureRoute[] = [
  { path: PAGES.package, label: "Packages", icon: "package", page: lazy(() => import("../features/package/PackagePage")) },
  { path: PAGES.sendGifts, label: "Send Gift", icon: "gift", page: lazy(() => import("../features/gifts/SendGiftsPage")) },
  { path: PAGES.deposit, label: "Deposit", icon: "deposit", page: lazy(() => import("../features/deposit/DepositPage")) },
  { path: PAGES.withdraw, label: "Withdraw", icon: "withdraw", page: lazy(() => import("../features/withdraw/WithdrawPage")) },
  {
    path: PAGES.transactions,
    label: "Transactions",
    icon: "transactions",
    page: lazy(() => import("../features/transactions/TransactionsPage")),
  },
  { path: PAGES.earnings, label: "Earnings", icon: "chart", page: lazy(() => import("../features/earnings/EarningsPage")) },
  { path: PAGES.partners, label: "Partners", icon: "partners", page: lazy(() => import("../features/partners/PartnersPage")) },
  { path: PAGES.security, label: "Security", icon: "shield", page: lazy(() => import("../features/security/SecurityPage")) },
  { path: PAGES.allUsers, label: "All Users", icon: "users", adminOnly: true, page: lazy(() => import("../features/users/AllUsersPage")) },
  {
    path: PAGES.adminDashboard,
    label: "Admin Dashboard",
    icon: "dashboard",
    adminOnly: true,
    page: lazy(() => import("../features/requests/AdminDashboardPage")),
  },
  {
    path: PAGES.adminWithdraw,
    label: "Admin Withdraw",
    icon: "withdraw",
    adminOnly: true,
    page: lazy(() => import("../features/requests/AdminWithdrawPage")),
  },
  {
    path: PAGES.adminDeposit,
    label: "Admin Deposit",
    icon: "deposit",
    adminOnly: true,
    page: lazy(() => import("../features/requests/AdminDepositPage")),
  },
  {
    path: PAGES.adminSweep,
    label: "To Sweep",
    icon: "wallet",
    adminOnly: true,
    page: lazy(() => import("../features/sweep/AdminSweepPage")),
  },
  { path: PAGES.admin3p, label: "Admin 3P", icon: "levels", adminOnly: true, page: lazy(() => import("../features/programs/Admin3pPage")) },
  { path: PAGES.admin6p, label: "Admin 6P", icon: "levels", adminOnly: true, page: lazy(() => import("../features/programs/Admin6pPage")) },
  {
    path: PAGES.adminAudit,
    label: "Admin Audit",
    icon: "history",
    adminOnly: true,
    page: lazy(() => import("../features/audit/AdminAuditPage")),
  },
];
