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

/** What an admin gift (a `gift_in` with `fromPlatform`) reads as: the platform's own money, not a member's. */
export const PLATFORM_GIFT_LABEL = "Gift from the platform";

/** How one statement row reads: its kind in words, an admin gift as a gift from the platform. */
export const transactionLabel = (row: { kind: string; fromPlatform?: boolean }) => (row.fromPlatform ? PLATFORM_GIFT_LABEL : kindLabel(row.kind));
