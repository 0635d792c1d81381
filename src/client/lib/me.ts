import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAtomValue } from "jotai";
import { useEffect } from "react";
import { AUTH_REFETCH_MS } from "../../shared/constants";
import { SESSION, type me } from "../../shared/contract/session";
import type { Answer } from "../../shared/contract/wire";
import type { Cents } from "../../shared/money";
import { call } from "./api";
import { setToken, tokenAtom } from "./session";

/** The signed-in member: money in cents, dates as Date (src/shared/contract.ts). */
export type Me = Answer<typeof me>;
export type { LevelStatus } from "../../shared/constants";

export const meKey = ["auth", "me"] as const;

export const meQuery = (token: string | null) =>
  queryOptions({
    queryKey: meKey,
    queryFn: ({ signal }) => call(SESSION.me, { signal }),
    enabled: Boolean(token),
    refetchOnWindowFocus: true,
    refetchInterval: AUTH_REFETCH_MS,
    retry: 1,
  });

/**
 * The signed-in user. Runs only while a token exists; if it fails with a token present the
 * user is signed out (spec section 4).
 */
export function useMe() {
  const token = useAtomValue(tokenAtom);
  const query = useQuery(meQuery(token));
  const client = useQueryClient();
  useEffect(() => {
    if (token && query.isError) {
      setToken(null);
      client.removeQueries({ queryKey: meKey });
    }
  }, [token, query.isError, client]);
  return { ...query, user: token ? query.data : undefined, token };
}

/** Available to withdraw or spend: balance minus pending withdrawals. */
export const availableBalance = (me: Pick<Me, "balance" | "pendingWithdrawalsTotal">): Cents => me.balance - me.pendingWithdrawalsTotal;
