import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  ACCOUNT,
  type ChangePasswordInput,
  type EmailChangeInput,
  type ForgotPasswordInput,
  type ProfileInput,
  type ResetPasswordInput,
} from "../../../../shared/contract/account";
import { call } from "../../../lib/api";
import { meKey } from "../../../lib/me";
import { setToken } from "../../../lib/session";

/*
 * The member's own account (docs/rules.md#account-recovery-and-mail). Every call is quiet: each
 * form shows a refusal at its field, or as one toast, itself.
 */

export const useForgotPassword = () => useMutation({ mutationFn: (input: ForgotPasswordInput) => call(ACCOUNT.forgotPassword, { body: input, quiet: true }) });

export const useResetPassword = () => useMutation({ mutationFn: (input: ResetPasswordInput) => call(ACCOUNT.resetPassword, { body: input, quiet: true }) });

export const useConfirmEmail = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call(ACCOUNT.confirmEmail, { body: { token }, quiet: true }),
    // Signed in in this browser: the banner and the profile show the address as it is now.
    onSuccess: () => client.invalidateQueries({ queryKey: meKey }),
  });
};

/** The other sessions end; this one goes on with the token the answer carries. */
export function useChangePassword() {
  return useMutation({
    mutationFn: async (input: ChangePasswordInput) => {
      const answer = await call(ACCOUNT.changePassword, { body: input, quiet: true });
      setToken(answer.token);
      return answer;
    },
  });
}

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => call(ACCOUNT.updateProfile, { body: input, quiet: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: meKey }),
  });
}

export const useChangeEmail = () => useMutation({ mutationFn: (input: EmailChangeInput) => call(ACCOUNT.changeEmail, { body: input, quiet: true }) });

/** The banner's "send again" (loaded when clicked: the dashboard's first load does not carry this area). */
export const resendVerification = () => call(ACCOUNT.resendVerification, { quiet: true });
