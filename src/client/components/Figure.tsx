import type { ReactNode } from "react";
import { useConnectionLost } from "../lib/connection";

/** What a dimmed figure says on hover. */
export const NOT_CURRENT = "Not current: the connection to the server is lost.";

/**
 * A figure read from the server (a balance, a total). While the connection is lost it is dimmed,
 * says so on hover and to screen readers, since it may have changed since; otherwise it is
 * rendered as it is, with nothing around it.
 */
export function Figure({ children }: { children: ReactNode }) {
  const lost = useConnectionLost();
  if (!lost) return <>{children}</>;
  return (
    <span className="opacity-55" title={NOT_CURRENT} data-not-current="">
      {children}
      <span className="sr-only"> (not current)</span>
    </span>
  );
}
