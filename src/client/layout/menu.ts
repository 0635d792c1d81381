import { featureRoutes, type FeatureRoute } from "../app/featureRoutes";

export interface MenuItem {
  /** Absolute path under /userDashboard. */
  to: string;
  label: string;
  icon: string;
  /** Exact match only (the index would otherwise be "active" everywhere). */
  end?: boolean;
}

export const DASHBOARD = "/userDashboard";

/** Profile is the dashboard's index and always first; pages come from featureRoutes. */
const PROFILE: MenuItem = { to: DASHBOARD, label: "Profile", icon: "profile", end: true };

export function menuFor(role: "admin" | "user" | undefined, routes: FeatureRoute[] = featureRoutes): MenuItem[] {
  const pages = routes
    .filter((r) => r.path !== "" && (!r.adminOnly || role === "admin"))
    .map((r) => ({ to: `${DASHBOARD}/${r.path}`, label: r.label, icon: r.icon }));
  return [PROFILE, ...pages];
}
