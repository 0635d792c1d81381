import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { formatDollars, parseDollars, readDollars, toDollars, withdrawalFee } from "./money";

describe("parseDollars", () => {
  test("reads JSON numbers with up to 2 decimals as exact cents", () => {
    expect(parseDollars(12.5)).toBe(1250n);
    expect(parseDollars(0.07)).toBe(7n);
    expect(parseDollars(19.99)).toBe(1999n);
    expect(parseDollars(100)).toBe(10000n);
    expect(parseDollars(0)).toBe(0n);
  });

  test("reads decimal strings, surrounding spaces and a trailing point included", () => {
    expect(parseDollars("12.50")).toBe(1250n);
    expect(parseDollars(" 3 ")).toBe(300n);
    expect(parseDollars("0.1")).toBe(10n);
    expect(parseDollars("007.25")).toBe(725n);
    expect(parseDollars(".5")).toBe(50n);
    expect(parseDollars("5.")).toBe(500n);
  });

  test("refuses more than 2 decimals, including binary float noise", () => {
    expect(parseDollars(12.345)).toBeNull();
    expect(parseDollars("12.345")).toBeNull();
    expect(parseDollars(0.1 + 0.2)).toBeNull();
    expect(parseDollars(1e-7)).toBeNull();
  });

  test("refuses what is not a finite non-negative decimal", () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -1, "-1", "abc", "", "1e3", "0x10", "Infinity", ".", true, null, undefined, {}, []]) {
      expect(parseDollars(bad)).toBeNull();
    }
  });

  test("refuses amounts too large to stay exact in a JSON number", () => {
    expect(parseDollars(1e21)).toBeNull();
    expect(parseDollars(1e15)).toBeNull();
    expect(parseDollars("99999999999999")).toBeNull();
    expect(parseDollars("9999999999999.99")).toBe(999999999999999n);
  });
});

describe("readDollars", () => {
  test("says what is wrong with an amount it cannot read", () => {
    expect(readDollars(undefined)).toEqual({ problem: "missing" });
    expect(readDollars(null)).toEqual({ problem: "missing" });
    expect(readDollars("  ")).toEqual({ problem: "missing" });
    expect(readDollars("abc")).toEqual({ problem: "not_a_number" });
    expect(readDollars("1e3")).toEqual({ problem: "not_a_number" });
    expect(readDollars(true)).toEqual({ problem: "not_a_number" });
    expect(readDollars(Number.POSITIVE_INFINITY)).toEqual({ problem: "not_a_number" });
    expect(readDollars(-0.5)).toEqual({ problem: "negative" });
    expect(readDollars("-12.345")).toEqual({ problem: "negative" });
    expect(readDollars(1.005)).toEqual({ problem: "too_many_decimals" });
    expect(readDollars(1e15)).toEqual({ problem: "too_large" });
    expect(readDollars(1e300)).toEqual({ problem: "too_large" });
    expect(readDollars("12.5")).toEqual({ cents: 1250n });
    expect(readDollars("-0")).toEqual({ cents: 0n });
  });
});

describe("toDollars", () => {
  test("turns cents into a JSON number of dollars", () => {
    expect(toDollars(1250n)).toBe(12.5);
    expect(toDollars(1n)).toBe(0.01);
    expect(toDollars(123456789n)).toBe(1234567.89);
    expect(toDollars(-5n)).toBe(-0.05);
    expect(JSON.stringify({ a: toDollars(1999n) })).toBe('{"a":19.99}');
  });

  test("round-trips through JSON and parseDollars for every amount the API accepts", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 999_999_999_999_999n }), (cents) => {
        expect(parseDollars(JSON.parse(JSON.stringify(toDollars(cents))))).toBe(cents);
        expect(parseDollars(formatDollars(cents))).toBe(cents);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("formatDollars", () => {
  test("shows exactly 2 decimals", () => {
    expect(formatDollars(1250n)).toBe("12.50");
    expect(formatDollars(0n)).toBe("0.00");
    expect(formatDollars(-5n)).toBe("-0.05");
    expect(formatDollars(123456789n)).toBe("1234567.89");
    expect(formatDollars(-123456789n)).toBe("-1234567.89");
  });
});

describe("withdrawalFee", () => {
  test("is 8% of the amount, rounded half up to the cent", () => {
    expect(withdrawalFee(10000n)).toBe(800n); // 100.00 -> 8.00
    expect(withdrawalFee(100n)).toBe(8n); // 1.00 -> 0.08
    expect(withdrawalFee(106n)).toBe(8n); // 1.06 -> 0.0848
    expect(withdrawalFee(119n)).toBe(10n); // 1.19 -> 0.0952
    expect(withdrawalFee(7n)).toBe(1n); // 0.56 cent -> 1 cent
    expect(withdrawalFee(6n)).toBe(0n); // 0.48 cent -> 0
    expect(withdrawalFee(1234n)).toBe(99n); // 12.34 -> 0.9872
  });

  test("never differs from the exact 8% by more than half a cent, and ties go up", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), (amount) => {
        const exactTimes100 = amount * 8n; // the fee in hundredths of a cent
        const fee = withdrawalFee(amount);
        expect(fee * 100n - exactTimes100 <= 50n).toBe(true);
        expect(exactTimes100 - fee * 100n < 50n).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
