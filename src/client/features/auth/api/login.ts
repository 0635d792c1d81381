import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LoginInput } from "../../../../shared/schemas";
import { AUTH, type LoginTwoFactorInput } from "../../../../shared/contract/auth";
import { call } from "../../../lib/api";
import { meQuery } from "../../../lib/me";
import { setToken } from "../../../lib/session";

export const login = (input: LoginInput) => call(AUTH.login, { body: input, quiet: true });
export const loginTwoFactor = (input: LoginTwoFactorInput) => call(AUTH.loginTwoFactor, { body: input, quiet: true });

/** What a login step ends with: signed in, or (2FA on) a ticket for the code step. */
export type LoginOutcome = { signedIn: true } | { signedIn: false; ticket: string };

/**
 * Stores the token and refreshes the current user before resolving, so the dashboard opens
 * with the user already loaded. Whatever was cached for a previous account is dropped first.
 */
function useSignIn() {
  const client = useQueryClient();
  return async (token: string) => {
    client.clear();
    setToken(token);
    await client.prefetchQuery(meQuery(token));
  };
}

/** The password step: signed in, or, with 2FA on, a ticket for `useLoginTwoFactor`. */
export function useLogin() {
  const signIn = useSignIn();
  return useMutation({
    mutationFn: async (input: LoginInput): Promise<LoginOutcome> => {
      const answer = await login(input);
      if ("token" in answer) {
        await signIn(answer.token);
        return { signedIn: true };
      }
      return { signedIn: false, ticket: answer.ticket };
    },
  });
}

/** The code step: the ticket of the password step and a code from the app (or a recovery code). */
export function useLoginTwoFactor() {
  const signIn = useSignIn();
  return useMutation({
    mutationFn: async (input: LoginTwoFactorInput) => {
      const { token } = await loginTwoFactor(input);
      await signIn(token);
    },
  });
}
