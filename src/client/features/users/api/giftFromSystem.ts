import { useQueryClient } from "@tanstack/react-query";
import { ADMIN } from "../../../../shared/contract/admin";
import { type Cents, formatDollars } from "../../../../shared/money";
import { call } from "../../../lib/api";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { usersKey } from "./getUsers";

export interface SystemGiftInput {
  userId: string;
  amount: Cents;
}

export const giftFromSystem = ({ userId, amount, idempotencyKey }: SystemGiftInput & Keyed) =>
  call(ADMIN.adminGift, { params: { id: userId }, body: { amount: formatDollars(amount) }, idempotencyKey, quiet: true });

/** The recipient's balance in the user table changes. */
export function useGiftFromSystem() {
  const client = useQueryClient();
  return useMoneyMutation(giftFromSystem, {
    onSuccess: () => client.invalidateQueries({ queryKey: usersKey() }),
  });
}
