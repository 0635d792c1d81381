import { useQueryClient } from "@tanstack/react-query";
import { MEMBER } from "../../../../shared/contract/member";
import { type Cents, formatDollars } from "../../../../shared/money";
import { call } from "../../../lib/api";
import { meKey } from "../../../lib/me";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { transactionsKey } from "../../transactions/api/getTransactions";
import { refreshAfter } from "../../../lib/refresh";

export interface GiftInput {
  amount: Cents;
  recipientEmail: string;
}

export const sendGift = ({ idempotencyKey, amount, ...input }: GiftInput & Keyed) =>
  call(MEMBER.gift, { body: { ...input, amount: formatDollars(amount) }, idempotencyKey, quiet: true });

/** A gift leaves the sender's balance at once, so the header balance and statement refetch. */
export function useSendGift() {
  const client = useQueryClient();
  return useMoneyMutation(sendGift, {
    onSuccess: () => refreshAfter(client, meKey, transactionsKey()),
  });
}
