import { useQueryClient } from "@tanstack/react-query";
import type { Network } from "../../../../shared/chain";
import { MEMBER } from "../../../../shared/contract/member";
import { type Cents, formatDollars } from "../../../../shared/money";
import { call } from "../../../lib/api";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { myRequestsKey } from "../../myRequests/api/getMyRequests";
import { requestsKey } from "../../requests/api/requestKeys";
import { refreshAfter } from "../../../lib/refresh";

export interface DepositInput {
  /** TRC20 when absent (the server's default). */
  network?: Network;
  address: string;
  transactionId: string;
  amount: Cents;
}

// The amount goes as exact decimal text ("12.50"), never through a float.
export const createDeposit = ({ idempotencyKey, amount, ...input }: DepositInput & Keyed) =>
  call(MEMBER.deposit, { body: { ...input, amount: formatDollars(amount) }, idempotencyKey, quiet: true });

/**
 * A new deposit is pending: the balance is unchanged, but the member's own requests and the
 * admin request lists in this tab are stale.
 */
export function useCreateDeposit() {
  const client = useQueryClient();
  return useMoneyMutation(createDeposit, {
    onSuccess: () => refreshAfter(client, myRequestsKey, requestsKey("deposits")),
  });
}
