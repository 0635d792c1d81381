import { useQueryClient } from "@tanstack/react-query";
import type { Decision as Status } from "../../../../shared/constants";
import { ADMIN } from "../../../../shared/contract/admin";
import { call } from "../../../lib/api";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { requestsKey, type RequestKind } from "./requestKeys";
import { usersKey } from "../../users/api/getUsers";

export interface Decision {
  kind: RequestKind;
  id: string;
  status: Status;
  /** Words to the member with a decline; sent only when given. */
  reason?: string;
  /** Accepting a withdrawal: the payout's transaction ID; sent only when given. */
  transactionId?: string;
}

export const decideRequest = ({ kind, id, status, reason, transactionId, idempotencyKey }: Decision & Keyed) =>
  call(kind === "deposits" ? ADMIN.decideDeposit : ADMIN.decideWithdrawal, {
    params: { id },
    body: { status, ...(reason ? { reason } : {}), ...(transactionId ? { transactionId } : {}) },
    idempotencyKey,
    quiet: true,
  });

/** The spec's "lists reload": the pending list and the history of that kind, and the users list (a decision moves a member's balance). */
export function useDecideRequest() {
  const client = useQueryClient();
  return useMoneyMutation(decideRequest, {
    onSettled: (_answer, _error, { kind }) => Promise.all([client.invalidateQueries({ queryKey: requestsKey(kind) }), client.invalidateQueries({ queryKey: usersKey() })]),
  });
}
