import { Component, type ReactNode } from "react";
import { useAppUpdated, useConnectionLost } from "../lib/connection";
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
    return this.props.frame ? this.props.frame(<PageFailure />) : <PageFailure />;
  }
}

/** The words of each cause, for tests and for anyone who changes them. */
export const PAGE_FAILURE = {
  updated: "The app was updated since you opened it. Reload to get the latest version.",
  lost: "The connection to the server is lost. Nothing is lost; try again once it is back.",
  other: "Something went wrong while loading it. Try again: the page is loaded afresh.",
} as const;

/**
 * Says "updated" only when an answer named another build than this page's (lib/connection.ts),
 * and "connection lost" while the server cannot be reached: a page missing for either reason
 * looks the same from here.
 */
function PageFailure() {
  const updated = useAppUpdated();
  const lost = useConnectionLost();
  const message = updated ? PAGE_FAILURE.updated : lost ? PAGE_FAILURE.lost : PAGE_FAILURE.other;
  return <ErrorState title="This page could not be loaded" message={message} onRetry={() => window.location.reload()} />;
}
