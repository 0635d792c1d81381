import { type ComponentType, lazy } from "react";
import { SESSION } from "../../shared/contract/session";
import { call } from "./api";
import { connectionLost, whenReached } from "./connection";

/**
 * React.lazy for a dashboard page: code that could not be downloaded because the server is away
 * is fetched again once it is back, and the page then opens without a reload (the spinner and the
 * connection banner show meanwhile). A failure while the server answers is the page's error
 * (components/PageErrorBoundary.tsx).
 */
export function lazyPage<T extends ComponentType>(load: () => Promise<{ default: T }>) {
  return lazy(() => loadWhenReachable(load));
}

/** `load`, tried again each time the server comes back after it failed with the server away. */
export async function loadWhenReachable<T>(load: () => Promise<T>, away: () => Promise<boolean> = serverAway): Promise<T> {
  for (;;) {
    try {
      return await load();
    } catch (error) {
      if (!(await away())) throw error;
      await whenReached();
    }
  }
}

/**
 * Asks the server who is signed in, quietly: the API client reports whether it answered, and
 * which build it serves (lib/connection.ts), which is all this needs to know.
 */
async function serverAway(): Promise<boolean> {
  await call(SESSION.me, { quiet: true }).catch(() => {});
  return connectionLost();
}
