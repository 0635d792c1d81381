import { toDollars } from "../shared/money";

/** The HTTP edge: cents become dollars, ids become `_id`, dates ISO strings. */

type Dollarized<T> = { [K in keyof T]: T[K] extends bigint ? number : T[K] extends bigint | null ? number | null : T[K] };

export function dollars<T extends Record<string, unknown>>(row: T, keys: (keyof T)[]): Dollarized<T> {
  const out: Record<string, unknown> = { ...row };
  for (const key of keys) {
    const value = row[key];
    out[key as string] = typeof value === "bigint" ? toDollars(value) : value;
  }
  return out as Dollarized<T>;
}
