import { useQueryClient } from "@tanstack/react-query";
import type { WithdrawalMethod } from "../../../../shared/constants";
import { MEMBER } from "../../../../shared/contract/member";
import { type Cents, formatDollars } from "../../../../shared/money";
import { call } from "../../../lib/api";
import { meKey } from "../../../lib/me";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { myRequestsKey } from "../../myRequests/api/getMyRequests";
import { requestsKey } from "../../requests/api/requestKeys";
import { refreshAfter } from "../../../lib/refresh";

export interface WithdrawalInput {
  accountType: WithdrawalMethod;
  accountNumber: string;
  amount: Cents;
}

export const createWithdrawal = ({ idempotencyKey, amount, ...input }: WithdrawalInput & Keyed) =>
  call(MEMBER.withdraw, { body: { ...input, amount: formatDollars(amount) }, idempotencyKey, quiet: true });

/**
 * The amount is now held (pendingWithdrawalsTotal), so the user is refreshed as the spec asks,
 * and the member's own requests list the new one.
 */
export function useCreateWithdrawal() {
  const client = useQueryClient();
  return useMoneyMutation(createWithdrawal, {
    onSuccess: () => refreshAfter(client, meKey, myRequestsKey, requestsKey("withdrawals")),
  });
}
