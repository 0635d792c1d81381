import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LoginInput } from "../../../../shared/schemas";
import { AUTH } from "../../../../shared/contract/auth";
import { call } from "../../../lib/api";
import { meQuery } from "../../../lib/me";
import { setToken } from "../../../lib/session";

export const login = (input: LoginInput) => call(AUTH.login, { body: input, quiet: true });

/**
 * Stores the token and refreshes the current user before resolving, so the dashboard opens
 * with the user already loaded. Whatever was cached for a previous account is dropped first.
 */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: async ({ token }) => {
      client.clear();
      setToken(token);
      await client.prefetchQuery(meQuery(token));
    },
  });
}
