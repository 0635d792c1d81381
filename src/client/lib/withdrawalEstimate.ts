import { type Cents, parseDollars, withdrawalFee } from "../../shared/money";

export interface WithdrawalEstimate {
  amount: Cents;
  fee: Cents;
  receive: Cents;
}

/**
 * What the user receives for a typed amount: the amount minus the withdrawal fee, computed in cents
 * with the server's own rounding so the preview never differs from the payout.
 * Null while the text is not a positive amount.
 */
export function estimateWithdrawal(text: string): WithdrawalEstimate | null {
  const cents = parseDollars(text);
  return cents === null || cents <= 0n ? null : estimateCents(cents);
}

/** The same for an amount already in cents. */
export function estimateCents(amount: Cents): WithdrawalEstimate {
  const fee = withdrawalFee(amount);
  return { amount, fee, receive: amount - fee };
}
