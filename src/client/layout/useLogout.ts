import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { LOGOUT_DIALOG_MS } from "../../shared/constants";
import { PAGES } from "../../shared/pages";
import { SESSION } from "../../shared/contract/session";
import { call } from "../lib/api";
import { setToken, store } from "../lib/session";
import { signingOutAtom } from "../app/RequireAuth";

/**
 * sweetalert2 is loaded on demand: it is needed only when someone signs out, so it stays out
 * of the dashboard's first load. `preloadLogout` warms it when the pointer nears the button.
 */
const loadDialogs = () => Promise.all([import("../lib/confirm"), import("sweetalert2")]);
export const preloadLogout = () => void loadDialogs().catch(() => {});

/** The spec's logout flow: confirm, POST /api/auth/logout, 2-second success dialog, /login. */
export function useLogout() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [pending, setPending] = useState(false);

  const logout = useCallback(async () => {
    const [{ confirmAction }, { default: Swal }] = await loadDialogs();
    const confirmed = await confirmAction({ title: "Are you sure?", text: "Do you want to log out?", confirmText: "Yes, logout!" });
    if (!confirmed) return;
    setPending(true);
    // An opaque panel: sweetalert masks parts of its success icon with the popup colour.
    const look = { theme: "dark" as const, buttonsStyling: false, customClass: { popup: "card bg-panel", confirmButton: "btn btn-primary" } };
    try {
      await call(SESSION.logout, { quiet: true });
    } catch (error) {
      setPending(false);
      const text = error instanceof Error && error.message ? error.message : "Something went wrong.";
      await Swal.fire({ ...look, icon: "error", title: "Error!", text });
      return;
    }
    // Sign out at once (token, cached user) and leave for /login; the success dialog then
    // shows for 2 seconds over the login page. Doing it the other way round would leave a
    // revoked token in place for 2 seconds, and a background refetch would hit a 401 mid-dialog.
    store.set(signingOutAtom, true);
    navigate(PAGES.login, { replace: true });
    setToken(null);
    client.clear();
    await Swal.fire({
      ...look,
      icon: "success",
      title: "Logged Out!",
      text: "You have successfully logged out.",
      timer: LOGOUT_DIALOG_MS,
      showConfirmButton: false,
    });
    store.set(signingOutAtom, false);
  }, [navigate, client]);

  return { logout, pending };
}
