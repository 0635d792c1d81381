import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { meKey } from "../../../lib/me";
import { transactionsKey } from "../../transactions/api/getTransactions";

export interface GiftInput {
  amount: number;
  recipientEmail: string;
}

export const sendGift = (input: GiftInput) => api<{ msg?: string }>("POST", "/user/gift", { body: input, quiet: true });

/** A gift leaves the sender's balance at once, so the header balance and statement refetch. */
export function useSendGift() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: sendGift,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: meKey }), client.invalidateQueries({ queryKey: transactionsKey() })]),
  });
}
