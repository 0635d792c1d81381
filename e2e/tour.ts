/** The screenshot tour: every page at 390 and 1280 px into e2e/screenshots (gitignored). */
import type { Page } from "playwright-core";
import { DESKTOP, MOBILE, navigateInApp, screenshot, waitForDashboardPage, type Session } from "./browser";

type DashboardPage = [name: string, path: string, heading: string | RegExp];

const publicPages: { name: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  { name: "landing", path: "/", ready: (p) => p.getByRole("heading", { level: 1 }).first().waitFor() },
  { name: "login", path: "/login", ready: (p) => p.getByRole("heading", { name: "Welcome back" }).waitFor() },
  { name: "register", path: "/register", ready: (p) => p.getByText(/^Joining under the platform's first account/).waitFor() },
];

const userPages: DashboardPage[] = [
  ["profile", "", "Profile"],
  ["package", "package", "Packages"],
  ["send-gifts", "send-gifts", "Send Gift"],
  ["deposit", "deposit", "Deposit"],
  ["withdraw", "withdraw", "Withdraw"],
  ["transactions", "transactions", "Transactions"],
  ["partners", "partners", "Partners"],
];

const adminPages: DashboardPage[] = [
  ...userPages,
  ["all-users", "all-users", "All Users"],
  ["admin-dashboard", "admin-dashboard", "Admin Dashboard"],
  ["admin-withdraw", "admin-withdraw", "Withdrawal History"],
  ["admin-deposit", "admin-deposit", "Deposit History"],
  ["admin-3p", "admin-3p", /3P/],
  ["admin-6p", "admin-6p", /6P/],
];

async function photographPublic(visitor: Session) {
  for (const size of [MOBILE, DESKTOP]) {
    await visitor.page.setViewportSize(size);
    for (const p of publicPages) {
      await visitor.page.goto(p.path);
      await p.ready(visitor.page);
      await screenshot(visitor.page, `${p.name}-${size.width}`);
    }
  }
}

async function photographDashboard(who: string, session: Session, pages: DashboardPage[]) {
  for (const size of [MOBILE, DESKTOP]) {
    await session.page.setViewportSize(size);
    for (const [name, path, heading] of pages) {
      await navigateInApp(session.page, `/userDashboard${path ? `/${path}` : ""}`);
      await waitForDashboardPage(session.page, heading);
      await screenshot(session.page, `${who}-${name}-${size.width}`);
    }
  }
}

/**
 * Names: <page>-<width>.png for the public pages, user-<page>-<width>.png and
 * admin-<page>-<width>.png for the dashboard. Leaves every page at the desktop width.
 */
export async function photographEveryPage({ visitor, user, admin }: { visitor: Session; user: Session; admin: Session }) {
  // Three browser profiles at once: each mostly waits, and the run should stay short.
  await Promise.all([photographPublic(visitor), photographDashboard("user", user, userPages), photographDashboard("admin", admin, adminPages)]);
}
