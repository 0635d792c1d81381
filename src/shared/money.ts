import { WITHDRAWAL_FEE_PERCENT } from "./constants";

/** Money is integer cents inside the product and dollars (numbers, 2 decimals) on the wire. */
export type Cents = bigint;

/** Whole dollars above 13 digits are refused: every amount then stays exact as a JSON number. */
const MAX_WHOLE_DIGITS = 13;
const PLAIN_DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

export type AmountProblem = "missing" | "not_a_number" | "negative" | "too_many_decimals" | "too_large";

/**
 * Reads a dollar amount sent by a client: a JSON number or a decimal string ("12.50").
 * Answers the amount in cents (0 or more), or what is wrong with it.
 */
export function readDollars(input: unknown): { cents: Cents } | { problem: AmountProblem } {
  if (input === undefined || input === null) return { problem: "missing" };
  let text: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return { problem: "not_a_number" };
    if (input < 0) return { problem: "negative" };
    if (input >= 10 ** MAX_WHOLE_DIGITS) return { problem: "too_large" };
    // Shortest round-trip form: 12.5 -> "12.5", 0.1 + 0.2 -> "0.30000000000000004" (refused);
    // below 1e-6 it is written with an exponent, which can only mean more than 2 decimals.
    text = String(input);
    if (/e/i.test(text)) return { problem: "too_many_decimals" };
  } else if (typeof input === "string") {
    text = input.trim();
    if (text === "") return { problem: "missing" };
  } else {
    return { problem: "not_a_number" };
  }
  const match = PLAIN_DECIMAL.exec(text);
  const [, sign = "", whole = "", frac = ""] = match ?? [];
  if (!match || (whole === "" && frac === "")) return { problem: "not_a_number" };
  if (sign === "-" && /[1-9]/.test(whole + frac)) return { problem: "negative" };
  if (frac.length > 2) return { problem: "too_many_decimals" };
  if (whole.replace(/^0+/, "").length > MAX_WHOLE_DIGITS) return { problem: "too_large" };
  return { cents: BigInt(whole || "0") * 100n + BigInt(frac.padEnd(2, "0")) };
}

/** The amount in cents, or null when it is not a finite, non-negative amount with at most 2 decimals. */
export function parseDollars(input: unknown): Cents | null {
  const read = readDollars(input);
  return "cents" in read ? read.cents : null;
}

/** Cents to a JSON number of dollars. Exact for any amount below 2^53 cents. */
export function toDollars(cents: Cents | number): number {
  return Number(cents) / 100;
}

/** "12.50": exact, from integer cents. */
export function formatDollars(cents: Cents): string {
  const sign = cents < 0n ? "-" : "";
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
}

/** An amount in a sentence: "1", "0.01", "12.50" (a whole amount without its ".00"). */
export function formatAmount(cents: Cents): string {
  const text = formatDollars(cents);
  return text.endsWith(".00") ? text.slice(0, -3) : text;
}

/** "1 USDT" */
export const formatUsdt = (cents: Cents) => `${formatAmount(cents)} USDT`;

/** A large figure in a sentence, its thousands grouped: 100_000_000n -> "1,000,000 USDT". */
export function formatUsdtGrouped(cents: Cents): string {
  const [whole = "", frac] = formatAmount(cents).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${frac === undefined ? grouped : `${grouped}.${frac}`} USDT`;
}

/** A percentage in a sentence: 8n -> "8%". */
export const formatPercent = (percent: bigint | number) => `${percent}%`;

/** The withdrawal fee (WITHDRAWAL_FEE_PERCENT of the amount), rounded half up to the cent. */
export function withdrawalFee(amount: Cents): Cents {
  return (amount * WITHDRAWAL_FEE_PERCENT + 50n) / 100n;
}
