import { expect, test } from "bun:test";
import { isTimeZone, startOfDay } from "./days";

const start = (day: string, zone: string) => new Date(startOfDay(day, zone)).toISOString();

test("a day begins at its midnight in the zone", () => {
  expect(start("2026-03-05", "UTC")).toBe("2026-03-05T00:00:00.000Z");
  expect(start("2026-03-05", "Asia/Tokyo")).toBe("2026-03-04T15:00:00.000Z");
  expect(start("2026-03-05", "Asia/Kolkata")).toBe("2026-03-04T18:30:00.000Z");
  expect(start("2026-03-05", "America/New_York")).toBe("2026-03-05T05:00:00.000Z");
});

test("summer time: the offset of the day's own midnight, on both sides of a change", () => {
  // Berlin: UTC+1 until 29 March 2026 02:00, UTC+2 until 25 October 03:00.
  expect(start("2026-03-29", "Europe/Berlin")).toBe("2026-03-28T23:00:00.000Z");
  expect(start("2026-03-30", "Europe/Berlin")).toBe("2026-03-29T22:00:00.000Z");
  expect(start("2026-10-25", "Europe/Berlin")).toBe("2026-10-24T22:00:00.000Z");
  expect(start("2026-10-26", "Europe/Berlin")).toBe("2026-10-25T23:00:00.000Z");
  expect(start("2026-03-09", "America/New_York")).toBe("2026-03-09T04:00:00.000Z");
});

test("where the clocks jump over midnight, the day begins where they land", () => {
  // Santiago: 6 September 2026 00:00 (UTC-4) becomes 01:00 (UTC-3).
  expect(start("2026-09-05", "America/Santiago")).toBe("2026-09-05T04:00:00.000Z");
  expect(start("2026-09-06", "America/Santiago")).toBe("2026-09-06T04:00:00.000Z");
  expect(start("2026-09-07", "America/Santiago")).toBe("2026-09-07T03:00:00.000Z");
});

test("only zones the runtime knows", () => {
  expect(["UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires"].map(isTimeZone)).toEqual([true, true, true]);
  expect(["Mars/Olympus_Mons", "", "+09:00x"].map(isTimeZone)).toEqual([false, false, false]);
  expect(() => startOfDay("2026-03-05", "Mars/Olympus_Mons")).toThrow(RangeError);
});
