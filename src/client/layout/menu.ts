import type { Role } from "../../shared/constants";
import { PAGES, type PagePath } from "../../shared/pages";
import type { IconName } from "../../ui/icons";
import { featureRoutes, type FeatureRoute } from "../app/featureRoutes";

export interface MenuItem {
  to: PagePath;
  label: string;
  icon: IconName;
  /** Exact match only (the index would otherwise be "active" everywhere). */
  end?: boolean;
}

/** Profile is the dashboard's index and always first; pages come from featureRoutes. */
const PROFILE: MenuItem = { to: PAGES.dashboard, label: "Profile", icon: "profile", end: true };
/** Last in every menu: the public page on slots, cycles and fees (the router hands it to the server). */
const HOW_IT_WORKS: MenuItem = { to: PAGES.howItWorks, label: "How it works", icon: "help" };

export function menuFor(role: Role | undefined, routes: FeatureRoute[] = featureRoutes): MenuItem[] {
  const pages = routes.filter((r) => !r.adminOnly || role === "admin").map((r) => ({ to: r.path, label: r.label, icon: r.icon }));
  return [PROFILE, ...pages, HOW_IT_WORKS];
}
