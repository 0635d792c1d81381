import { parseDollars, toDollars, withdrawalFee } from "../../shared/money";

export interface WithdrawalEstimate {
  amount: number;
  fee: number;
  receive: number;
}

/**
 * What the user receives for a typed amount: the amount minus the 8% fee, computed in cents
 * with the server's own rounding so the preview never differs from the payout.
 * Null while the text is not a positive amount.
 */
export function estimateWithdrawal(text: string): WithdrawalEstimate | null {
  const cents = parseDollars(text);
  if (cents === null || cents <= 0n) return null;
  const fee = withdrawalFee(cents);
  return { amount: toDollars(cents), fee: toDollars(fee), receive: toDollars(cents - fee) };
}
