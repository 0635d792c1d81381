import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAtomValue } from "jotai";
import { useEffect } from "react";
import { AUTH_REFETCH_MS } from "../../shared/constants";
import { SESSION, type me } from "../../shared/contract/session";
import type { Answer } from "../../shared/contract/wire";
import type { Cents } from "../../shared/money";
import { ApiError, call } from "./api";
import { setToken, tokenAtom } from "./session";

/** The signed-in member: money in cents, dates as Date (src/shared/contract.ts). */
export type Me = Answer<typeof me>;
export type { LevelStatus } from "../../shared/constants";

export const meKey = ["auth", "me"] as const;

/** The only failure that ends a session: the server said 401 (no token, expired, revoked, forged). */
export const endsSession = (error: unknown) => error instanceof ApiError && error.status === 401;

/** Longest wait between two tries while the server cannot be reached. */
export const ME_RETRY_MAX_MS = 10_000;

export const meQuery = (token: string | null) =>
  queryOptions({
    queryKey: meKey,
    // Quiet: a server that is away is said once, by the banner, not by a toast per try.
    queryFn: ({ signal }) => call(SESSION.me, { signal, quiet: true }),
    enabled: Boolean(token),
    refetchOnWindowFocus: true,
    refetchInterval: AUTH_REFETCH_MS,
    // A network error, a restarting server, a 5xx: tried again (1 s, 2 s, 4 s... at most 10 s)
    // for as long as it takes. Only a 401 stops, and signs out.
    retry: (_failures, error) => !endsSession(error),
    retryDelay: (failures) => Math.min(1000 * 2 ** failures, ME_RETRY_MAX_MS),
  });

/**
 * The signed-in user. Runs only while a token exists. Only a 401 signs the user out; any other
 * failure keeps the session (and the user last loaded) and is retried: `unreachable` is true
 * while the latest try failed that way (the guard's banner over its loader, before the first
 * answer; the dashboard's own follows lib/connection.ts).
 */
export function useMe() {
  const token = useAtomValue(tokenAtom);
  const query = useQuery(meQuery(token));
  const client = useQueryClient();
  const failure = query.failureReason ?? query.error;
  const expired = Boolean(token) && endsSession(failure);
  useEffect(() => {
    if (expired) {
      setToken(null);
      client.removeQueries({ queryKey: meKey });
    }
  }, [expired, client]);
  return { ...query, user: token ? query.data : undefined, token, unreachable: Boolean(token) && failure != null && !expired };
}

/** Available to withdraw or spend: balance minus pending withdrawals. */
export const availableBalance = (me: Pick<Me, "balance" | "pendingWithdrawalsTotal">): Cents => me.balance - me.pendingWithdrawalsTotal;
