import { useQueryClient } from "@tanstack/react-query";
import { MEMBER } from "../../../../shared/contract/member";
import { call } from "../../../lib/api";
import { meKey } from "../../../lib/me";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { refreshAfter } from "../../../lib/refresh";
import { requestsKey } from "../../requests/api/requestKeys";
import { myRequestsKey } from "./getMyRequests";

/** The member's own pending withdrawal, cancelled: its hold is released at once (docs/rules.md#withdrawals). */
export const cancelWithdrawal = ({ id, idempotencyKey }: { id: string } & Keyed) =>
  call(MEMBER.cancelWithdrawal, { params: { id }, idempotencyKey, quiet: true });

/**
 * Sent like every money call, with an Idempotency-Key: a retry after a lost answer is replayed,
 * not refused as already processed. The balance (the hold is gone) and every list of requests are
 * read again, the admin's included; after a refusal too (an admin decided it first: the list
 * shows how).
 */
export function useCancelWithdrawal() {
  const client = useQueryClient();
  const refresh = () => refreshAfter(client, meKey, myRequestsKey, requestsKey("withdrawals"));
  return useMoneyMutation(cancelWithdrawal, { onSuccess: refresh, onError: () => void refresh() });
}
