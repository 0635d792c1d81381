import { lazy, type ComponentType, type LazyExoticComponent } from "react";

/**
 * The dashboard pages under /userDashboard, in menu order. The shell (router, sidebar, mobile
 * tab bar, admin drawer) is built from this list, so a page is added here and nowhere else.
 * Profile, the index, belongs to the shell and comes first in every menu.
 */
export interface FeatureRoute {
  /** Path under /userDashboard ("" for the index). */
  path: string;
  label: string;
  /** Shown in the menu of admins only. The server enforces the role on every admin call. */
  adminOnly?: boolean;
  /** Icon name understood by the shell's icon set. */
  icon: string;
  page: LazyExoticComponent<ComponentType>;
}

// Each page is its own chunk, fetched the first time it is opened.
export const featureRoutes: FeatureRoute[] = [
  { path: "package", label: "Packages", icon: "package", page: lazy(() => import("../features/package/PackagePage")) },
  { path: "send-gifts", label: "Send Gift", icon: "gift", page: lazy(() => import("../features/gifts/SendGiftsPage")) },
  { path: "deposit", label: "Deposit", icon: "deposit", page: lazy(() => import("../features/deposit/DepositPage")) },
  { path: "withdraw", label: "Withdraw", icon: "withdraw", page: lazy(() => import("../features/withdraw/WithdrawPage")) },
  {
    path: "transactions",
    label: "Transactions",
    icon: "transactions",
    page: lazy(() => import("../features/transactions/TransactionsPage")),
  },
  { path: "partners", label: "Partners", icon: "partners", page: lazy(() => import("../features/partners/PartnersPage")) },
  { path: "all-users", label: "All Users", icon: "users", adminOnly: true, page: lazy(() => import("../features/users/AllUsersPage")) },
  {
    path: "admin-dashboard",
    label: "Admin Dashboard",
    icon: "dashboard",
    adminOnly: true,
    page: lazy(() => import("../features/requests/AdminDashboardPage")),
  },
  {
    path: "admin-withdraw",
    label: "Admin Withdraw",
    icon: "admin-withdraw",
    adminOnly: true,
    page: lazy(() => import("../features/requests/AdminWithdrawPage")),
  },
  {
    path: "admin-deposit",
    label: "Admin Deposit",
    icon: "admin-deposit",
    adminOnly: true,
    page: lazy(() => import("../features/requests/AdminDepositPage")),
  },
  { path: "admin-3p", label: "Admin 3P", icon: "levels", adminOnly: true, page: lazy(() => import("../features/programs/Admin3pPage")) },
  { path: "admin-6p", label: "Admin 6P", icon: "levels", adminOnly: true, page: lazy(() => import("../features/programs/Admin6pPage")) },
  {
    path: "admin-audit",
    label: "Admin Audit",
    icon: "history",
    adminOnly: true,
    page: lazy(() => import("../features/audit/AdminAuditPage")),
  },
];
