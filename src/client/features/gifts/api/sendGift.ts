import { useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { meKey } from "../../../lib/me";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { transactionsKey } from "../../transactions/api/getTransactions";

export interface GiftInput {
  amount: number;
  recipientEmail: string;
}

export const sendGift = ({ idempotencyKey, ...input }: GiftInput & Keyed) =>
  api<{ msg?: string }>("POST", "/user/gift", { body: input, idempotencyKey, quiet: true });

/** A gift leaves the sender's balance at once, so the header balance and statement refetch. */
export function useSendGift() {
  const client = useQueryClient();
  return useMoneyMutation(sendGift, {
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: meKey }), client.invalidateQueries({ queryKey: transactionsKey() })]),
  });
}
