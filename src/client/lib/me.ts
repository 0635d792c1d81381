import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAtomValue } from "jotai";
import { useEffect } from "react";
import { AUTH_REFETCH_MS } from "../../shared/constants";
import { api } from "./api";
import { setToken, tokenAtom } from "./session";

export type LevelStatus = "locked" | "active" | "frozen";

export interface Me {
  _id: string;
  name: string;
  email: string;
  role: "admin" | "user";
  balance: number;
  pendingWithdrawalsTotal: number;
  myReferralId: string;
  referredBy: string | null;
  packages: Record<"3p" | "6p", { levels: { level: number; status: LevelStatus; cycles: number; boxes: string[] }[] }>;
  totalPartners: number;
  directPartners: number;
  createdAt: string;
}

export const meKey = ["auth", "me"] as const;

export const meQuery = (token: string | null) =>
  queryOptions({
    queryKey: meKey,
    queryFn: ({ signal }) => api<Me>("GET", "/auth", { signal }),
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
export const availableBalance = (me: Pick<Me, "balance" | "pendingWithdrawalsTotal">) =>
  Math.round((me.balance - me.pendingWithdrawalsTotal) * 100) / 100;
