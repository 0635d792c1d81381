import { lazy, Suspense, useEffect, type ComponentType } from "react";
import { Route, Routes, useLocation } from "react-router";
import { DashboardLayout } from "../layout/DashboardLayout";
import { featureRoutes } from "./featureRoutes";
import { RequireAuth } from "./RequireAuth";
import { lazyPage } from "../lib/lazyPage";
import { AuthFrame } from "../../ui/AuthFrame";
import { PageErrorBoundary } from "../components/PageErrorBoundary";
import { PAGES } from "../../shared/pages";

// Every page is its own chunk; the first load carries only the shell (router, layout, guard). The
// dashboard's wait for a server that is away (lazyPage); the signed-out pages have no one to ask.
const LoginPage = lazy(() => import("../features/auth/LoginPage"));
const RegisterPage = lazy(() => import("../features/auth/RegisterPage"));
const ForgotPasswordPage = lazy(() => import("../features/account/ForgotPasswordPage"));
const ResetPasswordPage = lazy(() => import("../features/account/ResetPasswordPage"));
const ConfirmEmailPage = lazy(() => import("../features/account/ConfirmEmailPage"));
const ProfilePage = lazyPage(() => import("../features/profile/ProfilePage"));
const NotificationsPage = lazyPage(() => import("../features/notifications/NotificationsPage"));
const MissedPage = lazyPage(() => import("../features/missed/MissedPage"));
const MemberPage = lazyPage(() => import("../features/users/MemberPage"));
const DashboardNotFound = lazyPage(() => import("../layout/DashboardNotFound"));

/**
 * The client routes. Paths match case-insensitively (react-router's default), so /logIn and
 * /Register reach the same pages the server shells serve.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route path={PAGES.login} element={<AuthPage page={LoginPage} />} />
      <Route path={PAGES.register} element={<AuthPage page={RegisterPage} />} />
      <Route path={PAGES.forgotPassword} element={<AuthPage page={ForgotPasswordPage} />} />
      <Route path={PAGES.resetPassword} element={<AuthPage page={ResetPasswordPage} />} />
      <Route path={PAGES.confirmEmail} element={<AuthPage page={ConfirmEmailPage} />} />
      <Route path={PAGES.dashboard} element={<RequireAuth>{(user) => <DashboardLayout user={user} />}</RequireAuth>}>
        <Route index element={<ProfilePage />} />
        {featureRoutes.map(({ path, page: Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path={PAGES.notifications} element={<NotificationsPage />} />
        <Route path={PAGES.missed} element={<MissedPage />} />
        <Route path={PAGES.adminMember} element={<MemberPage />} />
        <Route path="*" element={<DashboardNotFound />} />
      </Route>
      {/* Any other path belongs to the server (the landing page, its 404 page). */}
      <Route path="*" element={<ServerPage />} />
    </Routes>
  );
}

/** Login, register and the account pages: a skeleton of the card while the page's code loads, an error if it cannot. */
function AuthPage({ page: Page }: { page: ComponentType }) {
  return (
    <PageErrorBoundary frame={(error) => <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">{error}</main>}>
      <Suspense fallback={<AuthFrame busy />}>
        <Page />
      </Suspense>
    </PageErrorBoundary>
  );
}

/** Hands the navigation to the server. No loop: the server serves this app only for the paths above. */
function ServerPage() {
  const { pathname, search, hash } = useLocation();
  useEffect(() => window.location.replace(pathname + search + hash), [pathname, search, hash]);
  return null;
}
