import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { usersKey } from "./getUsers";

export interface SystemGiftInput {
  userId: string;
  amount: number;
}

export const giftFromSystem = ({ userId, amount }: SystemGiftInput) =>
  api<{ msg?: string }>("POST", `/admin/users/${encodeURIComponent(userId)}/gift`, { body: { amount }, quiet: true });

/** The recipient's balance in the user table changes. */
export function useGiftFromSystem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: giftFromSystem,
    onSuccess: () => client.invalidateQueries({ queryKey: usersKey() }),
  });
}
