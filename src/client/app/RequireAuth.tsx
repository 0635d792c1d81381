import { atom, useAtomValue } from "jotai";
import { useEffect } from "react";
import toast from "react-hot-toast";
import { Navigate, useLocation } from "react-router";
import { PAGES, SIGNED_OUT_REDIRECT } from "../../shared/pages";
import { FullScreenLoader } from "../../ui/FullScreenLoader";
import { ConnectionBanner } from "../layout/ConnectionBanner";
import { useMe, type Me } from "../lib/me";

export const AUTH_REQUIRED = "You must be logged in to access this page!";

/**
 * True while the user is deliberately signing out. The token disappears at once (a sync
 * store update) while the move to /login is a router transition that renders later, so for a
 * moment the guard sees "no token": this tells it not to call that a stranger's visit.
 */
export const signingOutAtom = atom(false);

/** Where the login page sends the user back to: only our own dashboard paths. */
export interface FromState {
  from?: string;
}

/**
 * The gate of /userDashboard. No token: off to /logIn with the origin remembered and the
 * spec's toast. Token but no user yet: the full-screen loader (useMe signs out by itself when
 * the server answers 401, which lands here again without a token; while the server cannot be
 * reached the loader stays, with the banner that says so, until it answers).
 */
export function RequireAuth({ children }: { children: (user: Me) => React.ReactNode }) {
  const { user, token, unreachable } = useMe();
  const location = useLocation();
  const signingOut = useAtomValue(signingOutAtom);

  if (!token && signingOut) return <Navigate to={PAGES.login} replace />;
  if (!token) return <RedirectToLogin from={location.pathname + location.search + location.hash} />;
  if (!user) {
    return (
      <>
        <FullScreenLoader />
        {unreachable && <ConnectionBanner overlay />}
      </>
    );
  }
  return <>{children(user)}</>;
}

function RedirectToLogin({ from }: { from: string }) {
  useEffect(() => {
    // A fixed id: React StrictMode and quick re-renders must not stack two copies.
    toast.error(AUTH_REQUIRED, { id: "auth-required" });
  }, []);
  return <Navigate to={SIGNED_OUT_REDIRECT} replace state={{ from } satisfies FromState} />;
}
