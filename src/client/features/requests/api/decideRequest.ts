import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { requestsKey, type RequestKind } from "./requestKeys";

export interface Decision {
  kind: RequestKind;
  id: string;
  status: "accepted" | "declined";
}

export const decideRequest = ({ kind, id, status }: Decision) =>
  api<{ msg?: string }>("PUT", `/admin/${kind}/${encodeURIComponent(id)}`, { body: { status }, quiet: true });

/** The spec's "lists reload": the pending list and the history of that kind. */
export function useDecideRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: decideRequest,
    onSettled: (_answer, _error, { kind }) => client.invalidateQueries({ queryKey: requestsKey(kind) }),
  });
}
