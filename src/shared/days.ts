/**
 * Calendar days in a time zone. The statement's filter names days as the member's browser shows
 * them (its dates are in the browser's time zone), so a day's bounds are the instants its
 * midnights fall on in that zone, summer time included: the dates shown and the dates filtered
 * are the same days. Zones are IANA names (`Europe/Berlin`), read by the runtime's own tables.
 */

const formats = new Map<string, Intl.DateTimeFormat>();
/** A formatter of wall-clock times in `zone`, made once per zone; undefined for an unknown zone. */
function wallClock(zone: string): Intl.DateTimeFormat | undefined {
  let format = formats.get(zone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      return undefined;
    }
    // Bounded: the names of the zones in use, a few hundred at most; made-up names never get here.
    if (formats.size < 1_000) formats.set(zone, format);
  }
  return format;
}

/** Whether `zone` is a time zone the server knows (an IANA name such as `Asia/Tokyo`, or `UTC`). */
export const isTimeZone = (zone: string) => wallClock(zone) !== undefined;

/** How far `zone`'s wall clock is ahead of UTC at `instant` (ms; negative west of Greenwich). */
function offsetAt(format: Intl.DateTimeFormat, instant: number): number {
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(new Date(instant))) part[type] = Number(value);
  const wall = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant day `day` (YYYY-MM-DD) begins in `zone`: its midnight there, or, where the clocks
 * jump over midnight, the first moment of the day that exists. Throws for an unknown zone.
 */
export function startOfDay(day: string, zone: string): number {
  const format = wallClock(zone);
  if (!format) throw new RangeError(`Unknown time zone: ${zone}`);
  const midnight = Date.parse(`${day}T00:00:00Z`);
  // The offset at a first guess, then at the instant it gives: right on both sides of a change.
  const guess = midnight - offsetAt(format, midnight);
  const start = midnight - offsetAt(format, guess);
  // Midnight skipped (the clocks jumped past it): the offset before the jump lands before the
  // day; the day begins where the jump lands.
  return offsetAt(format, start) === offsetAt(format, guess) ? start : Math.max(start, guess);
}
