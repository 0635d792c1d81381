/** Reading environment variables: the shapes more than one setting shares. */

/**
 * A whole number from an environment variable, written in decimal digits only: "0x10", "1e3",
 * "1.0", "+5" or " " are no whole numbers here (Number() would read the first four, and "" as 0).
 * Undefined when it is not one, or too large to be exact.
 */
export function decimalWhole(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** An http: or https: URL with a host; undefined for anything else. */
export function httpUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? url : undefined;
}
