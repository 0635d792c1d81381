/** Money is integer cents inside the product and dollars (numbers, 2 decimals) on the wire. */
export type Cents = bigint;

const DECIMAL = /^\d+(\.\d{1,2})?$/;

/**
 * Parses a dollar amount sent by a client: a JSON number or a decimal string ("12.50").
 * Returns null when it is not a finite amount with at most 2 decimals.
 */
export function parseDollars(input: unknown): Cents | null {
  let text: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input) || input < 0) return null;
    // Shortest round-trip form: 12.5 -> "12.5", 0.1 + 0.2 -> "0.30000000000000004" (refused).
    text = String(input);
    if (/e/i.test(text)) return null;
  } else if (typeof input === "string") {
    text = input.trim();
  } else {
    return null;
  }
  if (!DECIMAL.test(text)) return null;
  const [whole = "0", frac = ""] = text.split(".");
  if (whole.length > 13) return null; // keeps every amount far inside bigint and JSON-safe
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0"));
}

/** Cents to a JSON number of dollars. Exact for any amount below 2^53 cents. */
export function toDollars(cents: Cents | number): number {
  return Number(cents) / 100;
}

/** "12.50" */
export function formatDollars(value: number | Cents): string {
  const cents = typeof value === "bigint" ? value : BigInt(Math.round(value * 100));
  const sign = cents < 0n ? "-" : "";
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
}

/** Withdrawal fee: 8%, rounded half up to the cent. */
export const WITHDRAWAL_FEE_PERCENT = 8n;
export function withdrawalFee(amount: Cents): Cents {
  return (amount * WITHDRAWAL_FEE_PERCENT + 50n) / 100n;
}
