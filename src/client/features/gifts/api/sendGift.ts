import { useQueryClient } from "@tanstack/react-query";
import { MEMBER } from "../../../../shared/contract/member";
import { type Cents, formatDollars } from "../../../../shared/money";
import { call } from "../../../lib/api";
import { meKey } from "../../../lib/me";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { transactionsKey } from "../../transactions/api/getTransactions";
import { refreshAfter } from "../../../lib/refresh";

/** The recipient by the `_id` of a search result (its email is masked), or by a whole email: one of the two. */
export interface GiftInput {
  amount: Cents;
  recipientId?: string;
  recipientEmail?: string;
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
