import { useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { requestsKey, type RequestKind } from "./requestKeys";

export interface Decision {
  kind: RequestKind;
  id: string;
  status: "accepted" | "declined";
}

export const decideRequest = ({ kind, id, status, idempotencyKey }: Decision & Keyed) =>
  api<{ msg?: string }>("PUT", `/admin/${kind}/${encodeURIComponent(id)}`, { body: { status }, idempotencyKey, quiet: true });

/** The spec's "lists reload": the pending list and the history of that kind. */
export function useDecideRequest() {
  const client = useQueryClient();
  return useMoneyMutation(decideRequest, {
    onSettled: (_answer, _error, { kind }) => client.invalidateQueries({ queryKey: requestsKey(kind) }),
  });
}
