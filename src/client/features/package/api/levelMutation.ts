import { useQueryClient } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { type Cents, formatDollars } from "../../../../shared/money";
import { meKey } from "../../../lib/me";
import { useMoneyMutation, type Keyed } from "../../../lib/moneyMutation";
import { transactionsKey } from "../../transactions/api/getTransactions";
import { matrixKey } from "./getMatrix";
import { levelsKey } from "../../programs/api/getLevels";
import { refreshAfter } from "../../../lib/refresh";

export interface LevelTarget {
  program: ProgramId;
  level: number;
  /** The price the member was shown: the server charges it or nothing (409 price_changed). */
  expectedCost?: Cents;
}

/** The body of a purchase or an unfreeze: the price the member was shown, when there is one. */
export const levelActionBody = ({ expectedCost }: LevelTarget) => (expectedCost === undefined ? {} : { expectedCost: formatDollars(expectedCost) });

/**
 * Purchase and unfreeze both move money and change level states: afterwards the current user
 * (balance, statuses), that program's matrices and prices (the price paid may be a new one, read
 * by the preview) and the statement are stale.
 */
export function useLevelMutation(send: (target: LevelTarget & Keyed) => Promise<{ msg?: string }>) {
  const client = useQueryClient();
  return useMoneyMutation(send, {
    onSuccess: (_answer, { program }) => refreshAfter(client, meKey, matrixKey(program), levelsKey(program), transactionsKey()),
  });
}
