import { queryOptions, useQuery } from "@tanstack/react-query";
import { MEMBER } from "../../../../shared/contract/member";
import type { referrer } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type Referrer = Answer<typeof referrer>;

export const referrerQuery = (referralId: string | null) =>
  queryOptions({
    queryKey: ["user", "details", referralId],
    queryFn: ({ signal }) => call(MEMBER.referrer, { params: { referralId: referralId ?? "" }, signal }),
    // Runs only for users who were referred (spec section 7).
    enabled: Boolean(referralId),
    staleTime: 5 * 60_000,
  });

export const useReferrer = (referralId: string | null) => useQuery(referrerQuery(referralId));
