import type { QueryClient, QueryKey } from "@tanstack/react-query";

/** How long an action's success waits for the data it changed to be read again. */
export const REFRESH_WAIT_MS = 2_000;

/**
 * Marks the queries of `keys` stale and reads them again; resolves once they are read, or after
 * REFRESH_WAIT_MS, whichever comes first. What an action's onSuccess returns: its success is
 * shown with the new figures when the server answers at once, and never waits on a server that
 * went away right after answering (the current user's query tries again for as long as it takes,
 * and the success, the member's one word that the action was done, would never come).
 */
export function refreshAfter(client: QueryClient, ...keys: QueryKey[]): Promise<unknown> {
  const read = Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
  return Promise.race([read, new Promise((resolve) => setTimeout(resolve, REFRESH_WAIT_MS))]);
}
