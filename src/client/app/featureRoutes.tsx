import type { ComponentType, LazyExoticComponent } from "react";

/**
 * The dashboard pages under /userDashboard, in menu order. The shell (router, sidebar, mobile
 * tab bar, admin drawer) is built from this list, so a page is added here and nowhere else.
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

export const featureRoutes: FeatureRoute[] = [];
