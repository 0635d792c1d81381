import { useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { requestsKey } from "../../requests/api/requestKeys";

export interface DepositInput {
  address: string;
  transactionId: string;
  amount: number;
}

export const createDeposit = ({ idempotencyKey, ...input }: DepositInput & Keyed) =>
  api<{ msg?: string }>("POST", "/user/deposit", { body: input, idempotencyKey, quiet: true });

/** A new deposit is pending: the balance is unchanged, but admin request lists in this tab are stale. */
export function useCreateDeposit() {
  const client = useQueryClient();
  return useMoneyMutation(createDeposit, {
    onSuccess: () => client.invalidateQueries({ queryKey: requestsKey("deposits") }),
  });
}
