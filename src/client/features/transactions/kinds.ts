import type { TransactionKind } from "./api/getTransactions";

/** Each ledger entry kind in words, from the account holder's side. */
export const KIND_LABEL: Record<TransactionKind, string> = {
  deposit: "Deposit",
  withdrawal: "Withdrawal",
  fee: "Withdrawal fee",
  gift_in: "Gift received",
  gift_out: "Gift sent",
  purchase: "Level purchase",
  unfreeze: "Level unfreeze",
  earning: "Earning",
  pass_up: "Pass-up earning",
};

/** Unknown kinds (a newer server) still read as words rather than codes. */
export const kindLabel = (kind: string) => KIND_LABEL[kind as TransactionKind] ?? kind.replace(/_/g, " ");
