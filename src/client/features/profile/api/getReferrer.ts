import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";

export interface Referrer {
  name: string;
  myReferralId: string;
}

export const referrerQuery = (referralId: string | null) =>
  queryOptions({
    queryKey: ["user", "details", referralId],
    queryFn: ({ signal }) => api<Referrer>("GET", `/user/details/${encodeURIComponent(referralId ?? "")}`, { signal }),
    // Runs only for users who were referred (spec section 7).
    enabled: Boolean(referralId),
    staleTime: 5 * 60_000,
  });

export const useReferrer = (referralId: string | null) => useQuery(referrerQuery(referralId));
