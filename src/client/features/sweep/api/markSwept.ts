import { useQueryClient } from "@tanstack/react-query";
import type { Network } from "../../../../shared/chain";
import { ADMIN } from "../../../../shared/contract/admin";
import { call } from "../../../lib/api";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { refreshAfter } from "../../../lib/refresh";
import { sweepKey } from "./getSweepList";

export interface MarkSwept {
  network: Network;
  index: number;
  /** Credits up to this time leave the list. */
  through: Date;
}

export const markSwept = ({ network, index, through, idempotencyKey }: MarkSwept & Keyed) =>
  call(ADMIN.markSwept, { params: { network, index }, body: { through: through.toISOString() }, idempotencyKey, quiet: true });

/** An audited admin action: sent once per click, like the other recorded decisions. */
export function useMarkSwept() {
  const client = useQueryClient();
  return useMoneyMutation(markSwept, { onSuccess: () => refreshAfter(client, sweepKey) });
}
