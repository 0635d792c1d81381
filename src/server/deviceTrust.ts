import type { Context } from "hono";
import { getSignedCookie, setSignedCookie } from "hono/cookie";
import { DEVICE_TRUST_DAYS } from "../shared/constants";
import type { TrustedDevice } from "../core/sessions";
import type { AppEnv } from "./env";
import { overHttps } from "./middleware/source";

/**
 * Devices that signed in before (OWASP's "device cookies"). All of an email's failures together
 * delay every attempt at it (`emailDelaySeconds`, src/core/sessions.ts), so that many addresses
 * guessing at once are slowed; but then anyone who fails again from somewhere new each time a
 * delay ends keeps the owner out for as long as they keep it up. A browser that has signed in to
 * an account gets a cookie naming that account, and its attempts at it skip that delay: the owner
 * gets in from a browser they used before, and a guesser, who has no such cookie, is slowed as
 * before. Attempts with the cookie still meet the delays of their own (email, address) pair.
 *
 * The cookie holds no credential: the user's id, their session generation at the time and an
 * expiry (DEVICE_TRUST_DAYS), signed with a key of its own derived from the JWT secret. Trust
 * ends with the generation: after an admin password reset (which signs the admin out everywhere)
 * no browser of before is trusted until it signs in again. HttpOnly, SameSite=Strict, sent only to /api/auth
 * (where the logins are); Secure when the request came over https. A browser keeps one: the last
 * account it signed in to.
 */
const COOKIE = "trusted_device";
const PATH = "/api/auth";
const MAX_AGE_SECONDS = DEVICE_TRUST_DAYS * 24 * 60 * 60;

const keyOf = (jwtSecret: string) => new Bun.CryptoHasher("sha256").update(`trusted-device:${jwtSecret}`).digest("hex");

/** The device the caller's cookie says is trusted, when the cookie is good and unexpired; else undefined. */
export async function trustedDevice(c: Context<AppEnv>): Promise<TrustedDevice | undefined> {
  const value = await getSignedCookie(c, keyOf(c.get("deps").jwtSecret), COOKIE);
  if (!value) return undefined;
  // userId:expires:generation (the generation is empty while the user has none; cookies of
  // before it was added have no third part, and stand for a user who has none).
  const [userId, expires, generation = ""] = value.split(":");
  return userId && Number(expires) > Date.now() / 1000 ? { userId, generation } : undefined;
}

/** Trusts the caller's device for `userId`'s logins in the session `generation`: called when a login has succeeded in full. */
export async function trustDevice(c: Context<AppEnv>, userId: string, generation: string | undefined): Promise<void> {
  const expires = Math.floor(Date.now() / 1000) + MAX_AGE_SECONDS;
  await setSignedCookie(c, COOKIE, `${userId}:${expires}:${generation ?? ""}`, keyOf(c.get("deps").jwtSecret), {
    path: PATH,
    httpOnly: true,
    sameSite: "Strict",
    // Behind a proxy that ends TLS, the request reaches us over http: X-Forwarded-Proto says (TRUST_PROXY).
    secure: overHttps(c),
    maxAge: MAX_AGE_SECONDS,
  });
}
