import { useQueryClient } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { meKey } from "../../../lib/me";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { transactionsKey } from "../../transactions/api/getTransactions";
import { matrixKey } from "./getMatrix";

export interface LevelTarget {
  program: ProgramId;
  level: number;
}

/**
 * Purchase and unfreeze both move money and change level states: afterwards the current user
 * (balance, statuses), that program's matrices and the statement are stale.
 */
export function useLevelMutation(send: (target: LevelTarget & Keyed) => Promise<{ msg?: string }>) {
  const client = useQueryClient();
  return useMoneyMutation(send, {
    onSuccess: (_answer, { program }) =>
      Promise.all([
        client.invalidateQueries({ queryKey: meKey }),
        client.invalidateQueries({ queryKey: matrixKey(program) }),
        client.invalidateQueries({ queryKey: transactionsKey() }),
      ]),
  });
}
