import { useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { usersKey } from "./getUsers";

export interface SystemGiftInput {
  userId: string;
  amount: number;
}

export const giftFromSystem = ({ userId, amount, idempotencyKey }: SystemGiftInput & Keyed) =>
  api<{ msg?: string }>("POST", `/admin/users/${encodeURIComponent(userId)}/gift`, { body: { amount }, idempotencyKey, quiet: true });

/** The recipient's balance in the user table changes. */
export function useGiftFromSystem() {
  const client = useQueryClient();
  return useMoneyMutation(giftFromSystem, {
    onSuccess: () => client.invalidateQueries({ queryKey: usersKey() }),
  });
}
