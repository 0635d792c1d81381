import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AUTH, type TwoFactorChangeInput, type TwoFactorSetupInput } from "../../../../shared/contract/auth";
import { call } from "../../../lib/api";
import { setToken } from "../../../lib/session";

/** The caller's second factor: on or off, required of them or not, recovery codes left. */
export const twoFactorKey = ["auth", "2fa"] as const;

export const twoFactorQuery = () =>
  queryOptions({
    queryKey: twoFactorKey,
    queryFn: ({ signal }) => call(AUTH.twoFactorStatus, { signal }),
  });

/** Read once after a login: whether an admin must still turn 2FA on (ADMIN_REQUIRE_2FA). */
export const getTwoFactorStatus = () => call(AUTH.twoFactorStatus, { quiet: true });

export const useTwoFactorStatus = () => useQuery(twoFactorQuery());

/** A new secret and its otpauth:// URL (the QR code), replacing any earlier offer; the current password proves the member. */
export const useBeginSetup = () => useMutation({ mutationFn: (input: TwoFactorSetupInput) => call(AUTH.twoFactorSetup, { body: input, quiet: true }) });

/**
 * Turns 2FA on with a code from the app; answers the recovery codes, shown once. Every other
 * session ends: this one goes on with the token the answer carries.
 */
export function useEnableTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: TwoFactorChangeInput) => {
      const answer = await call(AUTH.twoFactorEnable, { body: input, quiet: true });
      setToken(answer.token);
      return answer;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

export function useDisableTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TwoFactorChangeInput) => call(AUTH.twoFactorDisable, { body: input, quiet: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: twoFactorKey }),
  });
}
