import { useMutation, useQuery } from "@tanstack/react-query";
import type { RegisterInput } from "../../../../shared/schemas";
import { AUTH } from "../../../../shared/contract/auth";
import { call } from "../../../lib/api";

export const register = (input: RegisterInput) => call(AUTH.register, { body: input, quiet: true });

export const useRegister = () => useMutation({ mutationFn: register });

/** The admin's referral ID, fetched once per page visit when no ?ref was given. */
export function useAdminReferralId(enabled: boolean) {
  return useQuery({
    queryKey: ["auth", "admin-referral-id"],
    queryFn: ({ signal }) => call(AUTH.adminReferralId, { signal }),
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}
