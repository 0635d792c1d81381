import { lazy, Suspense, useEffect } from "react";
import { Route, Routes, useLocation } from "react-router";
import { DashboardLayout } from "../layout/DashboardLayout";
import { featureRoutes } from "./featureRoutes";
import { RequireAuth } from "./RequireAuth";
import { AuthFrame } from "../features/auth/AuthFrame";

// Every page is its own chunk; the first load carries only the shell (router, layout, guard).
const LoginPage = lazy(() => import("../features/auth/LoginPage"));
const RegisterPage = lazy(() => import("../features/auth/RegisterPage"));
const ProfilePage = lazy(() => import("../features/profile/ProfilePage"));
const DashboardNotFound = lazy(() => import("../layout/DashboardNotFound"));

/**
 * The client routes. Paths match case-insensitively (react-router's default), so /logIn and
 * /Register reach the same pages the server shells serve.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/login"
        element={
          <Suspense fallback={<AuthFrame busy />}>
            <LoginPage />
          </Suspense>
        }
      />
      <Route
        path="/register"
        element={
          <Suspense fallback={<AuthFrame busy />}>
            <RegisterPage />
          </Suspense>
        }
      />
      <Route path="/userDashboard" element={<RequireAuth>{(user) => <DashboardLayout user={user} />}</RequireAuth>}>
        <Route index element={<ProfilePage />} />
        {featureRoutes
          .filter((r) => r.path !== "")
          .map(({ path, page: Page }) => (
            <Route key={path} path={path} element={<Page />} />
          ))}
        <Route path="*" element={<DashboardNotFound />} />
      </Route>
      {/* Any other path belongs to the server (the landing page, its 404 page). */}
      <Route path="*" element={<ServerPage />} />
    </Routes>
  );
}

/** Hands the navigation to the server. No loop: the server serves this app only for the paths above. */
function ServerPage() {
  const { pathname, search, hash } = useLocation();
  useEffect(() => window.location.replace(pathname + search + hash), [pathname, search, hash]);
  return null;
}
