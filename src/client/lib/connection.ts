import { atom, useAtomValue } from "jotai";
import { store } from "./session";

/**
 * Whether the server can be reached, in one place for the whole client. The API client and the
 * live stream report each try: no answer at all, or a gateway's 502/503/504, means it cannot;
 * any other answer (a refusal too) means it can. The dashboard shows the banner and marks its
 * figures as not current while it cannot, and reads everything again once it can.
 */
export const connectionLostAtom = atom(false);

/**
 * The server's build differs from the one this page loaded (`BUILD_HEADER`): a reload brings
 * the new one. Never set by a reconnection alone.
 */
export const appUpdatedAtom = atom(false);

export const connectionLost = () => store.get(connectionLostAtom);
export const reportUnreachable = () => store.set(connectionLostAtom, true);
export const reportReached = () => store.set(connectionLostAtom, false);

/**
 * An answer that says the server itself is away: a proxy's 502 or 504, or a 503 (a proxy's, or
 * ours while the database does not answer), except the one about a blockchain node.
 */
export const unreachableStatus = (status: number, code?: string) =>
  status === 502 || status === 504 || (status === 503 && code !== "chain_unavailable");

/** The build this page runs: the dashboard entry's URL, as the server's shell wrote it. */
function pageBuild(): string | null {
  if (typeof document === "undefined") return null;
  return document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute("src") ?? null;
}

/** Compares the build an answer names with this page's; only a real difference counts. */
export function noteServerBuild(build: string | null) {
  if (!build) return;
  const mine = pageBuild();
  if (mine && mine !== build) store.set(appUpdatedAtom, true);
}

/** Back to "reached, same build": for tests, which share one store. */
export function resetConnection() {
  store.set(connectionLostAtom, false);
  store.set(appUpdatedAtom, false);
}

/** Resolves once the server is reported reached again (at once if it is), or when `signal` aborts. */
export function whenReached(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (!connectionLost() || signal?.aborted) return resolve();
    const done = () => {
      stop();
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const stop = store.sub(connectionLostAtom, () => {
      if (!connectionLost()) done();
    });
    signal?.addEventListener("abort", done);
  });
}

export const useConnectionLost = () => useAtomValue(connectionLostAtom);
export const useAppUpdated = () => useAtomValue(appUpdatedAtom);
