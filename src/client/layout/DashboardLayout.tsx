import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { Outlet, useLocation } from "react-router";
import { PageErrorBoundary } from "../components/PageErrorBoundary";
import { Spinner } from "../components/Spinner";
import { brand } from "../../ui/content";
import { isPage } from "../../shared/pages";
import { useMe, type Me } from "../lib/me";
import { useLiveEvents } from "../lib/liveEvents";
import { BottomTabs } from "./BottomTabs";
import { AppUpdatedBanner, ConnectionStatus } from "./ConnectionBanner";
import { Header } from "./Header";
import { menuFor } from "./menu";
import { Sidebar } from "./Sidebar";
import { VerifyEmailBanner } from "./VerifyEmailBanner";

// Only admins have the drawer (their menu is too long for tabs): members never download it.
const AdminDrawer = lazy(() => import("./AdminDrawer").then((m) => ({ default: m.AdminDrawer })));

/** The signed-in frame: sidebar (desktop), header, the page, and the mobile menu for the role. */
export function DashboardLayout({ user }: { user: Me }) {
  const isAdmin = user.role === "admin";
  const items = useMemo(() => menuFor(user.role), [user.role]);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  const { token } = useMe();
  useLiveEvents(token, isAdmin);

  useEffect(() => {
    const current = items.find((i) => isPage(pathname, i.to));
    document.title = `${current?.label ?? "Dashboard"} | ${brand.name}`;
  }, [items, pathname]);

  return (
    <div className="flex min-h-screen overflow-x-clip bg-ink">
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 btn-primary">
        Skip to content
      </a>
      <Sidebar items={items} />
      <div className="flex min-w-0 flex-1 flex-col">
        {/* The connection's word comes first: while it is lost, what follows may not be current. */}
        <ConnectionStatus />
        <AppUpdatedBanner />
        {user.emailVerified === false && <VerifyEmailBanner email={user.email} />}
        <Header user={user} onOpenMenu={isAdmin ? () => setDrawerOpen(true) : undefined} menuOpen={drawerOpen} />
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none sm:px-6 lg:py-8">
          <PageErrorBoundary key={pathname}>
            <Suspense fallback={<Spinner label="Loading, please wait..." />}>
              <Outlet />
            </Suspense>
          </PageErrorBoundary>
        </main>
        <footer className={`border-t border-line-subtle px-4 py-4 text-center text-xs muted sm:px-6 ${isAdmin ? "" : "mb-20 lg:mb-0" /* room for the tab bar */}`}>
          {`© ${brand.copyrightYear} ${brand.name}. All rights reserved.`}
        </footer>
      </div>
      {isAdmin ? (
        <Suspense fallback={null}>
          <AdminDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} items={items} />
        </Suspense>
      ) : (
        <BottomTabs items={items} />
      )}
    </div>
  );
}
