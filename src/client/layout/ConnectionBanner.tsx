import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Icon } from "../../ui/icons";
import { connectionLost, connectionLostAtom, useAppUpdated, useConnectionLost } from "../lib/connection";
import { meKey } from "../lib/me";
import { store } from "../lib/session";

/** The words of the banners, for tests and for anyone who changes them. */
export const CONNECTION_LOST = "Connection lost. Nothing is lost; figures may not be current until it's back. Reconnecting...";
export const RECONNECTED = "Connection is back.";
export const APP_UPDATED = "A new version of the app is available.";
/** How long "Connection is back." stays. */
export const RECONNECTED_MS = 4_000;

const bar = "flex items-center justify-center gap-2 border-b px-4 py-2 text-center text-sm";

/**
 * The connection-lost line. `overlay`: above the full-screen loader, before the first answer
 * (the guard shows it while the current user cannot be read).
 */
export function ConnectionBanner({ overlay = false }: { overlay?: boolean }) {
  const place = overlay ? "fixed inset-x-0 top-0 z-60" : "";
  return (
    <div role="status" className={`${place} ${bar} border-pending/40 bg-ink-deep text-pending`}>
      <Icon name="alert" />
      <span>{CONNECTION_LOST}</span>
    </div>
  );
}

/**
 * The dashboard's word on the connection, in a polite live region that is always there (so both
 * the loss and the return are announced): the banner while the server cannot be reached, then
 * "Connection is back." for a moment. It also does what an outage asks of the dashboard
 * (useReconnection).
 */
export function ConnectionStatus() {
  useReconnection();
  const lost = useConnectionLost();
  // "Back" from the moment `lost` turns false (adjusted while rendering: no effect to run twice).
  const [seen, setSeen] = useState(lost);
  const [back, setBack] = useState(false);
  if (seen !== lost) {
    setSeen(lost);
    setBack(!lost);
  }
  useEffect(() => {
    if (!back) return;
    const timer = setTimeout(() => setBack(false), RECONNECTED_MS);
    return () => clearTimeout(timer);
  }, [back]);
  return (
    <div role="status" aria-live="polite">
      {lost ? (
        <p className={`m-0 ${bar} border-pending/40 bg-ink-deep text-pending`}>
          <Icon name="alert" />
          <span>{CONNECTION_LOST}</span>
        </p>
      ) : (
        back && (
          <p className={`m-0 ${bar} border-accepted/40 bg-ink-deep text-accepted`}>
            <Icon name="check" />
            <span>{RECONNECTED}</span>
          </p>
        )
      )}
    </div>
  );
}

/**
 * Shown once an answer names another build than the one this page runs (lib/connection.ts): a
 * reload brings it. A reconnection to the same build never shows it.
 */
export function AppUpdatedBanner() {
  const updated = useAppUpdated();
  if (!updated) return null;
  return (
    <div role="status" className={`${bar} flex-wrap border-line/60 bg-ink-deep`}>
      <span>{APP_UPDATED}</span>
      <button type="button" className="btn-secondary btn-sm" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}

/**
 * The dashboard's side of an outage. When the connection is lost, the current user's query is
 * asked again: it keeps trying until the server answers (lib/me.ts), so the way back is noticed
 * even when nothing else is running. When it is back, every query is read again: figures shown
 * during the outage are replaced without a reload.
 */
export function useReconnection() {
  const client = useQueryClient();
  useEffect(
    () =>
      store.sub(connectionLostAtom, () => {
        if (!connectionLost()) void client.invalidateQueries();
        else if (client.getQueryState(meKey)?.fetchStatus !== "fetching") void client.refetchQueries({ queryKey: meKey });
      }),
    [client],
  );
}
