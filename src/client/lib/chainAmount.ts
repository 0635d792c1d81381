import { type Cents, formatDollars } from "../../shared/money";

/** "10.500" -> "10.5", "10.00" -> "10": decimal text without its trailing zeros, for comparing. */
const trimmed = (decimal: string) => (decimal.includes(".") ? decimal.replace(/0+$/, "").replace(/\.$/, "") : decimal);

/**
 * The exact amount on chain, when it says more than the credited whole cents ("10.005" for 10.00):
 * null when the two are the same amount or there is none.
 */
export function chainAmountBeyond(chainAmount: string | null, cents: Cents): string | null {
  if (chainAmount === null) return null;
  return trimmed(chainAmount) === trimmed(formatDollars(cents)) ? null : chainAmount;
}

/** "0x1234…abcd": an address short enough for a line of text; the whole one goes in its title. */
export const shortAddress = (address: string) => (address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address);
