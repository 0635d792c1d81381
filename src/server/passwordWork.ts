import type { Context } from "hono";
import { refuse } from "../core/errors";
import { checkCurrentPassword } from "../core/sessions";
import { trustedDevice } from "./deviceTrust";
import type { AppEnv } from "./env";
import { sourceAddress } from "./middleware/source";

/**
 * Password work (logins being checked, sign-ups' and new passwords being hashed), per source
 * address, in this process. The password hasher is bounded (src/core/sessions.ts
 * `boundedHasher`: a few at once, a bounded queue, then `busy` for everyone), so one address
 * sending logins or sign-ups as fast as it can, for made-up emails say, would keep everyone
 * else's answer at `busy`. Past `max` at once, an address's next one is refused `busy` at once,
 * before any hashing, and is no failure; other addresses go on. Like the hasher's bound, it
 * counts this process's own work, so it lives in its memory.
 */
const checking = new Map<string, number>();

export async function oneOfFewFrom<T>(source: string, max: number, work: () => Promise<T>): Promise<T> {
  const running = checking.get(source) ?? 0;
  if (max > 0 && running >= max) return refuse("busy", undefined, 1);
  checking.set(source, running + 1);
  try {
    return await work();
  } finally {
    const left = (checking.get(source) ?? 1) - 1;
    if (left > 0) checking.set(source, left);
    else checking.delete(source);
  }
}

/**
 * The signed-in caller's current password, checked as a login's is (throttled per email and
 * source address, counted as a failed login when wrong), before what could lock them out.
 */
export async function provePassword(c: Context<AppEnv>, password: string): Promise<void> {
  const { db, hasher, config } = c.get("deps");
  const source = sourceAddress(c);
  // The trusted_device cookie goes to /api/auth only: elsewhere the caller meets every delay.
  const device = await trustedDevice(c);
  await oneOfFewFrom(source, config.loginChecksPerSource, () => checkCurrentPassword(db, hasher, c.get("user").id, password, source, device));
}
