import type { Context } from "hono";
import { UNKNOWN_SOURCE } from "../../core/sessions";
import type { AppEnv } from "../env";

/**
 * The address a request comes from, as the login and sign-up throttles count it.
 *
 * - The socket's address, which Bun gives through the server object that Bun.serve passes to
 *   the app's fetch (Hono's `c.env`).
 * - With TRUST_PROXY=n (n proxies of the operator's in front, each adding the address it was
 *   reached from to X-Forwarded-For), the n-th hop from the header's end instead, when it is an
 *   address. Anyone can send the header: whatever the caller wrote comes before the hops our
 *   proxies added, so a made-up first hop counts for nothing. A header with fewer hops than
 *   proxies (a request that skipped the outer ones) counts by its first, which a proxy of ours
 *   wrote.
 * - Neither (app.request() in tests): "unknown".
 *
 * An IPv6 address counts as its /64 network, which one subscriber usually holds whole: one
 * home must not count as 2^64 sources.
 */
export function sourceAddress(c: Context<AppEnv>): string {
  const hop = forwardedHop(c, "x-forwarded-for");
  if (hop && /^[0-9A-Fa-f:.]{2,45}$/.test(hop)) return sourceKey(hop);
  const server = c.env as { requestIP?: (request: Request) => { address: string } | null } | undefined;
  const address = typeof server?.requestIP === "function" ? server.requestIP(c.req.raw)?.address : undefined;
  return address ? sourceKey(address) : UNKNOWN_SOURCE;
}

/**
 * What the outermost of the operator's TRUST_PROXY proxies wrote in a forwarding header (each
 * appends its own), counted from the header's end; undefined without TRUST_PROXY or the header.
 */
function forwardedHop(c: Context<AppEnv>, header: string): string | undefined {
  const proxies = c.get("deps").config.trustProxy;
  if (proxies <= 0) return undefined;
  const hops = c.req.header(header)?.split(",") ?? [];
  return hops[Math.max(0, hops.length - proxies)]?.trim() || undefined;
}

/** Whether the caller reached us over HTTPS: the URL's scheme, or behind TRUST_PROXY proxies, the one X-Forwarded-Proto names. */
export function overHttps(c: Context<AppEnv>): boolean {
  return new URL(c.req.url).protocol === "https:" || forwardedHop(c, "x-forwarded-proto")?.toLowerCase() === "https";
}

/**
 * An address as a throttle key, one per source however it is written: IPv4 in plain dotted
 * decimal (leading zeros dropped, also when mapped into IPv6, dotted or in hex), IPv6 as its /64.
 */
export function sourceKey(address: string): string {
  const text = address.trim().toLowerCase();
  if (!text.includes(":")) return dottedQuad(text) ?? text;
  const groups = expandIPv6(text);
  if (!groups) return text;
  if (groups.slice(0, 5).every((g) => g === "0") && groups[5] === "ffff") {
    const [high, low] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
    return [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/** Four decimal numbers of 0 to 255 as `a.b.c.d`, or null when `text` is not that. */
function dottedQuad(text: string): string | null {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.map(Number).join(".");
}

/** The eight groups of an IPv6 address (without leading zeros), or null when it is not one. */
function expandIPv6(text: string): string[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const part = (s: string | undefined) => (s ? s.split(":") : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  // A trailing dotted IPv4 stands for the last two groups.
  const last = tail.length ? tail : head;
  const v4 = last.at(-1)?.includes(".") ? last.pop()!.split(".").map(Number) : undefined;
  if (v4) {
    if (v4.length !== 4 || v4.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return null;
    last.push(((v4[0]! << 8) | v4[1]!).toString(16), ((v4[2]! << 8) | v4[3]!).toString(16));
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16).toString(16));
}
