import { useQuery } from "@tanstack/react-query";
import { PUBLIC } from "../../../../shared/contract/public";
import { call } from "../../../lib/api";

/**
 * The name of whoever's referral ID `referralId` is (GET /api/referrers/:referralId), for "Joining
 * under Alice Smith (REF123)"; read once per ID and never retried: an unknown ID counts against the
 * visitor's address (docs/rules.md#referrals).
 */
export function useInviter(referralId: string) {
  return useQuery({
    queryKey: ["auth", "inviter", referralId],
    queryFn: ({ signal }) => call(PUBLIC.inviter, { params: { referralId }, signal, quiet: true }),
    enabled: referralId !== "",
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
