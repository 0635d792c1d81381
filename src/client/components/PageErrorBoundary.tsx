import { Component, type ReactNode } from "react";
import { ErrorState } from "./ErrorState";

/**
 * Catches what a dashboard page throws while loading or rendering, so the header and menus
 * stay usable and the reader learns what happened. Without it, a page whose code chunk fails
 * to download (a release replaced the hashed files since the tab was opened) unmounted the
 * whole app and left an empty black screen. The layout keys it by path, so another page
 * starts fresh. Pages without the dashboard around them (login, register) pass a `frame`.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode; frame?: (error: ReactNode) => ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const error = (
      <ErrorState
        title="This page could not be loaded"
        message="The app may have been updated since you opened it. Reload to get the latest version."
        onRetry={() => window.location.reload()}
      />
    );
    return this.props.frame ? this.props.frame(error) : error;
  }
}
